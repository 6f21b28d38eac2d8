/* A 2-D halo exchange on a PX x PY grid of ranks (non-periodic): each
 * iteration computes (simulated flops, twice as much on the last rank: an
 * imbalance), then exchanges a halo of HALO doubles with each of its up to
 * four neighbours with MPI_Isend/MPI_Irecv and MPI_Waitall. Point-to-point
 * messages per iteration: 2*(PX-1)*PY + 2*PX*(PY-1).
 *   smpirun -np PX*PY ... ./stencil PX ITERATIONS HALO */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int px = argc > 1 ? atoi(argv[1]) : 2;
  const int iterations = argc > 2 ? atoi(argv[2]) : 10;
  const int halo = argc > 3 ? atoi(argv[3]) : 1024;
  if (px <= 0 || size % px != 0)
  {
    if (rank == 0)
      fprintf(stderr, "stencil: %d ranks do not make rows of %d\n", size, px);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const int x = rank % px, y = rank / px, py = size / px;
  int neighbours[4], count = 0;
  if (x > 0) neighbours[count++] = rank - 1;
  if (x < px - 1) neighbours[count++] = rank + 1;
  if (y > 0) neighbours[count++] = rank - px;
  if (y < py - 1) neighbours[count++] = rank + px;
  double* out = calloc((size_t)halo * 4, sizeof(double));
  double* in = calloc((size_t)halo * 4, sizeof(double));
  MPI_Request requests[8];
  for (int i = 0; i < iterations; ++i)
  {
    smpi_execute_flops(rank == size - 1 ? 2e6 : 1e6);
    for (int n = 0; n < count; ++n)
    {
      MPI_Irecv(in + n * halo, halo, MPI_DOUBLE, neighbours[n], i, MPI_COMM_WORLD, &requests[n]);
      MPI_Isend(out + n * halo, halo, MPI_DOUBLE, neighbours[n], i, MPI_COMM_WORLD,
        &requests[count + n]);
    }
    MPI_Waitall(2 * count, requests, MPI_STATUSES_IGNORE);
  }
  free(out);
  free(in);
  if (rank == 0)
    printf("stencil: %d x %d ranks, %d iterations\n", px, py, iterations);
  MPI_Finalize();
  return 0;
}

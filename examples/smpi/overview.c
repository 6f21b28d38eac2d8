/* The demo's SMPI application (examples/smpi/run.sh): ranks on a ring of
 * hosts iterate over compute, a halo exchange with both ring neighbours
 * (MPI_Isend/MPI_Irecv/MPI_Waitall) and an MPI_Allreduce. During the middle
 * third of the iterations the ranks of host cl1-1 compute four times as much
 * (a slow host in cluster cl1): every other rank then waits in Waitall and
 * Allreduce, which an overview shows as a band across the trace.
 *   smpirun -np 16 ... ./overview [ITERATIONS] */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, length;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char host[MPI_MAX_PROCESSOR_NAME];
  MPI_Get_processor_name(host, &length);
  const int iterations = argc > 1 ? atoi(argv[1]) : 60;
  const int slow_host = strcmp(host, "cl1-1") == 0;
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;
  enum { halo = 4096 };
  static double out[2][halo], in[2][halo];
  double local = rank, global = 0;
  for (int i = 0; i < iterations; ++i)
  {
    const int slow_phase = i >= iterations / 3 && i < 2 * iterations / 3;
    smpi_execute_flops(slow_host && slow_phase ? 8e6 : 2e6);
    MPI_Request requests[4];
    MPI_Irecv(in[0], halo, MPI_DOUBLE, left, i, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(in[1], halo, MPI_DOUBLE, right, i, MPI_COMM_WORLD, &requests[1]);
    MPI_Isend(out[0], halo, MPI_DOUBLE, left, i, MPI_COMM_WORLD, &requests[2]);
    MPI_Isend(out[1], halo, MPI_DOUBLE, right, i, MPI_COMM_WORLD, &requests[3]);
    MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0)
    printf("overview: %d iterations on %d ranks, sum %g\n", iterations, size, global);
  MPI_Finalize();
  return 0;
}

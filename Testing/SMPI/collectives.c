/* Collectives around a sampled compute loop: each iteration runs a loop
 * that SMPI_SAMPLE_GLOBAL benchmarks for its first few runs and then only
 * simulates, then MPI_Bcast, MPI_Allreduce and MPI_Barrier, and one
 * exchange with the partner rank ^ 1 (size even; even ranks send first).
 * SMPI draws no link for the messages inside collectives, so the
 * point-to-point messages are the exchange's: ITERATIONS * size. (Not
 * MPI_Sendrecv: SimGrid 3.32 writes its links with keys that do not pair,
 * docs/smpi-traces.md.)
 *   smpirun ... ./collectives ITERATIONS */
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
  const int iterations = argc > 1 ? atoi(argv[1]) : 10;
  double value = rank, sum = 0, parameter = 0, received = 0;
  for (int i = 0; i < iterations; ++i)
  {
    SMPI_SAMPLE_GLOBAL(int k = 0, k < 4, k++, 3, 0.5)
    {
      for (int j = 0; j < 100000; ++j)
        value = value * 0.999999 + 1e-6;
    }
    if (rank == 0)
      parameter = i;
    MPI_Bcast(&parameter, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    const int partner = rank ^ 1;
    if (rank % 2 == 0)
    {
      MPI_Send(&sum, 1, MPI_DOUBLE, partner, i, MPI_COMM_WORLD);
      MPI_Recv(&received, 1, MPI_DOUBLE, partner, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    else
    {
      MPI_Recv(&received, 1, MPI_DOUBLE, partner, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&sum, 1, MPI_DOUBLE, partner, i, MPI_COMM_WORLD);
    }
  }
  if (rank == 0)
    printf("collectives: %d iterations on %d ranks, sum %g\n", iterations, size, sum);
  MPI_Finalize();
  return 0;
}

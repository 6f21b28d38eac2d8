/* Collectives on a split communicator: MPI_Comm_split by rank parity, with
 * the key reversing the order (sub-rank 0 is the highest world rank of its
 * half), so sub-communicator ranks differ from world ranks. Every iteration
 * each rank computes, then in its half: MPI_Bcast from sub-rank 1,
 * MPI_Reduce to the last sub-rank, a point-to-point MPI_Send from sub-rank
 * 0 to sub-rank 1 (tag 7 + iteration); then an MPI_Barrier on
 * MPI_COMM_WORLD. The slowed rank delays its half's collectives, and
 * everybody at the barrier. At the end, a chain on MPI_COMM_WORLD: each
 * rank sends to rank + 1 and receives from rank - 1, the ends talking to
 * MPI_PROC_NULL (a send on the last rank, a receive on rank 0).
 * Needs 4 ranks or more (each half >= 2).
 * Messages: iterations x 2 + ranks - 1; peers MPI_PROC_NULL: 2;
 * collectives per rank: iterations x 3. */
#include <mpi.h>
#include <stdio.h>

#include "slow.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  struct imbalance imb = parse_imbalance(argc, argv, 6, 3);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
  int sub_rank, sub_size;
  MPI_Comm_rank(half, &sub_rank);
  MPI_Comm_size(half, &sub_size);
  double value = rank, sum = 0.0, token = 0.0;
  for (int it = 0; it < imb.iterations; it++) {
    value += compute(compute_time(&imb, rank));
    MPI_Bcast(&value, 1, MPI_DOUBLE, 1, half);
    MPI_Reduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, sub_size - 1, half);
    if (sub_rank == 0)
      MPI_Send(&value, 1, MPI_DOUBLE, 1, 7 + it, half);
    else if (sub_rank == 1)
      MPI_Recv(&token, 1, MPI_DOUBLE, 0, 7 + it, half, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  int next = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
  int previous = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  if (rank % 2 == 0) {
    MPI_Send(&value, 1, MPI_DOUBLE, next, 99, MPI_COMM_WORLD);
    MPI_Recv(&token, 1, MPI_DOUBLE, previous, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(&token, 1, MPI_DOUBLE, previous, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&value, 1, MPI_DOUBLE, next, 99, MPI_COMM_WORLD);
  }
  if (rank == 0)
    printf("split: %d ranks, %d iterations, rank %d slowed %gx\n", size, imb.iterations,
           imb.slowed, imb.factor);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}

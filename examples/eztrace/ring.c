/* Blocking ring shift: every iteration each rank computes, then passes a
 * value to its right neighbour and receives one from its left with
 * MPI_Send/MPI_Recv (even ranks send first, odd ranks receive first, so an
 * even number of ranks never deadlocks whatever the eager limit). The tag is
 * the iteration. The slowed rank's late send delays its right neighbour,
 * and the delay travels round the ring.
 * Messages: iterations x ranks, 8 bytes each. */
#include <mpi.h>
#include <stdio.h>

#include "slow.h"

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  struct imbalance imb = parse_imbalance(argc, argv, 10, 1);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  double value = rank, received = 0.0;
  for (int it = 0; it < imb.iterations; it++) {
    value += compute(compute_time(&imb, rank));
    if (rank % 2 == 0) {
      MPI_Send(&value, 1, MPI_DOUBLE, right, it, MPI_COMM_WORLD);
      MPI_Recv(&received, 1, MPI_DOUBLE, left, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&received, 1, MPI_DOUBLE, left, it, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&value, 1, MPI_DOUBLE, right, it, MPI_COMM_WORLD);
    }
    value = 0.5 * (value + received);
  }
  if (rank == 0)
    printf("ring: %d ranks, %d iterations, rank %d slowed %gx\n", size, imb.iterations,
           imb.slowed, imb.factor);
  MPI_Finalize();
  return 0;
}

/* Periodic 1-D halo exchange: every iteration each rank posts MPI_Irecv
 * from both neighbours, MPI_Isend to both (tag 1 rightwards, tag 2
 * leftwards, HALO doubles each), completes the four requests with one
 * MPI_Waitall, computes, and joins an MPI_Allreduce of a residual. The
 * slowed rank arrives late at the Allreduce, where every other rank waits.
 * Messages: iterations x ranks x 2, HALO x 8 bytes each;
 * collectives: iterations Allreduce per rank. */
#include <mpi.h>
#include <stdio.h>

#include "slow.h"

#define HALO 256

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  struct imbalance imb = parse_imbalance(argc, argv, 8, 2);
  int right = (rank + 1) % size, left = (rank + size - 1) % size;
  static double out_left[HALO], out_right[HALO], in_left[HALO], in_right[HALO];
  double residual = 0.0, total = 0.0;
  for (int it = 0; it < imb.iterations; it++) {
    MPI_Request requests[4];
    for (int k = 0; k < HALO; k++)
      out_left[k] = out_right[k] = rank + it + k;
    MPI_Irecv(in_left, HALO, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &requests[0]);
    MPI_Irecv(in_right, HALO, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &requests[1]);
    MPI_Isend(out_right, HALO, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &requests[2]);
    MPI_Isend(out_left, HALO, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &requests[3]);
    MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
    residual = compute(compute_time(&imb, rank)) + in_left[0] + in_right[HALO - 1];
    MPI_Allreduce(&residual, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0)
    printf("halo: %d ranks, %d iterations, rank %d slowed %gx, total %g\n", size,
           imb.iterations, imb.slowed, imb.factor, total);
  MPI_Finalize();
  return 0;
}

/* MPI + OpenMP: every iteration each rank runs an OpenMP parallel loop (its
 * threads each compute their share; the slowed rank's threads compute
 * longer), then the master thread joins an MPI_Allreduce. Built with
 * eztrace_cc (opari2 instruments the OpenMP constructs) and traced with
 * `eztrace -t "openmpi openmp"`. Collectives per rank: iterations. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

#include "slow.h"

#define CHUNKS 4

int main(int argc, char **argv)
{
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  struct imbalance imb = parse_imbalance(argc, argv, 5, 0);
  double local = 0.0, total = 0.0;
  for (int it = 0; it < imb.iterations; it++) {
    double share = compute_time(&imb, rank);
    /* CHUNKS pieces of share / 2: each of two threads computes `share`. */
#pragma omp parallel for schedule(static) reduction(+ : local)
    for (int chunk = 0; chunk < CHUNKS; chunk++)
      local += compute(share / 2);
    MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  if (rank == 0)
    printf("hybrid: %d ranks x %d threads, %d iterations, rank %d slowed %gx\n", size,
           omp_get_max_threads(), imb.iterations, imb.slowed, imb.factor);
  MPI_Finalize();
  return 0;
}

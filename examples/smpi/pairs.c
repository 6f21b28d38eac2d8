/* The run-comparison application (examples/smpi/compare.sh): the ranks work
 * in pairs, 2k with 2k+1, which smpirun places on one host (hosts.txt). Each
 * iteration computes FLOPS (smpi_execute_flops), then the pair exchanges
 * BYTES each way with blocking MPI_Send/MPI_Recv; the even rank decides, from
 * the simulated clock, whether there is another iteration and tells its
 * partner in the message. The loop runs for DURATION simulated seconds, not
 * for a number of iterations, and there is no collective: a rank waits only
 * for its partner on its own host. A host slowed during a window therefore
 * changes its own ranks' compute/MPI mix during that window and nothing else,
 * and every run ends at the same time whatever was slowed.
 *   smpirun -np 2N ... ./pairs [DURATION [FLOPS [BYTES]]] */
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
  const double duration = argc > 1 ? atof(argv[1]) : 1.0;
  const double flops = argc > 2 ? atof(argv[2]) : 1e6;
  const int bytes = argc > 3 ? atoi(argv[3]) : 2500000;
  if (size % 2 != 0 || duration <= 0 || flops < 0 || bytes < 1)
  {
    if (rank == 0)
      fprintf(stderr, "pairs: needs an even number of ranks (got %d), DURATION > 0, "
                      "FLOPS >= 0 and BYTES >= 1\n", size);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  char* buffer = calloc((size_t)bytes, 1);
  const int partner = rank ^ 1;
  int iterations = 0;
  for (int more = 1; more; ++iterations)
  {
    smpi_execute_flops(flops);
    if (rank % 2 == 0)
    {
      more = MPI_Wtime() < duration;
      buffer[0] = (char)more;
      MPI_Send(buffer, bytes, MPI_CHAR, partner, iterations, MPI_COMM_WORLD);
      MPI_Recv(buffer, bytes, MPI_CHAR, partner, iterations, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    else
    {
      MPI_Recv(buffer, bytes, MPI_CHAR, partner, iterations, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      more = buffer[0];
      MPI_Send(buffer, bytes, MPI_CHAR, partner, iterations, MPI_COMM_WORLD);
    }
  }
  char host[MPI_MAX_PROCESSOR_NAME];
  int length;
  MPI_Get_processor_name(host, &length);
  printf("pairs: rank %d on %s: %d iterations, end %.6f s\n", rank, host, iterations, MPI_Wtime());
  free(buffer);
  MPI_Finalize();
  return 0;
}

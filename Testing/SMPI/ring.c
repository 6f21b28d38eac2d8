/* A token ring with blocking MPI_Send/MPI_Recv: ITERATIONS rounds, each
 * rank passes the token to the next one. Point-to-point messages:
 * ITERATIONS * size (paje_crosscheck expects exactly that many links).
 *   smpirun ... ./ring ITERATIONS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int iterations = argc > 1 ? atoi(argv[1]) : 10;
  const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  int token = 0;
  for (int i = 0; i < iterations; ++i)
  {
    if (rank == 0)
    {
      MPI_Send(&token, 1, MPI_INT, next, i, MPI_COMM_WORLD);
      MPI_Recv(&token, 1, MPI_INT, previous, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    else
    {
      MPI_Recv(&token, 1, MPI_INT, previous, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      token += rank;
      MPI_Send(&token, 1, MPI_INT, next, i, MPI_COMM_WORLD);
    }
  }
  if (rank == 0)
  {
    printf("ring: %d rounds on %d ranks, token %d\n", iterations, size, token);
  }
  MPI_Finalize();
  return 0;
}

/* The C part of a mixed project: MPI without datatypes. */
#include <mpi.h>

int world_rank(void) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

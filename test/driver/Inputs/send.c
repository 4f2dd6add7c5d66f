/* A source with a datatype and a call tempi-rewrite would rewrite. */
#include <mpi.h>
#include "local.h"

int send_column(double *a, MPI_Comm comm) {
  MPI_Datatype column;
  MPI_Type_vector(LOCAL_N, 1, LOCAL_N, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  return MPI_Send(a, 1, column, 1, 0, comm);
}

/* A user's header with an inline helper that communicates (test/rewrite/header-call.c). */
#include <mpi.h>

static inline void send_column(double *a, int peer) {
  MPI_Datatype col;
  MPI_Type_vector(8, 1, 16, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  MPI_Send(a, 1, col, peer, 0, MPI_COMM_WORLD);
  MPI_Type_free(&col);
}

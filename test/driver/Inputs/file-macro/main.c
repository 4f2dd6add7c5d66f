/* __FILE__ and __LINE__ must expand in a rewritten source exactly as they do under mpicc:
 * the name as the source and its headers are spelled, the lines of the original file. */
#include "where.h"
const char *top_at = "TOP_AT=" __FILE__ ":" STR(__LINE__); /* above the include of mpi.h */
#include <mpi.h>
const char *main_at = "MAIN_AT=" __FILE__ ":" STR(__LINE__);

int main(int argc, char **argv) {
  double a[8], b[8];
  MPI_Datatype t;
  MPI_Init(&argc, &argv);
  MPI_Type_contiguous(4, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Sendrecv(a, 1, t, 0, 0, b, 1, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Type_free(&t);
  MPI_Finalize();
  return 0;
}
const char *end_at = "END_AT=" __FILE__ ":" STR(__LINE__);

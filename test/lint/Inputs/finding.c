#include <mpi.h>
void f(void) {
  MPI_Datatype pair, rows;
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  MPI_Type_vector(4, 1, 4, pair, &rows);
}

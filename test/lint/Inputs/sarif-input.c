#include <mpi.h>
void f(void) {
  MPI_Datatype pair, rows, a, b;
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  MPI_Type_vector(4, 1, 4, pair, &rows);
  MPI_Type_vector(16, 4, 16, MPI_DOUBLE, &a);
  MPI_Type_create_hvector(16, 4, 128, MPI_DOUBLE, &b);
}

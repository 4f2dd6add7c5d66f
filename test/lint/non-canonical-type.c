// A vector of contiguous that is one vector, a 1-field struct that is a contiguous, and types
// already in their simplest form (no warning).
// RUN: tempi-lint %s -- -I%mock_mpi -Xclang -verify=tempi
#include <mpi.h>

void f(void) {
  MPI_Datatype pair, rows, one, plain, sub;
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  MPI_Type_vector(4, 1, 4, pair, &rows); // tempi-note {{'rows' is built here}} tempi-warning {{'rows' is a vector of contiguous that one simpler constructor builds exactly: MPI_Type_vector(4, 2, 8, MPI_DOUBLE, &rows) [tempi-non-canonical-type]}}
  int bl[1] = {3};
  MPI_Aint disp[1] = {0};
  MPI_Datatype types[1] = {MPI_INT};
  MPI_Type_create_struct(1, bl, disp, types, &one); // tempi-warning {{'one' is a 1-field struct that one simpler constructor builds exactly: MPI_Type_contiguous(3, MPI_INT, &one) [tempi-non-canonical-type]}}
  MPI_Type_vector(4, 2, 8, MPI_DOUBLE, &plain); // tempi-warning {{'plain' has the same layout as 'rows' (line 9)}}
  int sizes[2] = {8, 8}, subsizes[2] = {4, 4}, starts[2] = {2, 2};
  MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_FLOAT, &sub);
}

// The same layout built twice under different names; a dup and a different layout are fine.
// RUN: tempi-lint %s -- -I%mock_mpi -Xclang -verify=tempi
#include <mpi.h>

void f(void) {
  MPI_Datatype a, b, c, d;
  MPI_Type_vector(16, 1, 16, MPI_DOUBLE, &a); // tempi-note {{'a' is built here}}
  MPI_Type_create_hvector(16, 1, 128, MPI_DOUBLE, &b); // tempi-warning-re {{'b' has the same layout as 'a' (line 7): strided({{.*}}); build it once and reuse 'a' [tempi-duplicate-layout]}}
  MPI_Type_dup(a, &c);
  MPI_Type_vector(16, 1, 8, MPI_DOUBLE, &d);
}

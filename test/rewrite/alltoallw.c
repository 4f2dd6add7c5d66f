// MPI_Alltoallw takes arrays of datatypes, which are not tracked: left to the runtime with a remark.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  double a[1024], b[1024];
  int counts[2] = {1, 1};
  int displs[2] = {0, 512};
  MPI_Datatype t, types[2];
  MPI_Init(&argc, &argv);
  MPI_Type_vector(8, 1, 4, MPI_DOUBLE, &t);
  types[0] = t;
  types[1] = t;
  MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK-NOT: tempi_Alltoallw
// CHECK-NOT: tempi_gen_plan
// CHECK: {{^}}  MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD);
// REMARK: remark: datatype 'types' of MPI_Alltoallw is left to the runtime: per-peer datatype arrays of MPI_Alltoallw are not tracked

// A canonical form with more dimensions than TEMPI_MAX_DIMS (8) stays with a remark.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  static char buf[1 << 20];
  int sizes[10] = {3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
  int sub[10] = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
  int starts[10] = {0};
  int sizes8[8] = {3, 3, 3, 3, 3, 3, 3, 3};
  int sub8[8] = {2, 2, 2, 2, 2, 2, 2, 2};
  int starts8[8] = {0};
  MPI_Datatype big, ok;
  MPI_Init(&argc, &argv);
  MPI_Type_create_subarray(10, sizes, sub, starts, MPI_ORDER_C, MPI_CHAR, &big);
  MPI_Type_create_subarray(8, sizes8, sub8, starts8, MPI_ORDER_C, MPI_CHAR, &ok);
  MPI_Send(buf, 1, big, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, ok, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  MPI_Send(buf, 1, big, 1, 0, MPI_COMM_WORLD);
// CHECK: {{^}}  tempi_Send(buf, 1, ok, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// REMARK: remark: datatype 'big' of MPI_Send is left to the runtime: the canonical form has 9 dimensions, more than TEMPI_MAX_DIMS (8)

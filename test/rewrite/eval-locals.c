// Locals with one constant definition (also const ones, and chains of them) are evaluated.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  double buf[4096];
  const int n = 16;
  int rows = n / 2;
  int stride = rows * 3 + 1;
  int count = 4;
  MPI_Datatype a, b;
  MPI_Init(&argc, &argv);
  if (argc > 3)
    count = 5;
  MPI_Type_vector(rows, 2, stride, MPI_DOUBLE, &a);
  MPI_Type_vector(count, 2, stride, MPI_DOUBLE, &b);
  MPI_Send(buf, 1, a, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, b, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(buf, 1, a, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, b, 1, 0, MPI_COMM_WORLD);
// REMARK: 'a' holds vector(8, 2, 25, MPI_DOUBLE)
// REMARK: remark: datatype 'b' of MPI_Send is left to the runtime: count depends on 'count', which is reassigned on line 19

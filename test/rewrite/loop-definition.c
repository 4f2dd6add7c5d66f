// A constructor inside a loop with constant arguments defines the same chain each time: proven.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  double buf[256];
  int i;
  MPI_Datatype t;
  MPI_Init(&argc, &argv);
  for (i = 0; i < 3; ++i) {
    MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
    MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
    MPI_Type_free(&t);
  }
  for (i = 0; i < 3; ++i) {
    MPI_Type_vector(i + 1, 1, 8, MPI_DOUBLE, &t);
    MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}    tempi_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK: {{^}}    MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
// REMARK: remark: datatype 't' of MPI_Send is left to the runtime: count depends on 'i', which is reassigned on line

// A chain that MPI would reject (negative count) is reported, never rewritten.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  double buf[256];
  MPI_Datatype t, ok;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(-4, 1, 8, MPI_DOUBLE, &t);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &ok);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, ok, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
// CHECK: {{^}}  tempi_Send(buf, 1, ok, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// REMARK: remark: datatype 't' of MPI_Send is left to the runtime: the datatype is invalid:

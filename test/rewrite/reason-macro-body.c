// A call spelled inside a macro definition cannot be edited: left with a remark.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

#define SEND_FACE(buf, t) MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD)

int main(int argc, char **argv) {
  double buf[256];
  MPI_Datatype t;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  SEND_FACE(buf, t);
  MPI_Finalize();
  return 0;
}
// CHECK-NOT: tempi_
// CHECK: {{^}}  SEND_FACE(buf, t);
// REMARK: remark: MPI_Send is left unchanged: the call is spelled inside the definition of macro 'SEND_FACE'

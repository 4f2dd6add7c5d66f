// A datatype whose address is passed to another function may change unseen: not proven.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

void make(MPI_Datatype *out);

int main(int argc, char **argv) {
  double buf[256];
  MPI_Datatype t, s;
  MPI_Datatype *alias = &s;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  make(&t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &s);
  (void)alias;
  MPI_Send(buf, 1, s, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK-NOT: tempi_Send
// CHECK: {{^}}  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
// CHECK: {{^}}  MPI_Send(buf, 1, s, 1, 0, MPI_COMM_WORLD);
// REMARK: remark: datatype 't' of MPI_Send is left to the runtime: 't' has its address passed to 'make' on line 18
// REMARK: remark: datatype 's' of MPI_Send is left to the runtime: 's' has its address taken on line 15

// A datatype returned by a helper function is not proven.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

static MPI_Datatype make_face_type(int n) {
  MPI_Datatype t;
  MPI_Type_vector(n, 1, 8, MPI_DOUBLE, &t);
  return t;
}

int main(int argc, char **argv) {
  double buf[256];
  MPI_Datatype f;
  MPI_Init(&argc, &argv);
  f = make_face_type(4);
  MPI_Send(buf, 1, make_face_type(4), 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, f, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK-NOT: tempi_Send
// REMARK: remark: datatype 'make_face_type(4)' of MPI_Send is left to the runtime: the datatype is returned by a call to 'make_face_type'
// REMARK: remark: datatype 'f' of MPI_Send is left to the runtime: the datatype is returned by a call to 'make_face_type'

// MPI_DATATYPE_NULL and predefined types: no plan (predefined types get no remark).
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  double buf[256];
  MPI_Datatype t = MPI_DATATYPE_NULL;
  MPI_Init(&argc, &argv);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 4, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK-NOT: tempi_
// REMARK: remark: datatype 't' of MPI_Send is left to the runtime: the datatype is MPI_DATATYPE_NULL
// REMARK-NOT: MPI_DOUBLE

// -Rtempi among the compiler flags (after --) works like --explain and is not passed to Clang.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi -Rtempi 2> %t.err > %t.out.c
// RUN: FileCheck --input-file=%t.err %s
// RUN: tempi-rewrite %t.c -Rtempi -- -I%mock_mpi 2> %t.err2 > /dev/null
// RUN: FileCheck --input-file=%t.err2 %s
// RUN: tempi-rewrite %t.c -- -I%mock_mpi 2> %t.quiet > /dev/null
// RUN: count 0 < %t.quiet
#include <mpi.h>

int main(int argc, char **argv) {
  double buf[256];
  MPI_Datatype t, u;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  MPI_Type_vector(argc, 1, 8, MPI_DOUBLE, &u);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, u, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: rtempi-flag.c.tmp.c:17:3: remark: rewritten: MPI_Send -> tempi_Send
// CHECK: rtempi-flag.c.tmp.c:18:20: remark: datatype 'u' of MPI_Send is left to the runtime: count depends on 'argc', a parameter of 'main' [-Rtempi]
// CHECK-NOT: warning

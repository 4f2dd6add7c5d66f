// A global datatype of external linkage may be written by another file: not proven unless the
// file is the whole program (file-scope-types.c). A static local built once is proven.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

MPI_Datatype g_face;

int main(int argc, char **argv) {
  double buf[256];
  static MPI_Datatype s_face;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &g_face);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &s_face);
  MPI_Send(buf, 1, g_face, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, s_face, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  MPI_Send(buf, 1, g_face, 1, 0, MPI_COMM_WORLD);
// CHECK: tempi_Send(buf, 1, s_face, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
// REMARK: remark: datatype 'g_face' of MPI_Send is left to the runtime: 'g_face' is a global variable that another file may write
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 's_face' holds vector(4, 1, 8, MPI_DOUBLE)

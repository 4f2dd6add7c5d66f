// MPI_Type_create_indexed_block with displacements in arithmetic progression.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  int buf[1024];
  int disp[4] = {0, 16, 32, 48};
  int other[4] = {0, 16, 32, 48};
  int *p = other;
  MPI_Datatype a, b;
  MPI_Init(&argc, &argv);
  MPI_Type_create_indexed_block(4, 2, disp, MPI_INT, &a);
  MPI_Type_create_indexed_block(4, 2, p, MPI_INT, &b);
  MPI_Send(buf, 1, a, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, b, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(buf, 1, a, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, b, 1, 0, MPI_COMM_WORLD);
// REMARK: 'a' holds indexed_block(4, 2, [0, 16, 32, 48], MPI_INT), canonical strided(start=0, bytes=8, dims=[(4, 64)]
// REMARK: remark: datatype 'b' of MPI_Send is left to the runtime: array_of_displacements[0] is the pointer 'p', not an array the tool can read

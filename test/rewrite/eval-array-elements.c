// Elements of local arrays: from an initializer, or each assigned once with a constant index.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  int buf[4096];
  int bl[2], disp[2];
  int bl2[2] = {1, 1}, disp2[2] = {0, 8};
  int i;
  MPI_Datatype a, b;
  MPI_Init(&argc, &argv);
  bl[0] = 4;
  bl[1] = 4;
  disp[0] = 0;
  disp[1] = 100;
  for (i = 0; i < 2; ++i)
    disp2[i] += 1;
  MPI_Type_indexed(2, bl, disp, MPI_INT, &a);
  MPI_Type_indexed(2, bl2, disp2, MPI_INT, &b);
  MPI_Send(buf, 1, a, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, b, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(buf, 1, a, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, b, 1, 0, MPI_COMM_WORLD);
// REMARK: 'a' holds indexed(2, [4, 4], [0, 100], MPI_INT), canonical strided(start=0, bytes=16, dims=[(2, 400)]
// REMARK: remark: datatype 'b' of MPI_Send is left to the runtime: array_of_displacements[0] depends on 'disp2[0]', which is written through a non-constant index on line 22

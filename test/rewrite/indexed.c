// MPI_Type_indexed: equal blocks at a constant step are a strided shape; irregular blocks stay for the runtime.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  int buf[1024];
  int bl[3] = {2, 2, 2}, disp[3] = {0, 10, 20};
  int bl2[3] = {1, 3, 2}, disp2[3] = {0, 7, 30};
  MPI_Datatype reg, irr;
  MPI_Init(&argc, &argv);
  MPI_Type_indexed(3, bl, disp, MPI_INT, &reg);
  MPI_Type_indexed(3, bl2, disp2, MPI_INT, &irr);
  MPI_Send(buf, 1, reg, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, irr, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(buf, 1, reg, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, irr, 1, 0, MPI_COMM_WORLD);
// REMARK: 'reg' holds indexed(3, [2, 2, 2], [0, 10, 20], MPI_INT), canonical strided(start=0, bytes=8, dims=[(3, 40)]
// REMARK: remark: datatype 'irr' of MPI_Send is left to the runtime: the canonical form is irregular

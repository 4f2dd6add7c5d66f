// MPI_Type_create_hindexed_block with byte displacements from a constant global array.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

static const MPI_Aint kDisp[3] = {0, 96, 192};
MPI_Aint gDisp[3] = {0, 96, 192};

int main(int argc, char **argv) {
  double buf[1024];
  MPI_Datatype a, b;
  MPI_Init(&argc, &argv);
  MPI_Type_create_hindexed_block(3, 4, kDisp, MPI_DOUBLE, &a);
  MPI_Type_create_hindexed_block(3, 4, gDisp, MPI_DOUBLE, &b);
  MPI_Send(buf, 1, a, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, b, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(buf, 1, a, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, b, 1, 0, MPI_COMM_WORLD);
// REMARK: 'a' holds hindexed_block(3, 4, [0, 96, 192], MPI_DOUBLE), canonical strided(start=0, bytes=32, dims=[(3, 96)]
// REMARK: remark: datatype 'b' of MPI_Send is left to the runtime: array_of_displacements[0] depends on 'gDisp', a global variable

// MPI_Type_create_hindexed and the deprecated MPI_Type_hindexed (byte displacements).
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  double buf[1024];
  int bl[2] = {1, 1};
  MPI_Aint disp[2] = {0, 256};
  MPI_Aint bad[2] = {0, 256};
  MPI_Datatype a, b, c;
  MPI_Init(&argc, &argv);
  bad[1] = argc;
  MPI_Type_create_hindexed(2, bl, disp, MPI_DOUBLE, &a);
  MPI_Type_hindexed(2, bl, disp, MPI_DOUBLE, &b);
  MPI_Type_create_hindexed(2, bl, bad, MPI_DOUBLE, &c);
  MPI_Send(buf, 1, a, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, b, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, c, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(buf, 1, a, 1, 0, MPI_COMM_WORLD, &[[P:tempi_gen_plan_[0-9a-f]+]]);
// CHECK-NEXT: {{^}}  tempi_Send(buf, 1, b, 1, 0, MPI_COMM_WORLD, &[[P]]);
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, c, 1, 0, MPI_COMM_WORLD);
// REMARK: 'a' holds hindexed(2, [1, 1], [0, 256], MPI_DOUBLE), canonical strided(start=0, bytes=8, dims=[(2, 256)]
// REMARK: remark: datatype 'c' of MPI_Send is left to the runtime: array_of_displacements[1] depends on 'argc', a parameter of 'main'

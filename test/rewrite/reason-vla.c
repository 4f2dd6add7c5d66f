// Sizes and addresses involving variable-length arrays are not constants: refused, no crash.
// RUN: cp %s %t.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi > %t.out.c 2> %t.err
// RUN: FileCheck --input-file=%t.err %s
// RUN: grep -c "^  MPI_Send(" %t.out.c | FileCheck --check-prefix=TWO %s
#include <mpi.h>

int main(int argc, char **argv) {
  int n = argc + 1;
  double vla[4][n];
  MPI_Aint base, disp[1];
  int bl[1] = {1};
  MPI_Datatype types[1] = {MPI_DOUBLE};
  MPI_Datatype a, b;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(sizeof(vla) / 8, 1, 8, MPI_DOUBLE, &a);
  MPI_Get_address(&vla[0], &base);
  MPI_Get_address(&vla[1], &disp[0]);
  disp[0] -= base;
  MPI_Type_create_struct(1, bl, disp, types, &b);
  MPI_Send(vla, 1, a, 1, 0, MPI_COMM_WORLD);
  MPI_Send(vla, 1, b, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: remark: datatype 'a' of MPI_Send is left to the runtime: count is the size of a variable-length array
// CHECK: remark: datatype 'b' of MPI_Send is left to the runtime: array_of_displacements[0] is the address of an element of a variable-length array
// TWO: 2

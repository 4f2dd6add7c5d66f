// Displacements from MPI_Get_address differences of members of one local struct.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

struct cell { double rho; double u[3]; int flag; };

int main(int argc, char **argv) {
  struct cell c, other;
  int bl[2] = {1, 3};
  MPI_Aint base, disp[2], disp2[2];
  MPI_Datatype types[2] = {MPI_DOUBLE, MPI_DOUBLE};
  MPI_Datatype a, b;
  MPI_Init(&argc, &argv);
  MPI_Get_address(&c, &base);
  MPI_Get_address(&c.rho, &disp[0]);
  MPI_Get_address(&c.u[0], &disp[1]);
  disp[0] = MPI_Aint_diff(disp[0], base);
  disp[1] -= base;
  MPI_Get_address(&c.rho, &disp2[0]);
  MPI_Get_address(&other.u, &disp2[1]);
  disp2[0] -= base;
  disp2[1] -= base;
  MPI_Type_create_struct(2, bl, disp, types, &a);
  MPI_Type_create_struct(2, bl, disp2, types, &b);
  MPI_Send(&c, 1, a, 1, 0, MPI_COMM_WORLD);
  MPI_Send(&c, 1, b, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(&c, 1, a, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Send(&c, 1, b, 1, 0, MPI_COMM_WORLD);
// REMARK: 'a' holds struct(2, [1, 3], [0, 8], [MPI_DOUBLE, MPI_DOUBLE]), canonical strided(start=0, bytes=32, dims=[]
// REMARK: remark: datatype 'b' of MPI_Send is left to the runtime: array_of_displacements[1] combines addresses of different objects

// MPI-1's MPI_Address (removed in MPI-3; MPICH and Open MPI 4 declare it without const): the
// same as MPI_Get_address. The mock header declares MPI_Type_struct without const too, as they do.
void legacy(void) {
  struct cell c;
  int bl[2] = {1, 1};
  MPI_Aint d[2];
  MPI_Datatype types[2] = {MPI_DOUBLE, MPI_INT}, t;
  MPI_Address(&c.u[2], &d[0]);
  MPI_Address(&c.flag, &d[1]);
  d[1] -= d[0];
  d[0] = 0;
  MPI_Type_struct(2, bl, d, types, &t);
  MPI_Send(&c.u[2], 1, t, 1, 0, MPI_COMM_WORLD);
}
// CHECK-LABEL: void legacy(void) {
// CHECK: {{^}}  tempi_Send(&c.u[2], 1, t, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// REMARK: 't' holds struct(2, [1, 1], [0, 8], [MPI_DOUBLE, MPI_INT])

// Against the real MPICH header: MPI_ORDER_FORTRAN is a macro for 57 there, read as spelled; a
// struct with MPI_Get_address displacements; output compiles with mpicc.
// RUN: cp %s %t.c
// RUN: tempi-rewrite --explain %t.c -- -I%mpi_include > %t.out.c 2> %t.err
// RUN: FileCheck --input-file=%t.err %s
// RUN: %mpicc -fsyntax-only -I%tempi_include %t.out.c
#include <mpi.h>

struct p { double x[2]; float w; };

int main(int argc, char **argv) {
  float a[64];
  struct p v;
  int sizes[2] = {8, 8}, sub[2] = {3, 2}, starts[2] = {1, 4};
  int bl[1] = {2};
  MPI_Aint base, disp[1];
  MPI_Datatype types[1] = {MPI_DOUBLE};
  MPI_Datatype f, s;
  MPI_Init(&argc, &argv);
  MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_FORTRAN, MPI_FLOAT, &f);
  MPI_Get_address(&v, &base);
  MPI_Get_address(&v.x[0], &disp[0]);
  disp[0] = MPI_Aint_diff(disp[0], base);
  MPI_Type_create_struct(1, bl, disp, types, &s);
  MPI_Send(a, 1, f, 1, 0, MPI_COMM_WORLD);
  MPI_Send(&v, 1, s, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: 'f' holds subarray(2, [8, 8], [3, 2], [1, 4], Fortran, MPI_FLOAT), canonical strided(start=132, bytes=12, dims=[(2, 32)], extent=256
// CHECK: 's' holds struct(1, [2], [0], [MPI_DOUBLE]), canonical strided(start=0, bytes=16, dims=[]

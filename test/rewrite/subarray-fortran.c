// A Fortran-order subarray: the first dimension is contiguous.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  float a[8 * 8];
  int sizes[2] = {8, 8}, sub[2] = {3, 2}, starts[2] = {1, 4};
  int sub2[2] = {3, 2};
  MPI_Datatype f, g;
  MPI_Init(&argc, &argv);
  sub2[0] = argc;
  MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_FORTRAN, MPI_FLOAT, &f);
  MPI_Type_create_subarray(2, sizes, sub2, starts, MPI_ORDER_FORTRAN, MPI_FLOAT, &g);
  MPI_Recv(a, 1, f, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Recv(a, 1, g, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Recv(a, 1, f, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Recv(a, 1, g, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
// REMARK: 'f' holds subarray(2, [8, 8], [3, 2], [1, 4], Fortran, MPI_FLOAT), canonical strided(start=132, bytes=12, dims=[(2, 32)], extent=256
// REMARK: remark: datatype 'g' of MPI_Recv is left to the runtime: array_of_subsizes[0] depends on 'argc', a parameter of 'main'

// A C-order MPI_Type_create_subarray of a 3-D array (interior block).
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

#define N 16
int main(int argc, char **argv) {
  double grid[N][N][N];
  int sizes[3] = {N, N, N}, sub[3] = {4, 4, 1}, starts[3] = {2, 2, 3};
  int order = MPI_ORDER_C;
  MPI_Datatype face, other;
  MPI_Init(&argc, &argv);
  MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_C, MPI_DOUBLE, &face);
  MPI_Type_create_subarray(3, sizes, sub, starts, order, MPI_DOUBLE, &other);
  MPI_Send(grid, 1, face, 1, 0, MPI_COMM_WORLD);
  MPI_Send(grid, 1, other, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(grid, 1, face, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Send(grid, 1, other, 1, 0, MPI_COMM_WORLD);
// REMARK: 'face' holds subarray(3, [16, 16, 16], [4, 4, 1], [2, 2, 3], C, MPI_DOUBLE), canonical strided(start=4376, bytes=8, dims=[(4, 128), (4, 2048)], extent=32768
// REMARK: remark: datatype 'other' of MPI_Send is left to the runtime: order is not spelled MPI_ORDER_C or MPI_ORDER_FORTRAN

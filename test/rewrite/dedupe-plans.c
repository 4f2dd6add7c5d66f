// Three equivalent descriptions of one cuboid face share one plan.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  double grid[8 * 8 * 8];
  int sizes[3] = {8, 8, 8}, sub[3] = {8, 1, 8}, starts[3] = {0, 0, 0};
  MPI_Datatype a, b, c, row;
  MPI_Init(&argc, &argv);
  MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_C, MPI_DOUBLE, &a);
  MPI_Type_vector(8, 8, 64, MPI_DOUBLE, &b);
  MPI_Type_contiguous(8, MPI_DOUBLE, &row);
  MPI_Type_create_hvector(8, 1, 512, row, &c);
  MPI_Send(grid, 1, a, 1, 0, MPI_COMM_WORLD);
  MPI_Send(grid, 1, b, 1, 0, MPI_COMM_WORLD);
  MPI_Send(grid, 1, c, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// The subarray's extent (the whole grid) differs from the vector's, so it has its own plan;
// the vector and the hvector of rows are the same shape and share one.
// CHECK-COUNT-2: static tempi_static_plan
// CHECK-NOT: static tempi_static_plan
// CHECK: {{^}}  tempi_Send(grid, 1, a, 1, 0, MPI_COMM_WORLD, &[[A:tempi_gen_plan_[0-9a-f]+]]);
// CHECK-NEXT: {{^}}  tempi_Send(grid, 1, b, 1, 0, MPI_COMM_WORLD, &[[B:tempi_gen_plan_[0-9a-f]+]]);
// CHECK-NEXT: {{^}}  tempi_Send(grid, 1, c, 1, 0, MPI_COMM_WORLD, &[[B]]);
// REMARK: 'a' holds subarray(3, [8, 8, 8], [8, 1, 8], [0, 0, 0], C, MPI_DOUBLE), canonical strided(start=0, bytes=64, dims=[(8, 512)], extent=4096
// REMARK: 'b' holds vector(8, 8, 64, MPI_DOUBLE), canonical strided(start=0, bytes=64, dims=[(8, 512)], extent=3648
// REMARK: 'c' holds hvector(8, 1, 512, contiguous(8, MPI_DOUBLE)), canonical strided(start=0, bytes=64, dims=[(8, 512)], extent=3648

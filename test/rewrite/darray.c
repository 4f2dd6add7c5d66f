// MPI_Type_create_darray with block distributions read as spelled.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  double a[64];
  int gsizes[2] = {8, 8}, psizes[2] = {2, 2};
  int distribs[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_BLOCK};
  int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG};
  int rank = 0;
  MPI_Datatype d, e;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Type_create_darray(4, 3, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_DOUBLE, &d);
  MPI_Type_create_darray(4, rank, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_DOUBLE, &e);
  MPI_Send(a, 1, d, 1, 0, MPI_COMM_WORLD);
  MPI_Send(a, 1, e, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(a, 1, d, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Send(a, 1, e, 1, 0, MPI_COMM_WORLD);
// REMARK: 'd' holds darray(4, 3, 2, [8, 8], [BLOCK, BLOCK], [DFLT, DFLT], [2, 2], C, MPI_DOUBLE), canonical strided(start=288, bytes=32, dims=[(4, 64)], extent=512
// REMARK: remark: datatype 'e' of MPI_Send is left to the runtime: rank depends on 'rank', which has its address passed to 'MPI_Comm_rank'

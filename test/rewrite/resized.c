// MPI_Type_create_resized: the plan carries the new lb and extent.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  double buf[1024];
  MPI_Datatype col, r, bad;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 16, MPI_DOUBLE, &col);
  MPI_Type_create_resized(col, 0, sizeof(double), &r);
  MPI_Type_create_resized(col, 0, argc, &bad);
  MPI_Send(buf, 4, r, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 4, bad, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: static tempi_static_plan tempi_gen_plan_{{[0-9a-f]+}} = {{.*}}extent=8, lb=0
// CHECK: {{^}}  tempi_Send(buf, 4, r, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Send(buf, 4, bad, 1, 0, MPI_COMM_WORLD);
// REMARK: 'r' holds resized(0, 8, vector(4, 1, 16, MPI_DOUBLE)), canonical strided(start=0, bytes=8, dims=[(4, 128)], extent=8, lb=0)
// REMARK: remark: datatype 'bad' of MPI_Send is left to the runtime: extent depends on 'argc', a parameter of 'main'

// Large-count constructors (_c) are recognized; large-count calls (MPI_Send_c) have no TEMPI entry point and stay.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  double buf[1024];
  MPI_Datatype v;
  MPI_Init(&argc, &argv);
  MPI_Type_vector_c(4, 1, 8, MPI_DOUBLE, &v);
  MPI_Send(buf, 1, v, 1, 0, MPI_COMM_WORLD);
  MPI_Send_c(buf, 1, v, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(buf, 1, v, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Send_c(buf, 1, v, 1, 0, MPI_COMM_WORLD);
// REMARK: 'v' holds vector(4, 1, 8, MPI_DOUBLE)
// REMARK: remark: MPI_Send_c is left unchanged: the TEMPI runtime has no entry point for large-count (_c) calls

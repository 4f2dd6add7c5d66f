// MPI_Sendrecv with two proven datatypes gets two plans; an unproven receive type gets a null plan.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  double a[1024], b[1024];
  MPI_Datatype t, u;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(8, 1, 4, MPI_DOUBLE, &t);
  MPI_Type_vector(argc, 1, 4, MPI_DOUBLE, &u);
  MPI_Sendrecv(a, 1, t, 1, 0, b, 1, t, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(a, 1, t, 1, 0, b, 1, u, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(a, 1, u, 1, 0, b, 1, u, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Sendrecv(a, 1, t, 1, 0, b, 1, t, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &[[P:tempi_gen_plan_[0-9a-f]+]], &[[P]]);
// CHECK-NEXT: {{^}}  tempi_Sendrecv(a, 1, t, 1, 0, b, 1, u, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &[[P]], (const tempi_static_plan *)0);
// CHECK-NEXT: {{^}}  MPI_Sendrecv(a, 1, u, 1, 0, b, 1, u, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
// REMARK: tmp.c:17:37: remark: datatype 'u' of MPI_Sendrecv is left to the runtime: count depends on 'argc'
// REMARK: tmp.c:18:22: remark: datatype 'u' of MPI_Sendrecv is left to the runtime
// REMARK: tmp.c:18:37: remark: datatype 'u' of MPI_Sendrecv is left to the runtime

// MPI_Type_dup of a proven chain is the same chain; a dup of a parameter is proven when every
// call of its (static) function passes one chain (call-site-values.c).
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

static int send_dup(double *buf, MPI_Datatype in) {
  MPI_Datatype d;
  MPI_Type_dup(in, &d);
  return MPI_Send(buf, 1, d, 1, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  double buf[1024];
  MPI_Datatype v, d;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(2, 3, 5, MPI_DOUBLE, &v);
  MPI_Type_dup(v, &d);
  MPI_Send(buf, 1, d, 1, 0, MPI_COMM_WORLD);
  send_dup(buf, v);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  return tempi_Send(buf, 1, d, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK: {{^}}  tempi_Send(buf, 1, d, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'd' holds dup(vector(2, 3, 5, MPI_DOUBLE))
// REMARK: 'd' holds dup(vector(2, 3, 5, MPI_DOUBLE))

// A datatype passed in as a parameter is not proven: left to the runtime.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

void exchange(double *buf, MPI_Datatype t) {
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  double buf[256];
  MPI_Datatype v;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &v);
  exchange(buf, v);
  MPI_Send(buf, 1, v, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
// CHECK: {{^}}  tempi_Send(buf, 1, v, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// REMARK: remark: datatype 't' of MPI_Send is left to the runtime: 't' comes from a parameter of 'exchange', which another file may call (it is not static)

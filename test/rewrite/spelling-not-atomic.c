// An expression that merely begins with a predefined type's name is not that type: not rewritten.
// RUN: cp %s %t.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi > %t.out.c 2> %t.err
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  double buf[256];
  MPI_Datatype t;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  MPI_Send(buf, 1, MPI_DOUBLE == t ? MPI_DOUBLE : t, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  MPI_Send(buf, 1, MPI_DOUBLE == t ? MPI_DOUBLE : t, 1, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  tempi_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// REMARK: remark: datatype 'MPI_DOUBLE == t ? MPI_DOUBLE : t' of MPI_Send is left to the runtime: the datatype expression is not a variable or a predefined type

// A datatype variable defined on two paths that both reach the call is not proven; the remark
// says "reassigned" when one definition follows the other, and names both when they are
// alternatives (if/else).
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  double buf[256];
  MPI_Datatype t, s, u;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  if (argc > 1)
    MPI_Type_vector(4, 1, 16, MPI_DOUBLE, &t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &s);
  MPI_Send(buf, 1, s, 1, 0, MPI_COMM_WORLD);
  MPI_Type_vector(2, 1, 8, MPI_DOUBLE, &s);
  MPI_Send(buf, 1, s, 1, 0, MPI_COMM_WORLD);
  if (argc > 2)
    MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &u);
  else
    MPI_Type_vector(4, 2, 8, MPI_DOUBLE, &u);
  MPI_Send(buf, 1, u, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// Redefinitions that do not reach a call do not matter: both uses of 's' are proven.
// CHECK: {{^}}  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
// CHECK: {{^}}  tempi_Send(buf, 1, s, 1, 0, MPI_COMM_WORLD, &[[A:tempi_gen_plan_[0-9a-f]+]]);
// CHECK: {{^}}  tempi_Send(buf, 1, s, 1, 0, MPI_COMM_WORLD, &[[B:tempi_gen_plan_[0-9a-f]+]]);
// REMARK: remark: datatype 't' of MPI_Send is left to the runtime: 't' is reassigned on line 18
// REMARK: 's' holds vector(4, 1, 8, MPI_DOUBLE)
// REMARK: 's' holds vector(2, 1, 8, MPI_DOUBLE)
// REMARK: remark: datatype 'u' of MPI_Send is left to the runtime: 'u' is defined on line 25 or 27, depending on the path taken

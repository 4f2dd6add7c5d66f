// A helper with one constructor per branch (`if (kind == 0) contiguous else vector`) builds one
// datatype per call when the call's constant arguments decide the branch: that constructor is
// the output's, the other never runs. When they do not decide it, the call is left to the
// runtime with the constructors' lines (not "writes 't' twice": each path writes it once).
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

static void make(int kind, MPI_Datatype *t) {
  if (kind == 0)
    MPI_Type_contiguous(4, MPI_DOUBLE, t);
  else
    MPI_Type_vector(4, 1, 2, MPI_DOUBLE, t);
  MPI_Type_commit(t);
}

static void both(int kind, MPI_Datatype *t) {
  if (kind == 0)
    MPI_Type_contiguous(4, MPI_DOUBLE, t);
  MPI_Type_vector(4, 1, 2, MPI_DOUBLE, t);
}

int main(int argc, char **argv) {
  double u[8];
  MPI_Datatype a, b, c, d;
  MPI_Init(&argc, &argv);
  make(0, &a);
  make(1, &b);
  make(argc, &c);
  both(0, &d);
  MPI_Send(u, 1, a, 0, 0, MPI_COMM_WORLD);
  MPI_Send(u, 1, b, 0, 0, MPI_COMM_WORLD);
  MPI_Send(u, 1, c, 0, 0, MPI_COMM_WORLD);
  MPI_Send(u, 1, d, 0, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(u, 1, a, 0, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  tempi_Send(u, 1, b, 0, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Send(u, 1, c, 0, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  MPI_Send(u, 1, d, 0, 0, MPI_COMM_WORLD);

// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'a' holds contiguous(4, MPI_DOUBLE)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'b' holds vector(4, 1, 2, MPI_DOUBLE)
// REMARK: remark: datatype 'c' of MPI_Send is left to the runtime: 'c' is set by 'make', which builds 't' with the constructors on line 15 and line 17, more than one of which this call may run
// REMARK: remark: datatype 'd' of MPI_Send is left to the runtime: 'd' is set by 'both', which builds 't' with the constructors on line 23 and line 24, more than one of which this call may run

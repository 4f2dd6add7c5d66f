// MPI_Sendrecv_replace with a proven vector datatype becomes tempi_Sendrecv_replace with its plan; with a count from argc it stays.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  double buf[4096];
  int position = 0, size = 0;
  MPI_Request req;
  MPI_Datatype t, u;
  (void)position; (void)size; (void)req;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Type_vector(argc, 2, 16, MPI_DOUBLE, &u);
  MPI_Type_commit(&u);
  MPI_Sendrecv_replace(buf, 1, t, 1, 0, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv_replace(buf, 1, u, 1, 0, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Sendrecv_replace(buf, 1, t, 1, 0, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Sendrecv_replace(buf, 1, u, 1, 0, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
// REMARK: remark: datatype 'u' of MPI_Sendrecv_replace is left to the runtime: count depends on 'argc', a parameter of 'main'
// REMARK: note: the reason is here
// REMARK-NEXT: MPI_Type_vector(argc,

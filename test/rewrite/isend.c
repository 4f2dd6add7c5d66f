// MPI_Isend with a proven vector datatype becomes tempi_Isend_deferred with its plan (MPI_Finalize
// follows on every path: defer-*.c test the proof); with a count from argc it stays.
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
  MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req);
  MPI_Isend(buf, 1, u, 1, 0, MPI_COMM_WORLD, &req);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Isend_deferred(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Isend(buf, 1, u, 1, 0, MPI_COMM_WORLD, &req);
// REMARK: remark: the send is deferred: the next call TEMPI intercepts is MPI_Finalize on line 24
// REMARK: remark: datatype 'u' of MPI_Isend is left to the runtime: count depends on 'argc', a parameter of 'main'
// REMARK: note: the reason is here
// REMARK-NEXT: MPI_Type_vector(argc,

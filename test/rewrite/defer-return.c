// A path that leaves the function before an MPI call TEMPI intercepts keeps tempi_Isend (the
// caller may block before it calls into TEMPI). A path that ends the program (MPI_Abort, exit)
// needs no flush.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi -I%S/Inputs > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%S/Inputs -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi -I%S/Inputs 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>
#include <mpi-more.h>
#include <stdlib.h>

double buf[4096];

int early_return(int peer) {
  MPI_Request req;
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  int rc = MPI_Isend(buf, 1, t, peer, 0, MPI_COMM_WORLD, &req);
// REMARK: .c:[[@LINE-1]]:12: remark: the send is not deferred: the function returns on line [[@LINE+2]] first
  if (rc != MPI_SUCCESS)
    return rc;
  MPI_Waitall(1, &req, MPI_STATUSES_IGNORE);
  MPI_Type_free(&t);
  return 0;
}

int abort_on_error(int peer) {
  MPI_Request req;
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  int rc = MPI_Isend(buf, 1, t, peer, 0, MPI_COMM_WORLD, &req);
// REMARK: .c:[[@LINE-1]]:12: remark: the send is deferred: the next call TEMPI intercepts is MPI_Waitall on line [[@LINE+5]]; other paths end the program (MPI_Abort on line [[@LINE+2]], exit on line [[@LINE+4]])
  if (rc != MPI_SUCCESS)
    MPI_Abort(MPI_COMM_WORLD, rc);
  if (peer < 0)
    exit(1);
  MPI_Waitall(1, &req, MPI_STATUSES_IGNORE);
  MPI_Type_free(&t);
  return 0;
}
// CHECK-LABEL: int early_return(int peer) {
// CHECK: {{^}}  int rc = tempi_Isend(buf, 1, t, peer, 0, MPI_COMM_WORLD, &req, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: int abort_on_error(int peer) {
// CHECK: {{^}}  int rc = tempi_Isend_deferred(buf, 1, t, peer, 0, MPI_COMM_WORLD, &req, &tempi_gen_plan_{{[0-9a-f]+}});

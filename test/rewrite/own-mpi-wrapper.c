// A file that defines an MPI function itself (a PMPI profiling wrapper) keeps every MPI call as
// written: a tempi_X call would go around the wrapper, and a request from tempi_Isend would be
// completed by the file's MPI_Wait, which calls PMPI_Wait past libtempi's. (Before session 22
// the tool rewrote them: the wrapper counted one send of two.) Corpus program own_wrapper.c.
// RUN: cp %s %t.c
// RUN: tempi-rewrite --explain %t.c -- -I%mpi_include > %t.out.c 2> %t.err
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

static double waited;

int MPI_Wait(MPI_Request *req, MPI_Status *status) {
  double t0 = PMPI_Wtime();
  int rc = PMPI_Wait(req, status);
  waited += PMPI_Wtime() - t0;
  return rc;
}

void exchange(double *a, double *b, int peer) {
  MPI_Datatype col;
  MPI_Request req;
  MPI_Type_vector(8, 1, 5, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  MPI_Isend(a, 1, col, peer, 0, MPI_COMM_WORLD, &req);
  MPI_Recv(b, 1, col, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Type_free(&col);
}
// CHECK-NOT: tempi_gen_plan
// CHECK: {{^}}  MPI_Isend(a, 1, col, peer, 0, MPI_COMM_WORLD, &req);
// CHECK: {{^}}  MPI_Recv(b, 1, col, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
// REMARK: remark: MPI_Isend is left unchanged: this file defines 'MPI_Wait' itself (a wrapper that TEMPI's calls would bypass)
// REMARK: remark: MPI_Recv is left unchanged: this file defines 'MPI_Wait' itself (a wrapper that TEMPI's calls would bypass)
// REMARK-NOT: rewritten

// Nonblocking receives (MPI_Irecv, MPI_Recv_init, rewritten or not) neither flush deferred sends
// nor wait, so they may come between a send and its flush. A blocking MPI_Recv is intercepted:
// it is the flush.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi -I%S/Inputs > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%S/Inputs -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi -I%S/Inputs 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>
#include <mpi-more.h>

double buf[4096], in[4096];

void receives_between(void) {
  MPI_Request req[3];
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req[0]);
// REMARK: .c:[[@LINE-1]]:3: remark: the send is deferred: the next call TEMPI intercepts is MPI_Waitall on line [[@LINE+3]]
  MPI_Irecv(in, 1, t, 1, 0, MPI_COMM_WORLD, &req[1]);
  MPI_Recv_init(in, 64, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, &req[2]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  MPI_Type_free(&t);
}

void blocking_receive(void) {
  MPI_Request req;
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req);
// REMARK: .c:[[@LINE-1]]:3: remark: the send is deferred: the next call TEMPI intercepts is MPI_Recv on line [[@LINE+1]]
  MPI_Recv(in, 64, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Waitall(1, &req, MPI_STATUSES_IGNORE);
  MPI_Type_free(&t);
}
// CHECK-LABEL: void receives_between(void) {
// CHECK: {{^}}  tempi_Isend_deferred(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req[0], &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  tempi_Irecv(in, 1, t, 1, 0, MPI_COMM_WORLD, &req[1], &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void blocking_receive(void) {
// CHECK: {{^}}  tempi_Isend_deferred(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req, &tempi_gen_plan_{{[0-9a-f]+}});

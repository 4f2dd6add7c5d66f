// A rewritten MPI_Isend/MPI_Issend becomes tempi_Isend_deferred/tempi_Issend_deferred when, on the
// straight-line code after it, only neutral calls (other sends, nonblocking receives, local MPI
// queries, datatype constructors, printf, memset) come before an MPI call TEMPI intercepts. A send followed by nothing
// but the end of its function stays tempi_Isend.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi -I%S/Inputs > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%S/Inputs -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi -I%S/Inputs 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>
#include <mpi-more.h>
#include <stdio.h>
#include <string.h>

double buf[4096], other[64];

void exchange(void) {
  MPI_Request req[4];
  MPI_Datatype t;
  int rank = 0;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req[0]);
// REMARK: .c:[[@LINE-1]]:3: remark: rewritten: MPI_Isend -> tempi_Isend_deferred: 't' holds vector(4, 2, 16, MPI_DOUBLE)
// REMARK: .c:[[@LINE-2]]:3: remark: the send is deferred: the next call TEMPI intercepts is MPI_Waitall on line [[@LINE+8]]
  MPI_Issend(buf, 1, t, 2, 0, MPI_COMM_WORLD, &req[1]);
// REMARK: .c:[[@LINE-1]]:3: remark: rewritten: MPI_Issend -> tempi_Issend_deferred:
// REMARK: .c:[[@LINE-2]]:3: remark: the send is deferred: the next call TEMPI intercepts is MPI_Waitall on line [[@LINE+5]]
  MPI_Irecv(other, 64, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &req[2]);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  printf("rank %d posted\n", rank);
  memset(other, 0, sizeof other);
  MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
  MPI_Type_free(&t);
}

void post_only(MPI_Request *req) {
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, req);
// REMARK: .c:[[@LINE-1]]:3: remark: rewritten: MPI_Isend -> tempi_Isend:
// REMARK: .c:[[@LINE-2]]:3: remark: the send is not deferred: the function returns on line [[@LINE+2]] first
// REMARK: note: the reason is here
}

// Datatype constructors and size queries are local MPI calls libtempi does not intercept: they
// never wait on a peer, so a send is deferred across them (since session 23).
void build_between(void) {
  MPI_Request req[2];
  MPI_Datatype t, u;
  int size;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req[0]);
// REMARK: .c:[[@LINE-1]]:3: remark: rewritten: MPI_Isend -> tempi_Isend_deferred:
// REMARK: .c:[[@LINE-2]]:3: remark: the send is deferred: the next call TEMPI intercepts is MPI_Type_commit on line [[@LINE+3]]
  MPI_Type_contiguous(8, MPI_DOUBLE, &u);
  MPI_Type_size(u, &size);
  MPI_Type_commit(&u);
  MPI_Isend(other, 1, u, 1, 1, MPI_COMM_WORLD, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  MPI_Type_free(&t);
  MPI_Type_free(&u);
}
// CHECK-LABEL: void exchange(void) {
// CHECK: {{^}}  tempi_Isend_deferred(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req[0], &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  tempi_Issend_deferred(buf, 1, t, 2, 0, MPI_COMM_WORLD, &req[1], &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Irecv(other, 64, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, &req[2]);
// CHECK-LABEL: void post_only(MPI_Request *req) {
// CHECK: {{^}}  tempi_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, req, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void build_between(void) {
// CHECK: {{^}}  tempi_Isend_deferred(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req[0], &tempi_gen_plan_{{[0-9a-f]+}});

// A function of this file whose every path calls an MPI function TEMPI intercepts is itself a
// flush (a `finish_exchange()` helper around MPI_Waitall). One that returns on some path without
// one is not, and neither is a chain of wrappers deeper than the tool follows (4 calls).
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi -I%S/Inputs > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%S/Inputs -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi -I%S/Inputs 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>
#include <mpi-more.h>
#include <stdio.h>

double buf[4096];

static void finish_exchange(int n, MPI_Request *req) {
  if (n > 0)
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
  else
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static void maybe_finish(int n, MPI_Request *req) {
  if (n > 0)
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
}

static void say1(const char *s) { printf("%s\n", s); }
static void say2(const char *s) { say1(s); }
static void say3(const char *s) { say2(s); }
static void say4(const char *s) { say3(s); }
static void say5(const char *s) { say4(s); }

void with_helper(void) {
  MPI_Request req;
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req);
// REMARK: .c:[[@LINE-1]]:3: remark: the send is deferred: the next call TEMPI intercepts is 'finish_exchange' on line [[@LINE+2]] (every path through it reaches one)
  say4("posted"); /* height 4: followed */
  finish_exchange(1, &req);
  MPI_Type_free(&t);
}

void with_partial_helper(void) {
  MPI_Request req;
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req);
// REMARK: .c:[[@LINE-1]]:3: remark: the send is not deferred: 'maybe_finish' is called on line [[@LINE+1]] and in it the function returns on line 26 first
  maybe_finish(1, &req);
  MPI_Type_free(&t);
}

void too_deep(void) {
  MPI_Request req;
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req);
// REMARK: .c:[[@LINE-1]]:3: remark: the send is not deferred: 'say5' is called on line [[@LINE+1]] and its calls nest deeper than 4 levels, which the tool does not follow
  say5("posted");
  MPI_Waitall(1, &req, MPI_STATUSES_IGNORE);
  MPI_Type_free(&t);
}
// CHECK-LABEL: void with_helper(void) {
// CHECK: {{^}}  tempi_Isend_deferred(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void with_partial_helper(void) {
// CHECK: {{^}}  tempi_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void too_deep(void) {
// CHECK: {{^}}  tempi_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req, &tempi_gen_plan_{{[0-9a-f]+}});

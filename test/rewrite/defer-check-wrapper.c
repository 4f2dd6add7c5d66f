// A send wrapped in an error-checking function of the same file (halo3d_fixed.c's
// `check(MPI_Isend(...), "what")`, whose failure path prints and calls MPI_Abort) is deferred:
// the function's every call is neutral or ends the program. A checker that calls a function the
// tool cannot see keeps tempi_Isend, and the remark says where inside it.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi -I%S/Inputs > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%S/Inputs -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi -I%S/Inputs 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>
#include <mpi-more.h>
#include <stdio.h>

#define DIE(...)                                                                                   \
  do {                                                                                             \
    fprintf(stderr, __VA_ARGS__);                                                                  \
    fputc('\n', stderr);                                                                           \
    MPI_Abort(MPI_COMM_WORLD, 1);                                                                  \
  } while (0)

static void check(int rc, const char *what) {
  if (rc != MPI_SUCCESS) {
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    DIE("%s failed: %s", what, msg);
  }
}

void log_failure(const char *what);
static void check_and_log(int rc, const char *what) {
  if (rc != MPI_SUCCESS)
    log_failure(what);
}

double buf[4096];

void exchange(void) {
  MPI_Request req[2];
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  check(MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req[0]), "MPI_Isend");
// REMARK: .c:[[@LINE-1]]:9: remark: the send is deferred: the next call TEMPI intercepts is MPI_Waitall on line [[@LINE+3]]
  check(MPI_Isend(buf, 1, t, 2, 0, MPI_COMM_WORLD, &req[1]), "MPI_Isend");
// REMARK: .c:[[@LINE-1]]:9: remark: the send is deferred: the next call TEMPI intercepts is MPI_Waitall on line [[@LINE+1]]
  check(MPI_Waitall(2, req, MPI_STATUSES_IGNORE), "MPI_Waitall");
  MPI_Type_free(&t);
}

void exchange_logged(void) {
  MPI_Request req;
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  check_and_log(MPI_Isend(buf, 1, t, 2, 0, MPI_COMM_WORLD, &req), "MPI_Isend");
// REMARK: .c:[[@LINE-1]]:17: remark: the send is not deferred: 'check_and_log' is called on line [[@LINE-1]] and in it 'log_failure' is called on line 34 before any MPI call TEMPI intercepts
// REMARK-NEXT: .c:[[@LINE-2]]:3: note: the reason is here
  check(MPI_Waitall(1, &req, MPI_STATUSES_IGNORE), "MPI_Waitall");
  MPI_Type_free(&t);
}
// CHECK-LABEL: void exchange(void) {
// CHECK: {{^}}  check(tempi_Isend_deferred(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req[0], &tempi_gen_plan_{{[0-9a-f]+}}), "MPI_Isend");
// CHECK-NEXT: {{^}}  check(tempi_Isend_deferred(buf, 1, t, 2, 0, MPI_COMM_WORLD, &req[1], &tempi_gen_plan_{{[0-9a-f]+}}), "MPI_Isend");
// CHECK-LABEL: void exchange_logged(void) {
// CHECK: {{^}}  check_and_log(tempi_Isend(buf, 1, t, 2, 0, MPI_COMM_WORLD, &req, &tempi_gen_plan_{{[0-9a-f]+}}), "MPI_Isend");

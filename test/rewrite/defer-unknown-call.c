// A call the tool cannot see into (a function declared but not defined in this file, or a call
// through a function pointer) between a send and the next MPI call TEMPI intercepts keeps
// tempi_Isend: it might block on a peer waiting for that very message. The same call after the
// flush does not matter.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi -I%S/Inputs > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%S/Inputs -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi -I%S/Inputs 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>
#include <mpi-more.h>

double buf[4096];
void foo(void);

void unknown_between(void) {
  MPI_Request req;
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req);
// REMARK: .c:[[@LINE-1]]:3: remark: the send is not deferred: 'foo' is called on line [[@LINE+2]] before any MPI call TEMPI intercepts
// REMARK-NEXT: .c:[[@LINE+1]]:3: note: the reason is here
  foo();
  MPI_Waitall(1, &req, MPI_STATUSES_IGNORE);
  MPI_Type_free(&t);
}

void unknown_after(void) {
  MPI_Request req;
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req);
// REMARK: .c:[[@LINE-1]]:3: remark: the send is deferred: the next call TEMPI intercepts is MPI_Waitall on line [[@LINE+1]]
  MPI_Waitall(1, &req, MPI_STATUSES_IGNORE);
  foo();
  MPI_Type_free(&t);
}

void through_pointer(void (*progress)(void)) {
  MPI_Request req;
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req);
// REMARK: .c:[[@LINE-1]]:3: remark: the send is not deferred: an indirect call on line [[@LINE+1]] comes before any MPI call TEMPI intercepts
  progress();
  MPI_Waitall(1, &req, MPI_STATUSES_IGNORE);
  MPI_Type_free(&t);
}
// CHECK-LABEL: void unknown_between(void) {
// CHECK: {{^}}  tempi_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void unknown_after(void) {
// CHECK: {{^}}  tempi_Isend_deferred(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void through_pointer(void (*progress)(void)) {
// CHECK: {{^}}  tempi_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req, &tempi_gen_plan_{{[0-9a-f]+}});

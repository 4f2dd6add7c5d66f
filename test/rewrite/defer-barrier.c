// MPI_Barrier is not intercepted by TEMPI: between a send and its flush it would wait for peers
// that may be waiting for the send's message, so the send stays tempi_Isend. After MPI_Waitall
// it does not matter.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi -I%S/Inputs > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%S/Inputs -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi -I%S/Inputs 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>
#include <mpi-more.h>

double buf[4096];

void barrier_between(void) {
  MPI_Request req;
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req);
// REMARK: .c:[[@LINE-1]]:3: remark: the send is not deferred: 'MPI_Barrier' (not intercepted by TEMPI) is called on line [[@LINE+1]] before any MPI call TEMPI intercepts
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Waitall(1, &req, MPI_STATUSES_IGNORE);
  MPI_Type_free(&t);
}

void barrier_after(void) {
  MPI_Request req;
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req);
// REMARK: .c:[[@LINE-1]]:3: remark: the send is deferred: the next call TEMPI intercepts is MPI_Wait on line [[@LINE+1]]
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Type_free(&t);
}
// CHECK-LABEL: void barrier_between(void) {
// CHECK: {{^}}  tempi_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void barrier_after(void) {
// CHECK: {{^}}  tempi_Isend_deferred(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req, &tempi_gen_plan_{{[0-9a-f]+}});

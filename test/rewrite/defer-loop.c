// Sends posted in a loop that leaves into MPI_Waitall are deferred (the proof is a greatest
// fixpoint on the CFG: the back edge leads to the send again, the exit to the flush). A loop whose
// body also calls an unknown function, and a loop that never leaves, keep tempi_Isend.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi -I%S/Inputs > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%S/Inputs -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi -I%S/Inputs 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>
#include <mpi-more.h>

double buf[4096];
void compute(int i);

void faces(void) {
  MPI_Request req[32];
  MPI_Datatype t;
  int n = 0;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  for (int it = 0; it < 10; ++it) {
    n = 0;
    for (int i = 0; i < 26; ++i) {
      MPI_Irecv(buf + 2048, 1, t, i, i, MPI_COMM_WORLD, &req[n++]);
      if (i % 2)
        MPI_Isend(buf, 1, t, i, i, MPI_COMM_WORLD, &req[n++]);
// REMARK: .c:[[@LINE-1]]:9: remark: rewritten: MPI_Isend -> tempi_Isend_deferred:
// REMARK: .c:[[@LINE-2]]:9: remark: the send is deferred: the next call TEMPI intercepts is MPI_Waitall on line [[@LINE+2]]
    }
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
  }
  MPI_Type_free(&t);
}

void until_done(void) {
  MPI_Request req;
  MPI_Datatype t;
  int done = 0;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req);
// REMARK: .c:[[@LINE-1]]:3: remark: the send is deferred: the next call TEMPI intercepts is one of MPI_Test on line [[@LINE+2]], MPI_Type_free on line [[@LINE+3]]
  while (!done)
    MPI_Test(&req, &done, MPI_STATUS_IGNORE);
  MPI_Type_free(&t);
}

void with_work(void) {
  MPI_Request req[32];
  MPI_Datatype t;
  int n = 0;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  for (int i = 0; i < 26; ++i) {
    MPI_Isend(buf, 1, t, i, i, MPI_COMM_WORLD, &req[n++]);
// REMARK: .c:[[@LINE-1]]:5: remark: the send is not deferred: 'compute' is called on line [[@LINE+1]] before any MPI call TEMPI intercepts
    compute(i);
  }
  MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
  MPI_Type_free(&t);
}

void forever(void) {
  MPI_Request req;
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  for (;;)
    MPI_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req);
// REMARK: .c:[[@LINE-1]]:5: remark: the send is not deferred: no path from the send reaches a call TEMPI intercepts (it never leaves a loop)
}
// CHECK-LABEL: void faces(void) {
// CHECK: {{^}}        tempi_Isend_deferred(buf, 1, t, i, i, MPI_COMM_WORLD, &req[n++], &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void until_done(void) {
// CHECK: {{^}}  tempi_Isend_deferred(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void with_work(void) {
// CHECK: {{^}}    tempi_Isend(buf, 1, t, i, i, MPI_COMM_WORLD, &req[n++], &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void forever(void) {
// CHECK: {{^}}    tempi_Isend(buf, 1, t, 1, 0, MPI_COMM_WORLD, &req, &tempi_gen_plan_{{[0-9a-f]+}});

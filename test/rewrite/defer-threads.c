// A deferred send waits for the next call the same thread makes into TEMPI, so the proof must not
// take a flush that another thread runs, nor cross a wait on another thread's progress:
// - a flush inside an OpenMP region (`omp masked filter(1)`, a `task`, a `section`) may run on
//   another thread: not deferred, with the region in the reason (it used to be, and hung);
// - a loop spinning on an atomic or volatile flag that a thread sets when the peer's message
//   arrives never ends while that message waits for the flush: an atomic operation or a
//   volatile read before the flush is a barrier (it used to be crossed, and hung);
// - a region of plain computation between the send and the flush is crossed as before.
// RUN: cp %s %t.c
// RUN: tempi-rewrite --explain %t.c -- -fopenmp -I%mock_mpi -I%S/Inputs 2> %t.err > %t.out.c
// RUN: FileCheck --input-file=%t.err %s
// RUN: %clang -fsyntax-only -fopenmp -Wno-deprecated-declarations -I%mock_mpi -I%S/Inputs -I%tempi_include %t.out.c
#include <mpi.h>
#include <mpi-more.h>
#include <stdatomic.h>

static atomic_int reply_seen;
static volatile int vflag;

void masked_flush(double *a, MPI_Request *q) {
  MPI_Datatype col;
  MPI_Type_vector(8, 1, 8, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  MPI_Isend(a, 1, col, 1, 0, MPI_COMM_WORLD, &q[1]);
// CHECK: .c:[[@LINE-1]]:3: remark: the send is not deferred: MPI_Waitall on line [[@LINE+3]] is inside the OpenMP region on line [[@LINE+2]], which may run it on another thread
#pragma omp parallel num_threads(2)
#pragma omp masked filter(1)
  MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
}

void task_flush(double *a, MPI_Request *q) {
  MPI_Datatype col;
  MPI_Type_vector(8, 1, 8, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  MPI_Isend(a, 1, col, 1, 0, MPI_COMM_WORLD, &q[1]);
// CHECK: .c:[[@LINE-1]]:3: remark: the send is not deferred: MPI_Waitall on line [[@LINE+4]] is inside the OpenMP region on line [[@LINE+3]], which may run it on another thread
#pragma omp parallel
#pragma omp single
#pragma omp task
  MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
}

void spin_atomic(double *a, MPI_Request *q) {
  MPI_Datatype col;
  MPI_Type_vector(8, 1, 8, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  MPI_Isend(a, 1, col, 1, 0, MPI_COMM_WORLD, &q[1]);
// CHECK: .c:[[@LINE-1]]:3: remark: the send is not deferred: an atomic operation on line [[@LINE+1]] comes before any MPI call TEMPI intercepts
  while (!atomic_load(&reply_seen))
    ;
  MPI_Wait(&q[1], MPI_STATUS_IGNORE);
}

void spin_volatile(double *a, MPI_Request *q) {
  MPI_Datatype col;
  MPI_Type_vector(8, 1, 8, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  MPI_Isend(a, 1, col, 1, 0, MPI_COMM_WORLD, &q[1]);
// CHECK: .c:[[@LINE-1]]:3: remark: the send is not deferred: a volatile read on line [[@LINE+1]] comes before any MPI call TEMPI intercepts
  while (!vflag)
    ;
  MPI_Wait(&q[1], MPI_STATUS_IGNORE);
}

void compute_between(double *a, double *u, int n, MPI_Request *q) {
  MPI_Datatype col;
  MPI_Type_vector(8, 1, 8, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  MPI_Isend(a, 1, col, 1, 0, MPI_COMM_WORLD, &q[1]);
// CHECK: .c:[[@LINE-1]]:3: remark: the send is deferred: the next call TEMPI intercepts is MPI_Waitall on line [[@LINE+4]]
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    u[i] = 0.5 * u[i];
  MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
}

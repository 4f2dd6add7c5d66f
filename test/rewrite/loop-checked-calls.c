// A counted loop that builds datatypes into an array through error checks: the constructor or
// commit may sit inside a statement that checks its result (a CHECK macro's `do { int rc =
// CALL; if (rc) ... } while (0)`, a checking function's argument, `if ((rc = CALL) !=
// MPI_SUCCESS)`), as long as the statement makes that one call exactly once each time it runs
// and holds no break, continue, goto or loop. Whatever else the check writes is never proven at
// the loop's exit, so a definition that reads it stays with the runtime.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi -I%S/Inputs > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%S/Inputs -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi -I%S/Inputs 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>
#include <mpi-more.h>
#include <stdio.h>
#include <stdlib.h>

#define N 16
#define CHECK(call)                                                                                \
  do {                                                                                             \
    int rc_ = (call);                                                                              \
    if (rc_ != MPI_SUCCESS) {                                                                      \
      fprintf(stderr, "%s failed\n", #call);                                                       \
      MPI_Abort(MPI_COMM_WORLD, rc_);                                                              \
    }                                                                                              \
  } while (0)

static void check(int rc, const char *what) {
  if (rc != MPI_SUCCESS) {
    fprintf(stderr, "%s failed\n", what);
    exit(1);
  }
}

void checked_macro(double *u) {
  MPI_Datatype col[3];
  for (int d = 0; d < 3; ++d) {
    CHECK(MPI_Type_vector(N, d + 1, N * 4, MPI_DOUBLE, &col[d]));
    CHECK(MPI_Type_commit(&col[d]));
  }
  MPI_Send(u, 1, col[2], 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, col[2], 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'col[2]' holds vector(16, 3, 64, MPI_DOUBLE)
}

void checked_function(double *u) {
  MPI_Datatype col[2];
  for (int d = 0; d < 2; ++d) {
    check(MPI_Type_vector(N, 1, N + d, MPI_DOUBLE, &col[d]), "MPI_Type_vector");
    check(MPI_Type_commit(&col[d]), "MPI_Type_commit");
  }
  MPI_Send(u, 1, col[1], 1, 1, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, col[1], 1, 1, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'col[1]' holds vector(16, 1, 17, MPI_DOUBLE)
}

void checked_if(double *u) {
  MPI_Datatype col[2];
  int rc;
  for (int d = 0; d < 2; ++d) {
    if ((rc = MPI_Type_contiguous(d + 2, MPI_DOUBLE, &col[d])) != MPI_SUCCESS)
      MPI_Abort(MPI_COMM_WORLD, rc);
    if (MPI_Type_commit(&col[d]) != MPI_SUCCESS)
      return;
  }
  MPI_Send(u, 1, col[1], 1, 2, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, col[1], 1, 2, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'col[1]' holds contiguous(3, MPI_DOUBLE)
}

// The check may skip the constructor: it is the right operand of ||.
void conditional_call(double *u, int skip) {
  MPI_Datatype col[2];
  for (int d = 0; d < 2; ++d)
    if (skip || MPI_Type_contiguous(2, MPI_DOUBLE, &col[d]) != MPI_SUCCESS)
      MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Send(u, 1, col[0], 1, 3, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, col[0], 1, 3, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'col[0]' of MPI_Send is left to the runtime: 'col[0]' is written through a non-constant index
}

// The check leaves the loop early.
void breaks_out(double *u) {
  MPI_Datatype col[2];
  for (int d = 0; d < 2; ++d)
    if (MPI_Type_contiguous(2, MPI_DOUBLE, &col[d]) != MPI_SUCCESS)
      break;
  MPI_Send(u, 1, col[0], 1, 4, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, col[0], 1, 4, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'col[0]' of MPI_Send is left to the runtime: 'col[0]' is written through a non-constant index
}

// The check writes a count a later iteration's constructor reads.
void check_writes_count(double *u) {
  MPI_Datatype col[2];
  int n = 4;
  for (int d = 0; d < 2; ++d)
    if (MPI_Type_contiguous(n, MPI_DOUBLE, &col[d]) != MPI_SUCCESS)
      n = 1;
  MPI_Send(u, 1, col[1], 1, 5, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, col[1], 1, 5, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'col[1]' of MPI_Send is left to the runtime: count depends on 'n', which
}

// Two constructors in one check: which one writes is not one call.
void two_calls(double *u) {
  MPI_Datatype col[2], row[2];
  for (int d = 0; d < 2; ++d)
    check(MPI_Type_contiguous(2, MPI_DOUBLE, &col[d]) | MPI_Type_contiguous(3, MPI_DOUBLE, &row[d]),
          "two");
  MPI_Send(u, 1, col[1], 1, 6, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, col[1], 1, 6, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'col[1]' of MPI_Send is left to the runtime: 'col[1]' is written through a non-constant index
}

// An array of static storage, built through checks in an init function.
static MPI_Datatype faces[2];

static void init_faces(void) {
  for (int f = 0; f < 2; ++f) {
    CHECK(MPI_Type_vector(N, 2, N + 4 * f, MPI_DOUBLE, &faces[f]));
    CHECK(MPI_Type_commit(&faces[f]));
  }
}

void send_faces(double *u) {
  init_faces();
  for (int f = 0; f < 2; ++f)
    MPI_Send(u, 1, faces[f], 1, 7, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, faces[f], 1, 7, MPI_COMM_WORLD, tempi_gen_plans_{{[0-9]+}}[f]);
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'faces[f]' takes its plan by the same index, tempi_gen_plans_{{[0-9]+}}[f] {faces[0]: vector(16, 2, 16, MPI_DOUBLE), {{.*}}; faces[1]: vector(16, 2, 20, MPI_DOUBLE)
}

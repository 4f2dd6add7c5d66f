// A loop the tool cannot read whole (its body declares and sets up its own size arrays, or does
// other work) is evaluated iteration by iteration: for a counted loop header (bounds constants,
// or locals never written after a constant initializer) over a local integer
// nothing writes in the body or through a pointer, with at most 64 iterations and no break,
// continue or goto in the body, a constructor that is a statement of the body (or the one call
// of an error check there) writing &a[f(i)] defines element f(k) in iteration k. It is proven at
// the call, in a flow of the function where i is k inside the loop's body, so the body's own
// set-up is straight-line code there. Anything that crosses iterations stays unproven.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

#define N 4
#define NT (N + 2)

// The six faces of a ghosted cube, two per dimension, as solver codes write them.
void faces(double *g, int left, int right) {
  MPI_Datatype send_face[6], recv_face[6];
  MPI_Request reqs[12];
  int d;
  for (d = 0; d < 3; ++d) {
    int sizes[3] = {NT, NT, NT}, sub[3] = {N, N, N}, start[3] = {1, 1, 1};
    sub[d] = 1;
    start[d] = 1;
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &send_face[2 * d]);
    start[d] = N;
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &send_face[2 * d + 1]);
    start[d] = 0;
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &recv_face[2 * d]);
    start[d] = N + 1;
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &recv_face[2 * d + 1]);
  }
  for (d = 0; d < 6; ++d) {
    MPI_Type_commit(&send_face[d]);
    MPI_Type_commit(&recv_face[d]);
  }
  for (d = 0; d < 3; ++d) {
    MPI_Irecv(g, 1, recv_face[2 * d], left, 2 * d, MPI_COMM_WORLD, &reqs[4 * d]);
    MPI_Isend(g, 1, send_face[2 * d + 1], right, 2 * d, MPI_COMM_WORLD, &reqs[4 * d + 1]);
  }
  MPI_Waitall(6, reqs, MPI_STATUSES_IGNORE);
  MPI_Send(g, 1, recv_face[3], right, 9, MPI_COMM_WORLD);
  MPI_Send(g, 1, send_face[4], right, 10, MPI_COMM_WORLD);
}
// CHECK-LABEL: void faces(
// CHECK: tempi_Irecv(g, 1, recv_face[2 * d], left, 2 * d, MPI_COMM_WORLD, &reqs[4 * d], tempi_gen_plans_{{[0-9]+}}[2 * d]);
// CHECK: tempi_Send(g, 1, recv_face[3], right, 9, MPI_COMM_WORLD, &tempi_gen_plan_
// CHECK: tempi_Send(g, 1, send_face[4], right, 10, MPI_COMM_WORLD, &tempi_gen_plan_
// REMARK: remark: rewritten: MPI_Irecv -> tempi_Irecv: 'recv_face[2 * d]' takes its plan by the same index, tempi_gen_plans_{{[0-9]+}}[2 * d] {recv_face[0]: subarray(3, [6, 6, 6], [1, 4, 4], [0, 1, 1], C, MPI_DOUBLE), {{.*}}; recv_face[1]: subarray(3, [6, 6, 6], [1, 4, 4], [5, 1, 1], C, MPI_DOUBLE), {{.*}}; recv_face[2]: subarray(3, [6, 6, 6], [4, 1, 4], [1, 0, 1], C, MPI_DOUBLE), {{.*}}; recv_face[3]: subarray(3, [6, 6, 6], [4, 1, 4], [1, 5, 1], C, MPI_DOUBLE), {{.*}}; recv_face[4]: subarray(3, [6, 6, 6], [4, 4, 1], [1, 1, 0], C, MPI_DOUBLE), {{.*}}; recv_face[5]: subarray(3, [6, 6, 6], [4, 4, 1], [1, 1, 5], C, MPI_DOUBLE)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'recv_face[3]' holds subarray(3, [6, 6, 6], [4, 1, 4], [1, 5, 1], C, MPI_DOUBLE)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'send_face[4]' holds subarray(3, [6, 6, 6], [4, 4, 1], [1, 1, 1], C, MPI_DOUBLE)

// A column and the plane built from it in one iteration, with a body-local count and a check.
static void check(int rc) {
  if (rc != MPI_SUCCESS)
    MPI_Finalize();
}
void planes(double *u) {
  MPI_Datatype col[2], plane[2];
  for (int k = 0; k < 2; k++) {
    int width = k + 1;
    check(MPI_Type_vector(N, width, NT, MPI_DOUBLE, &col[k]));
    MPI_Type_create_hvector(N, 1, NT * NT * sizeof(double), col[k], &plane[k]);
    MPI_Type_commit(&plane[k]);
  }
  MPI_Send(u, 1, plane[1], 1, 0, MPI_COMM_WORLD);
}
// CHECK-LABEL: void planes(
// CHECK: tempi_Send(u, 1, plane[1], 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'plane[1]' holds hvector(4, 1, 288, vector(4, 2, 6, MPI_DOUBLE))

// An array of static storage built by such a loop in an init function.
static MPI_Datatype halo[4];
static void init_halo(void) {
  for (int h = 0; h < 4; ++h) {
    int lens[2] = {1, 1};
    lens[h % 2 == 0 ? 0 : 1] = 2;
    MPI_Type_vector(N, h + 1, NT, MPI_DOUBLE, &halo[h]);
  }
}
void send_halo(double *u) {
  init_halo();
  MPI_Send(u, 1, halo[3], 1, 1, MPI_COMM_WORLD);
}
// CHECK-LABEL: void send_halo(
// CHECK: tempi_Send(u, 1, halo[3], 1, 1, MPI_COMM_WORLD, &tempi_gen_plan_
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'halo[3]' holds vector(4, 4, 6, MPI_DOUBLE)

// Refused: a count carried from one iteration to the next.
void carried(double *u) {
  MPI_Datatype t[3];
  int n = 2;
  for (int k = 0; k < 3; ++k) {
    MPI_Type_contiguous(n, MPI_DOUBLE, &t[k]);
    n = n * 2;
  }
  MPI_Send(u, 1, t[1], 1, 2, MPI_COMM_WORLD);
}
// CHECK-LABEL: void carried(
// CHECK: {{^}}  MPI_Send(u, 1, t[1], 1, 2, MPI_COMM_WORLD);
// REMARK: remark: datatype 't[1]' of MPI_Send is left to the runtime: count depends on 'n', which

// Refused: the loop variable is written in the body.
void skips(double *u) {
  MPI_Datatype t[4];
  for (int k = 0; k < 4; ++k) {
    MPI_Type_contiguous(2, MPI_DOUBLE, &t[k]);
    if (k == 1)
      k++;
  }
  MPI_Send(u, 1, t[0], 1, 3, MPI_COMM_WORLD);
}
// CHECK-LABEL: void skips(
// CHECK: {{^}}  MPI_Send(u, 1, t[0], 1, 3, MPI_COMM_WORLD);
// REMARK: remark: datatype 't[0]' of MPI_Send is left to the runtime: 't[0]' is written through a non-constant index

// Refused: the body may leave the loop early.
void leaves(double *u, int stop) {
  MPI_Datatype t[2];
  for (int k = 0; k < 2; ++k) {
    if (stop)
      break;
    MPI_Type_contiguous(2, MPI_DOUBLE, &t[k]);
  }
  MPI_Send(u, 1, t[0], 1, 4, MPI_COMM_WORLD);
}
// CHECK-LABEL: void leaves(
// CHECK: {{^}}  MPI_Send(u, 1, t[0], 1, 4, MPI_COMM_WORLD);
// REMARK: remark: datatype 't[0]' of MPI_Send is left to the runtime: 't[0]' is written through a non-constant index

// Refused: the constructor runs only in some iterations.
void sometimes(double *u, int flag) {
  MPI_Datatype t[2];
  for (int k = 0; k < 2; ++k) {
    int n = 2;
    if (flag)
      MPI_Type_contiguous(n, MPI_DOUBLE, &t[k]);
  }
  MPI_Send(u, 1, t[0], 1, 5, MPI_COMM_WORLD);
}
// CHECK-LABEL: void sometimes(
// CHECK: {{^}}  MPI_Send(u, 1, t[0], 1, 5, MPI_COMM_WORLD);
// REMARK: remark: datatype 't[0]' of MPI_Send is left to the runtime: 't[0]' is written through a non-constant index

// Refused: one element written by every iteration, and an index past the array's end.
void same_element(double *u) {
  MPI_Datatype t[3], s[2];
  for (int k = 0; k < 2; ++k) {
    int n = k + 1;
    MPI_Type_contiguous(n, MPI_DOUBLE, &t[k - k]);
  }
  for (int k = 0; k < 2; ++k) {
    int n = k + 1;
    MPI_Type_contiguous(n, MPI_DOUBLE, &s[k + 1]);
  }
  MPI_Send(u, 1, t[0], 1, 6, MPI_COMM_WORLD);
  MPI_Send(u, 1, s[1], 1, 7, MPI_COMM_WORLD);
}
// CHECK-LABEL: void same_element(
// CHECK: {{^}}  MPI_Send(u, 1, t[0], 1, 6, MPI_COMM_WORLD);
// CHECK: {{^}}  MPI_Send(u, 1, s[1], 1, 7, MPI_COMM_WORLD);
// REMARK: remark: datatype 't[0]' of MPI_Send is left to the runtime: 't[0]' is written by two iterations of the loop on line {{[0-9]+}} (its variable 0 and 1)
// REMARK: remark: datatype 's[1]' of MPI_Send is left to the runtime: 's[1]' is written through a non-constant index

// Refused: more iterations than the tool evaluates one by one (64).
void long_loop(double *u) {
  MPI_Datatype t[100];
  for (int k = 0; k < 100; ++k) {
    int n = k + 1;
    MPI_Type_contiguous(n, MPI_DOUBLE, &t[k]);
  }
  MPI_Send(u, 1, t[70], 1, 8, MPI_COMM_WORLD);
}
// CHECK-LABEL: void long_loop(
// CHECK: {{^}}  MPI_Send(u, 1, t[70], 1, 8, MPI_COMM_WORLD);
// REMARK: remark: datatype 't[70]' of MPI_Send is left to the runtime: 't[70]' is written through a non-constant index

// An iteration reads an element an earlier iteration built: defined at the loop's head by that
// iteration's constructor, so col[2] is built on col[0] as iteration 0 left it.
void reads_earlier(double *u) {
  MPI_Datatype col[3];
  col[0] = MPI_DOUBLE;
  for (int k = 0; k < 3; ++k) {
    int n = 2;
    MPI_Type_contiguous(n, col[0], &col[k]);
  }
  MPI_Send(u, 1, col[2], 1, 11, MPI_COMM_WORLD);
}
// CHECK-LABEL: void reads_earlier(
// CHECK: tempi_Send(u, 1, col[2], 1, 11, MPI_COMM_WORLD, &tempi_gen_plan_
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'col[2]' holds contiguous(2, contiguous(2, MPI_DOUBLE))

// Refused: a count array the body writes by the loop's variable, which an iteration reads at an
// element an earlier iteration wrote (len[0] is 5 from iteration 1 on).
void outer_counts(double *u) {
  MPI_Datatype t[3];
  int len[3] = {1, 1, 1};
  for (int k = 0; k < 3; ++k) {
    int n = 2;
    MPI_Type_contiguous(len[0] + n, MPI_DOUBLE, &t[k]);
    len[k] = 5;
  }
  MPI_Send(u, 1, t[1], 1, 12, MPI_COMM_WORLD);
}
// CHECK-LABEL: void outer_counts(
// CHECK: {{^}}  MPI_Send(u, 1, t[1], 1, 12, MPI_COMM_WORLD);
// REMARK: remark: datatype 't[1]' of MPI_Send is left to the runtime: count depends on 'len[0]', which is written by every iteration through the loop's variable on line {{[0-9]+}}

// A builder helper called in the loop with &face[d], its parameter bound to each iteration's d.
static void make_face(MPI_Datatype *out, int d) {
  int sizes[3] = {NT, NT, NT}, sub[3] = {N, N, N}, start[3] = {1, 1, 1};
  sub[d] = 1;
  MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, out);
}
void helper_faces(double *u) {
  MPI_Datatype face[3];
  for (int d = 0; d < 3; ++d) {
    make_face(&face[d], d);
    MPI_Type_commit(&face[d]);
  }
  MPI_Send(u, 1, face[1], 1, 13, MPI_COMM_WORLD);
}
// CHECK-LABEL: void helper_faces(
// CHECK: tempi_Send(u, 1, face[1], 1, 13, MPI_COMM_WORLD, &tempi_gen_plan_
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'face[1]' holds subarray(3, [6, 6, 6], [4, 1, 4], [1, 1, 1], C, MPI_DOUBLE)

// A bound held in a local that is never written after its constant initializer.
void local_bound(double *u) {
  int nfaces = 3, changed = 2;
  MPI_Datatype t[3], s[3];
  for (int k = 0; k < nfaces; ++k) {
    int w = k + 1;
    MPI_Type_contiguous(w, MPI_DOUBLE, &t[k]);
  }
  MPI_Send(u, 1, t[2], 1, 14, MPI_COMM_WORLD);
  changed++;
  for (int k = 0; k < changed; ++k) {
    int w = k + 1;
    MPI_Type_contiguous(w, MPI_DOUBLE, &s[k]);
  }
  MPI_Send(u, 1, s[1], 1, 15, MPI_COMM_WORLD);
}
// CHECK-LABEL: void local_bound(
// CHECK: tempi_Send(u, 1, t[2], 1, 14, MPI_COMM_WORLD, &tempi_gen_plan_
// CHECK: {{^}}  MPI_Send(u, 1, s[1], 1, 15, MPI_COMM_WORLD);
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 't[2]' holds contiguous(3, MPI_DOUBLE)
// REMARK: remark: datatype 's[1]' of MPI_Send is left to the runtime: 's[1]' is written through a non-constant index

// An inner counted loop sets the body's sizes from the outer loop's variable.
void inner_loop(double *u) {
  int sizes[3] = {NT, NT, NT}, starts[3] = {1, 1, 1};
  MPI_Datatype face[3];
  for (int d = 0; d < 3; ++d) {
    int sub[3];
    for (int j = 0; j < 3; ++j)
      sub[j] = (j == d) ? 1 : N;
    MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_C, MPI_DOUBLE, &face[d]);
    MPI_Type_commit(&face[d]);
  }
  MPI_Send(u, 1, face[1], 1, 16, MPI_COMM_WORLD);
}
// CHECK-LABEL: void inner_loop(
// CHECK: tempi_Send(u, 1, face[1], 1, 16, MPI_COMM_WORLD, &tempi_gen_plan_
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'face[1]' holds subarray(3, [6, 6, 6], [4, 1, 4], [1, 1, 1], C, MPI_DOUBLE)

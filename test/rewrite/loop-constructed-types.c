// Datatypes built by a counted loop into an array (`for (d = 0; d < 3; d++)
// MPI_Type_create_subarray(..., &face[d]);`) are proven element by element: a loop with constant
// bounds whose body holds only constructors writing &a[d], MPI_Type_commit(&a[d]) and a[d] = E,
// with every argument free of side effects and reading an array the body writes only as w[d]
// after the statement that writes it, defines a[lo..hi-1] where it exits, each read with d = its
// index. Rows of local two-dimensional arrays (`subsizes[d]` of `int subsizes[3][3]`) are read
// element by element. Anything else keeps the refusal.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

#define N 32
#define R 2
#define NT (N + 2 * R)

void fill(int *row);

// The three faces of a cube, their subsizes and starts kept as rows of 2-D arrays.
void faces_from_rows(double *u) {
  MPI_Datatype face[3];
  MPI_Request reqs[3];
  int sizes[3] = {NT, NT, NT};
  int subsizes[3][3] = {{R, N, N}, {N, R, N}, {N, N, 0}};
  int starts[3][3] = {{R, R, R}, {R, R, R}, {R, R, R}};
  int d;
  subsizes[2][2] = R; // a constant-index write after the initializer wins for its element
  for (d = 0; d < 3; d++) {
    MPI_Type_create_subarray(3, sizes, subsizes[d], starts[d], MPI_ORDER_C, MPI_DOUBLE, &face[d]);
    MPI_Type_commit(&face[d]);
  }
  for (d = 0; d < 3; d++)
    MPI_Isend(u, 1, face[d], 1, d, MPI_COMM_WORLD, &reqs[d]);
  MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE);
  MPI_Send(u, 1, face[2], 1, 9, MPI_COMM_WORLD);
}

// A column per iteration, then a plane of columns built from it in the same iteration.
void nested(double *u) {
  MPI_Datatype col[3], plane[3];
  for (int d = 0; d < 3; ++d) {
    MPI_Type_vector(N, d + 1, NT, MPI_DOUBLE, &col[d]);
    MPI_Type_create_hvector(N, 1, NT * NT * sizeof(double), col[d], &plane[d]);
    MPI_Type_commit(&plane[d]);
  }
  MPI_Send(u, 1, plane[1], 1, 0, MPI_COMM_WORLD);
}

// Counts from a conditional on the index and from an array another counted loop filled; the
// whole array handed to MPI_Alltoallw.
void alltoallw_types(double *a, double *b) {
  MPI_Datatype types[3];
  int counts[3] = {1, 1, 1}, displs[3] = {0, 0, 0}, lens[3];
  for (int k = 0; k < 3; ++k)
    lens[k] = 2 * k + 1;
  for (int k = 0; k < 3; ++k) {
    MPI_Type_vector(k == 0 ? 4 : 8, lens[k], 16, MPI_DOUBLE, &types[k]);
    MPI_Type_commit(&types[k]);
  }
  MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD);
}

// The plane reads col[d] before this iteration writes it: not a loop read whole, but one
// evaluated iteration by iteration (loop-iterations.c), where col[1] in iteration 1 is still the
// value from before the loop (iteration 0 rebuilt col[0]).
void read_before_write(double *u) {
  MPI_Datatype col[3], plane[3];
  MPI_Type_vector(N, 1, NT, MPI_DOUBLE, &col[0]);
  MPI_Type_vector(N, 1, NT, MPI_DOUBLE, &col[1]);
  MPI_Type_vector(N, 1, NT, MPI_DOUBLE, &col[2]);
  for (int d = 0; d < 3; ++d) {
    MPI_Type_create_hvector(N, 1, NT * NT * sizeof(double), col[d], &plane[d]);
    MPI_Type_vector(N, 2, NT, MPI_DOUBLE, &col[d]);
  }
  MPI_Send(u, 1, plane[1], 1, 0, MPI_COMM_WORLD);
}

// An element of the array the loop writes read at another index: in iteration k, col[0] is what
// iteration 0 built (evaluated iteration by iteration, loop-iterations.c).
void other_index(double *u) {
  MPI_Datatype col[3], plane[3];
  for (int d = 0; d < 3; ++d) {
    MPI_Type_vector(N, d + 1, NT, MPI_DOUBLE, &col[d]);
    MPI_Type_create_hvector(N, 1, NT * NT * sizeof(double), col[0], &plane[d]);
  }
  MPI_Send(u, 1, plane[1], 1, 0, MPI_COMM_WORLD);
}

// Another statement in the loop: the loop is not read whole, but evaluated iteration by
// iteration (since session 19, loop-iterations.c); the counter does not reach t.
void other_statement(double *u) {
  MPI_Datatype t[2];
  int calls = 0;
  for (int d = 0; d < 2; ++d) {
    MPI_Type_vector(N, 1, NT, MPI_DOUBLE, &t[d]);
    calls++;
  }
  MPI_Send(u, 1, t[1], 1, 0, MPI_COMM_WORLD);
}

// Refused: a row of a 2-D array passed where it may be written.
void row_escapes(double *u) {
  MPI_Datatype face;
  int sizes[3] = {NT, NT, NT}, sub[2][3] = {{R, N, N}, {N, R, N}}, starts[3] = {0, 0, 0};
  fill(sub[1]);
  MPI_Type_create_subarray(3, sizes, sub[0], starts, MPI_ORDER_C, MPI_DOUBLE, &face);
  MPI_Send(u, 1, face, 1, 0, MPI_COMM_WORLD);
}

// Refused: a 2-D array written through a non-constant index.
void row_written_in_loop(double *u) {
  MPI_Datatype face;
  int sizes[3] = {NT, NT, NT}, sub[2][3], starts[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k)
    sub[0][k] = N;
  MPI_Type_create_subarray(3, sizes, sub[0], starts, MPI_ORDER_C, MPI_DOUBLE, &face);
  MPI_Send(u, 1, face, 1, 0, MPI_COMM_WORLD);
}
// Refused: the address of one element reaches every element (fill may write counts[0]).
void element_address_escapes(double *u) {
  MPI_Datatype t;
  int counts[3] = {4, 1, 8};
  fill(&counts[2]);
  MPI_Type_vector(counts[0], counts[1], 16, MPI_DOUBLE, &t);
  MPI_Send(u, 1, t, 1, 0, MPI_COMM_WORLD);
}
// CHECK-LABEL: void faces_from_rows(double *u) {
// CHECK: {{^}}    tempi_Isend{{(_deferred)?}}(u, 1, face[d], 1, d, MPI_COMM_WORLD, &reqs[d], [[FACES:tempi_gen_plans_[0-9]+]][d]);
// CHECK: {{^}}  tempi_Send(u, 1, face[2], 1, 9, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void nested(double *u) {
// CHECK: {{^}}  tempi_Send(u, 1, plane[1], 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void alltoallw_types(double *a, double *b) {
// CHECK: {{^}}  tempi_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD, [[T:tempi_gen_plans_[0-9]+]], [[T]]);
// CHECK-LABEL: void read_before_write(double *u) {
// CHECK: {{^}}  tempi_Send(u, 1, plane[1], 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
// CHECK-LABEL: void other_index(double *u) {
// CHECK: {{^}}  tempi_Send(u, 1, plane[1], 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
// CHECK-LABEL: void other_statement(double *u) {
// CHECK: {{^}}  tempi_Send(u, 1, t[1], 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
// CHECK-LABEL: void row_escapes(double *u) {
// CHECK: {{^}}  MPI_Send(u, 1, face, 1, 0, MPI_COMM_WORLD);
// CHECK-LABEL: void row_written_in_loop(double *u) {
// CHECK: {{^}}  MPI_Send(u, 1, face, 1, 0, MPI_COMM_WORLD);
// CHECK-LABEL: void element_address_escapes(double *u) {
// CHECK: {{^}}  MPI_Send(u, 1, t, 1, 0, MPI_COMM_WORLD);

// REMARK: remark: rewritten: MPI_Isend -> tempi_Isend{{(_deferred)?}}: 'face[d]' takes its plan by the same index, tempi_gen_plans_{{[0-9]+}}[d] {face[0]: subarray(3, [36, 36, 36], [2, 32, 32], [2, 2, 2], C, MPI_DOUBLE), {{.*}}; face[1]: subarray(3, [36, 36, 36], [32, 2, 32], [2, 2, 2], C, MPI_DOUBLE), {{.*}}; face[2]: subarray(3, [36, 36, 36], [32, 32, 2], [2, 2, 2], C, MPI_DOUBLE), {{.*}}}
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'face[2]' holds subarray(3, [36, 36, 36], [32, 32, 2], [2, 2, 2], C, MPI_DOUBLE)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'plane[1]' holds hvector(32, 1, 10368, vector(32, 2, 36, MPI_DOUBLE))
// REMARK: remark: rewritten: MPI_Alltoallw -> tempi_Alltoallw: 'types' has plans tempi_gen_plans_{{[0-9]+}} {types[0]: vector(4, 1, 16, MPI_DOUBLE), {{.*}}; types[1]: vector(8, 3, 16, MPI_DOUBLE), {{.*}}; types[2]: vector(8, 5, 16, MPI_DOUBLE), {{.*}}}
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'plane[1]' holds hvector(32, 1, 10368, vector(32, 1, 36, MPI_DOUBLE))
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'plane[1]' holds hvector(32, 1, 10368, vector(32, 1, 36, MPI_DOUBLE))
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 't[1]' holds vector(32, 1, 36, MPI_DOUBLE)
// REMARK: remark: datatype 'face' of MPI_Send is left to the runtime: array_of_subsizes[0] depends on 'sub[0][0]', which has a row passed to 'fill'
// REMARK: remark: datatype 'face' of MPI_Send is left to the runtime: array_of_subsizes[0] depends on 'sub[0][0]', which is written through a non-constant index
// REMARK: remark: datatype 't' of MPI_Send is left to the runtime: count depends on 'counts[0]', which has its address passed to 'fill'

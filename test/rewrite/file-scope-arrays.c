// Arrays of datatypes in static storage (`static MPI_Datatype face[3];`), built once by an init
// function and used by the exchange: element k is proven when exactly one constructor in the file
// writes &face[k], by a constant index or in a counted loop the tool reads whole, with arguments
// proven where it stands (the loop's variable read as k); the array is otherwise only read, its
// elements committed or freed, or handed whole to a pointer-to-const parameter. A read by a loop
// variable takes its plan by the same index, and MPI_Alltoallw takes the array's plans.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
// RUN: tempi-rewrite --whole-program %t.c -- -I%mock_mpi > %t.whole.c
// RUN: grep -v "^// [A-Z]" %t.whole.c | FileCheck --check-prefix=WHOLE %s
#include <mpi.h>

#define N 32
#define R 2
#define NT (N + 2 * R)

static MPI_Datatype face[3];                      // a counted loop, one element per face
static MPI_Datatype pair[2] = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL}; // constant indices
static MPI_Datatype twice[2];                     // element 1 built twice
static MPI_Datatype some[4];                      // element 3 never built
static MPI_Datatype by_n[2];                      // a non-constant index outside a loop
static MPI_Datatype leaked[2];                    // the array handed to another function
static MPI_Datatype preset[2] = {MPI_DOUBLE, MPI_INT}; // initialized to datatypes
MPI_Datatype g_faces[2];                          // external linkage

void keep(MPI_Datatype *t);

static void init_types(int n) {
  int sizes[3] = {NT, NT, NT};
  int subsizes[3][3] = {{R, N, N}, {N, R, N}, {N, N, R}};
  int starts[3] = {R, R, R};
  for (int d = 0; d < 3; d++) {
    MPI_Type_create_subarray(3, sizes, subsizes[d], starts, MPI_ORDER_C, MPI_DOUBLE, &face[d]);
    MPI_Type_commit(&face[d]);
  }
  MPI_Type_vector(N, 1, NT, MPI_DOUBLE, &pair[0]);
  MPI_Type_vector(N, 2, NT, MPI_DOUBLE, &pair[1]);
  MPI_Type_commit(&pair[0]);
  MPI_Type_commit(&pair[1]);
  MPI_Type_contiguous(4, MPI_DOUBLE, &twice[0]);
  MPI_Type_contiguous(8, MPI_DOUBLE, &twice[1]);
  MPI_Type_contiguous(16, MPI_DOUBLE, &twice[1]);
  for (int k = 0; k < 3; ++k)
    MPI_Type_contiguous(k + 1, MPI_DOUBLE, &some[k]);
  MPI_Type_contiguous(2, MPI_DOUBLE, &by_n[0]);
  MPI_Type_contiguous(4, MPI_DOUBLE, &by_n[n]);
  MPI_Type_contiguous(2, MPI_DOUBLE, &leaked[0]);
  keep(leaked);
  MPI_Type_vector(N, 3, NT, MPI_DOUBLE, &g_faces[0]);
  MPI_Type_vector(N, 4, NT, MPI_DOUBLE, &g_faces[1]);
}

static void exchange(double *u, int peer) {
  MPI_Request reqs[3];
  // CHECK-LABEL: static void exchange(
  for (int d = 0; d < 3; d++)
    MPI_Isend(u, 1, face[d], peer, d, MPI_COMM_WORLD, &reqs[d]);
  // CHECK: tempi_Isend{{(_deferred)?}}(u, 1, face[d], peer, d, MPI_COMM_WORLD, &reqs[d], [[FACES:tempi_gen_plans_[0-9]+]][d]);
  // REMARK: remark: rewritten: MPI_Isend -> tempi_Isend{{(_deferred)?}}: 'face[d]' takes its plan by the same index, tempi_gen_plans_{{[0-9]+}}[d] {face[0]: subarray(3, [36, 36, 36], [2, 32, 32], [2, 2, 2], C, MPI_DOUBLE), {{.*}}; face[1]: subarray(3, [36, 36, 36], [32, 2, 32], [2, 2, 2], C, MPI_DOUBLE), {{.*}}; face[2]: subarray(3, [36, 36, 36], [32, 32, 2], [2, 2, 2], C, MPI_DOUBLE), {{.*}}}
  MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE);
  MPI_Send(u, 1, face[2], peer, 3, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, face[2], peer, 3, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'face[2]' holds subarray(3, [36, 36, 36], [32, 32, 2], [2, 2, 2], C, MPI_DOUBLE)
  MPI_Send(u, 1, pair[1], peer, 4, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, pair[1], peer, 4, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'pair[1]' holds vector(32, 2, 36, MPI_DOUBLE)
  MPI_Send(u, 1, twice[0], peer, 5, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, twice[0], peer, 5, MPI_COMM_WORLD, &tempi_gen_plan_
  MPI_Send(u, 1, twice[1], peer, 6, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, twice[1], peer, 6, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'twice[1]' of MPI_Send is left to the runtime: 'twice[1]' is built on line 45 and on line 46
  MPI_Send(u, 1, some[2], peer, 7, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, some[2], peer, 7, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'some[2]' holds contiguous(3, MPI_DOUBLE)
  MPI_Send(u, 1, some[3], peer, 8, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, some[3], peer, 8, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'some[3]' of MPI_Send is left to the runtime: 'some[3]' is never built by a datatype constructor in this file
  MPI_Send(u, 1, by_n[0], peer, 9, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, by_n[0], peer, 9, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'by_n[0]' of MPI_Send is left to the runtime: 'by_n' is built through a non-constant index on line 50 (outside a counted loop the tool reads whole)
  MPI_Send(u, 1, leaked[0], peer, 10, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, leaked[0], peer, 10, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'leaked[0]' of MPI_Send is left to the runtime: 'leaked' is passed to 'keep' on line 52
  MPI_Send(u, 1, preset[0], peer, 11, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, preset[0], peer, 11, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'preset[0]' of MPI_Send is left to the runtime: 'preset' is initialized on line 27 and may be written later (only MPI_DATATYPE_NULL is followed)
  MPI_Send(u, 1, g_faces[1], peer, 12, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, g_faces[1], peer, 12, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'g_faces[1]' of MPI_Send is left to the runtime: 'g_faces' is a global variable that another file may write
  // WHOLE: tempi_Send(u, 1, g_faces[1], peer, 12, MPI_COMM_WORLD, &tempi_gen_plan_
}

// The whole array to MPI_Alltoallw, which reads it through a pointer to const.
static void all_faces(double *a, double *b) {
  int counts[3] = {1, 1, 1}, displs[3] = {0, 0, 0};
  MPI_Alltoallw(a, counts, displs, face, b, counts, displs, face, MPI_COMM_WORLD);
  // CHECK: tempi_Alltoallw(a, counts, displs, face, b, counts, displs, face, MPI_COMM_WORLD, [[T:tempi_gen_plans_[0-9]+]], [[T]]);
}

// A function's static array built lazily on first use.
static MPI_Datatype lazy_column(int which) {
  static MPI_Datatype cols[2];
  static int ready = 0;
  if (!ready) {
    for (int c = 0; c < 2; ++c) {
      MPI_Type_vector(N, c + 1, NT, MPI_DOUBLE, &cols[c]);
      MPI_Type_commit(&cols[c]);
    }
    ready = 1;
  }
  return cols[which];
}

static void free_types(void) {
  for (int d = 0; d < 3; d++)
    MPI_Type_free(&face[d]);
  MPI_Type_free(&pair[0]);
  MPI_Type_free(&pair[1]);
}

// Built by a builder helper: a variable, and an array's elements in a loop evaluated iteration
// by iteration (loop-iterations.c).
static MPI_Datatype by_helper;
static MPI_Datatype helper_faces[3];

static void make_column(MPI_Datatype *out, int width) {
  MPI_Type_vector(N, width, NT, MPI_DOUBLE, out);
}

static void init_helpers(void) {
  make_column(&by_helper, 3);
  MPI_Type_commit(&by_helper);
  for (int d = 0; d < 3; ++d) {
    make_column(&helper_faces[d], d + 1);
    MPI_Type_commit(&helper_faces[d]);
  }
}

static void send_helpers(double *u) {
  MPI_Send(u, 1, by_helper, 1, 20, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, by_helper, 1, 20, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'by_helper' holds vector(32, 3, 36, MPI_DOUBLE)
  MPI_Send(u, 1, helper_faces[1], 1, 21, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, helper_faces[1], 1, 21, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'helper_faces[1]' holds vector(32, 2, 36, MPI_DOUBLE)
}

int main(int argc, char **argv) {
  double u[NT * NT * NT], v[NT * NT * NT];
  MPI_Init(&argc, &argv);
  init_types(1);
  exchange(u, 1);
  all_faces(u, v);
  MPI_Send(u, 1, lazy_column(1), 1, 13, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, lazy_column(1), 1, 13, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'lazy_column(1)' holds vector(32, 2, 36, MPI_DOUBLE)
  free_types();
  init_helpers();
  send_helpers(u);
  MPI_Finalize();
  return 0;
}

// A struct of datatypes passed by pointer to functions the file defines: `setup(&h, NX)` builds
// its members through `h->col`, `exchange(&h, u)` sends with them. At the call, the caller's
// flow asks the function's own flow which members it writes through the pointer: each becomes
// a definition at the call, proven as the function leaves it (its one definition reaching the
// return on every path, with the other parameters bound to the call's arguments); a member the
// function only frees is freed at the call; what it only reads is untouched. Inside a function
// that reads `h->col` and never writes it, the value is what every call passes: each call's
// `&v`, a struct whose member the caller proves there (the function must be static).
// The pointer may only reach members (`h->m`): kept, passed on, or a member's address handed to
// an unknown function, the caller's struct escapes, as it does when a member is written through
// a non-constant index (a helper parameter bound to a constant argument names one element).
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

#define NX 64
#define NY 32

struct halo {
  MPI_Datatype col, row;
  MPI_Datatype face[4];
  int left, right;
};

struct halo *g_keep;
void remember(int *p);

// Builds every member once: through a local, from another member, in a counted loop.
static void setup(struct halo *h, int nx) {
  MPI_Comm_rank(MPI_COMM_WORLD, &h->left);
  h->right = h->left + 1;
  MPI_Datatype tmp;
  MPI_Type_vector(NY, 1, nx, MPI_DOUBLE, &tmp);
  MPI_Type_create_resized(tmp, 0, 8, &h->col);
  MPI_Type_free(&tmp);
  MPI_Type_commit(&h->col);
  MPI_Type_contiguous(2, h->col, &h->row);
  MPI_Type_commit(&h->row);
  for (int d = 0; d < 4; d++) {
    MPI_Type_vector(NY, d + 1, nx, MPI_DOUBLE, &h->face[d]);
    MPI_Type_commit(&h->face[d]);
  }
}

static void setup_maybe(struct halo *h, int nx, int flag) {
  if (flag)
    MPI_Type_vector(NY, 1, nx, MPI_DOUBLE, &h->col);
  MPI_Type_contiguous(nx, MPI_DOUBLE, &h->row);
}

static void setup_keep(struct halo *h) {
  g_keep = h;
  MPI_Type_contiguous(4, MPI_DOUBLE, &h->col);
}

static void setup_leak(struct halo *h) {
  MPI_Type_contiguous(4, MPI_DOUBLE, &h->col);
  remember(&h->left);
}

static void setup_index(struct halo *h, int k) {
  MPI_Type_contiguous(4, MPI_DOUBLE, &h->face[k]);
}

static void exchange(struct halo *h, double *u) {
  // CHECK-LABEL: static void exchange(
  MPI_Send(u, 1, h->col, h->left, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, h->col, h->left, 0, MPI_COMM_WORLD, tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'h->col' holds resized(0, 8, vector(32, 1, 64, MPI_DOUBLE))
  MPI_Send(u, 1, h->row, h->right, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, h->row, h->right, 0, MPI_COMM_WORLD, tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'h->row' holds contiguous(2, resized(0, 8, vector(32, 1, 64, MPI_DOUBLE)))
  for (int d = 0; d < 4; d++)
    MPI_Send(u, 1, h->face[d], h->right, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, h->face[d], h->right, 0, MPI_COMM_WORLD, tempi_gen_plans_{{[0-9]+}}[d]);
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'h->face[d]' takes its plan by the same index, tempi_gen_plans_{{[0-9]+}}[d] {h->face[0]: vector(32, 1, 64, MPI_DOUBLE)
}

// Writes the member it does not send: the send is still proven.
static void exchange_rebuild(struct halo *h, double *u) {
  // CHECK-LABEL: static void exchange_rebuild(
  MPI_Type_contiguous(3, MPI_DOUBLE, &h->col);
  MPI_Send(u, 1, h->row, h->right, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, h->row, h->right, 0, MPI_COMM_WORLD, tempi_gen_plan_
  MPI_Send(u, 1, h->col, h->right, 0, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, h->col, h->right, 0, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'h->col' of MPI_Send is left to the runtime: 'h->col' comes from a parameter of 'exchange_rebuild', in which 'h->col' is written on line [[@LINE-5]]
}

// Called with two differently built structs.
static void send_col(const struct halo *h, double *u) {
  // CHECK-LABEL: static void send_col(
  MPI_Send(u, 1, h->col, 1, 0, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, h->col, 1, 0, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'h->col' of MPI_Send is left to the runtime: 'h->col' comes from a parameter of 'send_col', whose argument on line [[#SENDCOL_M:]] is unresolved: 'm.col' is set by 'setup_maybe' (line [[#SETUP_MAYBE:]]), where 'h->col' is not defined on every path to its return
}

void exported(struct halo *h, double *u) {
  // CHECK-LABEL: void exported(
  MPI_Send(u, 1, h->col, 1, 0, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, h->col, 1, 0, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'h->col' of MPI_Send is left to the runtime: 'h->col' comes from a parameter of 'exported', which another file may call (it is not static)
}

static void teardown(struct halo *h) {
  MPI_Type_free(&h->col);
  MPI_Type_free(&h->row);
}

int main(int argc, char **argv) {
  // CHECK-LABEL: int main(
  double u[NX * NY];
  struct halo h, m, k, l, x, y;
  MPI_Init(&argc, &argv);
  setup(&h, NX);
  MPI_Send(u, 1, h.col, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, h.col, 1, 0, MPI_COMM_WORLD, tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'h.col' holds resized(0, 8, vector(32, 1, 64, MPI_DOUBLE))
  MPI_Send(u, 1, h.face[3], 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, h.face[3], 1, 0, MPI_COMM_WORLD, tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'h.face[3]' holds vector(32, 4, 64, MPI_DOUBLE)
  for (int it = 0; it < 10; it++)
    exchange(&h, u);
  send_col(&h, u);
  setup_maybe(&m, NX, argc > 1);
  MPI_Send(u, 1, m.col, 1, 0, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, m.col, 1, 0, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'm.col' of MPI_Send is left to the runtime: 'm.col' is set by 'setup_maybe' (line [[#SETUP_MAYBE]]), where 'h->col' is not defined on every path to its return
  MPI_Send(u, 1, m.row, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, m.row, 1, 0, MPI_COMM_WORLD, tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'm.row' holds contiguous(64, MPI_DOUBLE)
  send_col(&m, u);
  setup_keep(&k);
  MPI_Send(u, 1, k.col, 1, 0, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, k.col, 1, 0, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'k.col' of MPI_Send is left to the runtime: 'k.col' is in a struct whose address is passed to 'setup_keep' (where 'h' is used other than to reach a member ('h->m') on line 56) on line [[@LINE-3]]
  setup_leak(&l);
  MPI_Send(u, 1, l.col, 1, 0, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, l.col, 1, 0, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'l.col' of MPI_Send is left to the runtime: 'l.col' is in a struct whose address is passed to 'setup_leak' (where 'h' has the address of its member 'left' passed to 'remember' on line 62) on line [[@LINE-3]]
  setup_index(&x, argc);
  MPI_Send(u, 1, x.face[2], 1, 0, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, x.face[2], 1, 0, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'x.face[2]' of MPI_Send is left to the runtime: 'x.face[2]' is in a struct whose address is passed to 'setup_index' (where 'h' is written through a non-constant index on line 66) on line [[@LINE-3]]
  setup(&y, NX);
  exchange_rebuild(&y, u);
  MPI_Send(u, 1, y.col, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, y.col, 1, 0, MPI_COMM_WORLD, tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'y.col' holds contiguous(3, MPI_DOUBLE)
  exported(&h, u);
  teardown(&h);
  MPI_Send(u, 1, h.col, 1, 0, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, h.col, 1, 0, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'h.col' of MPI_Send is left to the runtime: 'h.col' is freed on line [[@LINE-3]] before this use
  MPI_Send(u, 1, h.face[1], 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, h.face[1], 1, 0, MPI_COMM_WORLD, tempi_gen_plan_
  MPI_Finalize();
  return 0;
}

// A member indexed by one of the helper's parameters: each call's constant argument names the
// element it writes; an argument that is not a constant leaves the element unknown.
struct faces {
  MPI_Datatype face[3];
};
enum { XDIM, YDIM, ZDIM };

static void make_face(struct faces *f, int dim) {
  int sizes[3] = {NY, NY, NY}, sub[3] = {NY, NY, NY}, start[3] = {0, 0, 0};
  sub[dim] = 1;
  MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &f->face[dim]);
  MPI_Type_commit(&f->face[dim]);
}

static void faces_by_dimension(double *u, int k) {
  // CHECK-LABEL: static void faces_by_dimension(
  struct faces f, g;
  make_face(&f, XDIM);
  make_face(&f, ZDIM);
  MPI_Send(u, 1, f.face[2], 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, f.face[2], 1, 0, MPI_COMM_WORLD, tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'f.face[2]' holds subarray(3, [32, 32, 32], [32, 32, 1], [0, 0, 0], C, MPI_DOUBLE)
  MPI_Send(u, 1, f.face[1], 1, 0, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, f.face[1], 1, 0, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'f.face[1]' of MPI_Send is left to the runtime: 'f.face[1]' is not defined before this use
  make_face(&g, k);
  MPI_Send(u, 1, g.face[1], 1, 0, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, g.face[1], 1, 0, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'g.face[1]' of MPI_Send is left to the runtime: 'g.face[1]' is in a struct whose address is passed to 'make_face' (where 'f' is written through a non-constant index on line {{[0-9]+}}) on line [[@LINE-3]]
}

// A static struct handed to the same functions: each member is built by the one call in the file
// whose function writes it (the rules of static storage), and read through readers' pointers
// (`const` or not) as every call's `&v` holds it.
static struct halo shared, shared_twice;

static void send_shared_col(const struct halo *h, double *u) {
  // CHECK-LABEL: static void send_shared_col(
  MPI_Send(u, 1, h->col, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, h->col, 1, 0, MPI_COMM_WORLD, tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'h->col' holds resized(0, 8, vector(32, 1, 64, MPI_DOUBLE))
}

static void statics(double *u) {
  // CHECK-LABEL: static void statics(
  setup(&shared, NX);
  setup(&shared_twice, NX);
  setup(&shared_twice, NX);
  send_shared_col(&shared, u);
  MPI_Send(u, 1, shared.face[1], 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, shared.face[1], 1, 0, MPI_COMM_WORLD, tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'shared.face[1]' holds vector(32, 2, 64, MPI_DOUBLE)
  MPI_Send(u, 1, shared_twice.col, 1, 0, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, shared_twice.col, 1, 0, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'shared_twice.col' of MPI_Send is left to the runtime: 'shared_twice.col' is built on line [[@LINE-8]] and on line [[@LINE-7]]
}

// MPI_Datatype members of a struct variable (`halo.col`, `h.row`): each datatype member is proven
// as an element of the variable is, numbered by its field index: a local struct's by the
// function's flow, a static one's when exactly one constructor (or builder helper) in the file
// writes it; an array of datatypes inside the struct (`faces.send[d]`) element by element. The
// struct must be a C struct with no datatype deeper inside (no 2-D array of them, no nested
// struct holding one). Its other members may be read and written in place, and their
// address handed to MPI functions' typed outputs (MPI_Comm_rank(..., &halo.rank), not a void *
// receive buffer) or pointers to const. The whole struct's address given to a function the file
// does not define (struct-pointers.c: one it defines), or another member's given elsewhere,
// refuses (pointer arithmetic could reach the datatypes), as does an assignment of the struct.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

#define NX 64
#define NY 32

typedef struct {
  MPI_Datatype col, row;
  int left, right, rank;
  double weights[4];
} Halo;

struct nested {
  Halo inner; // a struct holding datatypes inside: not tracked
  int n;
};

static Halo halo;                 // built once by setup(), used by exchange()
static Halo twice;                // one member built twice
static Halo leaky;                // another member's address handed to a function
static Halo preset = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, -1, -1, 0, {0}};

void read_rank(int *rank);
void fill(Halo *h);
void fill_weights(double *w);
void keep_types(MPI_Datatype *t);

static void make_row(MPI_Datatype *out, int width) {
  MPI_Type_contiguous(width, MPI_DOUBLE, out);
}

static void setup(void) {
  MPI_Comm_rank(MPI_COMM_WORLD, &halo.rank);
  halo.left = halo.rank - 1;
  halo.right = halo.rank + 1;
  halo.weights[0] = 0.5;
  MPI_Type_vector(NY, 1, NX, MPI_DOUBLE, &halo.col);
  MPI_Type_commit(&halo.col);
  make_row(&halo.row, NX);
  MPI_Type_commit(&halo.row);
  MPI_Type_contiguous(4, MPI_DOUBLE, &twice.col);
  MPI_Type_contiguous(8, MPI_DOUBLE, &twice.col);
  MPI_Type_vector(NY, 2, NX, MPI_DOUBLE, &leaky.col);
  read_rank(&leaky.rank);
  MPI_Type_vector(NY, 3, NX, MPI_DOUBLE, &preset.col);
}

static void exchange(double *u) {
  // CHECK-LABEL: static void exchange(
  MPI_Sendrecv(u + 1, 1, halo.col, halo.left, 0, u, 1, halo.col, halo.right, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  // CHECK: tempi_Sendrecv(u + 1, 1, halo.col, halo.left, 0, u, 1, halo.col, halo.right, 0, MPI_COMM_WORLD,
  // REMARK: remark: rewritten: MPI_Sendrecv -> tempi_Sendrecv: 'halo.col' holds vector(32, 1, 64, MPI_DOUBLE)
  MPI_Send(u, 1, halo.row, halo.right, 1, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, halo.row, halo.right, 1, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'halo.row' holds contiguous(64, MPI_DOUBLE)
  MPI_Send(u, 1, twice.col, 1, 2, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, twice.col, 1, 2, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'twice.col' of MPI_Send is left to the runtime: 'twice.col' is built on line 56 and on line 57
  MPI_Send(u, 1, leaky.col, 1, 3, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, leaky.col, 1, 3, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'leaky.col' of MPI_Send is left to the runtime: 'leaky' has the address of its member 'rank' passed to 'read_rank' on line 59
  MPI_Send(u, 1, preset.col, 1, 4, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, preset.col, 1, 4, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'preset.col' holds vector(32, 3, 64, MPI_DOUBLE)
}

// A local struct: its datatype members are proven by the function's own flow.
static void local_struct(double *u, int peer) {
  // CHECK-LABEL: static void local_struct(
  Halo h = {MPI_DATATYPE_NULL, MPI_DATATYPE_NULL, 0, 0, 0, {0}};
  h.right = peer;
  MPI_Type_vector(NY, 1, NX, MPI_DOUBLE, &h.col);
  MPI_Type_commit(&h.col);
  h.row = MPI_DOUBLE; // a predefined type, copied
  MPI_Comm_rank(MPI_COMM_WORLD, &h.rank);
  fill_weights(h.weights); // an array member handed to a function: escapes the struct
  MPI_Send(u, 1, h.col, h.right, 5, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, h.col, h.right, 5, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'h.col' of MPI_Send is left to the runtime: 'h.col' has the address of its member 'weights' passed to 'fill_weights' on line 92
  MPI_Type_free(&h.col);

  Halo g;
  MPI_Type_vector(NY, 2, NX, MPI_DOUBLE, &g.col);
  MPI_Type_commit(&g.col);
  g.row = MPI_DOUBLE;
  g.left = g.right = peer;
  MPI_Send(u, 1, g.col, g.right, 6, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, g.col, g.right, 6, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'g.col' holds vector(32, 2, 64, MPI_DOUBLE)
  MPI_Send(u, 1, g.row, g.right, 7, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, g.row, g.right, 7, MPI_COMM_WORLD);
  make_row(&g.row, 16);
  MPI_Send(u, 1, g.row, g.right, 8, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, g.row, g.right, 8, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'g.row' holds contiguous(16, MPI_DOUBLE)
  MPI_Type_free(&g.col);
}

// What refuses: the whole struct's address, an assignment of the whole struct, a member reached
// through a pointer whose callers' struct does not hold it (struct-pointers.c), a struct nested in a struct, a member that is never built, a
// receive into another member (its count may run on into the datatypes).
static void refusals(double *u, int peer, Halo *p) {
  // CHECK-LABEL: static void refusals(
  Halo a, b, c;
  MPI_Type_vector(NY, 1, NX, MPI_DOUBLE, &a.col);
  fill(&a);
  MPI_Send(u, 1, a.col, peer, 9, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, a.col, peer, 9, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'a.col' of MPI_Send is left to the runtime: 'a.col' has its address passed to 'fill' on line 122
  MPI_Type_vector(NY, 1, NX, MPI_DOUBLE, &b.col);
  b = c;
  MPI_Send(u, 1, b.col, peer, 10, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, b.col, peer, 10, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'b.col' of MPI_Send is left to the runtime: 'b.col' is assigned as a whole on line 127
  MPI_Send(u, 1, p->col, peer, 11, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, p->col, peer, 11, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'p->col' of MPI_Send is left to the runtime: 'p->col' comes from a parameter of 'refusals', whose argument on line 217 is unresolved: 'h.col' is not defined before this use
  struct nested f;
  MPI_Type_contiguous(2, MPI_DOUBLE, &f.inner.col);
  MPI_Send(u, 1, f.inner.col, peer, 12, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, f.inner.col, peer, 12, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'f.inner.col' of MPI_Send is left to the runtime: 'col' is a member of an object the tool cannot name; only the members of a struct variable are tracked
  MPI_Send(u, 1, c.row, peer, 13, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, c.row, peer, 13, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'c.row' of MPI_Send is left to the runtime: 'c.row' is not defined before this use
  Halo d;
  MPI_Type_contiguous(2, MPI_DOUBLE, &d.col);
  MPI_Recv(&d.left, 2, MPI_INT, peer, 14, MPI_COMM_WORLD, MPI_STATUS_IGNORE); // a void * buffer
  MPI_Send(u, 1, d.col, peer, 15, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, d.col, peer, 15, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'd.col' of MPI_Send is left to the runtime: 'd.col' has the address of its member 'left' passed to 'MPI_Recv' on line 144
}

// Arrays of datatypes inside a struct: element j of `faces.send` is proven as an element of the
// variable; set up iteration by iteration in a loop, read by a loop variable (the plan chosen by
// the same index) or whole by MPI_Alltoallw.
struct face_types {
  MPI_Datatype send[3], recv[3];
  int peer;
};
static struct face_types faces;

static void init_faces(void) {
  int sizes[3] = {NY, NY, NY};
  for (int d = 0; d < 3; ++d) {
    int sub[3] = {NY, NY, NY}, start[3] = {0, 0, 0};
    sub[d] = 1;
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &faces.send[d]);
    MPI_Type_commit(&faces.send[d]);
    start[d] = NY - 1;
    MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &faces.recv[d]);
    MPI_Type_commit(&faces.recv[d]);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &faces.peer);
}

static void exchange_faces(double *u, double *v) {
  // CHECK-LABEL: static void exchange_faces(
  MPI_Request r[6];
  for (int d = 0; d < 3; ++d) {
    MPI_Irecv(v, 1, faces.recv[d], faces.peer, d, MPI_COMM_WORLD, &r[2 * d]);
    // CHECK: tempi_Irecv(v, 1, faces.recv[d], faces.peer, d, MPI_COMM_WORLD, &r[2 * d], tempi_gen_plans_{{[0-9]+}}[d]);
    // REMARK: remark: rewritten: MPI_Irecv -> tempi_Irecv: 'faces.recv[d]' takes its plan by the same index, tempi_gen_plans_{{[0-9]+}}[d] {faces.recv[0]: subarray(3, [32, 32, 32], [1, 32, 32], [31, 0, 0], C, MPI_DOUBLE)
    MPI_Isend(u, 1, faces.send[d], faces.peer, d, MPI_COMM_WORLD, &r[2 * d + 1]);
    // CHECK: tempi_Isend{{(_deferred)?}}(u, 1, faces.send[d], faces.peer, d, MPI_COMM_WORLD, &r[2 * d + 1], tempi_gen_plans_{{[0-9]+}}[d]);
  }
  MPI_Waitall(6, r, MPI_STATUSES_IGNORE);
  MPI_Send(u, 1, faces.send[2], faces.peer, 16, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, faces.send[2], faces.peer, 16, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'faces.send[2]' holds subarray(3, [32, 32, 32], [32, 32, 1], [0, 0, 0], C, MPI_DOUBLE)
}

static void local_faces(double *u, double *v) {
  // CHECK-LABEL: static void local_faces(
  struct face_types h, g, o;
  int counts[3] = {1, 1, 1}, displs[3] = {0, 0, 0};
  for (int d = 0; d < 3; ++d)
    MPI_Type_vector(NY, d + 1, NX, MPI_DOUBLE, &h.send[d]);
  MPI_Alltoallw(u, counts, displs, h.send, v, counts, displs, h.send, MPI_COMM_WORLD);
  // CHECK: tempi_Alltoallw(u, counts, displs, h.send, v, counts, displs, h.send, MPI_COMM_WORLD, [[T:tempi_gen_plans_[0-9]+]], [[T]]);
  // REMARK: remark: rewritten: MPI_Alltoallw -> tempi_Alltoallw: 'h.send' has plans tempi_gen_plans_{{[0-9]+}} {h.send[0]: vector(32, 1, 64, MPI_DOUBLE)
  MPI_Type_vector(NY, 1, NX, MPI_DOUBLE, &g.send[0]);
  keep_types(g.recv); // an array member handed to a function: escapes the struct
  MPI_Send(u, 1, g.send[0], 1, 17, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, g.send[0], 1, 17, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'g.send[0]' of MPI_Send is left to the runtime: 'g.send[0]' is passed to 'keep_types' on line [[@LINE-3]]
  MPI_Type_vector(NY, 1, NX, MPI_DOUBLE, &o.send[0]);
  o.send[3] = MPI_INT; // past send[]: the next member
  MPI_Send(u, 1, o.send[0], 1, 18, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, o.send[0], 1, 18, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'o.send[0]' of MPI_Send is left to the runtime: 'o.send[0]' is indexed out of bounds ([3]) on line [[@LINE-3]]
}

int main(int argc, char **argv) {
  double u[NX * NY];
  Halo h;
  MPI_Init(&argc, &argv);
  setup();
  exchange(u);
  local_struct(u, 1);
  refusals(u, 1, &h);
  init_faces();
  exchange_faces(u, u);
  local_faces(u, u);
  MPI_Finalize();
  return 0;
}

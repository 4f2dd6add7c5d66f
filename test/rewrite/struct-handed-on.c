// A struct-of-datatypes pointer handed on (since session 22): a function that got `h` may pass
// it whole to another function of the file that takes the same struct. A writer's flow then
// records what the callee writes through it (setup(&h) -> build_types(h, NY), followed three
// calls deep); a reader's member is what every call passes, through the caller's own parameter
// (exchange(&h) -> send_col(h)) if the caller writes no member either. The pointer may also be
// tested (`if (!h)`, `h == NULL`): it is never null in these flows, since they follow `&v`, so
// the early return is not taken. Passed to a function the file does not define, it escapes.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>
#include <stddef.h>

#define NX 64
#define NY 32

struct halo {
  MPI_Datatype col, row;
  MPI_Datatype face[2];
  int left, right;
};

static MPI_Datatype column_of(int n) {
  MPI_Datatype t;
  MPI_Type_vector(n, 1, NX, MPI_DOUBLE, &t);
  return t;
}

/* Writers two levels down: setup hands h to build_types. */
static void build_types(struct halo *h, int ny) {
  h->col = column_of(ny);
  MPI_Type_commit(&h->col);
  MPI_Type_contiguous(NX, MPI_DOUBLE, &h->row);
  MPI_Type_commit(&h->row);
}

static void build_faces(struct halo *h, int dir) {
  if (dir == 0)
    MPI_Type_vector(NY, 2, NX, MPI_DOUBLE, &h->face[0]);
  else
    MPI_Type_contiguous(2 * NX, MPI_DOUBLE, &h->face[1]);
}

static void setup(struct halo *h) {
  if (!h)
    return;
  build_types(h, NY);
  build_faces(h, 0);
  build_faces(h, 1);
  h->left = 0;
  h->right = 1;
}

/* Readers two levels down: exchange hands h to send_col and send_faces. */
static void send_col(const struct halo *h, double *u) {
  MPI_Send(u, 1, h->col, h->right, 0, MPI_COMM_WORLD);
}

static void send_faces(struct halo *h, double *u) {
  for (int d = 0; d < 2; ++d)
    MPI_Send(u, 1, h->face[d], h->right, 0, MPI_COMM_WORLD);
  MPI_Send(u, 1, h->row, h->right, 0, MPI_COMM_WORLD);
}

static void exchange(struct halo *h, double *u) {
  if (h == NULL)
    return;
  send_col(h, u);
  send_faces(h, u);
}

/* A reader whose caller rebuilds the member before handing the pointer on. */
static void send_row(struct halo *h, double *u) {
  MPI_Send(u, 1, h->row, h->right, 0, MPI_COMM_WORLD);
}

static void rebuild_then_send(struct halo *h, double *u) {
  MPI_Type_contiguous(NX / 2, MPI_DOUBLE, &h->row);
  send_row(h, u);
}

/* Handed to a function the file does not define: the struct escapes. */
void log_halo(struct halo *h);
static void send_logged(struct halo *h, double *u) {
  log_halo(h);
  MPI_Send(u, 1, h->col, h->right, 0, MPI_COMM_WORLD);
}

/* Handed on five functions deep: the writes of the last are not followed. */
static void level5(struct halo *h) { MPI_Type_contiguous(4, MPI_DOUBLE, &h->col); }
static void level4(struct halo *h) { level5(h); }
static void level3(struct halo *h) { level4(h); }
static void level2(struct halo *h) { level3(h); }
static void level1(struct halo *h) { level2(h); }

int main(int argc, char **argv) {
  static double u[NX * NY];
  struct halo h, g, k, deep;
  MPI_Init(&argc, &argv);
  setup(&h);
  exchange(&h, u);
  setup(&g);
  rebuild_then_send(&g, u);
  setup(&k);
  send_logged(&k, u);
  level1(&deep);
  MPI_Send(u, 1, deep.col, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}

// CHECK: tempi_Send(u, 1, h->col, h->right, 0, MPI_COMM_WORLD, &tempi_gen_plan_
// CHECK: tempi_Send(u, 1, h->face[d], h->right, 0, MPI_COMM_WORLD, tempi_gen_plans_
// CHECK: tempi_Send(u, 1, h->row, h->right, 0, MPI_COMM_WORLD, &tempi_gen_plan_
// CHECK: {{^}}  MPI_Send(u, 1, h->row, h->right, 0, MPI_COMM_WORLD);
// CHECK: {{^}}  MPI_Send(u, 1, h->col, h->right, 0, MPI_COMM_WORLD);
// CHECK: {{^}}  MPI_Send(u, 1, deep.col, 1, 0, MPI_COMM_WORLD);
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'h->col' holds vector(32, 1, 64, MPI_DOUBLE)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'h->face[d]' takes its plan by the same index, tempi_gen_plans_0[d] {h->face[0]: vector(32, 2, 64, MPI_DOUBLE)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'h->row' holds contiguous(64, MPI_DOUBLE)
// REMARK: remark: datatype 'h->row' of MPI_Send is left to the runtime: 'h->row' comes from a parameter of 'send_row', whose argument on line 82 is unresolved: 'h->row' comes from a parameter of 'rebuild_then_send', in which 'h->row' is written on line 81 [-Rtempi]
// REMARK: remark: datatype 'h->col' of MPI_Send is left to the runtime: 'h->col' comes from a parameter of 'send_logged', in which 'h' is passed to 'log_halo' (not defined in this file) on line 88 [-Rtempi]
// REMARK: remark: datatype 'deep.col' of MPI_Send is left to the runtime: 'deep.col' is in a struct whose address is passed to 'level1' (where 'h' is in a struct whose address is passed to 'level2' (where 'h' is in a struct whose address is passed to 'level3' (where 'h' is in a struct whose address is passed to 'level4' (where 'h' is handed to 'level5' by a function 4 calls deep in the functions analysed for their callers on line 94) on line 95) on line 96) on line 97) on line 109 [-Rtempi]

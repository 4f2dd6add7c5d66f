// A constructor argument read from a struct member the tool does not follow is named in the
// remark, with why: through a pointer (a struct handed to a builder, as stencil codes do), a
// member of a parameter, of a global. Before, each said only "count is not a compile-time
// constant" (session 27's survey of remarks in real programs).
// RUN: cp %s %t.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

struct grid {
  int nx, ny;
  MPI_Datatype column;
};
struct grid global_grid;

static void build(struct grid *g) {
  MPI_Type_vector(g->ny, 1, g->nx + 2, MPI_DOUBLE, &g->column);
  MPI_Type_commit(&g->column);
}

static void send_column(struct grid g, double *buf) {
  MPI_Datatype t;
  MPI_Type_vector(g.ny, 1, 8, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 0, 0, MPI_COMM_WORLD);
// REMARK: .c:[[@LINE-1]]:20: remark: datatype 't' of MPI_Send is left to the runtime: count depends on 'g.ny', a member of the parameter 'g'
}

int main(int argc, char **argv) {
  double buf[4096];
  struct grid g;
  MPI_Init(&argc, &argv);
  g.nx = argc * 8;
  g.ny = 16;
  build(&g);
  MPI_Send(buf, 1, g.column, 0, 0, MPI_COMM_WORLD);
// REMARK: .c:[[@LINE-1]]:20: remark: datatype 'g.column' of MPI_Send is left to the runtime: 'g.column' is set by 'build' (line [[@LINE-2]]), where count depends on 'g->ny', a member read through the pointer 'g'
  send_column(g, buf);
  MPI_Datatype u;
  MPI_Type_contiguous(global_grid.nx, MPI_DOUBLE, &u);
  MPI_Type_commit(&u);
  MPI_Send(buf, 1, u, 0, 0, MPI_COMM_WORLD);
// REMARK: .c:[[@LINE-1]]:20: remark: datatype 'u' of MPI_Send is left to the runtime: count depends on 'global_grid.nx', a member of the global variable 'global_grid'
  MPI_Finalize();
  return 0;
}

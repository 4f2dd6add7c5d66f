// Helpers called by helpers (since session 22): a helper's body is proven with the resolver of
// the helper, which follows the helpers it calls by the same rules, with their parameters bound
// to arguments evaluated in the calling helper (so `columns(radius, NY)` inside
// `halo_columns(3)` binds k = 3), up to four levels below the analysed function. A helper may
// hand on another's result (`return columns(radius, NY);`). Deeper chains and calls back into a
// helper being followed (mutual recursion) are refused, with the chain in the reason.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

#define NX 16
#define NY 8

/* Level 3: a column of n elements of `old`, resized to one element. */
static MPI_Datatype column_of(int n, MPI_Datatype old) {
  MPI_Datatype col, t;
  MPI_Type_vector(n, 1, NX, old, &col);
  MPI_Type_create_resized(col, 0, 8, &t);
  MPI_Type_free(&col);
  return t;
}

static MPI_Datatype element_of(int wide) {
  if (wide)
    return MPI_DOUBLE;
  return MPI_FLOAT;
}

/* Level 2: its arguments from level 1's parameters. */
static MPI_Datatype columns(int k, int n) {
  MPI_Datatype t;
  MPI_Type_contiguous(k, column_of(n, element_of(1)), &t);
  MPI_Type_commit(&t);
  return t;
}

/* Level 1, called by main. */
static MPI_Datatype halo_columns(int radius) { return columns(radius, NY); }

/* An output helper that takes its oldtype from a returning helper. */
static void make_row(MPI_Datatype *row, int n) {
  MPI_Type_vector(n, 2, NX, element_of(1), row);
  MPI_Type_commit(row);
}

/* Five levels: the fifth is not followed. */
static MPI_Datatype deep(int radius) { return halo_columns(radius); }
static MPI_Datatype deeper(int radius) { return deep(radius); }

/* Mutual recursion is not followed. */
static MPI_Datatype ping(int n);
static MPI_Datatype pong(int n) { return ping(n - 1); }
static MPI_Datatype ping(int n) {
  MPI_Datatype t;
  MPI_Type_contiguous(2, pong(n), &t);
  return t;
}

/* A nested helper's argument that is not a constant: the reason names the chain. */
static MPI_Datatype from_size(int n) { return columns(2, n); }

int main(int argc, char **argv) {
  static double u[NX * NY * 4];
  MPI_Init(&argc, &argv);
  MPI_Datatype h = halo_columns(3), row, d = deeper(3), p = ping(2), s = from_size(argc);
  make_row(&row, 4);
  MPI_Send(u, 1, h, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, h, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'h' holds contiguous(3, resized(0, 8, vector(8, 1, 16, MPI_DOUBLE))),
  MPI_Send(u, 1, row, 1, 0, MPI_COMM_WORLD);
  // CHECK: tempi_Send(u, 1, row, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_
  // REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'row' holds vector(4, 2, 16, MPI_DOUBLE),
  MPI_Send(u, 1, d, 1, 0, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, d, 1, 0, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'd' of MPI_Send is left to the runtime: 'deeper' returns the result of 'deep' (line 52): 'deep' returns the result of 'halo_columns' (line 51): 'halo_columns' returns the result of 'columns' (line 42): 't' in 'columns': the oldtype of MPI_Type_contiguous is unresolved: the datatype is returned by a call to 'column_of', inside helper 'columns' in 'halo_columns' in 'deep' in 'deeper' (4 levels of helpers are followed) [-Rtempi]
  MPI_Send(u, 1, p, 1, 0, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, p, 1, 0, MPI_COMM_WORLD);
  // REMARK: remark: datatype 'p' of MPI_Send is left to the runtime: 't' in 'ping': the oldtype of MPI_Type_contiguous is unresolved: 'pong' returns the result of 'ping' (line 56): the datatype is returned by a call to 'ping', which calls back into 'ping' (recursion) [-Rtempi]
  MPI_Send(u, 1, s, 1, 0, MPI_COMM_WORLD);
  // CHECK: {{^}}  MPI_Send(u, 1, s, 1, 0, MPI_COMM_WORLD);
  // REMARK: remark: datatype 's' of MPI_Send is left to the runtime: 'from_size' returns the result of 'columns' (line 64): 't' in 'columns': the oldtype of MPI_Type_contiguous is unresolved: 't' in 'column_of': the oldtype of MPI_Type_create_resized is unresolved: count depends on 'n', a parameter of 'column_of' whose argument depends on 'n', a parameter of 'columns' whose argument depends on 'n', a parameter of 'from_size' whose argument depends on 'argc', a parameter of 'main' [-Rtempi]
  MPI_Finalize();
  return 0;
}

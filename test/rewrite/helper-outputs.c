// A helper that builds a datatype into an `MPI_Datatype *` parameter (`make_face(&x, 0, N)`) is
// followed like one that returns it: its body in this file, integer and datatype parameters bound
// to the call's constant arguments, and the output parameter only handed, as it is, to exactly one
// constructor as its output (run exactly once in every call) and to MPI_Type_commit. Anything
// else refuses, with the reason.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

#define N 16

static void make_face(MPI_Datatype *face, int dim, int n) {
  int sizes[3] = {n + 2, n + 2, n + 2}, sub[3] = {n, n, n}, starts[3] = {1, 1, 1};
  sub[dim] = 1;
  MPI_Type_create_subarray(3, sizes, sub, starts, MPI_ORDER_C, MPI_DOUBLE, face);
  MPI_Type_commit(face);
}

void build_pair(MPI_Datatype *col, MPI_Datatype *row, int n) {
  MPI_Type_vector(n, 1, n + 2, MPI_DOUBLE, col);
  MPI_Type_contiguous(n, MPI_DOUBLE, row);
  MPI_Type_commit(col);
  MPI_Type_commit(row);
}

void plane_of(MPI_Datatype *plane, MPI_Datatype col, int n) {
  MPI_Type_create_hvector(n, 1, (MPI_Aint)((n + 2) * (n + 2) * sizeof(double)), col, plane);
  MPI_Type_commit(plane);
}

void maybe(MPI_Datatype *t, int flag) {
  if (flag)
    MPI_Type_vector(4, 1, 8, MPI_DOUBLE, t);
}

void twice(MPI_Datatype *t) {
  for (int k = 0; k < 2; ++k)
    MPI_Type_vector(4, k + 1, 8, MPI_DOUBLE, t);
}

MPI_Datatype *saved;
void keeps(MPI_Datatype *t) {
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, t);
  saved = t;
}

void overwrites(MPI_Datatype *t) {
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, t);
  *t = MPI_DOUBLE;
}

void elsewhere(MPI_Datatype *t); // not defined in this file

// A helper returning a predefined type as spelled (an element-type helper) is followed too.
static MPI_Datatype elem_type(void) { return MPI_DOUBLE; }

static MPI_Datatype pick(int wide) {
  if (wide)
    return MPI_DOUBLE;
  return MPI_FLOAT;
}

int main(int argc, char **argv) {
  static double u[(N + 2) * (N + 2) * (N + 2)];
  MPI_Datatype x, y, col, row, plane, same, m, w, k, o, e, ev, pk;
  MPI_Init(&argc, &argv);
  make_face(&x, 0, N);
  make_face(&y, 1, argc);
  build_pair(&col, &row, N);
  plane_of(&plane, col, N);
  build_pair(&same, &same, N);
  maybe(&m, argc);
  twice(&w);
  keeps(&k);
  overwrites(&o);
  elsewhere(&e);
  MPI_Type_vector(4, 1, 8, elem_type(), &ev);
  MPI_Type_vector(4, 1, 8, pick(argc), &pk);
  MPI_Send(u, 1, x, 0, 0, MPI_COMM_WORLD);
  MPI_Send(u, 1, y, 0, 0, MPI_COMM_WORLD);
  MPI_Send(u, 1, col, 0, 0, MPI_COMM_WORLD);
  MPI_Send(u, 1, row, 0, 0, MPI_COMM_WORLD);
  MPI_Send(u, 1, plane, 0, 0, MPI_COMM_WORLD);
  MPI_Send(u, 1, same, 0, 0, MPI_COMM_WORLD);
  MPI_Send(u, 1, m, 0, 0, MPI_COMM_WORLD);
  MPI_Send(u, 1, w, 0, 0, MPI_COMM_WORLD);
  MPI_Send(u, 1, k, 0, 0, MPI_COMM_WORLD);
  MPI_Send(u, 1, o, 0, 0, MPI_COMM_WORLD);
  MPI_Send(u, 1, e, 0, 0, MPI_COMM_WORLD);
  MPI_Send(u, 1, ev, 0, 0, MPI_COMM_WORLD);
  MPI_Send(u, 1, pk, 0, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(u, 1, x, 0, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Send(u, 1, y, 0, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  tempi_Send(u, 1, col, 0, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  tempi_Send(u, 1, row, 0, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  tempi_Send(u, 1, plane, 0, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Send(u, 1, same, 0, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  MPI_Send(u, 1, m, 0, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  MPI_Send(u, 1, w, 0, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  MPI_Send(u, 1, k, 0, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  MPI_Send(u, 1, o, 0, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  MPI_Send(u, 1, e, 0, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  tempi_Send(u, 1, ev, 0, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Send(u, 1, pk, 0, 0, MPI_COMM_WORLD);

// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'x' holds subarray(3, [18, 18, 18], [1, 16, 16], [1, 1, 1], C, MPI_DOUBLE)
// REMARK: remark: datatype 'y' of MPI_Send is left to the runtime: 'y' is set by 'make_face': array_of_sizes[0] depends on 'n', a parameter of 'make_face' whose argument depends on 'argc', a parameter of 'main'
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'col' holds vector(16, 1, 18, MPI_DOUBLE)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'row' holds contiguous(16, MPI_DOUBLE)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'plane' holds hvector(16, 1, 2592, vector(16, 1, 18, MPI_DOUBLE))
// REMARK: remark: datatype 'same' of MPI_Send is left to the runtime: 'same' is written twice by the call on line 75
// REMARK: remark: datatype 'm' of MPI_Send is left to the runtime: 'm' is set by 'maybe', whose constructor on line 37 does not run exactly once in every call
// REMARK: remark: datatype 'w' of MPI_Send is left to the runtime: 'w' is set by 'twice', whose constructor on line 42 does not run exactly once in every call
// REMARK: remark: datatype 'k' of MPI_Send is left to the runtime: 'k' is set by 'keeps', which uses 't' on line 48 (an output parameter may only be a constructor's output and committed)
// REMARK: remark: datatype 'o' of MPI_Send is left to the runtime: 'o' is set by 'overwrites', which uses 't' on line 53 (an output parameter may only be a constructor's output and committed)
// REMARK: remark: datatype 'e' of MPI_Send is left to the runtime: 'e' has its address passed to 'elsewhere' on line 80
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'ev' holds vector(4, 1, 8, MPI_DOUBLE)
// REMARK: remark: datatype 'pk' of MPI_Send is left to the runtime: the oldtype of MPI_Type_vector is unresolved: 'pick' returns different datatypes at its returns (line 64)

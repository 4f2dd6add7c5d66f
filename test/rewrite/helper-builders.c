// A datatype built by a helper function of this file from constant arguments is proven as if
// the helper were inlined; helpers the rules refuse are left to the runtime, with the reason.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>
#define N 8
MPI_Datatype kept;
int grow; /* a value no call fixes */

/* A face of an (N+2)^3 grid: one element write with an index known once `dim` is bound. */
static MPI_Datatype make_face_type(int dim) {
  MPI_Datatype t;
  int sizes[3] = {N + 2, N + 2, N + 2}, sub[3] = {N, N, N}, start[3] = {1, 1, 1};
  sub[dim] = 1;
  MPI_Type_create_subarray(3, sizes, sub, start, MPI_ORDER_C, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  return t;
}

/* Arithmetic on an integer parameter, a datatype parameter, an intermediate type freed. */
static MPI_Datatype make_column(int n, MPI_Datatype old) {
  MPI_Datatype col, t;
  MPI_Type_vector(n / 2, 1, n, old, &col);
  MPI_Type_create_resized(col, 0, 8, &t);
  MPI_Type_free(&col);
  MPI_Type_commit(&t);
  return t;
}

MPI_Datatype make_elsewhere(int n); /* defined in another file */
static MPI_Datatype make_later(int n); /* defined after main */
static MPI_Datatype make_noproto();    /* no prototype at the call: arguments are promoted */

static MPI_Datatype make_two(int k) {
  MPI_Datatype a, b;
  MPI_Type_contiguous(4, MPI_DOUBLE, &a);
  MPI_Type_contiguous(8, MPI_DOUBLE, &b);
  if (k)
    return a;
  return b;
}

static MPI_Datatype make_freed(int n) {
  MPI_Datatype t;
  MPI_Type_contiguous(n, MPI_DOUBLE, &t);
  MPI_Type_free(&t);
  return t;
}

static MPI_Datatype make_reassigned(int n) {
  MPI_Datatype t;
  MPI_Type_contiguous(n, MPI_DOUBLE, &t);
  if (n > grow)
    MPI_Type_contiguous(2, MPI_DOUBLE, &t);
  return t;
}

static MPI_Datatype make_kept(int n) {
  MPI_Datatype t;
  MPI_Type_contiguous(n, MPI_DOUBLE, &t);
  kept = t;
  return t;
}

static MPI_Datatype make_param_changed(int n) {
  MPI_Datatype t;
  n += 1;
  MPI_Type_contiguous(n, MPI_DOUBLE, &t);
  return t;
}

static MPI_Datatype make_nested(int n) {
  MPI_Datatype t = make_column(n, MPI_DOUBLE);
  return t;
}

static MPI_Datatype make_recursive(int n) {
  MPI_Datatype t;
  if (n > 1)
    return make_recursive(n - 1);
  MPI_Type_contiguous(n, MPI_DOUBLE, &t);
  return t;
}

int main(int argc, char **argv) {
  double buf[4096];
  MPI_Init(&argc, &argv);
  MPI_Datatype xface = make_face_type(0);
  MPI_Datatype zface = make_face_type(2);
  MPI_Datatype bad = make_face_type(3); /* sub[3] = 1 writes past sub[2] */
  MPI_Datatype col = make_column(4, MPI_DOUBLE);
  MPI_Datatype dyn = make_column(argc, MPI_DOUBLE);
  MPI_Datatype ext = make_elsewhere(4);
  MPI_Datatype two = make_two(1);
  MPI_Datatype freed = make_freed(4);
  MPI_Datatype re = make_reassigned(4);
  MPI_Datatype k = make_kept(4);
  MPI_Datatype pc = make_param_changed(4);
  MPI_Datatype nested = make_nested(4);
  MPI_Datatype rec = make_recursive(4);
  MPI_Datatype later = make_later(3);
  MPI_Datatype np = make_noproto(3);
  MPI_Datatype y = make_column(4, MPI_DOUBLE);
  if (argc > 1)
    y = make_column(6, MPI_DOUBLE);
  MPI_Send(buf, 1, xface, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, zface, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, bad, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, col, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, dyn, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, ext, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, two, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, freed, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, re, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, k, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, pc, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, nested, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, rec, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, later, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, np, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, y, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}

static MPI_Datatype make_later(int n) {
  MPI_Datatype t;
  MPI_Type_vector(n, 2, 2 * n, MPI_FLOAT, &t);
  return t;
}

static MPI_Datatype make_noproto(int n) {
  MPI_Datatype t;
  MPI_Type_contiguous(n, MPI_DOUBLE, &t);
  return t;
}
// Two calls of one helper with different arguments: two plans.
// CHECK: static tempi_static_plan tempi_gen_plan_[[XP:[0-9a-f]+]] = {{.*}}"strided(start=888, bytes=64, dims=[(8, 80)], extent=8000, lb=0)"
// CHECK-NEXT: static tempi_static_plan tempi_gen_plan_[[ZP:[0-9a-f]+]] = {{.*}}"strided(start=888, bytes=8, dims=[(8, 80), (8, 800)], extent=8000, lb=0)"
// CHECK-NEXT: static tempi_static_plan tempi_gen_plan_[[CP:[0-9a-f]+]] = {{.*}}"strided(start=0, bytes=8, dims=[(2, 32)], extent=8, lb=0)"
// CHECK-NEXT: static tempi_static_plan tempi_gen_plan_[[LP:[0-9a-f]+]] = {{.*}}"strided(start=0, bytes=8, dims=[(3, 24)], extent=56, lb=0)"
// CHECK: {{^}}  tempi_Send(buf, 1, xface, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_[[XP]]);
// CHECK-NEXT: {{^}}  tempi_Send(buf, 1, zface, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_[[ZP]]);
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, bad, 1, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  tempi_Send(buf, 1, col, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_[[CP]]);
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, dyn, 1, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, ext, 1, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, two, 1, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, freed, 1, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, re, 1, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, k, 1, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, pc, 1, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  tempi_Send(buf, 1, nested, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_[[CP]]);
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, rec, 1, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  tempi_Send(buf, 1, later, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_[[LP]]);
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, np, 1, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, y, 1, 0, MPI_COMM_WORLD);
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'xface' holds subarray(3, [10, 10, 10], [1, 8, 8], [1, 1, 1], C, MPI_DOUBLE)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'zface' holds subarray(3, [10, 10, 10], [8, 8, 1], [1, 1, 1], C, MPI_DOUBLE)
// REMARK: remark: datatype 'bad' of MPI_Send is left to the runtime: 't' in 'make_face_type': array_of_subsizes[0] depends on 'sub[0]', which is indexed out of bounds ([3]) on line 18
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'col' holds resized(0, 8, vector(2, 1, 4, MPI_DOUBLE))
// REMARK: remark: datatype 'dyn' of MPI_Send is left to the runtime: 't' in 'make_column': the oldtype of MPI_Type_create_resized is unresolved: count depends on 'n', a parameter of 'make_column' whose argument depends on 'argc', a parameter of 'main'
// REMARK: remark: datatype 'ext' of MPI_Send is left to the runtime: the datatype is returned by a call to 'make_elsewhere', which is not defined in this file
// REMARK: remark: datatype 'two' of MPI_Send is left to the runtime: the datatype is returned by a call to 'make_two', which returns 'a' and 'b' (line 44)
// REMARK: remark: datatype 'freed' of MPI_Send is left to the runtime: 't' in 'make_freed' is freed on line 50 before this use
// REMARK: remark: datatype 're' of MPI_Send is left to the runtime: 't' in 'make_reassigned' is reassigned on line 58
// REMARK: remark: datatype 'k' of MPI_Send is left to the runtime: 't' in 'make_kept' is copied on line 65
// REMARK: remark: datatype 'pc' of MPI_Send is left to the runtime: the datatype is returned by a call to 'make_param_changed', whose parameter 'n' is modified on line 71
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'nested' holds resized(0, 8, vector(2, 1, 4, MPI_DOUBLE))
// REMARK: remark: datatype 'rec' of MPI_Send is left to the runtime: the datatype is returned by a call to 'make_recursive', which calls itself on line 84
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'later' holds vector(3, 2, 6, MPI_FLOAT)
// REMARK: remark: datatype 'np' of MPI_Send is left to the runtime: the datatype is returned by a call to 'make_noproto', which has no prototype
// REMARK: remark: datatype 'y' of MPI_Send is left to the runtime: 'y' is reassigned on line 109

// MPI_Type_size, MPI_Type_get_extent and MPI_Type_get_true_extent (and their _x forms) of a
// predefined datatype are constants the tool knows (the predefined types' table the plans are
// made with), so sizes and strides computed from them are proven: the idiom of resized column types. A derived type's size
// comes from its proven chain, and so do its lb and extent unless a struct inside pads them by the
// MPI's own alignment rule (a resize above the struct fixes them); an unproven type refuses, and
// so do queries nested too deeply (two statics built from each other's extents).
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>
#include <stddef.h>

void resized_column(double *buf) {
  MPI_Datatype col, colres;
  MPI_Aint lb, extent;
  MPI_Type_get_extent(MPI_DOUBLE, &lb, &extent);
  MPI_Type_vector(16, 1, 16, MPI_DOUBLE, &col);
  MPI_Type_create_resized(col, lb, extent, &colres);
  MPI_Type_commit(&colres);
  MPI_Send(buf, 2, colres, 1, 0, MPI_COMM_WORLD);
}

void size_stride(int *buf) {
  MPI_Datatype t;
  int size;
  MPI_Type_size(MPI_INT, &size);
  MPI_Type_create_hvector(4, 2, 10 * size, MPI_INT, &t);
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
}

void pair_and_x(char *buf) {
  MPI_Datatype t;
  MPI_Count size, lb, extent;
  MPI_Type_size_x(MPI_DOUBLE_INT, &size);            // 12
  MPI_Type_get_extent_x(MPI_DOUBLE_INT, &lb, &extent); // 0, 16
  MPI_Type_create_hvector(3, 1, size + extent, MPI_DOUBLE_INT, &t);
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
}

void derived_extent(double *buf) {
  MPI_Datatype col, t;
  MPI_Aint lb, extent;
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &col);
  MPI_Type_get_extent(col, &lb, &extent);
  MPI_Type_create_hvector(2, 1, extent, col, &t);
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
}

void queried_twice(double *buf, int flag) {
  MPI_Datatype t;
  int size;
  MPI_Type_size(MPI_DOUBLE, &size);
  if (flag)
    MPI_Type_size(MPI_INT, &size);
  MPI_Type_vector(4, 1, size, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
}
struct particle {
  double x, y;
  int id;
};

void derived_queries(char *buf, int n) {
  MPI_Datatype st, padded, fixed, row, by_fixed, by_size, unknown, by_unknown;
  MPI_Aint lb, extent, flb, fextent, ulb, uextent;
  int size, bl[3] = {1, 1, 1};
  MPI_Aint d[3] = {offsetof(struct particle, x), offsetof(struct particle, y),
                   offsetof(struct particle, id)};
  MPI_Datatype ty[3] = {MPI_DOUBLE, MPI_DOUBLE, MPI_INT};
  MPI_Type_create_struct(3, bl, d, ty, &st);
  MPI_Type_get_extent(st, &lb, &extent);
  MPI_Type_contiguous((int)extent, MPI_BYTE, &padded);
  MPI_Type_commit(&padded);
  MPI_Send(buf, 1, padded, 1, 0, MPI_COMM_WORLD);
  MPI_Type_create_resized(st, 0, sizeof(struct particle), &fixed);
  MPI_Type_get_extent(fixed, &flb, &fextent);
  MPI_Type_create_hvector(3, 1, 2 * fextent, fixed, &by_fixed);
  MPI_Type_commit(&by_fixed);
  MPI_Send(buf, 1, by_fixed, 1, 1, MPI_COMM_WORLD);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &row);
  MPI_Type_size(row, &size);
  MPI_Type_contiguous(size, MPI_BYTE, &by_size);
  MPI_Type_commit(&by_size);
  MPI_Send(buf, 1, by_size, 1, 2, MPI_COMM_WORLD);
  MPI_Type_contiguous(n, MPI_DOUBLE, &unknown);
  MPI_Type_get_extent(unknown, &ulb, &uextent);
  MPI_Type_create_hvector(2, 1, uextent, MPI_DOUBLE, &by_unknown);
  MPI_Type_commit(&by_unknown);
  MPI_Send(buf, 1, by_unknown, 1, 3, MPI_COMM_WORLD);
}
// MPI_Type_get_true_extent: the data's own bounds, proven for a struct too (no padding enters
// them); a pair type's is not in the table, so it refuses.
void true_extents(char *buf) {
  MPI_Datatype col, colres, by_true, st, by_struct, by_pair;
  MPI_Aint tlb, textent, slb, sextent, plb, pextent;
  int bl[3] = {1, 1, 1};
  MPI_Aint d[3] = {offsetof(struct particle, x), offsetof(struct particle, y),
                   offsetof(struct particle, id)};
  MPI_Datatype ty[3] = {MPI_DOUBLE, MPI_DOUBLE, MPI_INT};
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &col);
  MPI_Type_create_resized(col, 0, 8, &colres);
  MPI_Type_get_true_extent(colres, &tlb, &textent); // 0, 200 (its extent is 8)
  MPI_Type_create_hvector(2, 1, textent + tlb, colres, &by_true);
  MPI_Type_commit(&by_true);
  MPI_Send(buf, 1, by_true, 1, 5, MPI_COMM_WORLD);
  MPI_Type_create_struct(3, bl, d, ty, &st);
  MPI_Type_get_true_extent(st, &slb, &sextent); // 0, 20 (its extent is padded to 24)
  MPI_Type_contiguous((int)sextent, MPI_BYTE, &by_struct);
  MPI_Type_commit(&by_struct);
  MPI_Send(buf, 1, by_struct, 1, 6, MPI_COMM_WORLD);
  MPI_Type_get_true_extent(MPI_DOUBLE_INT, &plb, &pextent);
  MPI_Type_contiguous((int)pextent, MPI_BYTE, &by_pair);
  MPI_Type_commit(&by_pair);
  MPI_Send(buf, 1, by_pair, 1, 7, MPI_COMM_WORLD);
}
// Two statics each built from the other's extent: the queries nest until the bound refuses.
static MPI_Datatype cyc_a, cyc_b;
static void build_a(void) {
  MPI_Aint lb, ext;
  MPI_Type_get_extent(cyc_b, &lb, &ext);
  MPI_Type_contiguous((int)ext, MPI_BYTE, &cyc_a);
}
static void build_b(void) {
  MPI_Aint lb, ext;
  MPI_Type_get_extent(cyc_a, &lb, &ext);
  MPI_Type_contiguous((int)ext, MPI_BYTE, &cyc_b);
}
void cycle(char *buf) {
  build_a();
  build_b();
  MPI_Send(buf, 1, cyc_a, 1, 4, MPI_COMM_WORLD);
}
// CHECK-LABEL: void resized_column(double *buf) {
// CHECK: {{^}}  tempi_Send(buf, 2, colres, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void size_stride(int *buf) {
// CHECK: {{^}}  tempi_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void pair_and_x(char *buf) {
// CHECK: {{^}}  tempi_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void derived_extent(double *buf) {
// CHECK: {{^}}  tempi_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void queried_twice(double *buf, int flag) {
// CHECK: {{^}}  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'colres' holds resized(0, 8, vector(16, 1, 16, MPI_DOUBLE))
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 't' holds hvector(4, 2, 40, MPI_INT)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 't' holds hvector(3, 1, 28, MPI_DOUBLE_INT)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 't' holds hvector(2, 1, 200, vector(4, 1, 8, MPI_DOUBLE))
// REMARK: remark: datatype 't' of MPI_Send is left to the runtime: stride depends on 'size', which is reassigned on line 60
// REMARK: remark: datatype 'padded' of MPI_Send is left to the runtime: count depends on 'extent', which MPI_Type_get_extent sets from a struct datatype, whose extent each MPI pads by its own alignment rule (resize it to fix its bounds)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'by_fixed' holds hvector(3, 1, 48, resized(0, 24, struct(3, [1, 1, 1], [0, 8, 16], [MPI_DOUBLE, MPI_DOUBLE, MPI_INT])))
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'by_size' holds contiguous(32, MPI_BYTE)
// REMARK: remark: datatype 'by_unknown' of MPI_Send is left to the runtime: stride depends on 'uextent', which MPI_Type_get_extent sets from a datatype the tool cannot prove: count depends on 'n', a parameter of 'derived_queries'
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'by_true' holds hvector(2, 1, 200, resized(0, 8, vector(4, 1, 8, MPI_DOUBLE)))
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'by_struct' holds contiguous(20, MPI_BYTE)
// REMARK: remark: datatype 'by_pair' of MPI_Send is left to the runtime: count depends on 'pextent', which MPI_Type_get_true_extent sets from the pair type MPI_DOUBLE_INT (its true extent is not tabled)
// CHECK-LABEL: void derived_queries(char *buf, int n) {
// CHECK: {{^}}  MPI_Send(buf, 1, padded, 1, 0, MPI_COMM_WORLD);
// CHECK: {{^}}  tempi_Send(buf, 1, by_fixed, 1, 1, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK: {{^}}  tempi_Send(buf, 1, by_size, 1, 2, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK: {{^}}  MPI_Send(buf, 1, by_unknown, 1, 3, MPI_COMM_WORLD);
// CHECK-LABEL: void true_extents(char *buf) {
// CHECK: {{^}}  tempi_Send(buf, 1, by_true, 1, 5, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK: {{^}}  tempi_Send(buf, 1, by_struct, 1, 6, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK: {{^}}  MPI_Send(buf, 1, by_pair, 1, 7, MPI_COMM_WORLD);
// CHECK-LABEL: void cycle(char *buf) {
// CHECK: {{^}}  MPI_Send(buf, 1, cyc_a, 1, 4, MPI_COMM_WORLD);
// REMARK: remark: datatype 'cyc_a' of MPI_Send is left to the runtime: 'cyc_a' is built on line {{[0-9]+}}: count depends on 'ext', which MPI_Type_get_extent sets from a datatype the tool cannot prove: 'cyc_b' is built on line
// REMARK-SAME: a datatype whose chain queries sizes too deeply (or itself)

// MPI_Type_size's int output cannot hold a size over INT_MAX (the MPI sets MPI_UNDEFINED); its
// _x form's MPI_Count can.
void huge_size(double *buf) {
  MPI_Datatype big, t, tx;
  int sz;
  MPI_Count szx;
  MPI_Type_contiguous(1 << 28, MPI_DOUBLE, &big);
  MPI_Type_size(big, &sz);
  MPI_Type_vector(2, 1, sz < 0 ? 4 : 8, MPI_DOUBLE, &t);
  MPI_Send(buf, 1, t, 1, 5, MPI_COMM_WORLD);
  MPI_Type_size_x(big, &szx);
  MPI_Type_vector(2, 1, szx > (1 << 30) ? 4 : 8, MPI_DOUBLE, &tx);
  MPI_Send(buf, 1, tx, 1, 6, MPI_COMM_WORLD);
}
// CHECK-LABEL: void huge_size(double *buf) {
// CHECK: {{^}}  MPI_Send(buf, 1, t, 1, 5, MPI_COMM_WORLD);
// CHECK: {{^}}  tempi_Send(buf, 1, tx, 1, 6, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// REMARK: remark: datatype 't' of MPI_Send is left to the runtime: stride depends on 'sz', which MPI_Type_size sets from a datatype of 2147483648 bytes, more than its output can hold (the MPI sets MPI_UNDEFINED)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'tx' holds vector(2, 1, 4, MPI_DOUBLE)

// MPI-1's MPI_Type_extent, MPI_Type_lb and MPI_Type_ub (removed in MPI-3, still declared by
// MPICH and Open MPI 4): the same answers as MPI_Type_get_extent, ub = lb + extent.
void mpi1_queries(double *buf) {
  MPI_Datatype col, shifted, by_ext, by_bounds;
  MPI_Aint ext, dext, lb, ub;
  MPI_Type_extent(MPI_DOUBLE, &dext);                     // 8
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &col);
  MPI_Type_create_resized(col, -16, 240, &shifted);
  MPI_Type_extent(shifted, &ext);                         // 240
  MPI_Type_lb(shifted, &lb);                              // -16
  MPI_Type_ub(shifted, &ub);                              // 224
  MPI_Type_create_hvector(2, 1, ext + dext, col, &by_ext); // stride 248
  MPI_Type_commit(&by_ext);
  MPI_Send(buf, 1, by_ext, 1, 8, MPI_COMM_WORLD);
  MPI_Type_create_hvector(3, 1, ub - lb + 2 * lb, MPI_DOUBLE, &by_bounds); // stride 208
  MPI_Type_commit(&by_bounds);
  MPI_Send(buf, 1, by_bounds, 1, 9, MPI_COMM_WORLD);
}
// CHECK-LABEL: void mpi1_queries(double *buf) {
// CHECK: {{^}}  tempi_Send(buf, 1, by_ext, 1, 8, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK: {{^}}  tempi_Send(buf, 1, by_bounds, 1, 9, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'by_ext' holds hvector(2, 1, 248, vector(4, 1, 8, MPI_DOUBLE))
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'by_bounds' holds hvector(3, 1, 208, MPI_DOUBLE)

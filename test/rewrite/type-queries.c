// MPI_Type_size and MPI_Type_get_extent (and their _x forms) of a predefined datatype are
// constants the tool knows (the predefined types' table the plans are made with), so sizes and
// strides computed from them are proven: the idiom of resized column types. A derived type's
// size or extent is not followed.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

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
// CHECK-LABEL: void resized_column(double *buf) {
// CHECK: {{^}}  tempi_Send(buf, 2, colres, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void size_stride(int *buf) {
// CHECK: {{^}}  tempi_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void pair_and_x(char *buf) {
// CHECK: {{^}}  tempi_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void derived_extent(double *buf) {
// CHECK: {{^}}  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
// CHECK-LABEL: void queried_twice(double *buf, int flag) {
// CHECK: {{^}}  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'colres' holds resized(0, 8, vector(16, 1, 16, MPI_DOUBLE))
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 't' holds hvector(4, 2, 40, MPI_INT)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 't' holds hvector(3, 1, 28, MPI_DOUBLE_INT)
// REMARK: remark: datatype 't' of MPI_Send is left to the runtime: stride depends on 'extent', which MPI_Type_get_extent sets from a datatype that is not a predefined one
// REMARK: remark: datatype 't' of MPI_Send is left to the runtime: stride depends on 'size', which is reassigned on line 57

// A constructor's array argument may point into a local array: `bl + 1` (or `1 + bl`) and
// `&bl[1]` are element 1 on, for the integer arrays and the datatype array alike. The pointer
// only reads the array when it goes to the constructor; held in a variable, or handed to a
// function that may write through it, the array escapes. As an output, `types + 1` is
// `&types[1]` and a bare `types` is `&types[0]`.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

void touch(int *p);

void offsets(double *buf) {
  int bl[3] = {9, 2, 2}, disp[3] = {0, 0, 8};
  MPI_Datatype types[3] = {MPI_CHAR, MPI_DOUBLE, MPI_DOUBLE}, plus, addr, st;
  MPI_Aint bdisp[3] = {0, 0, 64};
  MPI_Type_indexed(2, bl + 1, 1 + disp, MPI_DOUBLE, &plus);
  MPI_Send(buf, 1, plus, 1, 0, MPI_COMM_WORLD);
  MPI_Type_indexed(2, &bl[1], &disp[1], MPI_DOUBLE, &addr);
  MPI_Send(buf, 1, addr, 1, 1, MPI_COMM_WORLD);
  MPI_Type_create_struct(2, bl + 1, bdisp + 1, types + 1, &st);
  MPI_Send(buf, 1, st, 1, 2, MPI_COMM_WORLD);
}

void escapes(double *buf) {
  int bl[2] = {2, 2}, disp[2] = {0, 8}, bl2[2] = {2, 2};
  int *p = bl + 1;
  MPI_Datatype held, passed;
  *p = 3;
  MPI_Type_indexed(2, bl, disp, MPI_DOUBLE, &held);
  MPI_Send(buf, 1, held, 1, 0, MPI_COMM_WORLD);
  touch(bl2 + 1);
  MPI_Type_indexed(2, bl2, disp, MPI_DOUBLE, &passed);
  MPI_Send(buf, 1, passed, 1, 1, MPI_COMM_WORLD);
}
// CHECK-LABEL: void offsets(double *buf) {
// CHECK: {{^}}  tempi_Send(buf, 1, plus, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK: {{^}}  tempi_Send(buf, 1, addr, 1, 1, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK: {{^}}  tempi_Send(buf, 1, st, 1, 2, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void escapes(double *buf) {
// CHECK: {{^}}  MPI_Send(buf, 1, held, 1, 0, MPI_COMM_WORLD);
// CHECK: {{^}}  MPI_Send(buf, 1, passed, 1, 1, MPI_COMM_WORLD);
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'plus' holds indexed(2, [2, 2], [0, 8], MPI_DOUBLE)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'addr' holds indexed(2, [2, 2], [0, 8], MPI_DOUBLE)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'st' holds struct(2, [2, 2], [0, 64], [MPI_DOUBLE, MPI_DOUBLE])
// REMARK: remark: datatype 'held' of MPI_Send is left to the runtime: array_of_blocklengths[0] depends on 'bl[0]', which has its address taken on line {{[0-9]+}}
// REMARK: remark: datatype 'passed' of MPI_Send is left to the runtime: array_of_blocklengths[0] depends on 'bl2[0]', which has its address passed to 'touch' on line {{[0-9]+}}

void outputs(double *buf) {
  MPI_Datatype types[3], st;
  int lens[3] = {1, 1, 1};
  MPI_Aint displs[3] = {0, 24, 44};
  MPI_Type_contiguous(3, MPI_DOUBLE, types);
  MPI_Type_contiguous(5, MPI_INT, types + 1);
  MPI_Type_contiguous(7, MPI_CHAR, 2 + types);
  MPI_Type_create_struct(3, lens, displs, types, &st);
  MPI_Type_commit(&st);
  MPI_Send(buf, 1, st, 1, 4, MPI_COMM_WORLD);
}
// CHECK-LABEL: void outputs(double *buf) {
// CHECK: {{^}}  tempi_Send(buf, 1, st, 1, 4, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'st' holds struct(3, [1, 1, 1], [0, 24, 44], [contiguous(3, MPI_DOUBLE), contiguous(5, MPI_INT), contiguous(7, MPI_CHAR)])

// `&a[k]` of anything indexed: a row of a 2-D array from its first element, and element k on of
// a compound literal (element i of the argument is i + k of the literal, not i).
void rows_and_literals(double *buf) {
  int sizes[2][3] = {{8, 8, 8}, {4, 4, 4}}, sub[3] = {2, 2, 2}, st[3] = {0, 0, 0};
  MPI_Datatype row, lit;
  MPI_Type_create_subarray(3, &sizes[1][0], sub, st, MPI_ORDER_C, MPI_DOUBLE, &row);
  MPI_Send(buf, 1, row, 1, 5, MPI_COMM_WORLD);
  MPI_Type_indexed(2, &((int[]){9, 2, 2})[1], (int[]){0, 8}, MPI_DOUBLE, &lit);
  MPI_Send(buf, 1, lit, 1, 6, MPI_COMM_WORLD);
}
// CHECK-LABEL: void rows_and_literals(double *buf) {
// CHECK: {{^}}  tempi_Send(buf, 1, row, 1, 5, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK: {{^}}  tempi_Send(buf, 1, lit, 1, 6, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'row' holds subarray(3, [4, 4, 4], [2, 2, 2], [0, 0, 0], C, MPI_DOUBLE)
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'lit' holds indexed(2, [2, 2], [0, 8], MPI_DOUBLE)

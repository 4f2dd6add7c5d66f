// The address of one local variable where MPI reads an array of `count` elements: codes build a
// one-member struct or hindexed type as MPI_Type_create_struct(1, &bl, &disp, &type, ...). With
// count 1 the variable is element 0; a larger count would read past it and refuses. An order
// held in a `const int` is its initializer's spelling. (Corpus helper findings, session 23.)
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

void one_member(double *buf) {
  MPI_Datatype s, h, bad;
  int bl = 2;
  MPI_Aint disp = 8;
  MPI_Datatype type = MPI_DOUBLE;
  MPI_Type_create_struct(1, &bl, &disp, &type, &s);
  MPI_Type_create_hindexed(1, &bl, &disp, MPI_DOUBLE, &h);
  MPI_Type_create_hindexed(2, &bl, &disp, MPI_DOUBLE, &bad);
  MPI_Send(buf, 1, s, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, h, 1, 1, MPI_COMM_WORLD);
  MPI_Send(buf, 1, bad, 1, 2, MPI_COMM_WORLD);
}

void const_order(double *buf) {
  const int order = MPI_ORDER_FORTRAN;
  int sizes[2] = {4, 6}, sub[2] = {2, 3}, start[2] = {1, 2};
  MPI_Datatype t;
  MPI_Type_create_subarray(2, sizes, sub, start, order, MPI_DOUBLE, &t);
  MPI_Send(buf, 1, t, 1, 3, MPI_COMM_WORLD);
}
// CHECK-LABEL: void one_member(double *buf) {
// CHECK: {{^}}  tempi_Send(buf, 1, s, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK: {{^}}  tempi_Send(buf, 1, h, 1, 1, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK: {{^}}  MPI_Send(buf, 1, bad, 1, 2, MPI_COMM_WORLD);
// CHECK-LABEL: void const_order(double *buf) {
// CHECK: {{^}}  tempi_Send(buf, 1, t, 1, 3, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 's' holds struct(1, [2], [8], [MPI_DOUBLE])
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'h' holds hindexed(1, [2], [8], MPI_DOUBLE)
// REMARK: remark: datatype 'bad' of MPI_Send is left to the runtime: array_of_blocklengths[1] reads element 1 of '&bl', the address of one variable
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 't' holds subarray(2, [4, 6], [2, 3], [1, 2], Fortran, MPI_DOUBLE)

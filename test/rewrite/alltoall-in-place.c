// With MPI_IN_PLACE written as the send buffer, MPI_Alltoallv and MPI_Alltoallw ignore their send
// counts, displacements and datatypes: the send side needs no proof (a null plan goes in) and gets
// no remark, and the call is rewritten when the receive side is proven. A variable that holds
// MPI_IN_PLACE proves nothing: its send datatypes are resolved as usual.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wall -Werror -Wno-deprecated-declarations -Wno-unused-function -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
// RUN: cp %s %t.cpp
// RUN: tempi-rewrite %t.cpp -- -I%mock_mpi | %clang -x c++ -fsyntax-only -Wall -Werror -Wno-deprecated-declarations -Wno-unused-function -I%mock_mpi -I%tempi_include -
#include <mpi.h>
#include <stddef.h>

double b[1024];
int counts[2] = {1, 1};
int displs[2] = {0, 256};

void in_place_w(void) {
  MPI_Datatype t;
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  MPI_Datatype recv[2] = {t, t};
  MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, b, counts, displs, recv, MPI_COMM_WORLD);
// REMARK: .c:[[@LINE-1]]:3: remark: rewritten: MPI_Alltoallw -> tempi_Alltoallw: 'NULL' is ignored with MPI_IN_PLACE; 'recv' has plans tempi_gen_plans_0 {recv[0]: vector(4, 1, 8, MPI_DOUBLE), {{.*}}}
}

void in_place_v(void) {
  MPI_Datatype t;
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, b, counts, displs, t, MPI_COMM_WORLD);
// REMARK: .c:[[@LINE-1]]:3: remark: rewritten: MPI_Alltoallv -> tempi_Alltoallv: 'MPI_DATATYPE_NULL' is ignored with MPI_IN_PLACE; 't' holds vector(4, 1, 8, MPI_DOUBLE)
}

void receive_unproven(MPI_Datatype u) {
  MPI_Datatype recv[2] = {u, u};
  MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, b, counts, displs, recv, MPI_COMM_WORLD);
// REMARK-NOT: datatype 'NULL'
// REMARK: .c:[[@LINE-2]]:68: remark: datatype 'recv' of MPI_Alltoallw is left to the runtime: 'recv[0]' is unresolved: 'u' comes from a parameter of 'receive_unproven', which another file may call
}

void held_in_variable(void) {
  void *sendbuf = MPI_IN_PLACE;
  MPI_Datatype t;
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  MPI_Datatype recv[2] = {t, t};
  MPI_Alltoallw(sendbuf, NULL, NULL, NULL, b, counts, displs, recv, MPI_COMM_WORLD);
// REMARK: .c:[[@LINE-1]]:38: remark: datatype 'NULL' of MPI_Alltoallw is left to the runtime: the datatype array is a null pointer (the send side is ignored only with MPI_IN_PLACE written as the send buffer)
}
// CHECK-LABEL: void in_place_w(void) {
// CHECK: {{^}}  tempi_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, b, counts, displs, recv, MPI_COMM_WORLD, (const tempi_static_plan *const *)0, tempi_gen_plans_0);
// CHECK-LABEL: void in_place_v(void) {
// CHECK: {{^}}  tempi_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, b, counts, displs, t, MPI_COMM_WORLD, (const tempi_static_plan *)0, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void receive_unproven(MPI_Datatype u) {
// CHECK: {{^}}  MPI_Alltoallw(MPI_IN_PLACE,
// CHECK-LABEL: void held_in_variable(void) {
// CHECK: {{^}}  MPI_Alltoallw(sendbuf,

// MPI_Alltoallw is rewritten when every element of both datatype arrays is proven, each like the
// datatype of an MPI_Send (one dominating definition, no escape, not freed): the plans go in as a
// file-scope array per distinct list (NULL for a predefined element). Anything else is left to
// the runtime with a remark that names the first unproven element.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wall -Werror -Wno-deprecated-declarations -Wno-unused-function -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

double a[1024], b[1024];
int counts[3] = {1, 1, 1};
int displs[3] = {0, 256, 512};
MPI_Datatype g_types[3];
void unknown(MPI_Datatype *types);

void proven(void) {
  MPI_Datatype t, send[3], recv[3];
  MPI_Type_vector(8, 1, 4, MPI_DOUBLE, &t);
  MPI_Type_vector(4, 2, 8, MPI_DOUBLE, &send[0]);
  send[1] = t;
  send[2] = MPI_DOUBLE;
  recv[0] = t;
  recv[1] = send[0];
  MPI_Type_contiguous(4, MPI_INT, &recv[2]);
  MPI_Alltoallw(a, counts, displs, send, b, counts, displs, recv, MPI_COMM_WORLD);
// REMARK: .c:[[@LINE-1]]:3: remark: rewritten: MPI_Alltoallw -> tempi_Alltoallw: 'send' has plans tempi_gen_plans_0 {send[0]: vector(4, 2, 8, MPI_DOUBLE), canonical {{.*}}; send[1]: vector(8, 1, 4, MPI_DOUBLE), canonical {{.*}}; send[2]: MPI_DOUBLE, predefined, no plan}; 'recv' has plans tempi_gen_plans_1 {recv[0]: vector(8, 1, 4, MPI_DOUBLE), {{.*}}; recv[1]: vector(4, 2, 8, MPI_DOUBLE), {{.*}}; recv[2]: contiguous(4, MPI_INT), {{.*}}}
  // sendtypes and recvtypes may be one array: one plan array, used twice.
  MPI_Alltoallw(a, counts, displs, send, b, counts, displs, send, MPI_COMM_WORLD);
// REMARK: .c:[[@LINE-1]]:3: remark: rewritten: MPI_Alltoallw -> tempi_Alltoallw: 'send' has plans tempi_gen_plans_0 {{{.*}}}; 'send' has plans tempi_gen_plans_0 (the same array)
}

void initialized(void) {
  MPI_Datatype t;
  MPI_Type_vector(8, 1, 4, MPI_DOUBLE, &t);
  MPI_Datatype types[3] = {MPI_DOUBLE, t, MPI_INT};
  MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD);
  // Every element predefined: nothing to specialize, left as it is without a remark.
  MPI_Datatype plain[3] = {MPI_DOUBLE, MPI_INT, MPI_DOUBLE};
  MPI_Alltoallw(a, counts, displs, plain, b, counts, displs, plain, MPI_COMM_WORLD);
// REMARK-NOT: 'plain'
}

void loop(int n) {
  MPI_Datatype types[3];
  int i;
  for (i = 0; i < n; ++i)
    MPI_Type_vector(8, 1, 4, MPI_DOUBLE, &types[i]);
  MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD);
// REMARK: .c:[[@LINE-1]]:36: remark: datatype 'types' of MPI_Alltoallw is left to the runtime: 'types[0]' is written through a non-constant index on line [[@LINE-2]]
}

void parameter(MPI_Datatype types[3]) {
  MPI_Datatype mine[3];
  MPI_Type_vector(8, 1, 4, MPI_DOUBLE, &mine[0]);
  mine[1] = mine[0];
  mine[2] = mine[0];
  MPI_Alltoallw(a, counts, displs, mine, b, counts, displs, types, MPI_COMM_WORLD);
// REMARK: .c:[[@LINE-1]]:61: remark: datatype 'types' of MPI_Alltoallw is left to the runtime: 'types' comes from a parameter of 'parameter'
  MPI_Alltoallw(a, counts, displs, g_types, b, counts, displs, mine, MPI_COMM_WORLD);
// REMARK: .c:[[@LINE-1]]:36: remark: datatype 'g_types' of MPI_Alltoallw is left to the runtime: 'g_types' is a global variable
}

void reassigned(int flag) {
  MPI_Datatype types[3];
  MPI_Type_vector(8, 1, 4, MPI_DOUBLE, &types[0]);
  types[1] = types[0];
  types[2] = MPI_DOUBLE;
  if (flag)
    types[1] = MPI_INT;
  MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD);
// REMARK: .c:[[@LINE-1]]:36: remark: datatype 'types' of MPI_Alltoallw is left to the runtime: 'types[1]' is reassigned on line [[@LINE-2]]
}

void freed(void) {
  MPI_Datatype types[3];
  MPI_Type_vector(8, 1, 4, MPI_DOUBLE, &types[0]);
  MPI_Type_vector(8, 2, 4, MPI_DOUBLE, &types[1]);
  MPI_Type_vector(8, 3, 4, MPI_DOUBLE, &types[2]);
  MPI_Type_free(&types[2]);
  MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD);
// REMARK: .c:[[@LINE-1]]:36: remark: datatype 'types' of MPI_Alltoallw is left to the runtime: 'types[2]' is freed on line [[@LINE-2]] before this use
}

void others(MPI_Datatype u) {
  MPI_Datatype part[3] = {MPI_DOUBLE}, copied[3], passed[3];
  MPI_Alltoallw(a, counts, displs, part, b, counts, displs, part, MPI_COMM_WORLD);
// REMARK: .c:[[@LINE-1]]:36: remark: datatype 'part' of MPI_Alltoallw is left to the runtime: 'part[1]' is zero-initialized, not a datatype
  copied[0] = MPI_DOUBLE;
  copied[1] = MPI_DOUBLE;
  copied[2] = u;
  MPI_Alltoallw(a, counts, displs, copied, b, counts, displs, copied, MPI_COMM_WORLD);
// REMARK: .c:[[@LINE-1]]:36: remark: datatype 'copied' of MPI_Alltoallw is left to the runtime: 'copied[2]' is unresolved: 'u' comes from a parameter of 'others'
  MPI_Type_vector(8, 1, 4, MPI_DOUBLE, &passed[0]);
  passed[1] = passed[0];
  passed[2] = passed[0];
  unknown(passed);
  MPI_Alltoallw(a, counts, displs, passed, b, counts, displs, passed, MPI_COMM_WORLD);
// REMARK: .c:[[@LINE-1]]:36: remark: datatype 'passed' of MPI_Alltoallw is left to the runtime: 'passed[0]' is passed to 'unknown' on line [[@LINE-2]]
}
// The plans and one array per distinct list, between the include and the #line that keeps the
// line numbers.
// CHECK: {{^}}#include <tempi/tempi.h>
// CHECK: {{^}}static const tempi_static_plan *const tempi_gen_plans_0[3] = {&[[A:tempi_gen_plan_[0-9a-f]+]], &[[T:tempi_gen_plan_[0-9a-f]+]], 0};
// CHECK-NEXT: {{^}}static const tempi_static_plan *const tempi_gen_plans_1[3] = {&[[T]], &[[A]], &tempi_gen_plan_{{[0-9a-f]+}}};
// CHECK-NEXT: {{^}}static const tempi_static_plan *const tempi_gen_plans_2[3] = {0, &[[T]], 0};
// CHECK-NEXT: {{^}}#line 12 "
// CHECK-LABEL: void proven(void) {
// CHECK: {{^}}  tempi_Alltoallw(a, counts, displs, send, b, counts, displs, recv, MPI_COMM_WORLD, tempi_gen_plans_0, tempi_gen_plans_1);
// CHECK: {{^}}  tempi_Alltoallw(a, counts, displs, send, b, counts, displs, send, MPI_COMM_WORLD, tempi_gen_plans_0, tempi_gen_plans_0);
// CHECK-LABEL: void initialized(void) {
// CHECK: {{^}}  tempi_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD, tempi_gen_plans_2, tempi_gen_plans_2);
// CHECK: {{^}}  MPI_Alltoallw(a, counts, displs, plain, b, counts, displs, plain, MPI_COMM_WORLD);
// CHECK-LABEL: void loop(int n) {
// CHECK: {{^}}  MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD);
// CHECK-LABEL: void parameter(MPI_Datatype types[3]) {
// CHECK: {{^}}  MPI_Alltoallw(a, counts, displs, mine, b, counts, displs, types, MPI_COMM_WORLD);
// CHECK: {{^}}  MPI_Alltoallw(a, counts, displs, g_types, b, counts, displs, mine, MPI_COMM_WORLD);
// CHECK-LABEL: void reassigned(int flag) {
// CHECK: {{^}}  MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD);
// CHECK-LABEL: void freed(void) {
// CHECK: {{^}}  MPI_Alltoallw(a, counts, displs, types, b, counts, displs, types, MPI_COMM_WORLD);
// CHECK-LABEL: void others(MPI_Datatype u) {
// CHECK-NOT: tempi_Alltoallw

// MPI_Neighbor_alltoallw is rewritten like MPI_Alltoallw: every element of both datatype arrays
// proven (constructors writing &types[k], copies of proven types, predefined types), else left
// to the runtime with a remark that names the first unproven element.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wall -Werror -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

double a[1024], b[1024];
int counts[2] = {1, 1};
MPI_Aint displs[2] = {0, 512};

void halo(MPI_Comm graph) {
  MPI_Datatype send[2], recv[2];
  MPI_Type_vector(8, 1, 4, MPI_DOUBLE, &send[0]);
  MPI_Type_vector(8, 1, 4, MPI_DOUBLE, &recv[0]);
  MPI_Type_commit(&send[0]);
  MPI_Type_commit(&recv[0]);
  send[1] = MPI_DOUBLE;
  recv[1] = MPI_DOUBLE;
  MPI_Neighbor_alltoallw(a, counts, displs, send, b, counts, displs, recv, graph);
// REMARK: .c:[[@LINE-1]]:3: remark: rewritten: MPI_Neighbor_alltoallw -> tempi_Neighbor_alltoallw: 'send' has plans tempi_gen_plans_0 {send[0]: vector(8, 1, 4, MPI_DOUBLE), canonical {{.*}}, plan tempi_gen_plan_{{[0-9a-f]+}}; send[1]: MPI_DOUBLE, predefined, no plan}; 'recv' has plans tempi_gen_plans_0 {recv[0]: {{.*}}; recv[1]: MPI_DOUBLE, predefined, no plan}
  MPI_Type_free(&send[0]);
  MPI_Type_free(&recv[0]);
}

void loop(MPI_Comm graph, int n) {
  MPI_Datatype types[2];
  for (int i = 0; i < n; ++i)
    MPI_Type_vector(8, 1, 4, MPI_DOUBLE, &types[i]);
  MPI_Neighbor_alltoallw(a, counts, displs, types, b, counts, displs, types, graph);
// REMARK: .c:[[@LINE-1]]:{{[0-9]+}}: remark: datatype 'types' of MPI_Neighbor_alltoallw is left to the runtime: 'types[0]' is written through a non-constant index on line [[@LINE-2]]
}

void parameter(MPI_Comm graph, MPI_Datatype recv[2]) {
  MPI_Datatype send[2];
  MPI_Type_vector(8, 1, 4, MPI_DOUBLE, &send[0]);
  send[1] = send[0];
  MPI_Neighbor_alltoallw(a, counts, displs, send, b, counts, displs, recv, graph);
// REMARK: .c:[[@LINE-1]]:{{[0-9]+}}: remark: datatype 'recv' of MPI_Neighbor_alltoallw is left to the runtime: 'recv' comes from a parameter of 'parameter'
}

void reassigned(MPI_Comm graph, int flag) {
  MPI_Datatype types[2];
  MPI_Type_vector(8, 1, 4, MPI_DOUBLE, &types[0]);
  MPI_Type_vector(8, 2, 4, MPI_DOUBLE, &types[1]);
  if (flag)
    MPI_Type_vector(8, 3, 4, MPI_DOUBLE, &types[0]);
  MPI_Neighbor_alltoallw(a, counts, displs, types, b, counts, displs, types, graph);
// REMARK: .c:[[@LINE-1]]:{{[0-9]+}}: remark: datatype 'types' of MPI_Neighbor_alltoallw is left to the runtime: 'types[0]' is reassigned on line [[@LINE-2]]
}

void freed(MPI_Comm graph) {
  MPI_Datatype types[2];
  MPI_Type_vector(8, 1, 4, MPI_DOUBLE, &types[0]);
  MPI_Type_vector(8, 2, 4, MPI_DOUBLE, &types[1]);
  MPI_Type_free(&types[1]);
  MPI_Neighbor_alltoallw(a, counts, displs, types, b, counts, displs, types, graph);
// REMARK: .c:[[@LINE-1]]:{{[0-9]+}}: remark: datatype 'types' of MPI_Neighbor_alltoallw is left to the runtime: 'types[1]' is freed on line [[@LINE-2]] before this use
}
// CHECK: {{^}}static const tempi_static_plan *const tempi_gen_plans_0[2] = {&tempi_gen_plan_{{[0-9a-f]+}}, 0};
// CHECK-NOT: tempi_gen_plans_1
// CHECK-LABEL: void halo(MPI_Comm graph) {
// CHECK: {{^}}  tempi_Neighbor_alltoallw(a, counts, displs, send, b, counts, displs, recv, graph, tempi_gen_plans_0, tempi_gen_plans_0);
// CHECK-LABEL: void loop(MPI_Comm graph, int n) {
// CHECK: {{^}}  MPI_Neighbor_alltoallw(a, counts, displs, types, b, counts, displs, types, graph);
// CHECK-LABEL: void parameter(MPI_Comm graph, MPI_Datatype recv[2]) {
// CHECK: {{^}}  MPI_Neighbor_alltoallw(a, counts, displs, send, b, counts, displs, recv, graph);
// CHECK-LABEL: void reassigned(MPI_Comm graph, int flag) {
// CHECK: {{^}}  MPI_Neighbor_alltoallw(a, counts, displs, types, b, counts, displs, types, graph);
// CHECK-LABEL: void freed(MPI_Comm graph) {
// CHECK: {{^}}  MPI_Neighbor_alltoallw(a, counts, displs, types, b, counts, displs, types, graph);
// CHECK-NOT: tempi_Neighbor_alltoallw

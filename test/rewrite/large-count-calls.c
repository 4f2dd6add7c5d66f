// Every large-count (_c) communication call the rewriter knows goes to its tempi_X_c entry point
// with the same plan arguments as the int form; a proven MPI_Isend_c/MPI_Issend_c becomes
// tempi_Isend_deferred_c/tempi_Issend_deferred_c (an intercepted _c call such as MPI_Recv_c is a
// flush); MPI_Alltoallw_c and MPI_Neighbor_alltoallw_c get the per-peer plan arrays when every
// element of their datatype arrays is proven.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi -I%S/Inputs -DMPI_VERSION=4 > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%S/Inputs -DMPI_VERSION=4 -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi -I%S/Inputs -DMPI_VERSION=4 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>
#include <mpi-large-count.h>

double buf[4096], in[4096];
char packed[8192];

void calls(void) {
  MPI_Request req[4];
  MPI_Datatype v, u;
  MPI_Count position = 0, size = 0;
  MPI_Count counts[2] = {1, 1};
  MPI_Aint displs[2] = {0, 0};
  MPI_Datatype types[2];
  MPI_Type_vector_c(4, 1, 8, MPI_DOUBLE, &v);
  MPI_Type_commit(&v);
  MPI_Type_contiguous_c(3, MPI_DOUBLE, &u);
  MPI_Type_commit(&u);
  types[0] = v;
  types[1] = v;
  MPI_Ssend_c(buf, 1, v, 1, 0, MPI_COMM_WORLD);
  MPI_Rsend_c(buf, 1, v, 1, 0, MPI_COMM_WORLD);
  MPI_Bsend_c(buf, 1, v, 1, 0, MPI_COMM_WORLD);
  MPI_Irecv_c(in, 1, v, 1, 0, MPI_COMM_WORLD, &req[0]);
  MPI_Isend_c(buf, 1, v, 1, 0, MPI_COMM_WORLD, &req[1]);
// REMARK: .c:[[@LINE-1]]:3: remark: rewritten: MPI_Isend_c -> tempi_Isend_deferred_c: 'v' holds vector(4, 1, 8, MPI_DOUBLE)
// REMARK: .c:[[@LINE-2]]:3: remark: the send is deferred: the next call TEMPI intercepts is MPI_Recv_c on line [[@LINE+3]]
  MPI_Issend_c(buf, 1, v, 1, 0, MPI_COMM_WORLD, &req[2]);
// REMARK: .c:[[@LINE-1]]:3: remark: the send is deferred: the next call TEMPI intercepts is MPI_Recv_c on line [[@LINE+1]]
  MPI_Recv_c(in, 1, v, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv_c(buf, 1, v, 1, 0, in, 2, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv_replace_c(buf, 1, v, 1, 0, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Send_init_c(buf, 1, v, 1, 0, MPI_COMM_WORLD, &req[3]);
  MPI_Recv_init_c(in, 1, v, 1, 0, MPI_COMM_WORLD, &req[3]);
  MPI_Pack_size_c(1, v, MPI_COMM_WORLD, &size);
  MPI_Pack_c(buf, 1, v, packed, sizeof packed, &position, MPI_COMM_WORLD);
  position = 0;
  MPI_Unpack_c(packed, sizeof packed, &position, in, 1, v, MPI_COMM_WORLD);
  MPI_Alltoallv_c(buf, counts, displs, v, in, counts, displs, u, MPI_COMM_WORLD);
  MPI_Neighbor_alltoallv_c(buf, counts, displs, v, in, counts, displs, v, MPI_COMM_WORLD);
  MPI_Alltoallw_c(buf, counts, displs, types, in, counts, displs, types, MPI_COMM_WORLD);
// REMARK: .c:[[@LINE-1]]:3: remark: rewritten: MPI_Alltoallw_c -> tempi_Alltoallw_c: 'types' has plans tempi_gen_plans_0 {types[0]: vector(4, 1, 8, MPI_DOUBLE), {{.*}}; types[1]: vector(4, 1, 8, MPI_DOUBLE), {{.*}}}; 'types' has plans tempi_gen_plans_0 (the same array)
  MPI_Neighbor_alltoallw_c(buf, counts, displs, types, in, counts, displs, types, MPI_COMM_WORLD);
  MPI_Type_free(&u);
  MPI_Type_free(&v);
}
// CHECK: {{^}}static const tempi_static_plan *const tempi_gen_plans_0[2] = {&tempi_gen_plan_{{[0-9a-f]+}}, &tempi_gen_plan_{{[0-9a-f]+}}};
// CHECK-LABEL: void calls(void) {
// CHECK: {{^}}  tempi_Ssend_c(buf, 1, v, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_[[V:[0-9a-f]+]]);
// CHECK-NEXT: {{^}}  tempi_Rsend_c(buf, 1, v, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_[[V]]);
// CHECK-NEXT: {{^}}  tempi_Bsend_c(buf, 1, v, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_[[V]]);
// CHECK-NEXT: {{^}}  tempi_Irecv_c(in, 1, v, 1, 0, MPI_COMM_WORLD, &req[0], &tempi_gen_plan_[[V]]);
// CHECK-NEXT: {{^}}  tempi_Isend_deferred_c(buf, 1, v, 1, 0, MPI_COMM_WORLD, &req[1], &tempi_gen_plan_[[V]]);
// CHECK-NEXT: {{^}}  tempi_Issend_deferred_c(buf, 1, v, 1, 0, MPI_COMM_WORLD, &req[2], &tempi_gen_plan_[[V]]);
// CHECK-NEXT: {{^}}  tempi_Recv_c(in, 1, v, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &tempi_gen_plan_[[V]]);
// CHECK-NEXT: {{^}}  tempi_Sendrecv_c(buf, 1, v, 1, 0, in, 2, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &tempi_gen_plan_[[V]], (const tempi_static_plan *)0);
// CHECK-NEXT: {{^}}  tempi_Sendrecv_replace_c(buf, 1, v, 1, 0, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, &tempi_gen_plan_[[V]]);
// CHECK-NEXT: {{^}}  tempi_Send_init_c(buf, 1, v, 1, 0, MPI_COMM_WORLD, &req[3], &tempi_gen_plan_[[V]]);
// CHECK-NEXT: {{^}}  tempi_Recv_init_c(in, 1, v, 1, 0, MPI_COMM_WORLD, &req[3], &tempi_gen_plan_[[V]]);
// CHECK-NEXT: {{^}}  tempi_Pack_size_c(1, v, MPI_COMM_WORLD, &size, &tempi_gen_plan_[[V]]);
// CHECK-NEXT: {{^}}  tempi_Pack_c(buf, 1, v, packed, sizeof packed, &position, MPI_COMM_WORLD, &tempi_gen_plan_[[V]]);
// CHECK-NEXT: {{^}}  position = 0;
// CHECK-NEXT: {{^}}  tempi_Unpack_c(packed, sizeof packed, &position, in, 1, v, MPI_COMM_WORLD, &tempi_gen_plan_[[V]]);
// CHECK-NEXT: {{^}}  tempi_Alltoallv_c(buf, counts, displs, v, in, counts, displs, u, MPI_COMM_WORLD, &tempi_gen_plan_[[V]], &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  tempi_Neighbor_alltoallv_c(buf, counts, displs, v, in, counts, displs, v, MPI_COMM_WORLD, &tempi_gen_plan_[[V]], &tempi_gen_plan_[[V]]);
// CHECK-NEXT: {{^}}  tempi_Alltoallw_c(buf, counts, displs, types, in, counts, displs, types, MPI_COMM_WORLD, tempi_gen_plans_0, tempi_gen_plans_0);
// CHECK-NEXT: {{^}}  tempi_Neighbor_alltoallw_c(buf, counts, displs, types, in, counts, displs, types, MPI_COMM_WORLD, tempi_gen_plans_0, tempi_gen_plans_0);

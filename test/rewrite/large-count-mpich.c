// Against the real MPICH header (an MPI-4 one: MPI_VERSION is 4, MPI_Count a long): the
// large-count calls go to tempi.h's _c entry points, and the output compiles against tempi.h.
// RUN: cp %s %t.c
// RUN: tempi-rewrite --explain %t.c -- -I%mpi_include > %t.out.c 2> %t.err
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
// RUN: %clang -fsyntax-only -I%mpi_include -I%tempi_include %t.out.c
#include <mpi.h>

int main(int argc, char **argv) {
  double buf[1024], in[1024];
  MPI_Request req[2];
  MPI_Datatype v;
  MPI_Init(&argc, &argv);
  MPI_Type_vector_c(4, 1, 8, MPI_DOUBLE, &v);
  MPI_Type_commit(&v);
  MPI_Irecv_c(in, 1, v, 0, 0, MPI_COMM_SELF, &req[0]);
  MPI_Isend_c(buf, 1, v, 0, 0, MPI_COMM_SELF, &req[1]);
  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
  MPI_Send_c(buf, 1, v, 0, 1, MPI_COMM_SELF);
  MPI_Type_free(&v);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Irecv_c(in, 1, v, 0, 0, MPI_COMM_SELF, &req[0], &tempi_gen_plan_[[V:[0-9a-f]+]]);
// CHECK-NEXT: {{^}}  tempi_Isend_deferred_c(buf, 1, v, 0, 0, MPI_COMM_SELF, &req[1], &tempi_gen_plan_[[V]]);
// CHECK-NEXT: {{^}}  MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
// CHECK-NEXT: {{^}}  tempi_Send_c(buf, 1, v, 0, 1, MPI_COMM_SELF, &tempi_gen_plan_[[V]]);
// REMARK: remark: the send is deferred: the next call TEMPI intercepts is MPI_Waitall on line 19
// REMARK-NOT: left unchanged

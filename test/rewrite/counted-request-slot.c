// A datatype chosen from an array by a loop index, in a call that also takes the request slot
// `&reqs[n++]`: the index is spelled twice (the datatype and its plan), which is safe as long as
// the only side effect in the call is the counter's and the index does not read the counter.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int next_tag(void);

void counted(double *u) {
  MPI_Datatype face[2];
  MPI_Request reqs[8];
  int n = 0;
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &face[0]);
  MPI_Type_vector(4, 2, 8, MPI_DOUBLE, &face[1]);
  for (int d = 0; d < 2; ++d) {
    MPI_Isend(u, 1, face[d], 1, d, MPI_COMM_WORLD, &reqs[n++]);
    MPI_Irecv(u, 1, face[d], 1, d, MPI_COMM_WORLD, reqs + n++);
  }
  MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
}

void index_reads_counter(double *u) {
  MPI_Datatype face[2];
  MPI_Request reqs[8];
  int n = 0;
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &face[0]);
  MPI_Type_vector(4, 2, 8, MPI_DOUBLE, &face[1]);
  for (int d = 0; d < 2; ++d)
    MPI_Isend(u, 1, face[n % 2], 1, d, MPI_COMM_WORLD, &reqs[n++]);
  MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
}

void other_side_effect(double *u) {
  MPI_Datatype face[2];
  MPI_Request reqs[8];
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &face[0]);
  MPI_Type_vector(4, 2, 8, MPI_DOUBLE, &face[1]);
  for (int d = 0; d < 2; ++d)
    MPI_Isend(u, 1, face[d], 1, next_tag(), MPI_COMM_WORLD, &reqs[d]);
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
}
// CHECK-LABEL: void counted(double *u) {
// CHECK: {{^}}    tempi_Isend{{(_deferred)?}}(u, 1, face[d], 1, d, MPI_COMM_WORLD, &reqs[n++], {{.*}}[d]);
// CHECK: {{^}}    tempi_Irecv(u, 1, face[d], 1, d, MPI_COMM_WORLD, reqs + n++, {{.*}}[d]);
// CHECK-LABEL: void index_reads_counter(double *u) {
// CHECK: {{^}}    MPI_Isend(u, 1, face[n % 2], 1, d, MPI_COMM_WORLD, &reqs[n++]);
// CHECK-LABEL: void other_side_effect(double *u) {
// CHECK: {{^}}    MPI_Isend(u, 1, face[d], 1, next_tag(), MPI_COMM_WORLD, &reqs[d]);
// REMARK: remark: rewritten: MPI_Isend -> tempi_Isend
// REMARK: remark: rewritten: MPI_Irecv -> tempi_Irecv
// REMARK: remark: datatype 'face[n % 2]' of MPI_Isend is left to the runtime: {{.*}}; its plan cannot be chosen by the index either: the index reads 'n', which another argument of the call increments
// REMARK: remark: datatype 'face[d]' of MPI_Isend is left to the runtime: {{.*}}; its plan cannot be chosen by the index either: an argument of the call has side effects

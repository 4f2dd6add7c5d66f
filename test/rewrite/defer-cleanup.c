// A variable with __attribute__((cleanup(f))) calls f when it goes out of scope: a cleanup
// function the tool can see into and that only calls neutral functions keeps the send deferred;
// one it cannot see into does not.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>
#include <string.h>

double buf[4096];
static void zero(int *p) { memset(p, 0, sizeof *p); }
void release(int *p);

void known_cleanup(MPI_Request *req) {
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  {
    int scratch __attribute__((cleanup(zero))) = 1;
    MPI_Isend(buf, scratch, t, 1, 0, MPI_COMM_WORLD, req);
// REMARK: .c:[[@LINE-1]]:5: remark: the send is deferred: the next call TEMPI intercepts is MPI_Waitall on line [[@LINE+2]]
  }
  MPI_Waitall(1, req, MPI_STATUSES_IGNORE);
  MPI_Type_free(&t);
}

void unknown_cleanup(MPI_Request *req) {
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  {
    int scratch __attribute__((cleanup(release))) = 1;
    MPI_Isend(buf, scratch, t, 1, 0, MPI_COMM_WORLD, req);
// REMARK: .c:[[@LINE-1]]:5: remark: the send is not deferred: 'release' is called on line [[@LINE-2]] before any MPI call TEMPI intercepts
  }
  MPI_Waitall(1, req, MPI_STATUSES_IGNORE);
  MPI_Type_free(&t);
}
// CHECK-LABEL: void known_cleanup(MPI_Request *req) {
// CHECK: {{^}}    tempi_Isend_deferred(buf, scratch, t, 1, 0, MPI_COMM_WORLD, req, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-LABEL: void unknown_cleanup(MPI_Request *req) {
// CHECK: {{^}}    tempi_Isend(buf, scratch, t, 1, 0, MPI_COMM_WORLD, req, &tempi_gen_plan_{{[0-9a-f]+}});

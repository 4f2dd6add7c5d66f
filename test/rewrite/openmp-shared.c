// OpenMP regions: a datatype (or a count) built outside a parallel region and only read inside it
// is shared, the region's body reads the variable itself, and Clang's CFG holds the body in place:
// every use is proven, inside the region and around it (a region's capture is not a lambda's).
// Refused with the reason where the region has a copy of its own (private, firstprivate, ...:
// a write inside is not the variable's) and where the body may run apart from the code around it
// (task, target). Sends in a region are not deferred (defer-openmp.c).
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -fopenmp -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -fopenmp -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -fopenmp -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

double buf[4096];

void shared_reads(void) {
  MPI_Datatype t;
  const int n = 16;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
#pragma omp parallel
  {
#pragma omp master
    MPI_Send(buf, 1, t, 1, 1, MPI_COMM_WORLD);
#pragma omp for
    for (int i = 0; i < 4; ++i) {
      MPI_Datatype c;
      MPI_Type_vector(n, 1, 16, MPI_DOUBLE, &c);
      MPI_Type_commit(&c);
      MPI_Send(buf + i, 1, c, 1, 2, MPI_COMM_WORLD);
      MPI_Type_free(&c);
    }
  }
  MPI_Send(buf, 1, t, 1, 3, MPI_COMM_WORLD);
  MPI_Type_free(&t);
}
// CHECK-LABEL: void shared_reads(void) {
// CHECK: {{^}}  tempi_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK: {{^}}    tempi_Send(buf, 1, t, 1, 1, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK: {{^}}      tempi_Send(buf + i, 1, c, 1, 2, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK: {{^}}  tempi_Send(buf, 1, t, 1, 3, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});

void private_copy(void) {
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
#pragma omp parallel private(t)
  {
    MPI_Type_vector(8, 1, 16, MPI_DOUBLE, &t);
    MPI_Type_commit(&t);
  }
  MPI_Send(buf, 1, t, 1, 4, MPI_COMM_WORLD);
  MPI_Type_free(&t);
}
// CHECK-LABEL: void private_copy(void) {
// CHECK: {{^}}  MPI_Send(buf, 1, t, 1, 4, MPI_COMM_WORLD);
// REMARK: remark: datatype 't' of MPI_Send is left to the runtime: 't' has a copy of its own in an OpenMP region (a private, firstprivate, reduction, ... clause) on line [[@LINE-10]]

void first_private(void) {
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
#pragma omp parallel firstprivate(t)
  MPI_Send(buf, 1, t, 1, 5, MPI_COMM_WORLD);
  MPI_Type_free(&t);
}
// CHECK-LABEL: void first_private(void) {
// CHECK: {{^}}  MPI_Send(buf, 1, t, 1, 5, MPI_COMM_WORLD);
// REMARK: remark: datatype 't' of MPI_Send is left to the runtime: 't' has a copy of its own in an OpenMP region (a private, firstprivate, reduction, ... clause) on line [[@LINE-6]]

void in_a_task(void) {
  MPI_Datatype t;
  MPI_Type_vector(4, 2, 16, MPI_DOUBLE, &t);
#pragma omp task
  {
    MPI_Type_vector(8, 1, 16, MPI_DOUBLE, &t);
  }
  MPI_Type_commit(&t);
  MPI_Send(buf, 1, t, 1, 6, MPI_COMM_WORLD);
  MPI_Type_free(&t);
}
// CHECK-LABEL: void in_a_task(void) {
// CHECK: {{^}}  MPI_Send(buf, 1, t, 1, 6, MPI_COMM_WORLD);
// (Clang gives the task an implicit firstprivate clause for 't': that reason comes first.)
// REMARK: remark: datatype 't' of MPI_Send is left to the runtime: 't' {{has a copy of its own in an OpenMP region|is used in an OpenMP task}}{{.*}} on line [[@LINE-9]]

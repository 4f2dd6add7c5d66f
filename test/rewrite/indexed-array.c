// An element of a local datatype array read with an index known only at run time (a loop
// variable) takes its plan by the same index when every element is proven: the call passes
// tempi_gen_plans_<n>[index]. Refused, with the reason, when something in the call has a side
// effect (the index would be read twice) other than a request slot's counter (&reqs[n++]:
// counted-request-slot.c), when the index is spelled through a macro, when an element is not
// proven, and when no element has a plan.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

#define TWICE(x) (2 * (x))

int main(int argc, char **argv) {
  double buf[4096];
  MPI_Datatype faces[4], mixed[2], named[2], partial[2];
  MPI_Request reqs[8];
  int d, n = 0;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &faces[0]);
  MPI_Type_vector(4, 2, 8, MPI_DOUBLE, &faces[1]);
  MPI_Type_vector(8, 1, 16, MPI_DOUBLE, &faces[2]);
  MPI_Type_contiguous(3, MPI_DOUBLE, &faces[3]);
  mixed[0] = MPI_DOUBLE;
  MPI_Type_vector(2, 1, 4, MPI_DOUBLE, &mixed[1]);
  named[0] = MPI_DOUBLE;
  named[1] = MPI_INT;
  MPI_Type_vector(2, 1, 4, MPI_DOUBLE, &partial[0]);
  MPI_Type_vector(argc, 1, 4, MPI_DOUBLE, &partial[1]);
  for (d = 0; d < 4; ++d)
    MPI_Type_commit(&faces[d]);
  for (d = 0; d < 2; ++d) {
    MPI_Isend(buf, 1, faces[2 * d + 1], 1, d, MPI_COMM_WORLD, &reqs[d]);
    MPI_Send(buf, 1, mixed[d], 1, 0, MPI_COMM_WORLD);
    MPI_Send(buf, 1, faces[d++], 1, 0, MPI_COMM_WORLD);
    MPI_Isend(buf, 1, faces[d], 1, 0, MPI_COMM_WORLD, &reqs[n++]);
    MPI_Send(buf, 1, faces[TWICE(d)], 1, 0, MPI_COMM_WORLD);
    MPI_Send(buf, 1, partial[d], 1, 0, MPI_COMM_WORLD);
    MPI_Send(buf, 1, named[d], 1, 0, MPI_COMM_WORLD);
  }
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  MPI_Finalize();
  return 0;
}
// The plan arrays, one per array, each element's plan in order (a predefined element: null).
// CHECK: static const tempi_static_plan *const [[FACES:tempi_gen_plans_[0-9]+]][4] = {{[{]}}&tempi_gen_plan_{{[0-9a-f]+}}, &tempi_gen_plan_{{[0-9a-f]+}}, &tempi_gen_plan_{{[0-9a-f]+}}, &tempi_gen_plan_{{[0-9a-f]+}}};
// CHECK: static const tempi_static_plan *const [[MIXED:tempi_gen_plans_[0-9]+]][2] = {{[{]}}{{[^,]+}}, &tempi_gen_plan_{{[0-9a-f]+}}};
// CHECK: {{^}}    tempi_Isend{{(_deferred)?}}(buf, 1, faces[2 * d + 1], 1, d, MPI_COMM_WORLD, &reqs[d], [[FACES]][2 * d + 1]);
// CHECK-NEXT: {{^}}    tempi_Send(buf, 1, mixed[d], 1, 0, MPI_COMM_WORLD, [[MIXED]][d]);
// CHECK-NEXT: {{^}}    MPI_Send(buf, 1, faces[d++], 1, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}    tempi_Isend{{(_deferred)?}}(buf, 1, faces[d], 1, 0, MPI_COMM_WORLD, &reqs[n++], [[FACES]][d]);
// CHECK-NEXT: {{^}}    MPI_Send(buf, 1, faces[TWICE(d)], 1, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}    MPI_Send(buf, 1, partial[d], 1, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}    MPI_Send(buf, 1, named[d], 1, 0, MPI_COMM_WORLD);

// REMARK: remark: datatype 'faces[d++]' of MPI_Send is left to the runtime: the index into 'faces' {{.*}}; its plan cannot be chosen by the index either: an argument of the call has side effects
// REMARK: remark: datatype 'faces[TWICE(d)]' of MPI_Send is left to the runtime: the index into 'faces' {{.*}}; its plan cannot be chosen by the index either: the index is spelled through a macro
// REMARK: remark: datatype 'partial[d]' of MPI_Send is left to the runtime: the index into 'partial' {{.*}}; its plan cannot be chosen by the index either: {{.*}}argc
// REMARK: remark: datatype 'named[d]' of MPI_Send is left to the runtime: the index into 'named' {{.*}}; its plan cannot be chosen by the index either: no element of 'named' has a static plan

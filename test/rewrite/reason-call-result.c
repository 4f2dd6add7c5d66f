// A datatype returned by a call: proven through a helper of this file with constant arguments
// (used directly or through a variable, see helper-builders.c), not through an indirect call
// nor a helper whose argument is not a constant.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

static MPI_Datatype make_face_type(int n) {
  MPI_Datatype t;
  MPI_Type_vector(n, 1, 8, MPI_DOUBLE, &t);
  return t;
}

int main(int argc, char **argv) {
  double buf[256];
  MPI_Datatype f, g;
  MPI_Datatype (*make)(int) = make_face_type;
  MPI_Init(&argc, &argv);
  f = make_face_type(4);
  g = make(4);
  MPI_Send(buf, 1, make_face_type(4), 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, f, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, g, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, make_face_type(argc), 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(buf, 1, make_face_type(4), 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_[[P:[0-9a-f]+]]);
// CHECK-NEXT: {{^}}  tempi_Send(buf, 1, f, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_[[P]]);
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, g, 1, 0, MPI_COMM_WORLD);
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, make_face_type(argc), 1, 0, MPI_COMM_WORLD);
// REMARK: remark: datatype 'g' of MPI_Send is left to the runtime: the datatype is returned by an indirect call
// REMARK: remark: datatype 'make_face_type(argc)' of MPI_Send is left to the runtime: 't' in 'make_face_type': count depends on 'n', a parameter of 'make_face_type' whose argument depends on 'argc', a parameter of 'main'

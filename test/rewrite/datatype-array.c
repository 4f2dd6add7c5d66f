// Datatypes kept in a local array with constant indices are proven, and so is an array built by a
// counted loop (loop-constructed-types.c has the rules); one built by a loop of run-time length
// is not.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  double buf[4096];
  MPI_Datatype faces[2], more[4], some[4];
  int i;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &faces[0]);
  MPI_Type_vector(4, 2, 8, MPI_DOUBLE, &faces[1]);
  for (i = 0; i < 4; ++i)
    MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &more[i]);
  for (i = 0; i < argc; ++i)
    MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &some[i]);
  MPI_Send(buf, 1, faces[0], 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, faces[1], 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, more[2], 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, some[2], 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(buf, 1, faces[0], 1, 0, MPI_COMM_WORLD, &[[A:tempi_gen_plan_[0-9a-f]+]]);
// CHECK-NEXT: {{^}}  tempi_Send(buf, 1, faces[1], 1, 0, MPI_COMM_WORLD, &[[B:tempi_gen_plan_[0-9a-f]+]]);
// CHECK-NEXT: {{^}}  tempi_Send(buf, 1, more[2], 1, 0, MPI_COMM_WORLD, &[[A]]);
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, some[2], 1, 0, MPI_COMM_WORLD);
// REMARK: remark: datatype 'some[2]' of MPI_Send is left to the runtime: 'some[2]' is written through a non-constant index on line 22

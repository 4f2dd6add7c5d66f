// MPI_Type_create_hvector and the deprecated MPI_Type_hvector: byte strides, one plan for the same shape.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  double buf[1024];
  MPI_Datatype a, b, c;
  MPI_Init(&argc, &argv);
  MPI_Type_create_hvector(4, 1, 64, MPI_DOUBLE, &a);
  MPI_Type_hvector(4, 1, 64, MPI_DOUBLE, &b);
  MPI_Type_create_hvector(4, 1, argc * 8, MPI_DOUBLE, &c);
  MPI_Send(buf, 1, a, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, b, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, c, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: static tempi_static_plan [[P:tempi_gen_plan_[0-9a-f]+]] =
// CHECK-NOT: static tempi_static_plan
// CHECK: {{^}}  tempi_Send(buf, 1, a, 1, 0, MPI_COMM_WORLD, &[[P]]);
// CHECK-NEXT: {{^}}  tempi_Send(buf, 1, b, 1, 0, MPI_COMM_WORLD, &[[P]]);
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, c, 1, 0, MPI_COMM_WORLD);
// REMARK: 'a' holds hvector(4, 1, 64, MPI_DOUBLE), canonical strided(start=0, bytes=8, dims=[(4, 64)]
// REMARK: 'b' holds hvector(4, 1, 64, MPI_DOUBLE)
// REMARK: remark: datatype 'c' of MPI_Send is left to the runtime: stride depends on 'argc', a parameter of 'main'

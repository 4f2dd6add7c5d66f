// MPI_Type_contiguous of a vector: canonical form folded; of argc elements: left alone.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  float buf[1024];
  MPI_Datatype col, two, many;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_FLOAT, &col);
  MPI_Type_contiguous(2, col, &two);
  MPI_Type_contiguous(argc * 2, MPI_FLOAT, &many);
  MPI_Send(buf, 1, two, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, many, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(buf, 1, two, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, many, 1, 0, MPI_COMM_WORLD);
// REMARK: remark: rewritten: MPI_Send -> tempi_Send: 'two' holds contiguous(2, vector(4, 1, 8, MPI_FLOAT)), canonical strided(
// REMARK: remark: datatype 'many' of MPI_Send is left to the runtime: count depends on 'argc', a parameter of 'main'

// Against the real MPICH header (MPI_Datatype is an int, MPI_DOUBLE a cast literal): names are
// still read as spelled, and the output compiles with mpicc.
// RUN: cp %s %t.c
// RUN: tempi-rewrite --explain %t.c -- -I%mpi_include > %t.out.c 2> %t.err
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
// RUN: %mpicc -fsyntax-only -I%tempi_include %t.out.c
#include <mpi.h>

int main(int argc, char **argv) {
  double buf[1024];
  MPI_Datatype t, u;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &t);
  MPI_Type_commit(&t);
  MPI_Type_vector(argc, 1, 8, MPI_DOUBLE, &u);
  MPI_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, u, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Send(buf, 1, t, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});
// CHECK-NEXT: {{^}}  MPI_Send(buf, 1, u, 1, 0, MPI_COMM_WORLD);
// REMARK: 't' holds vector(4, 1, 8, MPI_DOUBLE), canonical strided(start=0, bytes=8, dims=[(4, 64)]
// REMARK: remark: datatype 'u' of MPI_Send is left to the runtime: count depends on 'argc'

// --kernels-out writes the generated kernels of exactly the shapes the plans use.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c --kernels-out=%t.cu -- -I%mock_mpi > %t.out.c
// RUN: FileCheck --input-file=%t.cu %s
// RUN: grep -o "tempi_gen_plan_[0-9a-f]*" %t.out.c | sort -u | sed 's/tempi_gen_plan_//' > %t.keys
// RUN: grep -c . %t.keys | FileCheck --check-prefix=TWO %s
#include <mpi.h>

int main(int argc, char **argv) {
  double buf[4096];
  MPI_Datatype a, b, c;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(4, 1, 8, MPI_DOUBLE, &a);
  MPI_Type_vector(8, 2, 64, MPI_DOUBLE, &b);
  MPI_Type_vector(argc, 2, 64, MPI_DOUBLE, &c);
  MPI_Send(buf, 1, a, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, b, 1, 0, MPI_COMM_WORLD);
  MPI_Send(buf, 1, c, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: generated from {{.*}}kernels-out.c.tmp.c, do not edit
// CHECK: tempi_register_kernels
// TWO: 2

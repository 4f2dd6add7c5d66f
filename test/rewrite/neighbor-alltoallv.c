// MPI_Neighbor_alltoallv takes one send and one receive datatype: both get plans when proven.
// RUN: cp %s %t.c
// RUN: tempi-rewrite %t.c -- -I%mock_mpi > %t.out.c
// RUN: grep -v "^// [A-Z]" %t.out.c | FileCheck %s
// RUN: %clang -fsyntax-only -Wno-deprecated-declarations -I%mock_mpi -I%tempi_include %t.out.c
// RUN: tempi-rewrite --explain %t.c -- -I%mock_mpi 2> %t.err > /dev/null
// RUN: FileCheck --check-prefix=REMARK --input-file=%t.err %s
#include <mpi.h>

int main(int argc, char **argv) {
  double a[1024], b[1024];
  int counts[4] = {1, 1, 1, 1}, displs[4] = {0, 64, 128, 192};
  MPI_Datatype t, u;
  MPI_Init(&argc, &argv);
  MPI_Type_vector(8, 1, 4, MPI_DOUBLE, &t);
  MPI_Type_contiguous(argc, MPI_DOUBLE, &u);
  MPI_Neighbor_alltoallv(a, counts, displs, t, b, counts, displs, t, MPI_COMM_WORLD);
  MPI_Neighbor_alltoallv(a, counts, displs, u, b, counts, displs, u, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}  tempi_Neighbor_alltoallv(a, counts, displs, t, b, counts, displs, t, MPI_COMM_WORLD, &[[P:tempi_gen_plan_[0-9a-f]+]], &[[P]]);
// CHECK-NEXT: {{^}}  MPI_Neighbor_alltoallv(a, counts, displs, u, b, counts, displs, u, MPI_COMM_WORLD);
// REMARK: remark: datatype 'u' of MPI_Neighbor_alltoallv is left to the runtime: count depends on 'argc', a parameter of 'main'

// A .cu file: the host side is parsed in CUDA host mode against CUDA's headers and rewritten.
// RUN: cp %s %t.cu
// RUN: tempi-rewrite %t.cu -- -I%mock_mpi > %t.out.cu
// RUN: grep -v "^// [A-Z]" %t.out.cu | FileCheck %s
#include <cuda_runtime.h>
#include <mpi.h>

__global__ void fill(double *p) { p[threadIdx.x] = threadIdx.x; }

int main(int argc, char **argv) {
  double *d;
  MPI_Datatype t;
  MPI_Init(&argc, &argv);
  cudaMalloc(&d, 4096 * sizeof(double));
  fill<<<1, 64>>>(d);
  MPI_Type_vector(16, 4, 64, MPI_DOUBLE, &t);
  MPI_Send(d, 1, t, 1, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
// CHECK: {{^}}#include <tempi/tempi.h>
// CHECK: {{^}}  fill<<<1, 64>>>(d);
// CHECK: {{^}}  tempi_Send(d, 1, t, 1, 0, MPI_COMM_WORLD, &tempi_gen_plan_{{[0-9a-f]+}});

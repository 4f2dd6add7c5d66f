// Device memory from cudaMalloc reaching an MPI call, in a program built without TEMPI against
// an MPI that is not CUDA-aware. Host memory, and a pointer that may be either, are not reported.
// RUN: tempi-lint %s -- -I%mock_mpi -Xclang -verify=tempi
// RUN: tempi-lint --tempi %s -- -I%mock_mpi 2>&1 | count 0
// RUN: tempi-lint --mpi-cuda-aware %s -- -I%mock_mpi 2>&1 | count 0
#include <mpi.h>
#include <stdlib.h>

int cudaMalloc(void **p, unsigned long bytes);

void device(int n, int host) {
  double *d = 0;
  cudaMalloc((void **)&d, 64 * sizeof(double)); // tempi-note {{the device allocation is here}}
  double *half = d + 32;
  MPI_Send(half, 32, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD); // tempi-warning {{'half' is device memory (cudaMalloc on line 13) passed to MPI_Send, but this MPI is not CUDA-aware and the program is not built with TEMPI: the MPI reads it as host memory; build with tempi-cc, or copy through host memory [tempi-device-buffer-to-mpi]}}
  double *h = malloc(64 * sizeof(double));
  MPI_Send(h, 64, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
  double *either = 0;
  if (host)
    either = malloc(64 * sizeof(double));
  else
    cudaMalloc((void **)&either, 64 * sizeof(double));
  MPI_Send(either, n, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
}

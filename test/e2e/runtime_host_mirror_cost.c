/* runtime_host_mirror_cost: what the host-mirror path costs on a GPU machine (docs/runtime.md,
 * "Host-mirrored calls"). For MPI_Allreduce (MPI_FLOAT, MPI_SUM) and MPI_Bcast of 4 KiB to
 * 64 MiB, the median time over `reps` calls of: the call on device buffers through libtempi
 * (copy in, the MPI on host copies, copy back), the same call on host buffers (the MPI alone),
 * and one cudaMemcpy device->host of the same bytes (the copy the mirror cannot avoid). Prints
 * one line per size on rank 0; checks that the device result equals the host one.
 *
 *   mpiexec -n 2 runtime_host_mirror_cost [reps]
 * Built by test/e2e/host_mirror.cmake's GPU part (not a ctest: it measures, it does not judge).
 */
#include <cuda_runtime.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmpDouble(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *t, int n) {
  qsort(t, (size_t)n, sizeof *t, cmpDouble);
  return t[n / 2];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int reps = argc > 1 ? atoi(argv[1]) : 20;
  double *t = malloc(sizeof(double) * (size_t)reps);
  int bad = 0;
  if (rank == 0)
    printf("%-10s %10s %12s %12s %12s %8s\n", "call", "bytes", "device_us", "host_us",
           "d2h_copy_us", "ratio");
  for (size_t bytes = 4096; bytes <= ((size_t)64 << 20); bytes *= 4) {
    const int n = (int)(bytes / sizeof(float));
    float *h = malloc(bytes), *hr = malloc(bytes), *check = malloc(bytes);
    float *d, *dr;
    cudaMalloc((void **)&d, bytes);
    cudaMalloc((void **)&dr, bytes);
    for (int i = 0; i < n; ++i)
      h[i] = (float)((i + rank) % 7);
    cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
    for (int call = 0; call < 2; ++call) {
      const char *name = call == 0 ? "Allreduce" : "Bcast";
      double med[3];
      for (int path = 0; path < 3; ++path) {
        for (int r = 0; r < reps; ++r) {
          MPI_Barrier(MPI_COMM_WORLD);
          double t0 = MPI_Wtime();
          if (path == 2) {
            cudaMemcpy(hr, d, bytes, cudaMemcpyDeviceToHost);
          } else if (call == 0) {
            MPI_Allreduce(path == 0 ? (void *)d : (void *)h, path == 0 ? (void *)dr : (void *)hr,
                          n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
          } else {
            MPI_Bcast(path == 0 ? (void *)dr : (void *)hr, n, MPI_FLOAT, 0, MPI_COMM_WORLD);
          }
          t[r] = (MPI_Wtime() - t0) * 1e6;
        }
        med[path] = median(t, reps);
      }
      if (call == 0) { /* the device result equals the host one */
        MPI_Allreduce(h, hr, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(d, dr, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        cudaMemcpy(check, dr, bytes, cudaMemcpyDeviceToHost);
        if (memcmp(check, hr, bytes) != 0)
          bad = 1;
      }
      if (rank == 0)
        printf("%-10s %10zu %12.1f %12.1f %12.1f %8.2f\n", name, bytes, med[0], med[1], med[2],
               med[0] / med[1]);
    }
    cudaFree(d);
    cudaFree(dr);
    free(h);
    free(hr);
    free(check);
  }
  int anyBad = 0;
  MPI_Allreduce(&bad, &anyBad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && anyBad)
    printf("runtime_host_mirror_cost: device Allreduce result differs from the host one\n");
  free(t);
  MPI_Finalize();
  return anyBad;
}

/// \file
/// Shared pieces of the benchmark programs (C and CUDA C++): the table header every program
/// prints first (machine, GPU, MPI, date, whether libtempi is linked), a wall clock, and the
/// adaptive repeat loop. TEMPI is detected, never called: a program built with libtempi ahead of
/// the MPI has tempi_result_string in its symbol table; without it the TEMPI column says so.
#ifndef TEMPI_BENCH_COMMON_H
#define TEMPI_BENCH_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef EX_HAVE_CUDA
#include <cuda_runtime_api.h>

/// Aborts every rank with file:line, the call and CUDA's message when a CUDA call fails.
#define CK(call)                                                                                 \
  do {                                                                                           \
    cudaError_t e_ = (call);                                                                     \
    if (e_ != cudaSuccess) {                                                                     \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));    \
      MPI_Abort(MPI_COMM_WORLD, 2);                                                              \
    }                                                                                            \
  } while (0)

/// Ends the program with status 77 (skipped, for ctest and gpu-check) when no CUDA device is
/// usable; rank 0 says so.
static inline void bench_require_gpu(const char *program) {
  int ndev = 0, rank = 0;
  if (cudaGetDeviceCount(&ndev) == cudaSuccess && ndev > 0) return;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) fprintf(stderr, "SKIP: %s needs a CUDA device\n", program);
  MPI_Finalize();
  exit(77);
}
#endif

static inline double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/// 1 when libtempi is linked into (or preloaded by) this process.
static inline int bench_tempi_linked(void) {
  return dlsym(RTLD_DEFAULT, "tempi_result_string") != NULL;
}

/// Prints the '#'-prefixed header block: what ran where and when.
static inline void bench_header(const char *program, const char *what) {
  char host[256] = "?", lib[MPI_MAX_LIBRARY_VERSION_STRING] = "?", date[64];
  int len = 0;
  gethostname(host, sizeof host);
  MPI_Get_library_version(lib, &len);
  for (char *p = lib; *p; ++p)
    if (*p == '\n' || *p == '\r') { *p = 0; break; }
  time_t t = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  printf("# %s: %s\n# machine: %s\n", program, what, host);
#ifdef EX_HAVE_CUDA
  int dev = 0, ndev = 0, drv = 0, rt = 0;
  struct cudaDeviceProp prop;
  if (cudaGetDeviceCount(&ndev) == cudaSuccess && ndev > 0 && cudaGetDevice(&dev) == cudaSuccess &&
      cudaGetDeviceProperties(&prop, dev) == cudaSuccess) {
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    printf("# gpu: %s (%d of %d, sm_%d%d, %.1f GiB), driver %d, runtime %d\n", prop.name, dev, ndev,
           prop.major, prop.minor, prop.totalGlobalMem / 1073741824.0, drv, rt);
  } else {
    printf("# gpu: none usable\n");
  }
#else
  printf("# gpu: not built with CUDA\n");
#endif
  printf("# mpi: %s\n# ranks: %d\n# date: %s\n# libtempi: %s\n", lib, size, date,
         bench_tempi_linked() ? "linked" : "NOT linked (TEMPI columns are n/a)");
  const char *method = getenv("TEMPI_METHOD");
  if (method) printf("# TEMPI_METHOD=%s\n", method);
  fflush(stdout);
}

#endif

/// \file
/// Small helpers shared by the example programs: a CUDA check macro (only when built with CUDA),
/// the median of a sample, and a fatal-error exit that takes every rank down with a message.
/// Plain C99 + MPI; the examples never call TEMPI (it is added by tempi-cc or by linking libtempi).
#ifndef TEMPI_EXAMPLES_EX_UTIL_H
#define TEMPI_EXAMPLES_EX_UTIL_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef EX_HAVE_CUDA
#include <cuda_runtime_api.h>
/// Aborts every rank with file:line, the call and CUDA's message when a CUDA call fails.
#define EX_CUDA(call)                                                                            \
  do {                                                                                           \
    cudaError_t ex_err_ = (call);                                                                \
    if (ex_err_ != cudaSuccess) {                                                                \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                      \
              cudaGetErrorString(ex_err_));                                                      \
      MPI_Abort(MPI_COMM_WORLD, 2);                                                              \
    }                                                                                            \
  } while (0)

/// The rank's index among the ranks of its node (MPI_COMM_TYPE_SHARED).
static inline int ex_node_local_rank(void) {
  int local = 0;
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &local);
  MPI_Comm_free(&node);
  return local;
}

/// --device without a usable GPU: every rank prints nothing but rank 0's note and the job exits 77
/// (ctest's SKIP_RETURN_CODE), so CPU-only CI reports the device tests as skipped, not failed.
/// With a GPU, each rank takes GPU (node-local rank mod GPU count): one GPU per rank where the
/// node has enough, as a multi-GPU run of a real code would place them.
static inline void ex_require_gpu(int rank) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    if (rank == 0) fprintf(stderr, "SKIP: --device given but no CUDA device is usable\n");
    MPI_Finalize();
    exit(77);
  }
  EX_CUDA(cudaSetDevice(ex_node_local_rank() % n));
}
#endif

/// Aborts every rank with an MPI error string when an MPI call fails (MPI_ERRORS_RETURN is set by
/// the examples so a failure is reported instead of a bare abort).
#define EX_MPI(call)                                                                             \
  do {                                                                                           \
    int ex_rc_ = (call);                                                                         \
    if (ex_rc_ != MPI_SUCCESS) {                                                                 \
      char ex_msg_[MPI_MAX_ERROR_STRING];                                                        \
      int ex_len_ = 0;                                                                           \
      MPI_Error_string(ex_rc_, ex_msg_, &ex_len_);                                               \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, ex_msg_);            \
      MPI_Abort(MPI_COMM_WORLD, 3);                                                              \
    }                                                                                            \
  } while (0)

static inline int ex_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/// Median of n samples (sorts a copy). 0 for n == 0.
static inline double ex_median(const double *v, int n) {
  if (n <= 0) return 0.0;
  double *c = (double *)malloc((size_t)n * sizeof(double));
  memcpy(c, v, (size_t)n * sizeof(double));
  qsort(c, (size_t)n, sizeof(double), ex_cmp_double);
  double m = (n % 2) ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
  free(c);
  return m;
}

/// Prints a message from rank 0 (or any rank when `all`) and aborts the job with exit code 1.
#define EX_DIE(...)                                                                              \
  do {                                                                                           \
    fprintf(stderr, __VA_ARGS__);                                                                \
    fputc('\n', stderr);                                                                         \
    MPI_Abort(MPI_COMM_WORLD, 1);                                                                \
  } while (0)

#endif

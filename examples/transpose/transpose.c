/// \file
/// Matrix transpose through a datatype: each rank sends its N x N matrix of doubles row by row
/// (contiguous) to the next rank, which receives it as N columns (MPI_Type_vector(N, 1, N),
/// resized to one double so consecutive columns start 8 bytes apart): the received matrix is the
/// transpose. Then the reverse direction (send columns, receive rows). Host or device (--device)
/// buffers; a plain MPI program (TEMPI enters through tempi-cc or libtempi).
///
///   mpiexec -n 2 transpose [N] [--iters K] [--device]
///
/// Every iteration is checked (B[j][i] == A[i][j] for all i, j); prints the median time per
/// transpose as key=value; exits 1 on any wrong element or bad argument.
#include "../common/ex_util.h"

static double value(int rank, int i, int j, int it) {
  return (double)(((long)(it % 1000) * 4096 + rank) * 1048576L + (long)i * 1024 + j);
}

static void to_dev(double *d, const double *h, size_t n, int device) {
#ifdef EX_HAVE_CUDA
  if (device) EX_CUDA(cudaMemcpy(d, h, n * sizeof(double), cudaMemcpyHostToDevice));
#endif
  (void)d; (void)h; (void)n; (void)device;
}
static void to_host(double *h, const double *d, size_t n, int device) {
#ifdef EX_HAVE_CUDA
  if (device) EX_CUDA(cudaMemcpy(h, d, n * sizeof(double), cudaMemcpyDeviceToHost));
#endif
  (void)d; (void)h; (void)n; (void)device;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank, size, n = 512, iters = 10, device = 0, bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int a = 1; a < argc && !bad; ++a) {
    char *end = NULL;
    if (!strcmp(argv[a], "--iters") && a + 1 < argc) iters = (int)strtol(argv[++a], &end, 10);
    else if (!strcmp(argv[a], "--device")) device = 1;
    else if (argv[a][0] != '-') n = (int)strtol(argv[a], &end, 10);
    else bad = 1;
    if (end && *end) bad = 1;
  }
  if (bad || n < 1 || n > 1000 || iters < 1) { // value() encodes i, j in 10 bits each
    if (rank == 0) fprintf(stderr, "usage: transpose [N in 1..1000] [--iters K>=1] [--device]\n");
    MPI_Finalize();
    return 1;
  }
#ifdef EX_HAVE_CUDA
  if (device) ex_require_gpu(rank);
#endif
  const size_t elems = (size_t)n * n;
  double *ha = (double *)malloc(elems * sizeof(double)), *hb = (double *)malloc(elems * sizeof(double));
  double *a = ha, *b = hb;
#ifdef EX_HAVE_CUDA
  if (device) { // pinned mirrors: cudaMemcpy from them has completed when it returns
    free(ha);
    free(hb);
    EX_CUDA(cudaMallocHost((void **)&ha, elems * sizeof(double)));
    EX_CUDA(cudaMallocHost((void **)&hb, elems * sizeof(double)));
    EX_CUDA(cudaMalloc((void **)&a, elems * sizeof(double)));
    EX_CUDA(cudaMalloc((void **)&b, elems * sizeof(double)));
  }
#else
  if (device) EX_DIE("transpose: --device needs a build with CUDA");
#endif
  MPI_Datatype column, column1;
  EX_MPI(MPI_Type_vector(n, 1, n, MPI_DOUBLE, &column));
  EX_MPI(MPI_Type_create_resized(column, 0, sizeof(double), &column1));
  EX_MPI(MPI_Type_commit(&column1));
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  double *times = (double *)calloc((size_t)iters * 2, sizeof(double));
  long wrong = 0;
  for (int it = 0; it < iters; ++it) {
    for (int dir = 0; dir < 2; ++dir) { // 0: rows -> columns, 1: columns -> rows
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          ha[(size_t)i * n + j] = value(rank, i, j, it);
          hb[(size_t)i * n + j] = -1.0;
        }
      to_dev(a, ha, elems, device);
      to_dev(b, hb, elems, device);
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = MPI_Wtime();
      if (dir == 0)
        EX_MPI(MPI_Sendrecv(a, n * n, MPI_DOUBLE, next, 0, b, n, column1, prev, 0, MPI_COMM_WORLD,
                            MPI_STATUS_IGNORE));
      else
        EX_MPI(MPI_Sendrecv(a, n, column1, next, 1, b, n * n, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD,
                            MPI_STATUS_IGNORE));
      times[2 * it + dir] = MPI_Wtime() - t0;
      to_host(hb, b, elems, device);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
          double want = value(prev, j, i, it); // B = transpose of the previous rank's A
          if (hb[(size_t)i * n + j] != want) {
            if (wrong < 5)
              fprintf(stderr, "transpose: rank %d iteration %d direction %d: B[%d][%d] = %.17g, "
                              "expected %.17g\n", rank, it, dir, i, j, hb[(size_t)i * n + j], want);
            ++wrong;
          }
        }
    }
  }
  long total = 0;
  MPI_Allreduce(&wrong, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("transpose n=%d ranks=%d mem=%s iters=%d median_us=%.3f wrong=%ld %s\n", n, size,
           device ? "device" : "host", iters, ex_median(times, 2 * iters) * 1e6, total,
           total ? "FAILED" : "ok");
  MPI_Type_free(&column);
  MPI_Type_free(&column1);
#ifdef EX_HAVE_CUDA
  if (device) {
    cudaFree(a); cudaFree(b);
    cudaFreeHost(ha); cudaFreeHost(hb);
    ha = hb = NULL;
  }
#endif
  free(ha); free(hb); free(times);
  MPI_Finalize();
  return total ? 1 : 0;
}

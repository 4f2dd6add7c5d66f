/// \file
/// Ping-pong of a contiguous or strided (MPI_Type_vector) buffer between ranks 0 and 1, on host or
/// device (--device) memory. A plain MPI program: TEMPI enters through tempi-cc or libtempi.
///
///   mpiexec -n 2 pingpong [--bytes N] [--block B] [--stride S] [--iters N] [--device]
///
/// --block 0 (the default) sends N contiguous bytes; otherwise N/B blocks of B bytes, S bytes apart
/// (S >= B), described by MPI_Type_vector of MPI_BYTE. Without --bytes it sweeps a few sizes.
/// Checking: an untimed round before and after the timed loop; the receiver's blocks must hold the
/// sender's pattern and the gaps between them must keep their poison. One key=value line per size:
/// half_rtt_us is half the median round trip measured by rank 0, mean_half_rtt_us half the mean;
/// exit 1 on any wrong byte or bad argument.
#include "../common/ex_util.h"

#include <stdint.h>

struct buffers {
  int device;
  size_t span;   ///< bytes the datatype covers
  unsigned char *buf, *host;
};

static unsigned char pattern(size_t i, int round) { return (unsigned char)((i * 131u + 7u * round) % 251u); }

static void alloc_buffers(struct buffers *b, size_t span, int device) {
  b->device = device;
  b->span = span;
  b->host = (unsigned char *)malloc(span ? span : 1);
  b->buf = b->host;
#ifdef EX_HAVE_CUDA
  if (device) { // a pinned mirror: cudaMemcpy from it has completed when it returns
    free(b->host);
    EX_CUDA(cudaMallocHost((void **)&b->host, span ? span : 1));
    EX_CUDA(cudaMalloc((void **)&b->buf, span ? span : 1));
  }
#else
  if (device) EX_DIE("pingpong: --device needs a build with CUDA");
#endif
}

static void free_buffers(struct buffers *b) {
#ifdef EX_HAVE_CUDA
  if (b->device) {
    cudaFree(b->buf);
    cudaFreeHost(b->host);
    return;
  }
#endif
  free(b->host);
}

static void upload(struct buffers *b) {
#ifdef EX_HAVE_CUDA
  if (b->device) EX_CUDA(cudaMemcpy(b->buf, b->host, b->span, cudaMemcpyHostToDevice));
#endif
  (void)b;
}
static void download(struct buffers *b) {
#ifdef EX_HAVE_CUDA
  if (b->device) EX_CUDA(cudaMemcpy(b->host, b->buf, b->span, cudaMemcpyDeviceToHost));
#endif
  (void)b;
}

/// Fills the blocks with the pattern of `round` (sender) or poisons everything (receiver).
static void fill(struct buffers *b, size_t block, size_t stride, int round, int poison) {
  for (size_t i = 0; i < b->span; ++i) {
    int in_block = block == 0 || (i % stride) < block;
    b->host[i] = (!poison && in_block) ? pattern(i, round) : 0xEE;
  }
  upload(b);
}

static long check(struct buffers *b, size_t block, size_t stride, int round, int rank) {
  download(b);
  long wrong = 0;
  for (size_t i = 0; i < b->span; ++i) {
    int in_block = block == 0 || (i % stride) < block;
    unsigned char want = in_block ? pattern(i, round) : 0xEE;
    if (b->host[i] != want) {
      if (wrong < 5)
        fprintf(stderr, "pingpong: rank %d byte %zu holds %u, expected %u\n", rank, i,
                b->host[i], want);
      ++wrong;
    }
  }
  return wrong;
}

/// One checked round: 0 sends, 1 receives and checks, 1 sends back, 0 receives and checks.
static long checked_round(struct buffers *b, MPI_Datatype t, int count, size_t block,
                          size_t stride, int rank, int round) {
  long wrong = 0;
  if (rank == 0) {
    fill(b, block, stride, round, 0);
    EX_MPI(MPI_Send(b->buf, count, t, 1, round, MPI_COMM_WORLD));
    fill(b, block, stride, round, 1);
    EX_MPI(MPI_Recv(b->buf, count, t, 1, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    wrong += check(b, block, stride, round + 1, rank);
  } else if (rank == 1) {
    fill(b, block, stride, round, 1);
    EX_MPI(MPI_Recv(b->buf, count, t, 0, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    wrong += check(b, block, stride, round, rank);
    fill(b, block, stride, round + 1, 0);
    EX_MPI(MPI_Send(b->buf, count, t, 0, round, MPI_COMM_WORLD));
  }
  return wrong;
}

static long run(size_t bytes, size_t block, size_t stride, int iters, int device, int rank) {
  MPI_Datatype t = MPI_BYTE;
  int count = (int)bytes;
  size_t span = bytes;
  if (block) {
    size_t nblocks = bytes / block;
    EX_MPI(MPI_Type_vector((int)nblocks, (int)block, (int)stride, MPI_BYTE, &t));
    EX_MPI(MPI_Type_commit(&t));
    count = 1;
    span = nblocks ? (nblocks - 1) * stride + block : 0;
  }
  struct buffers b;
  alloc_buffers(&b, span, device);
  long wrong = checked_round(&b, t, count, block, stride, rank, 1);
  // Rank 0 times every round trip; the median is reported (one slow round, e.g. another process's
  // GPU time slice, moves the mean of 100 rounds by several percent), the mean too.
  double *rtt = (double *)malloc((size_t)iters * sizeof(double));
  if (!rtt) EX_DIE("pingpong: out of memory");
  double t0 = 0;
  for (int it = -2; it < iters; ++it) { // two untimed warm-up rounds
    if (it == 0) {
      MPI_Barrier(MPI_COMM_WORLD);
      t0 = MPI_Wtime();
    }
    double start = MPI_Wtime();
    if (rank == 0) {
      EX_MPI(MPI_Send(b.buf, count, t, 1, 0, MPI_COMM_WORLD));
      EX_MPI(MPI_Recv(b.buf, count, t, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    } else if (rank == 1) {
      EX_MPI(MPI_Recv(b.buf, count, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      EX_MPI(MPI_Send(b.buf, count, t, 0, 0, MPI_COMM_WORLD));
    }
    if (it >= 0) rtt[it] = MPI_Wtime() - start;
  }
  double mean_half = (MPI_Wtime() - t0) / iters / 2;
  double half = ex_median(rtt, iters) / 2;
  free(rtt);
  wrong += checked_round(&b, t, count, block, stride, rank, 3);
  long total = 0;
  MPI_Allreduce(&wrong, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("pingpong mode=%s mem=%s bytes=%zu block=%zu stride=%zu iters=%d half_rtt_us=%.3f "
           "mean_half_rtt_us=%.3f GBps=%.4f wrong=%ld %s\n",
           block ? "strided" : "contiguous", device ? "device" : "host", bytes, block, stride,
           iters, half * 1e6, mean_half * 1e6, half > 0 ? bytes / half / 1e9 : 0.0, total, total ? "FAILED" : "ok");
    fflush(stdout);
  }
  free_buffers(&b);
  if (block) MPI_Type_free(&t);
  return total;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long long bytes = -1, block = 0, stride = 0;
  int iters = 100, device = 0, bad = 0;
  for (int a = 1; a < argc && !bad; ++a) {
    char *end = NULL;
    if (!strcmp(argv[a], "--bytes") && a + 1 < argc) bytes = strtoll(argv[++a], &end, 10);
    else if (!strcmp(argv[a], "--block") && a + 1 < argc) block = strtoll(argv[++a], &end, 10);
    else if (!strcmp(argv[a], "--stride") && a + 1 < argc) stride = strtoll(argv[++a], &end, 10);
    else if (!strcmp(argv[a], "--iters") && a + 1 < argc) iters = (int)strtol(argv[++a], &end, 10);
    else if (!strcmp(argv[a], "--device")) device = 1;
    else bad = 1;
    if (end && *end) bad = 1;
  }
  if (!stride) stride = 2 * block;
  if (bad || size < 2 || iters < 1 || block < 0 || (block && stride < block) ||
      (bytes >= 0 && block && bytes % block) || bytes > (1ll << 30)) {
    if (rank == 0)
      fprintf(stderr, "usage: mpiexec -n 2 pingpong [--bytes N] [--block B] [--stride S>=B] "
                      "[--iters N>=1] [--device]  (N a multiple of B, at most 1 GiB; 2+ ranks)\n");
    MPI_Finalize();
    return 1;
  }
#ifdef EX_HAVE_CUDA
  if (device) ex_require_gpu(rank);
#endif
  long wrong = 0;
  if (bytes >= 0) {
    wrong += run((size_t)bytes, (size_t)block, (size_t)stride, iters, device, rank);
  } else {
    const size_t sizes[] = {8, 1024, 65536, 1 << 20, 4 << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; ++i) {
      wrong += run(sizes[i], 0, 0, iters, device, rank);
      wrong += run(sizes[i], block ? (size_t)block : 8, block ? (size_t)stride : 16, iters,
                   device, rank);
    }
  }
  MPI_Finalize();
  return wrong ? 1 : 0;
}

/// \file
/// The naive baseline of issue 3's ping-pong target: a strided device buffer (B-byte blocks,
/// S bytes apart) moved between ranks 0 and 1 with one cudaMemcpyAsync per block into pinned host
/// memory, one synchronization, and a contiguous host MPI_Send; the receiver takes the bytes with
/// MPI_Recv and puts each block back with its own cudaMemcpyAsync. What a program does without a
/// pack kernel and without a CUDA-aware MPI. Same output line as examples/pingpong
/// (mode=strided-per-block), so scripts/gpu-check sets it beside TEMPI's strided rows.
///
///   mpiexec -n 2 bench-pingpong-blocks [--bytes N] [--block B] [--stride S] [--iters K]
///   (defaults: 1 MiB of 8-byte blocks at a 16-byte stride, 3 timed round trips)
/// Checked like examples/pingpong: an untimed round before the timed ones, blocks must hold the
/// sender's pattern and the gaps their poison. Exit 1 on a wrong byte, 77 without a GPU.
#include "bench_common.h"
#include "../common/ex_util.h"

#include <vector>

namespace {

struct Layout {
  size_t bytes, block, stride, blocks, span;
};

unsigned char pattern(size_t i, int round) { return (unsigned char)((i * 131u + 7u * round) % 251u); }

/// One way: the sender copies each block to the packed host buffer and sends it; the receiver
/// receives it and copies each block back to its device buffer.
void oneWay(bool sender, int peer, const Layout &l, unsigned char *dev, unsigned char *packed,
            cudaStream_t st) {
  if (sender) {
    for (size_t k = 0; k < l.blocks; ++k)
      CK(cudaMemcpyAsync(packed + k * l.block, dev + k * l.stride, l.block, cudaMemcpyDeviceToHost, st));
    CK(cudaStreamSynchronize(st));
    EX_MPI(MPI_Send(packed, (int)l.bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD));
  } else {
    EX_MPI(MPI_Recv(packed, (int)l.bytes, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    for (size_t k = 0; k < l.blocks; ++k)
      CK(cudaMemcpyAsync(dev + k * l.stride, packed + k * l.block, l.block, cudaMemcpyHostToDevice, st));
    CK(cudaStreamSynchronize(st));
  }
}

/// Rank 0 sends a patterned buffer to rank 1, which checks its device buffer (blocks and gaps).
long checkedRound(int rank, const Layout &l, unsigned char *dev, unsigned char *packed,
                  cudaStream_t st) {
  std::vector<unsigned char> host(l.span);
  for (size_t i = 0; i < l.span; ++i)
    host[i] = rank == 0 && (i % l.stride) < l.block ? pattern(i, 1) : 0xEE;
  CK(cudaMemcpy(dev, host.data(), l.span, cudaMemcpyHostToDevice));
  if (rank > 1) return 0;
  oneWay(rank == 0, 1 - rank, l, dev, packed, st);
  if (rank == 0) return 0;
  CK(cudaMemcpy(host.data(), dev, l.span, cudaMemcpyDeviceToHost));
  long wrong = 0;
  for (size_t i = 0; i < l.span; ++i)
    if (host[i] != ((i % l.stride) < l.block ? pattern(i, 1) : 0xEE)) ++wrong;
  return wrong;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long long bytes = 1 << 20, block = 8, stride = 16;
  int iters = 3, bad = size < 2;
  for (int a = 1; a < argc && !bad; ++a) {
    if (!strcmp(argv[a], "--bytes") && a + 1 < argc) bytes = atoll(argv[++a]);
    else if (!strcmp(argv[a], "--block") && a + 1 < argc) block = atoll(argv[++a]);
    else if (!strcmp(argv[a], "--stride") && a + 1 < argc) stride = atoll(argv[++a]);
    else if (!strcmp(argv[a], "--iters") && a + 1 < argc) iters = atoi(argv[++a]);
    else bad = 1;
  }
  if (bad || block <= 0 || stride < block || bytes <= 0 || bytes % block || bytes > (1ll << 30) ||
      iters < 1) {
    if (rank == 0)
      fprintf(stderr, "usage: mpiexec -n 2 bench-pingpong-blocks [--bytes N] [--block B] "
                      "[--stride S>=B] [--iters K>=1]  (N a multiple of B, at most 1 GiB)\n");
    MPI_Finalize();
    return 1;
  }
  ex_require_gpu(rank);
  if (rank == 0) bench_header("bench-pingpong-blocks", "strided device ping-pong, one copy per block");
  Layout l;
  l.bytes = size_t(bytes);
  l.block = size_t(block);
  l.stride = size_t(stride);
  l.blocks = l.bytes / l.block;
  l.span = (l.blocks - 1) * l.stride + l.block;
  unsigned char *dev = nullptr, *packed = nullptr;
  CK(cudaMalloc(&dev, l.span));
  CK(cudaMallocHost(&packed, l.bytes));
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  long wrong = checkedRound(rank, l, dev, packed, st);
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (int it = 0; it < iters && rank < 2; ++it) {
    oneWay(rank == 0, 1 - rank, l, dev, packed, st);
    oneWay(rank == 1, 1 - rank, l, dev, packed, st);
  }
  const double half = (MPI_Wtime() - t0) / iters / 2;
  long total = 0;
  MPI_Allreduce(&wrong, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("pingpong mode=strided-per-block mem=device bytes=%zu block=%zu stride=%zu iters=%d "
           "half_rtt_us=%.3f GBps=%.4f wrong=%ld %s\n",
           l.bytes, l.block, l.stride, iters, half * 1e6, half > 0 ? l.bytes / half / 1e9 : 0.0,
           total, total ? "FAILED" : "ok");
  cudaFree(dev);
  cudaFreeHost(packed);
  cudaStreamDestroy(st);
  MPI_Finalize();
  return total ? 1 : 0;
}

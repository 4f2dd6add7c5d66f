/// \file
/// Latency of small packs (1 KiB to 256 KiB, 2-D strided), host call to data ready, against an
/// empty kernel's launch + synchronize measured in the same run (docs/performance.md explains the
/// columns):
///   empty     an empty kernel<<<1,1>>> and cudaStreamSynchronize: the floor of any launch path
///   launch    TEMPI's kernel (tempi/kernels.cuh, packGeneric) launched and synchronized
///   graph     the same launch captured once in a CUDA graph: cudaGraphLaunch and synchronize
///   tempi     MPI_Pack / MPI_Unpack between device buffers through libtempi (repeated calls
///             replay a graph unless TEMPI_PACK_GRAPHS=0; every timed call here is a repeat)
/// Every row's empty launch is measured next to it (the rows take turns with it), so the over_empty
/// columns compare numbers from the same moment.
///
///   mpiexec -n 1 bench-pack-latency [--csv FILE] [--reps N]
///
/// Each TEMPI pack is checked byte for byte against the MPI's MPI_Pack of the same data on the
/// host, each unpack against its MPI_Unpack, the launch and graph paths likewise; exits 1 if any
/// differs.
#include "bench_common.h"
#include "tempi/kernels.cuh"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace {

int g_reps = 400;

/// Median microseconds per call of f (which must synchronize), after 20 warm-up calls.
double medianUs(const std::function<void()> &f) {
  for (int i = 0; i < 20; ++i) f();
  std::vector<double> t(g_reps);
  for (double &x : t) {
    const double t0 = bench_now();
    f();
    x = (bench_now() - t0) * 1e6;
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

__global__ void emptyKernel() {}

__global__ void fillKernel(unsigned char *p, int64_t n, uint32_t seed) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
       i += (int64_t)gridDim.x * blockDim.x)
    p[i] = (unsigned char)(((uint32_t)i * 2654435761u) ^ seed) >> 3;
}

struct Shape {
  int64_t packed, block, stride;
};

struct Ctx {
  cudaStream_t st = nullptr;
  unsigned char *din = nullptr, *dout = nullptr, *dunp = nullptr;
  unsigned char *hin = nullptr, *hout = nullptr, *hchk = nullptr, *hunp = nullptr;
  int64_t cap = 0;
  bool tempi = false;
  long failures = 0;
  FILE *csv = nullptr;
};

void ensure(Ctx &c, int64_t span) {
  if (span <= c.cap) return;
  if (c.din) {
    cudaFree(c.din); cudaFree(c.dout); cudaFree(c.dunp);
    cudaFreeHost(c.hin); cudaFreeHost(c.hout); cudaFreeHost(c.hchk); cudaFreeHost(c.hunp);
  }
  CK(cudaMalloc(&c.din, span));
  CK(cudaMalloc(&c.dout, span));
  CK(cudaMalloc(&c.dunp, span));
  CK(cudaMallocHost(&c.hin, span));
  CK(cudaMallocHost(&c.hout, span));
  CK(cudaMallocHost(&c.hchk, span));
  CK(cudaMallocHost(&c.hunp, span));
  c.cap = span;
}

bool same(const unsigned char *dev, const unsigned char *want, int64_t n, unsigned char *tmp) {
  CK(cudaMemcpy(tmp, dev, n, cudaMemcpyDeviceToHost));
  return memcmp(tmp, want, n) == 0;
}

void row(Ctx &c, const Shape &s, uint32_t seed) {
  const int64_t n = s.packed / s.block, span = (n - 1) * s.stride + s.block;
  ensure(c, span);
  MPI_Datatype t;
  MPI_Type_vector((int)n, (int)s.block, (int)s.stride, MPI_BYTE, &t);
  MPI_Type_commit(&t);
  fillKernel<<<256, 256, 0, c.st>>>(c.din, span, seed);
  CK(cudaStreamSynchronize(c.st));
  CK(cudaMemcpy(c.hin, c.din, span, cudaMemcpyDeviceToHost));
  int pos = 0;
  MPI_Pack(c.hin, 1, t, c.hchk, (int)s.packed, &pos, MPI_COMM_SELF); // host: the reference
  memset(c.hunp, 0x5A, span);
  pos = 0;
  MPI_Unpack(c.hchk, (int)s.packed, &pos, c.hunp, 1, t, MPI_COMM_SELF);

  // The launch path: TEMPI's generic kernel with the widest word the shape allows.
  tempi::kernels::Strided k;
  k.bytes = s.block;
  k.extent = span;
  k.ndims = 1;
  k.counts[0] = n;
  k.strides[0] = s.stride;
  const int W = tempi::kernels::widestWord(k, 1, c.din, c.dout);
  auto launchPack = [&] {
    if (tempi::kernels::packGeneric(W, k, c.dout, c.din, 1, c.st) != TEMPI_SUCCESS) ++c.failures;
  };
  CK(cudaMemset(c.dout, 0xEE, s.packed));
  launchPack();
  CK(cudaStreamSynchronize(c.st));
  const bool launchOk = same(c.dout, c.hchk, s.packed, c.hout);

  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CK(cudaStreamBeginCapture(c.st, cudaStreamCaptureModeThreadLocal));
  launchPack();
  CK(cudaStreamEndCapture(c.st, &graph));
  CK(cudaGraphInstantiate(&exec, graph, 0));
  CK(cudaMemset(c.dout, 0xEE, s.packed));
  CK(cudaDeviceSynchronize());
  CK(cudaGraphLaunch(exec, c.st));
  CK(cudaStreamSynchronize(c.st));
  const bool graphOk = same(c.dout, c.hchk, s.packed, c.hout);

  bool tempiOk = true;
  if (c.tempi) {
    CK(cudaMemset(c.dout, 0xEE, s.packed));
    CK(cudaMemset(c.dunp, 0x5A, span));
    CK(cudaDeviceSynchronize());
    int p = 0;
    tempiOk = MPI_Pack(c.din, 1, t, c.dout, (int)s.packed, &p, MPI_COMM_SELF) == MPI_SUCCESS &&
              p == s.packed && same(c.dout, c.hchk, s.packed, c.hout);
    p = 0;
    tempiOk = tempiOk &&
              MPI_Unpack(c.dout, (int)s.packed, &p, c.dunp, 1, t, MPI_COMM_SELF) == MPI_SUCCESS &&
              same(c.dunp, c.hunp, span, c.hout);
  }
  const bool ok = launchOk && graphOk && tempiOk;
  if (!ok) ++c.failures;

  auto empty = [&] {
    emptyKernel<<<1, 1, 0, c.st>>>();
    CK(cudaStreamSynchronize(c.st));
  };
  const double tEmpty = medianUs(empty);
  const double tLaunch = medianUs([&] {
    launchPack();
    CK(cudaStreamSynchronize(c.st));
  });
  const double tGraph = medianUs([&] {
    CK(cudaGraphLaunch(exec, c.st));
    CK(cudaStreamSynchronize(c.st));
  });
  double tPack = -1, tUnpack = -1;
  if (c.tempi) {
    tPack = medianUs([&] {
      int p = 0;
      MPI_Pack(c.din, 1, t, c.dout, (int)s.packed, &p, MPI_COMM_SELF);
    });
    tUnpack = medianUs([&] {
      int p = 0;
      MPI_Unpack(c.dout, (int)s.packed, &p, c.dunp, 1, t, MPI_COMM_SELF);
    });
  }
  const double tEmpty2 = medianUs(empty); // and once more after: the row's floor is the lower
  const double floorUs = std::min(tEmpty, tEmpty2);
  char line[512];
  auto us = [&](double v) { // n/a without libtempi
    char b[32];
    if (!c.tempi) return std::string("n/a");
    snprintf(b, sizeof b, "%.2f", v);
    return std::string(b);
  };
  snprintf(line, sizeof line, "%lld,%lld,%lld,%d,%.2f,%.2f,%.2f,%s,%s,%.2f,%.2f,%s,%s",
           (long long)s.packed, (long long)s.block, (long long)s.stride, W, floorUs, tLaunch,
           tGraph, us(tPack).c_str(), us(tUnpack).c_str(), tLaunch - floorUs, tGraph - floorUs,
           us(tPack - floorUs).c_str(),
           ok ? "ok" : (!launchOk ? "LAUNCH-WRONG" : !graphOk ? "GRAPH-WRONG" : "TEMPI-WRONG"));
  printf("%s\n", line);
  if (c.csv) fprintf(c.csv, "%s\n", line);
  fflush(stdout);
  CK(cudaGraphExecDestroy(exec));
  CK(cudaGraphDestroy(graph));
  MPI_Type_free(&t);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  const char *csv = nullptr;
  for (int a = 1; a < argc; ++a) {
    if (!strcmp(argv[a], "--csv") && a + 1 < argc) csv = argv[++a];
    else if (!strcmp(argv[a], "--reps") && a + 1 < argc) g_reps = std::max(1, atoi(argv[++a]));
    else {
      fprintf(stderr, "usage: bench-pack-latency [--csv FILE] [--reps N]\n");
      MPI_Finalize();
      return 1;
    }
  }
  bench_require_gpu("bench-pack-latency");
  Ctx c;
  c.tempi = bench_tempi_linked();
  CK(cudaStreamCreateWithFlags(&c.st, cudaStreamNonBlocking));
  if (csv) c.csv = fopen(csv, "w");
  bench_header("bench-pack-latency", "small packs, host call to data ready (us, medians)");
  const char *graphs = getenv("TEMPI_PACK_GRAPHS");
  printf("# TEMPI_PACK_GRAPHS=%s\n", graphs ? graphs : "(unset: 1, repeated calls replay graphs)");
  const char *cols = "packed_B,block_B,stride_B,word_B,empty_us,launch_us,graph_us,tempi_pack_us,"
                     "tempi_unpack_us,launch_over_empty_us,graph_over_empty_us,"
                     "tempi_over_empty_us,check";
  printf("%s\n", cols);
  if (c.csv) fprintf(c.csv, "%s\n", cols);
  uint32_t seed = 7;
  for (int64_t bytes : {1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10})
    for (Shape s : {Shape{bytes, 1, 2}, Shape{bytes, 8, 16}, Shape{bytes, 8, 512},
                    Shape{bytes, 64, 512}, Shape{bytes, 512, 4096}})
      if (s.block <= bytes) row(c, s, seed++);
  printf("# rows with a failed check: %ld\n", c.failures);
  if (c.csv) fclose(c.csv);
  MPI_Finalize();
  return c.failures ? 1 : 0;
}

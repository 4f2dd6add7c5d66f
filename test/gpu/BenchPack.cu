/// \file
/// tempi-bench-pack: pack/unpack bandwidth and small-pack latency, as ratios to ceilings measured
/// in the same run on the same GPU.
///
/// Bandwidth table: 2-D and 3-D objects of 64 MiB packed (runs of 4 B to 4 KiB at several
/// strides). For each: the device-to-device copy of the same number of bytes (cudaMemcpyAsync),
/// TEMPI's pack and unpack through the device layer (the generic kernels), a plain hand-written
/// grid-stride kernel (one word a thread per iteration, 64-bit division), and for two shapes the
/// compile-time (generated-style) kernels. Bandwidth counts bytes read plus bytes written (2x the
/// packed bytes). Ratios: pack / copy, pack / ceiling where the ceiling is the copy times
/// 2b/(64+b) for runs b < 64 B (a 64-byte DRAM granule fetched per run) and the copy itself
/// otherwise, unpack time / pack time, plain / copy. Every pack is checked against the plain
/// kernel's output and every unpack by packing its result again (device-side compare): a figure
/// from a wrong kernel is never printed (exit 1).
///
/// Latency table: pack of 1-64 KiB objects, host call to data ready (pack + stream synchronize,
/// median of 500), against an empty kernel launch + synchronize on the same stream in the same run.
///
/// Usage: tempi-bench-pack [--quick] [--csv FILE]. Exit 77 without a GPU.
#include "gpu/GpuTest.h"
#include "passes/KernelPlan.h"
#include "runtime/src/device/Device.h"
#include "tempi/kernels.cuh"

#include <algorithm>
#include <chrono>
#include <functional>
#include <type_traits>
#include <cstring>
#include <string>
#include <vector>

using namespace tempi;
using namespace tempi::gputest;

namespace {

__global__ void fillKernel(uint64_t *p, uint64_t n, uint64_t seed) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += uint64_t(gridDim.x) * blockDim.x) {
    uint64_t x = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    p[i] = x;
  }
}

__global__ void emptyKernel() {}

__global__ void countMismatch(const unsigned char *a, const unsigned char *b, uint64_t n,
                              unsigned long long *bad) {
  unsigned long long mine = 0;
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += uint64_t(gridDim.x) * blockDim.x)
    mine += a[i] != b[i];
  if (mine) atomicAdd(bad, mine);
}

/// The baseline: what one writes first. One word a thread per iteration, 64-bit division.
template <int W>
__global__ void plainPack(const unsigned char *base, unsigned char *packed, int64_t start,
                          int64_t wordsPerRun, int64_t rows0, int64_t stride0, int64_t stride1,
                          uint64_t n) {
  using T = typename kernels::Word<W>::type;
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += uint64_t(gridDim.x) * blockDim.x) {
    const uint64_t row = i / wordsPerRun, w = i % wordsPerRun;
    const int64_t off = start + int64_t(row % rows0) * stride0 + int64_t(row / rows0) * stride1 +
                        int64_t(w) * W;
    reinterpret_cast<T *>(packed)[i] = *reinterpret_cast<const T *>(base + off);
  }
}

struct Shape {
  std::string name;
  int64_t b, s0, c0, s1, c1; ///< run, then rows (c0 at s0), then planes (c1 at s1; c1 = 1: 2-D)
  StridedBlock block() const {
    StridedBlock sb;
    sb.bytes = b;
    sb.dims.push_back({c0, s0});
    if (c1 > 1) sb.dims.push_back({c1, s1});
    sb.extent = c1 > 1 ? c1 * s1 : c0 * s0;
    return sb;
  }
  int64_t packed() const { return b * c0 * c1; }
  int64_t span() const { return c1 > 1 ? c1 * s1 : c0 * s0; }
};

Shape shape2d(int64_t b, int64_t stride, int64_t packed) {
  return {"2d", b, stride, packed / b, 0, 1};
}
Shape shape3d(int64_t b, int64_t stride, int64_t packed) {
  const int64_t c0 = 64;
  return {"3d", b, stride, c0, c0 * stride + 4096, packed / (b * c0)};
}

float timeMedian(int reps, cudaStream_t s, const std::function<void()> &f) {
  cudaEvent_t a, z;
  GPUTEST_CUDA(cudaEventCreate(&a));
  GPUTEST_CUDA(cudaEventCreate(&z));
  for (int i = 0; i < 2; ++i) f();
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    GPUTEST_CUDA(cudaEventRecord(a, s));
    f();
    GPUTEST_CUDA(cudaEventRecord(z, s));
    GPUTEST_CUDA(cudaEventSynchronize(z));
    float ms = 0;
    GPUTEST_CUDA(cudaEventElapsedTime(&ms, a, z));
    t.push_back(ms);
  }
  GPUTEST_CUDA(cudaGetLastError());
  std::sort(t.begin(), t.end());
  GPUTEST_CUDA(cudaEventDestroy(a));
  GPUTEST_CUDA(cudaEventDestroy(z));
  return t[t.size() / 2];
}

int mismatches = 0;

void expectSame(const unsigned char *a, const unsigned char *b, uint64_t n, cudaStream_t s,
                const std::string &what, unsigned long long *dBad) {
  GPUTEST_CUDA(cudaMemsetAsync(dBad, 0, sizeof *dBad, s));
  countMismatch<<<1024, 256, 0, s>>>(a, b, n, dBad);
  unsigned long long bad = 0;
  GPUTEST_CUDA(cudaMemcpyAsync(&bad, dBad, sizeof bad, cudaMemcpyDeviceToHost, s));
  GPUTEST_CUDA(cudaStreamSynchronize(s));
  if (bad) {
    std::printf("MISMATCH %s: %llu bytes differ\n", what.c_str(), bad);
    ++mismatches;
  }
}

template <int W>
void launchPlain(const Shape &sh, const unsigned char *base, unsigned char *packed, cudaStream_t s) {
  const uint64_t n = uint64_t(sh.packed()) / W;
  const int grid = 132 * 8;
  plainPack<W><<<grid, 256, 0, s>>>(base, packed, 0, sh.b / W, sh.c0, sh.s0, sh.s1, n);
}

void runPlain(int W, const Shape &sh, const unsigned char *base, unsigned char *packed,
              cudaStream_t s) {
  switch (W) {
  case 16: return launchPlain<16>(sh, base, packed, s);
  case 8: return launchPlain<8>(sh, base, packed, s);
  case 4: return launchPlain<4>(sh, base, packed, s);
  case 2: return launchPlain<2>(sh, base, packed, s);
  default: return launchPlain<1>(sh, base, packed, s);
  }
}

// Generated-style kernels for two shapes of 64 MiB packed (what tempi-cc would emit).
constexpr int64_t kMiB = 1 << 20;
tempi_result static8(void *p, const void *b, cudaStream_t s) {
  return kernels::packStatic<8, 0, 8, (8 * kMiB) * 512, 8 * kMiB, 512>(p, b, 1, s);
}
tempi_result static64(void *p, const void *b, cudaStream_t s) {
  return kernels::packStatic<16, 0, 64, kMiB * 128, kMiB, 128>(p, b, 1, s);
}

FILE *csv = nullptr;

kernels::Strided toStrided(const StridedBlock &b) {
  kernels::Strided s;
  s.start = b.start;
  s.bytes = b.bytes;
  s.extent = b.extent;
  s.ndims = int(b.dims.size());
  for (size_t j = 0; j < b.dims.size(); ++j) {
    s.counts[j] = b.dims[j].count;
    s.strides[j] = b.dims[j].stride;
  }
  return s;
}

/// Tuning data, every variant verified: pack and unpack as fractions of the ceiling for the
/// kernel's choices (U words per thread per step, cache policy, grid cap in waves). The default
/// is U = 1, plain loads and stores, 8 waves (chosen from this sweep; docs/kernels.md).
template <int W, int N>
void sweepVariants(const Shape &sh, unsigned char *src, unsigned char *dst, unsigned char *packed,
                   unsigned char *ref, unsigned char *repacked, unsigned long long *dBad,
                   cudaStream_t s, int reps, float tCopy) {
  const kernels::Walk w = kernels::makeWalk(toStrided(sh.block()), 1);
  if (w.nd != N) {
    std::printf("sweep: %s b=%lld has %d dims after merging, not %d\n", sh.name.c_str(),
                (long long)sh.b, w.nd, N);
    return;
  }
  const auto shape = kernels::toRuntimeShape<N, uint32_t>(w, W);
  using S = std::remove_const_t<decltype(shape)>;
  const uint64_t words = w.totalBytes / W;
  const double ceil = sh.b < 64 ? 2.0 * sh.b / (64.0 + sh.b) : 1.0;
  runPlain(W, sh, src, ref, s);
  std::printf("%-4s %5lld %5lld W=%-2d |", sh.name.c_str(), (long long)sh.b, (long long)sh.s0, W);
  auto one = [&](const char *label, auto u, auto cache, unsigned waves) {
    constexpr int U = decltype(u)::value, C = decltype(cache)::value;
    const float tp = timeMedian(reps, s, [&] {
      kernels::launchStrided<W, true, uint32_t, S, U, C>(shape, src, packed, words, s, waves);
    });
    expectSame(packed, ref, sh.packed(), s, std::string("sweep pack ") + label, dBad);
    const float tu = timeMedian(reps, s, [&] {
      kernels::launchStrided<W, false, uint32_t, S, U, C>(shape, dst, packed, words, s, waves);
    });
    runPlain(W, sh, dst, repacked, s);
    expectSame(repacked, ref, sh.packed(), s, std::string("sweep unpack ") + label, dBad);
    std::printf(" %s %.3f/%.3f", label, tCopy / tp / ceil, tCopy / tu / ceil);
  };
  // (streaming loads/stores, st.cs/ld.cs, were measured too and lost: docs/kernels.md; dropped
  // here to keep the build short)
  using I1 = std::integral_constant<int, 1>;
  using I4 = std::integral_constant<int, 4>;
  using C0 = std::integral_constant<int, kernels::kCacheDefault>;
  one("U1w1", I1{}, C0{}, 1);
  one("U4w1", I4{}, C0{}, 1);
  one("U1w4", I1{}, C0{}, 4);
  one("U1w8=default", I1{}, C0{}, 8);
  std::printf("\n");
}

} // namespace

int main(int argc, char **argv) {
  skipWithoutGpu("tempi-bench-pack");
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    if (!std::strcmp(argv[i], "--csv") && i + 1 < argc) csv = std::fopen(argv[++i], "w");
  }
  cudaDeviceProp prop{};
  GPUTEST_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs, %.0f MiB, L2 %d MiB\n", prop.name, prop.multiProcessorCount,
              prop.totalGlobalMem / 1048576.0, prop.l2CacheSize >> 20);
  cudaStream_t s = static_cast<cudaStream_t>(device::defaultStream());
  const int64_t P = quick ? 4 * kMiB : 64 * kMiB;
  const int reps = quick ? 3 : 10;

  std::vector<Shape> shapes;
  for (int64_t b : {4, 8, 16, 32}) shapes.push_back(shape2d(b, 512, P));
  for (int64_t b : {64, 128, 256, 512, 1024, 4096}) shapes.push_back(shape2d(b, 2 * b, P));
  for (int64_t b : {64, 128, 256}) shapes.push_back(shape2d(b, 512, P));
  shapes.push_back(shape2d(4096, 4096, P)); // contiguous: the kernel against cudaMemcpy itself
  for (int64_t b : {8, 32}) shapes.push_back(shape3d(b, 512, P));
  for (int64_t b : {64, 256, 1024}) shapes.push_back(shape3d(b, 2 * b, P));
  if (quick) shapes.resize(4);

  int64_t maxSpan = 0;
  for (const auto &sh : shapes) maxSpan = std::max(maxSpan, sh.span());
  unsigned char *src = nullptr, *dst = nullptr, *packed = nullptr, *ref = nullptr,
                *repacked = nullptr;
  unsigned long long *dBad = nullptr;
  GPUTEST_CUDA(cudaMalloc(&src, maxSpan));
  GPUTEST_CUDA(cudaMalloc(&dst, maxSpan));
  GPUTEST_CUDA(cudaMalloc(&packed, P));
  GPUTEST_CUDA(cudaMalloc(&ref, P));
  GPUTEST_CUDA(cudaMalloc(&repacked, P));
  GPUTEST_CUDA(cudaMalloc(&dBad, sizeof *dBad));
  fillKernel<<<4096, 256, 0, s>>>(reinterpret_cast<uint64_t *>(src), maxSpan / 8, 12345);
  GPUTEST_CUDA(cudaMemsetAsync(dst, 0, maxSpan, s));
  GPUTEST_CUDA(cudaStreamSynchronize(s));

  std::printf("\nbandwidth: %lld MiB packed per object, GB/s count read+write, median of %d\n",
              (long long)(P >> 20), reps);
  std::printf("%-4s %6s %6s %6s | %8s %8s %8s %8s | %9s %9s %11s %10s\n", "dims", "run_B",
              "stride", "planes", "copy", "pack", "unpack", "plain", "pack/copy", "pack/ceil",
              "unpack/pack", "plain/copy");
  if (csv)
    std::fprintf(csv, "dims,run_B,stride,planes,copy_gbps,pack_gbps,unpack_gbps,plain_gbps,"
                      "pack_over_copy,pack_over_ceiling,unpack_over_pack_time,plain_over_copy\n");
  for (const Shape &sh : shapes) {
    const KernelPlan plan = makePlan(sh.block());
    const double bytes = 2.0 * double(sh.packed());
    const float tCopy = timeMedian(reps, s, [&] {
      GPUTEST_CUDA(cudaMemcpyAsync(packed, src, sh.packed(), cudaMemcpyDeviceToDevice, s));
    });
    const float tPack = timeMedian(reps, s, [&] {
      if (device::pack(plan, src, 1, packed, s) != TEMPI_SUCCESS) ++mismatches;
    });
    const int W = plan.wordSize;
    const float tPlain = timeMedian(reps, s, [&] { runPlain(W, sh, src, ref, s); });
    expectSame(packed, ref, sh.packed(), s, "pack " + sh.name + " b=" + std::to_string(sh.b),
               dBad);
    const float tUnpack = timeMedian(reps, s, [&] {
      if (device::unpack(plan, dst, packed, 1, s) != TEMPI_SUCCESS) ++mismatches;
    });
    runPlain(W, sh, dst, repacked, s);
    expectSame(repacked, ref, sh.packed(), s, "unpack " + sh.name + " b=" + std::to_string(sh.b),
               dBad);
    const double gCopy = bytes / tCopy / 1e6, gPack = bytes / tPack / 1e6,
                 gUnpack = bytes / tUnpack / 1e6, gPlain = bytes / tPlain / 1e6;
    const double ceil = sh.b < 64 ? gCopy * 2.0 * sh.b / (64.0 + sh.b) : gCopy;
    std::printf("%-4s %6lld %6lld %6lld | %8.0f %8.0f %8.0f %8.0f | %9.3f %9.3f %11.3f %10.3f\n",
                sh.name.c_str(), (long long)sh.b, (long long)sh.s0, (long long)sh.c1, gCopy,
                gPack, gUnpack, gPlain, gPack / gCopy, gPack / ceil, tUnpack / tPack,
                gPlain / gCopy);
    if (csv)
      std::fprintf(csv, "%s,%lld,%lld,%lld,%.1f,%.1f,%.1f,%.1f,%.4f,%.4f,%.4f,%.4f\n",
                   sh.name.c_str(), (long long)sh.b, (long long)sh.s0, (long long)sh.c1, gCopy,
                   gPack, gUnpack, gPlain, gPack / gCopy, gPack / ceil, tUnpack / tPack,
                   gPlain / gCopy);
  }

  if (!quick) {
    std::printf("\ncompile-time (generated-style) kernels, same objects:\n");
    struct StaticCase {
      Shape sh;
      tempi_result (*fn)(void *, const void *, cudaStream_t);
    };
    const StaticCase cases[] = {{shape2d(8, 512, P), static8}, {shape2d(64, 128, P), static64}};
    for (const StaticCase &c : cases) {
      const KernelPlan plan = makePlan(c.sh.block());
      const double bytes = 2.0 * double(c.sh.packed());
      const float tCopy = timeMedian(reps, s, [&] {
        GPUTEST_CUDA(cudaMemcpyAsync(packed, src, c.sh.packed(), cudaMemcpyDeviceToDevice, s));
      });
      const float tGeneric = timeMedian(reps, s, [&] { device::pack(plan, src, 1, packed, s); });
      const float tStatic = timeMedian(reps, s, [&] {
        if (c.fn(packed, src, s) != TEMPI_SUCCESS) ++mismatches;
      });
      runPlain(plan.wordSize, c.sh, src, ref, s);
      expectSame(packed, ref, c.sh.packed(), s, "static b=" + std::to_string(c.sh.b), dBad);
      const double ceil = c.sh.b < 64 ? 2.0 * c.sh.b / (64.0 + c.sh.b) : 1.0;
      std::printf("2d run %lld stride %lld: static %.0f GB/s (%.3f of ceiling), generic %.0f GB/s "
                  "(%.3f), static/generic time %.3f\n",
                  (long long)c.sh.b, (long long)c.sh.s0, bytes / tStatic / 1e6,
                  bytes / tStatic / 1e6 / (bytes / tCopy / 1e6 * ceil), bytes / tGeneric / 1e6,
                  bytes / tGeneric / 1e6 / (bytes / tCopy / 1e6 * ceil), tStatic / tGeneric);
    }
  }

  if (!quick) {
    std::printf("\nvariant sweep: pack/unpack as fractions of the ceiling (copy, or copy x "
                "2b/(64+b)); every variant verified\n");
    auto copyTime = [&](const Shape &sh) {
      return timeMedian(reps, s, [&] {
        GPUTEST_CUDA(cudaMemcpyAsync(packed, src, sh.packed(), cudaMemcpyDeviceToDevice, s));
      });
    };
    auto sweep1 = [&](auto w, const Shape &sh) {
      sweepVariants<decltype(w)::value, 1>(sh, src, dst, packed, ref, repacked, dBad, s, reps,
                                           copyTime(sh));
    };
    sweep1(std::integral_constant<int, 4>{}, shape2d(4, 512, P));
    sweep1(std::integral_constant<int, 8>{}, shape2d(8, 512, P));
    sweep1(std::integral_constant<int, 16>{}, shape2d(16, 512, P));
    sweep1(std::integral_constant<int, 16>{}, shape2d(32, 512, P));
    sweep1(std::integral_constant<int, 16>{}, shape2d(64, 128, P));
    sweep1(std::integral_constant<int, 16>{}, shape2d(64, 512, P));
    sweep1(std::integral_constant<int, 16>{}, shape2d(128, 256, P));
    sweep1(std::integral_constant<int, 16>{}, shape2d(1024, 2048, P));
    {
      const Shape sh = shape3d(32, 512, P);
      sweepVariants<16, 2>(sh, src, dst, packed, ref, repacked, dBad, s, reps, copyTime(sh));
    }
  }

  // Latency: host call to data ready.
  auto hostMedianUs = [&](int reps2, const std::function<void()> &f) {
    for (int i = 0; i < 20; ++i) f();
    std::vector<double> t;
    for (int i = 0; i < reps2; ++i) {
      const auto a = std::chrono::steady_clock::now();
      f();
      const auto z = std::chrono::steady_clock::now();
      t.push_back(std::chrono::duration<double, std::micro>(z - a).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  };
  const int lreps = quick ? 50 : 500;
  const double empty = hostMedianUs(lreps, [&] {
    emptyKernel<<<1, 1, 0, s>>>();
    GPUTEST_CUDA(cudaStreamSynchronize(s));
  });
  std::printf("\nlatency: host call to data ready, median of %d (us); empty kernel launch+sync "
              "%.2f us\n",
              lreps, empty);
  std::printf("%8s %6s %6s | %8s %10s\n", "packed", "run_B", "stride", "pack+sync", "minus empty");
  for (int64_t bytes : {1024, 4096, 16384, 65536})
    for (int64_t b : {8, 64}) {
      const Shape sh = shape2d(b, b == 8 ? 512 : 128, bytes);
      const KernelPlan plan = makePlan(sh.block());
      const double t = hostMedianUs(lreps, [&] {
        if (device::pack(plan, src, 1, packed, s) != TEMPI_SUCCESS) ++mismatches;
        if (device::synchronize(s) != TEMPI_SUCCESS) ++mismatches;
      });
      std::printf("%8lld %6lld %6lld | %8.2f %10.2f\n", (long long)bytes, (long long)b,
                  (long long)sh.s0, t, t - empty);
      if (csv)
        std::fprintf(csv, "latency,%lld,%lld,%lld,%.3f,%.3f\n", (long long)bytes, (long long)b,
                     (long long)sh.s0, t, empty);
    }

  GPUTEST_CUDA(cudaFree(src));
  GPUTEST_CUDA(cudaFree(dst));
  GPUTEST_CUDA(cudaFree(packed));
  GPUTEST_CUDA(cudaFree(ref));
  GPUTEST_CUDA(cudaFree(repacked));
  GPUTEST_CUDA(cudaFree(dBad));
  device::finalize();
  if (csv) std::fclose(csv);
  if (mismatches) {
    std::printf("FAILED: %d checks failed\n", mismatches);
    return 1;
  }
  std::printf("all packs and unpacks verified\n");
  return 0;
}

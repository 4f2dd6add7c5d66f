/// \file
/// tempi-gpu-pack-graphs: packNow/unpackNow (PackNow.cpp), which replay a CUDA graph for a call
/// made before, pack and unpack exactly like the MPI on every round, keep the launch path's
/// ordering, and stay right when threads replay at once.
///  1. random strided shapes (count 1 to 3, base and packed addresses misaligned at random), each
///     packed 3 times from the same buffers with new contents each time (round 1 launches, round
///     2 captures and replays, round 3 replays): byte-identical to MPI_Pack of that round's
///     contents on the host; the same for unpack against MPI_Unpack (whole poisoned buffer);
///  2. ordering: a kernel on the legacy stream that writes the source after a 300 us spin, then a
///     replayed packNow at once: the packed bytes are the new ones;
///  3. four threads replaying their own calls at once, 200 rounds each, every round checked;
///  4. device::counters() shows the replays, and none with graphs off (setPackGraphs(false)).
/// Exit 77 without a GPU.   Usage: mpiexec -n 1 tempi-gpu-pack-graphs [shapes=1000]
#include "gpu/GpuTest.h"
#include "gpu/MpiTypeOf.h"
#include "gpu/RandomShapes.h"
#include "passes/KernelPlan.h"
#include "runtime/src/device/Device.h"

#include <mpi.h>

#include <cstring>
#include <thread>
#include <vector>

using namespace tempi;
using namespace tempi::gputest;

namespace {

int failures = 0;

#define CHECK(cond, ...)                                                                          \
  do {                                                                                            \
    if (!(cond)) {                                                                                \
      std::printf("FAIL %s:%d: ", __FILE__, __LINE__);                                            \
      std::printf(__VA_ARGS__);                                                                   \
      std::printf("\n");                                                                          \
      ++failures;                                                                                 \
    }                                                                                             \
  } while (0)


/// One shape, 3 rounds each way from the same buffers: against the MPI on the host every round.
void checkShape(int t, const StridedBlock &shape, int count, int mis, int pmis,
                std::mt19937_64 &rng) {
  const Span span = spanOf(shape, count);
  const int64_t bufBytes = span.bytes() + 32, baseOff = 8 - span.lo + mis;
  const int64_t packedBytes = count * shape.size(), packedBuf = packedBytes + 32;
  MPI_Datatype type = mpiTypeOf(shape);
  const KernelPlan plan = makePlan(shape);
  unsigned char *d = nullptr, *p = nullptr;
  GPUTEST_CUDA(cudaMalloc(&d, bufBytes));
  GPUTEST_CUDA(cudaMalloc(&p, packedBuf));
  for (int round = 1; round <= 3; ++round) {
    std::vector<unsigned char> h(bufBytes), want(packedBuf, 0xA5), got(packedBuf);
    fillRandom(h, rng);
    int position = 0;
    MPI_Pack(h.data() + baseOff, count, type, want.data() + pmis, int(packedBytes), &position,
             MPI_COMM_SELF);
    GPUTEST_CUDA(cudaMemcpy(d, h.data(), bufBytes, cudaMemcpyHostToDevice));
    GPUTEST_CUDA(cudaMemset(p, 0xA5, packedBuf));
    CHECK(device::packNow(plan, d + baseOff, count, p + pmis) == TEMPI_SUCCESS,
          "#%d round %d packNow", t, round);
    GPUTEST_CUDA(cudaMemcpy(got.data(), p, packedBuf, cudaMemcpyDeviceToHost));
    CHECK(want == got, "#%d round %d pack: %s count %d base+%d packed+%d", t, round,
          printStrided(shape).c_str(), count, mis, pmis);
  }
  for (int round = 1; round <= 3; ++round) {
    std::vector<unsigned char> src(packedBuf), wantS(bufBytes, 0x5A), gotS(bufBytes);
    fillRandom(src, rng);
    int position = 0;
    MPI_Unpack(src.data() + pmis, int(packedBytes), &position, wantS.data() + baseOff, count,
               type, MPI_COMM_SELF);
    GPUTEST_CUDA(cudaMemcpy(p, src.data(), packedBuf, cudaMemcpyHostToDevice));
    GPUTEST_CUDA(cudaMemset(d, 0x5A, bufBytes));
    CHECK(device::unpackNow(plan, d + baseOff, p + pmis, count) == TEMPI_SUCCESS,
          "#%d round %d unpackNow", t, round);
    GPUTEST_CUDA(cudaMemcpy(gotS.data(), d, bufBytes, cudaMemcpyDeviceToHost));
    CHECK(wantS == gotS, "#%d round %d unpack: %s count %d base+%d packed+%d", t, round,
          printStrided(shape).c_str(), count, mis, pmis);
  }
  GPUTEST_CUDA(cudaFree(d));
  GPUTEST_CUDA(cudaFree(p));
  MPI_Type_free(&type);
}

__global__ void lateWrite(unsigned char *p, int64_t n, unsigned char value, unsigned long long ns) {
  unsigned long long t0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  for (;;) {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (t - t0 > ns) break;
  }
  for (int64_t i = 0; i < n; ++i) p[i] = value;
}

/// Part 2: work the program left on the legacy stream comes first, on a replayed call too.
void checkOrdering() {
  StridedBlock shape;
  shape.bytes = 8;
  shape.extent = 16 * 64;
  shape.dims.push_back({64, 16});
  const KernelPlan plan = makePlan(shape);
  unsigned char *d = nullptr, *p = nullptr;
  GPUTEST_CUDA(cudaMalloc(&d, 16 * 64));
  GPUTEST_CUDA(cudaMalloc(&p, 8 * 64));
  for (int round = 0; round < 5; ++round) { // rounds 1 and later replay the graph
    GPUTEST_CUDA(cudaMemset(d, 0, 16 * 64));
    GPUTEST_CUDA(cudaDeviceSynchronize());
    const unsigned char value = static_cast<unsigned char>(0x40 + round);
    lateWrite<<<1, 1>>>(d, 16 * 64, value, 300000); // legacy stream
    CHECK(device::packNow(plan, d, 1, p) == TEMPI_SUCCESS, "ordering round %d: packNow", round);
    std::vector<unsigned char> got(8 * 64);
    GPUTEST_CUDA(cudaMemcpy(got.data(), p, got.size(), cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (unsigned char c : got) wrong += c != value;
    CHECK(wrong == 0, "ordering round %d: %d packed bytes predate the legacy stream's write",
          round, wrong);
  }
  GPUTEST_CUDA(cudaFree(d));
  GPUTEST_CUDA(cudaFree(p));
}

/// Part 3: threads that pack at once each get their own bytes.
void checkThreads() {
  constexpr int kThreadCount = 4, kRounds = 200;
  StridedBlock shape;
  shape.bytes = 4;
  shape.extent = 4096 * 12;
  shape.dims.push_back({4096, 12});
  const KernelPlan plan = makePlan(shape);
  std::vector<int> bad(kThreadCount, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreadCount; ++t)
    threads.emplace_back([&, t] {
      unsigned char *d = nullptr, *p = nullptr;
      GPUTEST_CUDA(cudaMalloc(&d, shape.extent));
      GPUTEST_CUDA(cudaMalloc(&p, shape.size()));
      std::vector<unsigned char> h(shape.extent), got(shape.size());
      for (int r = 0; r < kRounds; ++r) {
        for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<unsigned char>(i * 7 + r + 31 * t);
        GPUTEST_CUDA(cudaMemcpy(d, h.data(), h.size(), cudaMemcpyHostToDevice));
        if (device::packNow(plan, d, 1, p) != TEMPI_SUCCESS) ++bad[t];
        GPUTEST_CUDA(cudaMemcpy(got.data(), p, got.size(), cudaMemcpyDeviceToHost));
        for (int64_t b = 0; b < 4096; ++b)
          if (std::memcmp(&got[b * 4], &h[b * 12], 4) != 0) {
            ++bad[t];
            break;
          }
      }
      GPUTEST_CUDA(cudaFree(d));
      GPUTEST_CUDA(cudaFree(p));
    });
  for (auto &th : threads) th.join();
  for (int t = 0; t < kThreadCount; ++t) CHECK(bad[t] == 0, "thread %d: %d bad rounds", t, bad[t]);
}

} // namespace

int main(int argc, char **argv) {
  skipWithoutGpu("tempi-gpu-pack-graphs");
  MPI_Init(&argc, &argv);
  const int shapes = argc > 1 ? std::atoi(argv[1]) : 1000;
  const uint64_t seed = seedFromEnvironment(8086);
  std::printf("seed %llu (TEMPI_TEST_SEED replays)\n", (unsigned long long)seed);
  std::mt19937_64 rng(seed);
  ShapeLimits lim;
  lim.maxPacked = 256 << 10;
  const device::Counters before = device::counters();
  for (int t = 0; t < shapes && failures < 20; ++t) {
    const StridedBlock shape = randomShape(rng, lim);
    checkShape(t, shape, int(rng() % 3) + 1, int(rng() % 16), int(rng() % 16), rng);
  }
  const device::Counters after = device::counters();
  const uint64_t replays = after.graphLaunches - before.graphLaunches;
  std::printf("part 1: %d shapes, 3 packs and 3 unpacks each; %llu graph replays\n", shapes,
              (unsigned long long)replays);
  CHECK(replays >= uint64_t(2 * shapes), "only %llu replays (want 4 a shape, at least 2)",
        (unsigned long long)replays);
  checkOrdering();
  checkThreads();
  device::setPackGraphs(false);
  const uint64_t offBefore = device::counters().graphLaunches;
  checkShape(-1, randomShape(rng, lim), 2, 3, 5, rng);
  CHECK(device::counters().graphLaunches == offBefore, "graphs off, yet replays");
  device::finalize();
  std::printf("%s: %d failures\n", failures ? "FAILED" : "PASSED", failures);
  MPI_Finalize();
  return failures ? 1 : 0;
}

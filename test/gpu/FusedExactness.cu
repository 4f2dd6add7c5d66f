/// \file
/// tempi-gpu-fused-exactness: device::packMany/unpackMany (one fused launch for a batch of
/// strided jobs, runtime/src/device/Fused.cu) are byte-identical to the host reference packer
/// (passes/ReferencePacker.h), job by job, on batches of 2 to 200 random shapes (every word size,
/// 0 to 8 outer dimensions, negative strides, count 1 to 3, base and packed addresses misaligned
/// by 0 to 15 bytes, empty jobs mixed in). Every output buffer is poisoned first and compared
/// whole, guard bytes included, so unwritten and overwritten bytes both fail. Each batch runs
/// three times: as built; with one job moved (the cached segment table must follow it); with every
/// packed address moved by 16 bytes (the cached table is reused with a shift, as for a halo
/// exchange whose staging moved to another arena block).
/// Exit 77 without a GPU. Usage: tempi-gpu-fused-exactness [batches=300]
#include "gpu/GpuTest.h"
#include "gpu/RandomShapes.h"
#include "passes/KernelPlan.h"
#include "passes/ReferencePacker.h"
#include "runtime/src/device/Device.h"

#include <cstring>
#include <string>
#include <vector>

using namespace tempi;
using namespace tempi::gputest;

namespace {

int failures = 0;
constexpr int64_t kGuard = 64;
constexpr unsigned char kPoisonPacked = 0xA5, kPoisonStrided = 0x5A;

/// One job's buffers: host copies (reference) and device twins.
struct Case {
  StridedBlock shape;
  KernelPlan plan;
  int64_t count = 0, baseOffset = 0, packedAt = 0, stridedBytes = 0, packedBytes = 0;
  std::vector<unsigned char> hStrided, hPacked;
  unsigned char *dStrided = nullptr, *dPacked = nullptr;
};

Case makeCase(std::mt19937_64 &rng) {
  Case c;
  ShapeLimits lim;
  lim.maxPacked = 16 << 10;
  c.shape = randomShape(rng, lim);
  c.plan = makePlan(c.shape);
  c.count = rng() % 8 == 0 ? 0 : int64_t(1 + rng() % 3);
  const Span span = spanOf(c.shape, c.count ? c.count : 1);
  c.stridedBytes = span.bytes() + 2 * kGuard + 16;
  c.baseOffset = kGuard - span.lo + int64_t(rng() % 16);
  c.packedBytes = c.count * c.shape.size() + 2 * kGuard + 16;
  c.packedAt = kGuard + int64_t(rng() % 16);
  c.hStrided.resize(c.stridedBytes);
  c.hPacked.resize(c.packedBytes);
  return c;
}

/// Round 2 must reuse the device's segment table with a shift: no upload, one shifted launch per
/// fused launch (a batch of at most 200 jobs is one launch).
void expectShiftedReuse(const device::Counters &before, const std::string &what) {
  const device::Counters after = device::counters();
  const uint64_t launched = after.fusedLaunches - before.fusedLaunches;
  if (launched && (after.tableUploads != before.tableUploads ||
                   after.tableShifts - before.tableShifts != launched)) {
    std::printf("FAIL %s: %llu fused launches, %llu table uploads, %llu shifted reuses "
                "(want 0 uploads)\n", what.c_str(), (unsigned long long)launched,
                (unsigned long long)(after.tableUploads - before.tableUploads),
                (unsigned long long)(after.tableShifts - before.tableShifts));
    ++failures;
  }
}

bool same(const std::vector<unsigned char> &want, const std::vector<unsigned char> &got,
          const std::string &what) {
  if (want == got) return true;
  size_t i = 0;
  while (i < want.size() && want[i] == got[i]) ++i;
  std::printf("FAIL %s: first difference at byte %zu of %zu (want %02x, got %02x)\n", what.c_str(),
              i, want.size(), want[i], got[i]);
  ++failures;
  return false;
}

void checkBatch(int batch, std::mt19937_64 &rng, cudaStream_t s) {
  const int n = rng() % 10 == 0 ? int(100 + rng() % 101) : int(2 + rng() % 40);
  std::vector<Case> cases;
  for (int i = 0; i < n; ++i) cases.push_back(makeCase(rng));
  std::vector<device::StridedJob> jobs;
  for (Case &c : cases) {
    GPUTEST_CUDA(cudaMalloc(&c.dStrided, c.stridedBytes));
    GPUTEST_CUDA(cudaMalloc(&c.dPacked, c.packedBytes));
    jobs.push_back({&c.plan, 0, c.dStrided + c.baseOffset, c.dPacked + c.packedAt, c.count});
  }
  // Three rounds over the same jobs, as a halo exchange repeats its faces: the second finds its
  // segment table already on the device (Fused.cu's Table::upload) except for one job moved to
  // another packed offset, whose bytes must follow it; the third moves every packed address by
  // 16 bytes (word sizes unchanged, so the table is reused with a shift). makeCase leaves
  // 2 * kGuard + 16 spare bytes, so packedAt + 16 stays inside the buffer.
  for (int round = 0; round < 3; ++round) {
    if (round == 1) {
      const size_t k = rng() % cases.size();
      Case &c = cases[k];
      c.packedAt = kGuard + (c.packedAt - kGuard + 1 + int64_t(rng() % 15)) % 16;
      jobs[k].packed = c.dPacked + c.packedAt;
    }
    if (round == 2)
      for (size_t k = 0; k < cases.size(); ++k) {
        cases[k].packedAt += 16;
        jobs[k].packed = cases[k].dPacked + cases[k].packedAt;
      }
    const std::string tag = "batch " + std::to_string(batch) + " round " + std::to_string(round);
    // pack: random strided data, poisoned packed buffers
    for (Case &c : cases) {
      fillRandom(c.hStrided, rng);
      GPUTEST_CUDA(cudaMemcpyAsync(c.dStrided, c.hStrided.data(), c.stridedBytes,
                                   cudaMemcpyHostToDevice, s));
      GPUTEST_CUDA(cudaMemsetAsync(c.dPacked, kPoisonPacked, c.packedBytes, s));
    }
    device::Counters before = device::counters();
    if (tempi_result r = device::packMany(jobs.data(), jobs.size(), s); r != TEMPI_SUCCESS) {
      std::printf("FAIL %s: packMany returned %d\n", tag.c_str(), int(r));
      ++failures;
    }
    if (round == 2) expectShiftedReuse(before, "pack " + tag);
    GPUTEST_CUDA(cudaStreamSynchronize(s));
    for (size_t i = 0; i < cases.size(); ++i) {
      Case &c = cases[i];
      std::vector<unsigned char> want(c.packedBytes, kPoisonPacked), got(c.packedBytes);
      if (c.count)
        packStrided(c.shape, c.count, c.hStrided.data() + c.baseOffset, want.data() + c.packedAt);
      GPUTEST_CUDA(cudaMemcpy(got.data(), c.dPacked, c.packedBytes, cudaMemcpyDeviceToHost));
      same(want, got, "pack " + tag + " job " + std::to_string(i) + " " +
                          printStrided(c.shape) + " x" + std::to_string(c.count));
    }
    // unpack: random packed data, poisoned strided buffers
    for (Case &c : cases) {
      fillRandom(c.hPacked, rng);
      GPUTEST_CUDA(cudaMemcpyAsync(c.dPacked, c.hPacked.data(), c.packedBytes,
                                   cudaMemcpyHostToDevice, s));
      GPUTEST_CUDA(cudaMemsetAsync(c.dStrided, kPoisonStrided, c.stridedBytes, s));
    }
    before = device::counters();
    if (tempi_result r = device::unpackMany(jobs.data(), jobs.size(), s); r != TEMPI_SUCCESS) {
      std::printf("FAIL %s: unpackMany returned %d\n", tag.c_str(), int(r));
      ++failures;
    }
    if (round == 2) expectShiftedReuse(before, "unpack " + tag);
    GPUTEST_CUDA(cudaStreamSynchronize(s));
    for (size_t i = 0; i < cases.size(); ++i) {
      Case &c = cases[i];
      std::vector<unsigned char> want(c.stridedBytes, kPoisonStrided), got(c.stridedBytes);
      if (c.count)
        unpackStrided(c.shape, c.count, c.hPacked.data() + c.packedAt, want.data() + c.baseOffset);
      GPUTEST_CUDA(cudaMemcpy(got.data(), c.dStrided, c.stridedBytes, cudaMemcpyDeviceToHost));
      same(want, got, "unpack " + tag + " job " + std::to_string(i) + " " +
                          printStrided(c.shape) + " x" + std::to_string(c.count));
    }
  }
  for (Case &c : cases) {
    GPUTEST_CUDA(cudaFree(c.dStrided));
    GPUTEST_CUDA(cudaFree(c.dPacked));
  }
}

} // namespace

int main(int argc, char **argv) {
  skipWithoutGpu("tempi-gpu-fused-exactness");
  const int batches = argc > 1 ? std::atoi(argv[1]) : 300;
  std::mt19937_64 rng(seedFromEnvironment(20261122));
  cudaStream_t s = static_cast<cudaStream_t>(device::defaultStream());
  for (int b = 0; b < batches && failures < 20; ++b) checkBatch(b, rng, s);
  std::printf("tempi-gpu-fused-exactness: %d batches, %d failures\n", batches, failures);
  return failures ? 1 : 0;
}

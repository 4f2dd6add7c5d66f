/// \file
/// tempi-gpu-exactness: the device layer's pack and unpack are byte-identical to the host
/// reference packer (passes/ReferencePacker.h) on random strided shapes (every word size, 0 to 8
/// outer dimensions, negative strides, count > 1, base and packed addresses misaligned by 0 to 15
/// bytes), on generated-style static kernels reached through the registry, on block lists, and on
/// one object of more than 2^31 words (the 64-bit index path). Every output buffer is poisoned
/// first and compared whole, guard bytes included, so unwritten and overwritten bytes both fail.
/// Exit 77 without a GPU. Usage: tempi-gpu-exactness [shapes=3000] [--no-large]
#include "gpu/GpuTest.h"
#include "gpu/RandomShapes.h"
#include "passes/KernelPlan.h"
#include "passes/ReferencePacker.h"
#include "runtime/src/device/Device.h"
#include "tempi/kernels.cuh"

#include <cstring>
#include <string>
#include <vector>

using namespace tempi;
using namespace tempi::gputest;

namespace {

int failures = 0;
constexpr int64_t kGuard = 64;
constexpr unsigned char kPoisonPacked = 0xA5, kPoisonStrided = 0x5A;

void fillRandom(std::vector<unsigned char> &v, std::mt19937_64 &rng) {
  size_t i = 0;
  for (; i + 8 <= v.size(); i += 8) {
    const uint64_t x = rng();
    std::memcpy(&v[i], &x, 8);
  }
  for (; i < v.size(); ++i) v[i] = static_cast<unsigned char>(rng());
}

bool sameBytes(const std::vector<unsigned char> &want, const std::vector<unsigned char> &got,
               const std::string &what) {
  if (want == got) return true;
  size_t i = 0;
  while (i < want.size() && want[i] == got[i]) ++i;
  std::printf("FAIL %s: first difference at byte %zu of %zu (want %02x, got %02x)\n", what.c_str(),
              i, want.size(), want[i], got[i]);
  ++failures;
  return false;
}

/// One shape at one count and alignment: pack and unpack on the device against the host.
void checkShape(const StridedBlock &shape, int64_t count, int baseMis, int packedMis,
                std::mt19937_64 &rng, cudaStream_t s, const std::string &name) {
  const KernelPlan plan = makePlan(shape);
  const Span span = spanOf(shape, count);
  const int64_t packedBytes = count * shape.size();
  const int64_t stridedBytes = span.bytes() + 2 * kGuard;
  const int64_t baseOffset = kGuard - span.lo + baseMis; // base pointer inside the buffer
  const int64_t bufBytes = stridedBytes + 16;

  std::vector<unsigned char> hStrided(bufBytes);
  fillRandom(hStrided, rng);
  unsigned char *dStrided = nullptr, *dPacked = nullptr;
  const int64_t packedBuf = packedBytes + 2 * kGuard + 16;
  GPUTEST_CUDA(cudaMalloc(&dStrided, bufBytes));
  GPUTEST_CUDA(cudaMalloc(&dPacked, packedBuf));
  GPUTEST_CUDA(cudaMemcpyAsync(dStrided, hStrided.data(), bufBytes, cudaMemcpyHostToDevice, s));

  // pack
  std::vector<unsigned char> want(packedBuf, kPoisonPacked), got(packedBuf);
  packStrided(shape, count, hStrided.data() + baseOffset, want.data() + kGuard + packedMis);
  GPUTEST_CUDA(cudaMemsetAsync(dPacked, kPoisonPacked, packedBuf, s));
  tempi_result r = device::pack(plan, dStrided + baseOffset, count, dPacked + kGuard + packedMis, s);
  if (r != TEMPI_SUCCESS) {
    std::printf("FAIL %s: pack returned %d\n", name.c_str(), int(r));
    ++failures;
  }
  GPUTEST_CUDA(cudaStreamSynchronize(s));
  GPUTEST_CUDA(cudaMemcpyAsync(got.data(), dPacked, packedBuf, cudaMemcpyDeviceToHost, s));
    GPUTEST_CUDA(cudaStreamSynchronize(s));
  sameBytes(want, got, "pack " + name);

  // unpack random packed bytes into a poisoned strided buffer
  std::vector<unsigned char> src(packedBuf);
  fillRandom(src, rng);
  std::vector<unsigned char> wantS(bufBytes, kPoisonStrided), gotS(bufBytes);
  unpackStrided(shape, count, src.data() + kGuard + packedMis, wantS.data() + baseOffset);
  GPUTEST_CUDA(cudaMemcpyAsync(dPacked, src.data(), packedBuf, cudaMemcpyHostToDevice, s));
  GPUTEST_CUDA(cudaMemsetAsync(dStrided, kPoisonStrided, bufBytes, s));
  r = device::unpack(plan, dStrided + baseOffset, dPacked + kGuard + packedMis, count, s);
  if (r != TEMPI_SUCCESS) {
    std::printf("FAIL %s: unpack returned %d\n", name.c_str(), int(r));
    ++failures;
  }
  GPUTEST_CUDA(cudaStreamSynchronize(s));
  GPUTEST_CUDA(cudaMemcpyAsync(gotS.data(), dStrided, bufBytes, cudaMemcpyDeviceToHost, s));
    GPUTEST_CUDA(cudaStreamSynchronize(s));
  sameBytes(wantS, gotS, "unpack " + name);

  GPUTEST_CUDA(cudaFree(dStrided));
  GPUTEST_CUDA(cudaFree(dPacked));
}

// Static kernels, instantiated as tempi-cc's generated code does, and counted when called.
int staticCalls = 0;
#define STATIC_PAIR(NAME, ...)                                                                    \
  tempi_result NAME##_pack(void *p, const void *b, int64_t n, void *s) {                          \
    ++staticCalls;                                                                                \
    return kernels::packStatic<__VA_ARGS__>(p, b, n, static_cast<cudaStream_t>(s));               \
  }                                                                                               \
  tempi_result NAME##_unpack(void *b, const void *p, int64_t n, void *s) {                        \
    ++staticCalls;                                                                                \
    return kernels::unpackStatic<__VA_ARGS__>(b, p, n, static_cast<cudaStream_t>(s));             \
  }
STATIC_PAIR(s1, 4, 0, 4, 8192, 16, 512)
STATIC_PAIR(s2, 16, 16, 64, 1 << 21, 128, 1024, 8, -131072)
STATIC_PAIR(s3, 8, -8, 24, 4096, 3, 32, 2, 128, 2, -512, 3, 1024)
STATIC_PAIR(s4, 1, 3, 3, 40, 5, 7)
STATIC_PAIR(s5, 16, 0, 256, 256)

StridedBlock shapeOf(int64_t start, int64_t bytes, int64_t extent,
                     std::vector<StridedBlock::Dim> dims) {
  StridedBlock b;
  b.start = start;
  b.bytes = bytes;
  b.extent = extent;
  b.dims = std::move(dims);
  return b;
}

void checkStatic(std::mt19937_64 &rng, cudaStream_t s) {
  struct Case {
    StridedBlock shape;
    tempi_pack_fn pack;
    tempi_unpack_fn unpack;
  };
  const Case cases[] = {
      {shapeOf(0, 4, 8192, {{16, 512}}), s1_pack, s1_unpack},
      {shapeOf(16, 64, 1 << 21, {{128, 1024}, {8, -131072}}), s2_pack, s2_unpack},
      {shapeOf(-8, 24, 4096, {{3, 32}, {2, 128}, {2, -512}, {3, 1024}}), s3_pack, s3_unpack},
      {shapeOf(3, 3, 40, {{5, 7}}), s4_pack, s4_unpack},
      {shapeOf(0, 256, 256, {}), s5_pack, s5_unpack},
  };
  for (const Case &c : cases) device::registerKernels(shapeKey(c.shape), c.pack, c.unpack);
  int n = 0;
  for (const Case &c : cases) {
    const int w = makePlan(c.shape).wordSize;
    for (int64_t count : {1, 2, 3}) {
      // aligned: the registered kernel must run (two calls: pack and unpack)
      const int before = staticCalls;
      checkShape(c.shape, count, 0, 0, rng, s, "static " + printStrided(c.shape));
      if (staticCalls != before + 2) {
        std::printf("FAIL static %s: registered kernel not used when aligned\n",
                    printStrided(c.shape).c_str());
        ++failures;
      }
      // misaligned base: the generic kernel must serve it instead
      if (w > 1) {
        const int before2 = staticCalls;
        checkShape(c.shape, count, w / 2, 0, rng, s, "static-misaligned " + printStrided(c.shape));
        if (staticCalls != before2) {
          std::printf("FAIL static %s: registered kernel used on a misaligned base\n",
                      printStrided(c.shape).c_str());
          ++failures;
        }
      }
      ++n;
    }
  }
  for (const Case &c : cases) device::registerKernels(shapeKey(c.shape), nullptr, nullptr);
  std::printf("static kernels: %d shape/count cases through the registry\n", n);
}

void hostPackBlocks(const device::BlockList &l, int64_t count, const unsigned char *base,
                    unsigned char *packed) {
  for (int64_t e = 0; e < count; ++e)
    for (size_t k = 0; k < l.offsets.size(); ++k) {
      std::memcpy(packed, base + e * l.extent + l.offsets[k], l.lengths[k]);
      packed += l.lengths[k];
    }
}
void hostUnpackBlocks(const device::BlockList &l, int64_t count, const unsigned char *packed,
                      unsigned char *base) {
  for (int64_t e = 0; e < count; ++e)
    for (size_t k = 0; k < l.offsets.size(); ++k) {
      std::memcpy(base + e * l.extent + l.offsets[k], packed, l.lengths[k]);
      packed += l.lengths[k];
    }
}

void checkBlockLists(int lists, std::mt19937_64 &rng, cudaStream_t s) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (int t = 0; t < lists; ++t) {
    device::BlockList l;
    const int nb = int(pick(1, 60));
    const bool longBlocks = pick(0, 1);
    int64_t at = pick(0, 16);
    std::vector<std::pair<int64_t, int64_t>> blocks;
    for (int k = 0; k < nb; ++k) {
      const int64_t len = longBlocks ? pick(1, 600) : pick(1, 24);
      blocks.push_back({at, len});
      at += len + pick(0, 40);
    }
    std::shuffle(blocks.begin(), blocks.end(), rng); // pack order need not follow addresses
    for (auto &[o, len] : blocks) {
      l.offsets.push_back(o);
      l.lengths.push_back(len);
    }
    l.extent = at + pick(0, 64);
    const int64_t count = pick(1, 3);
    if (device::uploadBlockList(l) != TEMPI_SUCCESS) {
      std::printf("FAIL block list %d: upload\n", t);
      ++failures;
      continue;
    }
    const int mis = int(pick(0, 15)), pmis = int(pick(0, 15));
    const int64_t span = count * l.extent + 16, packedBytes = count * l.size + kGuard;
    std::vector<unsigned char> h(span), want(packedBytes, kPoisonPacked), got(packedBytes);
    fillRandom(h, rng);
    hostPackBlocks(l, count, h.data() + mis, want.data() + pmis);
    unsigned char *d = nullptr, *p = nullptr;
    GPUTEST_CUDA(cudaMalloc(&d, span));
    GPUTEST_CUDA(cudaMalloc(&p, packedBytes));
    GPUTEST_CUDA(cudaMemcpyAsync(d, h.data(), span, cudaMemcpyHostToDevice, s));
    GPUTEST_CUDA(cudaMemsetAsync(p, kPoisonPacked, packedBytes, s));
    if (device::packBlocks(l, d + mis, count, p + pmis, s) != TEMPI_SUCCESS) ++failures;
    GPUTEST_CUDA(cudaStreamSynchronize(s));
    GPUTEST_CUDA(cudaMemcpyAsync(got.data(), p, packedBytes, cudaMemcpyDeviceToHost, s));
    GPUTEST_CUDA(cudaStreamSynchronize(s));
    sameBytes(want, got, "packBlocks #" + std::to_string(t));

    std::vector<unsigned char> src(packedBytes), wantS(span, kPoisonStrided), gotS(span);
    fillRandom(src, rng);
    hostUnpackBlocks(l, count, src.data() + pmis, wantS.data() + mis);
    GPUTEST_CUDA(cudaMemcpyAsync(p, src.data(), packedBytes, cudaMemcpyHostToDevice, s));
    GPUTEST_CUDA(cudaMemsetAsync(d, kPoisonStrided, span, s));
    if (device::unpackBlocks(l, d + mis, p + pmis, count, s) != TEMPI_SUCCESS) ++failures;
    GPUTEST_CUDA(cudaStreamSynchronize(s));
    GPUTEST_CUDA(cudaMemcpyAsync(gotS.data(), d, span, cudaMemcpyDeviceToHost, s));
    GPUTEST_CUDA(cudaStreamSynchronize(s));
    sameBytes(wantS, gotS, "unpackBlocks #" + std::to_string(t));
    GPUTEST_CUDA(cudaFree(d));
    GPUTEST_CUDA(cudaFree(p));
    device::releaseBlockList(l);
  }
  std::printf("block lists: %d random lists packed and unpacked\n", lists);
}

/// More than 2^31 words: 3-byte runs (W = 1) at a 4-byte stride, 2^31 + 3 * 2^20 packed bytes.
void checkLarge(std::mt19937_64 &rng, cudaStream_t s) {
  const int64_t rows = ((int64_t{1} << 31) + (3 << 20)) / 3;
  checkShape(shapeOf(1, 3, 4 * rows, {{rows, 4}}), 1, 0, 0, rng, s, "large (2^31+ words)");
  std::printf("large: %lld packed bytes through the 64-bit index path\n", (long long)(3 * rows));
}

void checkRefusals(cudaStream_t s) {
  StridedBlock nine = shapeOf(0, 4, 1 << 20, {});
  for (int j = 0; j < 9; ++j) nine.dims.push_back({2, 8 << j});
  void *d = nullptr;
  GPUTEST_CUDA(cudaMalloc(&d, 4 << 20));
  const KernelPlan plan = makePlan(nine);
  if (device::pack(plan, d, 1, d, s) != TEMPI_ERR_UNSUPPORTED) {
    std::printf("FAIL: 9 outer dimensions not refused as unsupported\n");
    ++failures;
  }
  if (device::pack(makePlan(shapeOf(0, 4, 8, {{2, 8}})), d, -1, d, s) != TEMPI_ERR_INVALID_ARG) {
    std::printf("FAIL: negative count not refused\n");
    ++failures;
  }
  GPUTEST_CUDA(cudaFree(d));
}

} // namespace

int main(int argc, char **argv) {
  skipWithoutGpu("tempi-gpu-exactness");
  int shapes = 3000;
  bool large = true;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--no-large")
      large = false;
    else
      shapes = std::atoi(argv[i]);
  }
  const uint64_t seed = seedFromEnvironment(20261122);
  std::printf("seed %llu (TEMPI_TEST_SEED replays)\n", (unsigned long long)seed);
  std::mt19937_64 rng(seed);
  cudaStream_t s = static_cast<cudaStream_t>(device::defaultStream());

  int byWord[17] = {}, byDims[10] = {};
  for (int t = 0; t < shapes; ++t) {
    const StridedBlock shape = randomShape(rng);
    const int64_t count = std::uniform_int_distribution<int64_t>(1, 3)(rng);
    const int mis = int(rng() % 16), pmis = rng() % 4 == 0 ? 0 : int(rng() % 16);
    const KernelPlan plan = makePlan(shape);
    ++byWord[alignedWordSize(plan, uintptr_t(mis)) < 16 ? alignedWordSize(plan, uintptr_t(mis))
                                                          : 16];
    ++byDims[shape.dims.size()];
    checkShape(shape, count, mis, pmis, rng, s,
               "#" + std::to_string(t) + " count " + std::to_string(count) + " base+" +
                   std::to_string(mis) + " packed+" + std::to_string(pmis) + " " +
                   printStrided(shape));
    if (failures > 20) break;
  }
  std::printf("random shapes: %d (W by base alignment: 16:%d 8:%d 4:%d 2:%d 1:%d; outer dims "
              "0:%d 1:%d 2:%d 3:%d 4+:%d)\n",
              shapes, byWord[16], byWord[8], byWord[4], byWord[2], byWord[1], byDims[0],
              byDims[1], byDims[2], byDims[3],
              byDims[4] + byDims[5] + byDims[6] + byDims[7] + byDims[8]);
  checkStatic(rng, s);
  checkBlockLists(500, rng, s);
  checkRefusals(s);
  if (large) checkLarge(rng, s);
  device::finalize();
  std::printf("%s: %d failures\n", failures ? "FAILED" : "PASSED", failures);
  return failures ? 1 : 0;
}

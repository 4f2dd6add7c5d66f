/// \file
/// tempi-kernel-index-host: the kernels' index arithmetic, checked on the host (no GPU needed, so
/// it runs in CPU CI). FastDivmod against plain division (every divisor up to 2^16 and random ones
/// up to 2^31 - 1, at edge and random dividends); then the exact word-offset function the
/// kernels use (makeWalk + RuntimeShape<N>::offset, 32- and 64-bit, and StaticShape) replayed on
/// the host to pack random shapes, byte-compared with the host reference packer.
/// Usage: tempi-kernel-index-host [shapes=2000]
#include "gpu/RandomShapes.h"
#include "passes/KernelPlan.h"
#include "passes/ReferencePacker.h"
#include "tempi/kernels.cuh"

#include <cstring>
#include <vector>

using namespace tempi;
using namespace tempi::kernels;

namespace {

int failures = 0;

void checkDivisor(uint32_t d, std::mt19937_64 &rng) {
  const FastDivmod f(d);
  auto one = [&](uint32_t n) {
    uint32_t q, r;
    f.divmod(n, q, r);
    if (q != n / d || r != n % d) {
      if (failures++ < 10)
        std::printf("FAIL FastDivmod(%u): %u -> q %u r %u\n", d, n, q, r);
    }
  };
  const uint32_t top = (uint32_t{1} << 31) - 1;
  for (uint32_t n : {0u, 1u, d - 1, d, d + 1, top, top - 1, top - d}) one(n & top);
  for (uint64_t m = d; m <= top; m = m * 3 + 1) { // multiples and neighbours
    one(uint32_t(m));
    one(uint32_t(m - 1));
  }
  for (int k = 0; k < 64; ++k) one(uint32_t(rng() & top));
}

/// Replays the kernel's loop on the host: packed word i comes from offset(i).
template <int W, class Idx, class Shape>
void hostPack(const Shape &shape, uint64_t words, const unsigned char *base, unsigned char *packed) {
  for (uint64_t i = 0; i < words; ++i)
    std::memcpy(packed + i * W, base + shape.template offset<W>(static_cast<Idx>(i)), W);
}

template <int W, class Idx>
void packWalk(const Walk &w, const unsigned char *base, unsigned char *packed) {
  const uint64_t words = w.totalBytes / W;
  switch (w.nd) {
  case 0: return hostPack<W, Idx>(toRuntimeShape<0, Idx>(w, W), words, base, packed);
  case 1: return hostPack<W, Idx>(toRuntimeShape<1, Idx>(w, W), words, base, packed);
  case 2: return hostPack<W, Idx>(toRuntimeShape<2, Idx>(w, W), words, base, packed);
  case 3: return hostPack<W, Idx>(toRuntimeShape<3, Idx>(w, W), words, base, packed);
  default: return hostPack<W, Idx>(toRuntimeShape<-1, Idx>(w, W), words, base, packed);
  }
}

template <class Idx>
void packAnyW(int W, const Walk &w, const unsigned char *base, unsigned char *packed) {
  switch (W) {
  case 16: return packWalk<16, Idx>(w, base, packed);
  case 8: return packWalk<8, Idx>(w, base, packed);
  case 4: return packWalk<4, Idx>(w, base, packed);
  case 2: return packWalk<2, Idx>(w, base, packed);
  default: return packWalk<1, Idx>(w, base, packed);
  }
}

Strided toStrided(const StridedBlock &b) {
  Strided s;
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

void checkShape(const StridedBlock &b, int64_t count, std::mt19937_64 &rng, int t) {
  const gputest::Span span = gputest::spanOf(b, count);
  std::vector<unsigned char> buf(span.bytes());
  for (auto &c : buf) c = static_cast<unsigned char>(rng());
  const unsigned char *base = buf.data() - span.lo;
  const int64_t packedBytes = count * b.size();
  std::vector<unsigned char> want(packedBytes), got32(packedBytes, 0xA5), got64(packedBytes, 0x5A);
  packStrided(b, count, base, want.data());
  const Strided s = toStrided(b);
  const Walk w = makeWalk(s, count);
  // W from the shape alone (the host buffer's address plays no part here)
  int W = 16;
  while (W > 1 && !walkFits(w, W)) W /= 2;
  packAnyW<uint32_t>(W, w, base, got32.data());
  packAnyW<uint64_t>(W, w, base, got64.data());
  if (w.totalBytes != uint64_t(packedBytes) || want != got32 || want != got64) {
    if (failures++ < 10)
      std::printf("FAIL walk #%d W=%d count %lld %s\n", t, W, (long long)count,
                  printStrided(b).c_str());
  }
}

void checkStatic(std::mt19937_64 &rng) {
  StridedBlock b;
  b.start = -8;
  b.bytes = 24;
  b.extent = 4096;
  b.dims = {{3, 32}, {2, 128}, {2, -512}, {3, 1024}};
  using S = StaticShape<8, -8, 24, 4096, 3, 32, 2, 128, 2, -512, 3, 1024>;
  for (int64_t count : {1, 2, 3}) {
    const gputest::Span span = gputest::spanOf(b, count);
    std::vector<unsigned char> buf(span.bytes());
    for (auto &c : buf) c = static_cast<unsigned char>(rng());
    const unsigned char *base = buf.data() - span.lo;
    std::vector<unsigned char> want(count * b.size()), got(count * b.size());
    packStrided(b, count, base, want.data());
    hostPack<8, uint32_t>(S{}, uint64_t(count) * S::kElementWords, base, got.data());
    if (want != got && failures++ < 10) std::printf("FAIL static shape, count %lld\n", (long long)count);
  }
}

} // namespace

int main(int argc, char **argv) {
  const int shapes = argc > 1 ? std::atoi(argv[1]) : 2000;
  std::mt19937_64 rng(424242);
  for (uint32_t d = 1; d <= (1u << 16); ++d) checkDivisor(d, rng);
  for (int k = 0; k < 20000; ++k) checkDivisor(uint32_t(rng() % ((1u << 31) - 1)) + 1, rng);
  for (int l = 1; l < 31; ++l)
    for (int64_t e : {-1, 0, 1}) checkDivisor(uint32_t((int64_t{1} << l) + e), rng);
  std::printf("FastDivmod: checked\n");
  gputest::ShapeLimits lim;
  lim.maxPacked = 16 << 10;
  for (int t = 0; t < shapes; ++t) {
    const StridedBlock b = gputest::randomShape(rng, lim);
    checkShape(b, int64_t(rng() % 3) + 1, rng, t);
  }
  checkStatic(rng);
  std::printf("%s: %d random shapes through the kernels' offset function, %d failures\n",
              failures ? "FAILED" : "PASSED", shapes, failures);
  return failures ? 1 : 0;
}

/// \file
/// Random strided shapes for the GPU tests: any word size (the run length and strides are drawn
/// as multiples of a random granule, so every W from 1 to 16 occurs), 0 to 8 outer dimensions,
/// negative strides, gaps, start offsets of either sign and element extents larger than the
/// element. Dimensions never overlap (|stride| >= the span of what is inside), so unpack has one
/// right answer. Sizes stay small enough that thousands of shapes run in seconds.
#pragma once

#include "passes/StridedBlock.h"

#include <algorithm>
#include <cstdint>
#include <random>

namespace tempi::gputest {

/// The lowest and one past the highest byte offset (from the buffer pointer) that count elements
/// of `b` touch.
struct Span {
  int64_t lo = 0, hi = 0;
  int64_t bytes() const { return hi - lo; }
};

inline Span spanOf(const StridedBlock &b, int64_t count) {
  Span s{b.start, b.start + b.bytes};
  for (const auto &d : b.dims) {
    const int64_t reach = (d.count - 1) * d.stride;
    (reach < 0 ? s.lo : s.hi) += reach;
  }
  const int64_t reach = (count - 1) * b.extent;
  (reach < 0 ? s.lo : s.hi) += reach;
  return s;
}

struct ShapeLimits {
  int maxDims = 8;
  int64_t maxPacked = 256 << 10; ///< packed bytes of one element, at most (roughly)
};

inline StridedBlock randomShape(std::mt19937_64 &rng, const ShapeLimits &lim = {}) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  static const int64_t granules[] = {1, 2, 4, 8, 16, 16, 16, 32};
  const int64_t g = granules[pick(0, 7)];
  StridedBlock b;
  // the run: mostly short (the hard case for kernels), sometimes long
  b.bytes = g * (pick(0, 3) == 0 ? pick(1, 512 / g + 1) : pick(1, std::max<int64_t>(1, 64 / g)));
  int nd = int(pick(0, 3) == 0 ? pick(4, lim.maxDims) : pick(0, 3));
  int64_t inner = b.bytes, packed = b.bytes;
  for (int j = 0; j < nd; ++j) {
    const int64_t room = lim.maxPacked / packed;
    if (room < 2) break;
    const int64_t count = pick(1, std::min<int64_t>(room, j < 2 ? 64 : 4));
    int64_t stride = inner + g * pick(0, 4) * (pick(0, 1) ? 1 : 8);
    if (pick(0, 3) == 0) stride = -stride;
    b.dims.push_back({count, stride});
    inner += (count - 1) * (stride < 0 ? -stride : stride);
    packed *= count;
  }
  b.start = g * pick(-64, 64);
  b.extent = inner + g * pick(0, 8);
  b.lb = 0;
  return b;
}

} // namespace tempi::gputest

/// \file
/// The StridedBlock of a canonical type: the root's chain of streams down to one dense run,
/// read outside in and stored inside out (dims[0] is the stream just outside the run). The start
/// is the sum of the offsets along the chain, so the conversion is exact for any seq-free tree,
/// canonical or not. Refuses (nullopt) when a seq remains. Also printStrided and shapeKey.
#include "passes/StridedBlock.h"

#include <algorithm>

namespace tempi {

int64_t StridedBlock::size() const {
  int64_t s = bytes;
  for (const Dim &d : dims)
    s *= d.count;
  return s;
}

std::optional<StridedBlock> toStridedBlock(const IRNode &canonical) {
  StridedBlock b;
  b.extent = canonical.layout.extent;
  b.lb = canonical.layout.lb;
  const IRNode *n = &canonical;
  int64_t start = 0;
  std::vector<StridedBlock::Dim> outerFirst;
  while (n->kind == IRKind::Stream) {
    if (__builtin_add_overflow(start, n->offset, &start))
      return std::nullopt;
    outerFirst.push_back({n->count, n->stride});
    n = n->child.get();
  }
  if (n->kind != IRKind::Dense)
    return std::nullopt;
  if (__builtin_add_overflow(start, n->offset, &start))
    return std::nullopt;
  bool empty = n->bytes == 0;
  for (const StridedBlock::Dim &d : outerFirst)
    empty |= d.count == 0;
  if (empty)
    return b; // no bytes: start 0, bytes 0, no dims
  b.start = start;
  b.bytes = n->bytes;
  b.dims.assign(outerFirst.rbegin(), outerFirst.rend());
  return b;
}

std::optional<StridedBlock> stridedFromBlocks(const std::vector<int64_t> &offsets,
                                              const std::vector<int64_t> &lengths, int64_t extent,
                                              int64_t lb) {
  StridedBlock b;
  b.extent = extent;
  b.lb = lb;
  if (offsets.size() != lengths.size())
    return std::nullopt;
  if (offsets.empty())
    return b; // no bytes
  b.bytes = lengths.front();
  if (b.bytes <= 0)
    return std::nullopt;
  for (int64_t len : lengths)
    if (len != b.bytes)
      return std::nullopt;
  // Starts of the groups of the current dim: first the runs themselves, then every dim found
  // leaves the starts of its groups for the next one, so each level has 1/count of the previous.
  std::vector<int64_t> starts = offsets;
  while (starts.size() > 1) {
    int64_t stride = 0;
    if (__builtin_sub_overflow(starts[1], starts[0], &stride))
      return std::nullopt;
    size_t count = 2;
    for (int64_t d = 0; count < starts.size() &&
                        !__builtin_sub_overflow(starts[count], starts[count - 1], &d) &&
                        d == stride;)
      ++count;
    if (starts.size() % count != 0)
      return std::nullopt;
    std::vector<int64_t> next;
    next.reserve(starts.size() / count);
    for (size_t g = 0; g < starts.size(); g += count) {
      int64_t want = starts[g];
      for (size_t j = 1; j < count; ++j)
        if (__builtin_add_overflow(want, stride, &want) || starts[g + j] != want)
          return std::nullopt;
      next.push_back(starts[g]);
    }
    b.dims.push_back({int64_t(count), stride});
    starts = std::move(next);
  }
  b.start = starts.front();
  return b;
}

std::string printStrided(const StridedBlock &b) {
  std::string s = "strided(start=" + std::to_string(b.start) + ", bytes=" +
                  std::to_string(b.bytes) + ", dims=[";
  for (size_t i = 0; i < b.dims.size(); ++i) {
    if (i)
      s += ", ";
    s += "(" + std::to_string(b.dims[i].count) + ", " + std::to_string(b.dims[i].stride) + ")";
  }
  s += "], extent=" + std::to_string(b.extent) + ", lb=" + std::to_string(b.lb) + ")";
  return s;
}

uint64_t shapeKey(const StridedBlock &b) {
  uint64_t h = 14695981039346656037ull; // FNV-1a 64 offset basis
  for (unsigned char c : printStrided(b)) {
    h ^= c;
    h *= 1099511628211ull; // FNV-1a 64 prime
  }
  return h;
}

} // namespace tempi

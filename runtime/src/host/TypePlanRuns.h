/// \file
/// forEachRun (TypePlan.h): the runs of one element of a plan, in pack order, up to a byte limit.
/// Used to unpack the partial trailing element of a short receive, one copy per run, and (its
/// strided part) to walk a static plan in TEMPI_VERIFY_PLANS.
#pragma once

#include <algorithm>
#include <vector>

namespace tempi {

/// The runs of one element of a strided shape whose origin is `base`, in pack order (dims[0]
/// fastest), up to `limit` bytes: f(offset, length).
template <typename F>
void forEachStridedRun(const StridedBlock &s, int64_t base, int64_t limit, F &&f) {
  if (s.bytes == 0) return;
  std::vector<int64_t> idx(s.dims.size(), 0);
  while (limit > 0) {
    int64_t off = base + s.start;
    for (size_t d = 0; d < s.dims.size(); ++d) off += idx[d] * s.dims[d].stride;
    int64_t n = std::min(limit, s.bytes);
    f(off, n);
    limit -= n;
    size_t d = 0;
    for (; d < s.dims.size(); ++d) {
      if (++idx[d] < s.dims[d].count) break;
      idx[d] = 0;
    }
    if (d == s.dims.size()) return;
  }
}

template <typename F> void forEachRun(const TypePlan &p, int64_t index, int64_t limit, F &&f) {
  const int64_t base = index * p.extent;
  if (limit <= 0) return;
  if (p.kind == TypePlan::Kind::Blocks) {
    for (size_t i = 0; i < p.blocks.offsets.size() && limit > 0; ++i) {
      int64_t n = std::min(limit, p.blocks.lengths[i]);
      if (n > 0) f(base + p.blocks.offsets[i], n);
      limit -= n;
    }
    return;
  }
  forEachStridedRun(p.kernel.shape, base, limit, f);
}

} // namespace tempi

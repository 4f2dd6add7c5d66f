/// \file
/// The StridedBlock a rewritten call's static plan (tempi.h's tempi_static_plan) describes.
#pragma once

#include "passes/StridedBlock.h"
#include "tempi/tempi.h"

namespace tempi {

/// The plan's shape as a StridedBlock (the caller checks ndims against TEMPI_MAX_DIMS first).
inline StridedBlock stridedOf(const tempi_static_plan &sp) {
  StridedBlock b;
  b.start = sp.start;
  b.bytes = sp.bytes;
  for (int i = 0; i < sp.ndims; ++i) b.dims.push_back({sp.counts[i], sp.strides[i]});
  b.extent = sp.extent;
  b.lb = sp.lb;
  return b;
}

} // namespace tempi

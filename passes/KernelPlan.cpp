/// \file
/// Kernel-plan selection for a StridedBlock: the word size W (largest of 16, 8, 4, 2, 1 dividing
/// the start, the run's bytes, every stride and the extent; 0 is divisible by all), lowered at run
/// time until it divides the buffer address too, and how many of {run, dims[0], dims[1]} map onto
/// the grid's x, y, z (the rest are looped over).
#include "passes/KernelPlan.h"

#include <algorithm>

namespace tempi {

namespace {

bool divides(int64_t w, int64_t v) { return v % w == 0; } // sign of v does not matter

} // namespace

KernelPlan makePlan(const StridedBlock &shape) {
  KernelPlan p;
  p.shape = shape;
  for (int w : {16, 8, 4, 2, 1}) {
    bool ok = divides(w, shape.start) && divides(w, shape.bytes) && divides(w, shape.extent);
    for (const StridedBlock::Dim &d : shape.dims)
      ok = ok && divides(w, d.stride);
    if (ok) {
      p.wordSize = w;
      break;
    }
  }
  p.wordsPerRun = shape.bytes / p.wordSize;
  p.gridDims = 1 + int(std::min<size_t>(shape.dims.size(), 2));
  p.packedBytes = shape.size();
  return p;
}

int alignedWordSize(const KernelPlan &p, uintptr_t base) {
  int w = p.wordSize;
  while (w > 1 && base % uintptr_t(w) != 0)
    w /= 2;
  return w;
}

std::string printPlan(const KernelPlan &p) {
  return "plan(word=" + std::to_string(p.wordSize) + ", words_per_run=" +
         std::to_string(p.wordsPerRun) + ", grid_dims=" + std::to_string(p.gridDims) +
         ", packed_bytes=" + std::to_string(p.packedBytes) + ", shape=" + printStrided(p.shape) +
         ")";
}

} // namespace tempi

/// \file
/// Kernel-plan selection: how a StridedBlock is packed on the GPU.
///
/// The word size W is the largest of 16, 8, 4, 2, 1 that divides the start, the run length, every
/// stride and the extent; the base address is only known at run time, so the runtime lowers W
/// until it also divides the address (alignedWordSize). The grid maps words of the run onto x, the
/// next dimensions onto y and z, and loops over the rest.
#pragma once

#include "passes/StridedBlock.h"

#include <cstdint>
#include <string>

namespace tempi {

struct KernelPlan {
  StridedBlock shape;
  int wordSize = 1;           ///< W, from the shape alone
  int64_t wordsPerRun = 0;    ///< shape.bytes / W
  int gridDims = 1;           ///< how many of {run, dims[0], dims[1]} map onto the grid (1..3)
  int64_t packedBytes = 0;    ///< per element (shape.size())
};

KernelPlan makePlan(const StridedBlock &shape);
/// W for this plan at this base address: the plan's W lowered until it divides the address.
int alignedWordSize(const KernelPlan &p, uintptr_t base);
std::string printPlan(const KernelPlan &p);

} // namespace tempi

/// \file
/// StridedBlock: the canonical form of a regular datatype, what the kernels consume.
///
/// A contiguous run of `bytes` bytes (dimension 0) repeated over outer dimensions. dims[0] is the
/// dimension just outside the run and varies fastest in pack order; dims.back() varies slowest.
/// Element i of a count > 1 starts at i * extent. Byte k of the run of index (i0, i1, ...) is at
///   start + sum_j(i_j * dims[j].stride) + k.
/// Strides may be negative. A type with no bytes has bytes = 0 and no dims.
#pragma once

#include "passes/TypeIR.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tempi {

struct StridedBlock {
  struct Dim {
    int64_t count = 0, stride = 0;
    bool operator==(const Dim &) const = default;
  };
  int64_t start = 0;
  int64_t bytes = 0;
  std::vector<Dim> dims;
  int64_t extent = 0; ///< MPI extent of one element (root layout)
  int64_t lb = 0;     ///< MPI lb of one element (root layout)

  /// Packed bytes of one element.
  int64_t size() const;
  bool operator==(const StridedBlock &) const = default;
};

/// The StridedBlock of a canonical IR (the output of canonicalize()), or nullopt when the type is
/// irregular (a Seq remains) and is served by the block-list kernel instead.
std::optional<StridedBlock> toStridedBlock(const IRNode &canonical);

/// The StridedBlock whose runs, in pack order, are exactly the ranges (offsets[i], lengths[i]):
/// one element's block list as forEachBlock gives it (adjacent ranges merged). nullopt when no
/// StridedBlock has that list: runs of unequal length, or offsets that are not nested arithmetic
/// progressions. Each dim is as long as its progression goes (count >= 2), which is the form
/// canonicalize() reaches when it finds the type regular, so the two agree wherever both give
/// one (canon_property_test). Linear time and no IR: the runtime uses it for block lists too long
/// to canonicalize at MPI_Type_commit. It misses a regular type whose runs touch across a dim
/// (merged into longer runs by the list): such a type is served as a block list.
std::optional<StridedBlock> stridedFromBlocks(const std::vector<int64_t> &offsets,
                                              const std::vector<int64_t> &lengths, int64_t extent,
                                              int64_t lb);

/// "strided(start=0, bytes=8, dims=[(4, 512), (2, 4096)], extent=8192, lb=0)"
std::string printStrided(const StridedBlock &b);

} // namespace tempi

namespace tempi {
/// A stable 64-bit key of a canonical shape (FNV-1a of printStrided): generated code and the
/// runtime use it to find specialized kernels for a plan.
uint64_t shapeKey(const StridedBlock &b);
} // namespace tempi

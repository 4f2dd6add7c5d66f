/// \file
/// TypeIR: what a datatype touches, in MPI pack order.
///
/// A TypeIR tree denotes an ordered list of byte ranges relative to the user's buffer pointer; the
/// MPI's packed bytes are those ranges concatenated in that order. Every canonicalization pass
/// must leave that list unchanged (up to merging adjacent ranges) and must leave the root's Layout
/// unchanged. Inner nodes' Layout is informational once translated: strides are explicit bytes.
///
/// Nodes:
///   Dense{offset, bytes}                 bytes contiguous bytes at offset.
///   Stream{offset, count, stride, child} count copies of child, the i-th at offset + i*stride
///                                        (stride may be negative or zero).
///   Seq{offset, elems}                   elems in order, each shifted by offset (struct, indexed).
/// An empty type is Dense with bytes = 0.
#pragma once

#include "passes/Result.h"
#include "passes/TypeExpr.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace tempi {

enum class IRKind { Dense, Stream, Seq };

/// MPI's view of a type: what MPI_Type_get_extent, _get_true_extent and _size report.
struct Layout {
  int64_t lb = 0, extent = 0, trueLb = 0, trueExtent = 0, size = 0;
  bool operator==(const Layout &) const = default;
};

struct IRNode;
using IRPtr = std::shared_ptr<const IRNode>;

struct IRNode {
  IRKind kind = IRKind::Dense;
  int64_t offset = 0;
  int64_t bytes = 0;              ///< Dense
  int64_t count = 0, stride = 0;  ///< Stream
  IRPtr child;                    ///< Stream
  std::vector<IRPtr> elems;       ///< Seq
  Layout layout;
};

namespace ir {
IRPtr dense(int64_t offset, int64_t bytes, Layout layout);
IRPtr stream(int64_t offset, int64_t count, int64_t stride, IRPtr child, Layout layout);
IRPtr seq(int64_t offset, std::vector<IRPtr> elems, Layout layout);
/// The same node with another offset / layout.
IRPtr withOffset(const IRPtr &n, int64_t offset);
IRPtr withLayout(const IRPtr &n, Layout layout);
} // namespace ir

/// IR nodes the calling thread has built so far (every builder above and every copy they make).
/// The work of translate() and the passes is proportional to it; tests bound it, so a change that
/// makes commit cost grow with the number of blocks again fails without timing anything.
uint64_t irNodesBuilt();

/// Structural equality, layout included.
bool equalIR(const IRNode &a, const IRNode &b);

/// The layout a node has when nothing resized it: lb = true_lb = its lowest byte (its offset
/// included), extent = true_extent = the span of its bytes, size = its byte count; all zero for a
/// node with no bytes. Canonicalization gives inner nodes this layout, and parseIR gives it to
/// nodes written without a layout suffix. (Extension of the original contract.)
Layout naturalLayout(const IRNode &n);
/// naturalLayout, or nullopt when a bound or the size does not fit in 64 bits.
std::optional<Layout> checkedNaturalLayout(const IRNode &n);

/// Translates a constructor tree into TypeIR with MPI's layout on every node (values equal to what
/// MPICH reports for the same type, struct extent padding included). Fails with a message that
/// names the constructor and the argument on: negative counts or block lengths, a subarray
/// start/subsize outside its size, mismatched array lengths, an unknown named type, 64-bit
/// overflow of any offset, extent or size.
Result<IRPtr> translate(const TypeExpr &e);

/// Calls f(offset, bytes) for each contiguous range of `count` elements of the type (element i
/// shifted by i * root extent), in pack order, adjacent ranges merged. Ranges of 0 bytes are skipped.
void forEachBlock(const IRNode &root, int64_t count,
                  const std::function<void(int64_t offset, int64_t bytes)> &f);

} // namespace tempi

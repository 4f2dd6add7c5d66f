/// \file
/// Helpers the canonicalization passes share: a bottom-up tree rewrite that keeps the root's
/// Layout, shape comparison up to the offset, and overflow-checked arithmetic. Passes use these
/// so that each pass file holds only its own rule.
#pragma once

#include "passes/TypeIR.h"

#include <cstdint>

namespace tempi::passutil {

/// A rule: returns a node that denotes the same byte ranges as `n` (whose children are already
/// rewritten), or `n` itself when the rule does not apply.
using NodeRule = IRPtr (*)(const IRPtr &n);

/// Applies `rule` to every node, children first, and gives the result the root's Layout back.
IRPtr rewriteTree(const IRPtr &root, NodeRule rule);

/// The same node with its offset moved by `delta`; nullptr when the new offset overflows.
IRPtr shifted(const IRPtr &n, int64_t delta);

/// True when a and b denote the same ranges up to one shift: equal structure and parameters,
/// the top-level offsets ignored, layouts ignored everywhere.
bool sameShape(const IRNode &a, const IRNode &b);

/// True for a node with no bytes (Dense with bytes 0 after drop-empty).
bool isEmptyDense(const IRNode &n);

/// a + b and a * b, false on 64-bit overflow.
bool addOk(int64_t a, int64_t b, int64_t &r);
bool mulOk(int64_t a, int64_t b, int64_t &r);

} // namespace tempi::passutil

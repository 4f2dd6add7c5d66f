/// \file
/// The `hoist-offsets` canonicalization pass: Moves offsets towards the root: a stream takes
/// its child's offset, a seq takes its first element's offset (the other elements are moved
/// back by as much).
/// Registered in PassRegistry.cpp; documented in docs/passes/hoist-offsets.md; tested in
/// test/passes/hoist-offsets.test.
#pragma once

#include "passes/TypeIR.h"

namespace tempi {

/// Moves offsets towards the root: a stream takes its child's offset, a seq takes its first
/// element's offset (the other elements are moved back by as much). Keeps the byte ranges (in
/// pack order) and the root Layout.
IRPtr hoistOffsets(const IRPtr &root);

} // namespace tempi

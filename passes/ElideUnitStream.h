/// \file
/// The `elide-unit-stream` canonicalization pass: Replaces a stream of count 1 by its child,
/// moved by the stream's offset (the offset is kept, never dropped).
/// Registered in PassRegistry.cpp; documented in docs/passes/elide-unit-stream.md; tested in
/// test/passes/elide-unit-stream.test.
#pragma once

#include "passes/TypeIR.h"

namespace tempi {

/// Replaces a stream of count 1 by its child, moved by the stream's offset (the offset is kept,
/// never dropped). Keeps the byte ranges (in pack order) and the root Layout.
IRPtr elideUnitStream(const IRPtr &root);

} // namespace tempi

/// \file
/// The `normalize-layouts` canonicalization pass: Gives every node below the root its natural
/// layout (inner layouts are informational once translated), so equal shapes compare equal.
/// Registered in PassRegistry.cpp; documented in docs/passes/normalize-layouts.md; tested in
/// test/passes/normalize-layouts.test.
#pragma once

#include "passes/TypeIR.h"

namespace tempi {

/// Gives every node below the root its natural layout (inner layouts are informational once
/// translated), so equal shapes compare equal. Keeps the byte ranges (in pack order) and the
/// root Layout.
IRPtr normalizeLayouts(const IRPtr &root);

} // namespace tempi

/// \file
/// The `fold-dense` canonicalization pass: Replaces a stream over a dense run whose stride
/// equals the run's bytes (stride > 0) by one dense run; negative, zero or other strides are
/// left alone.
/// Registered in PassRegistry.cpp; documented in docs/passes/fold-dense.md; tested in
/// test/passes/fold-dense.test.
#pragma once

#include "passes/TypeIR.h"

namespace tempi {

/// Replaces a stream over a dense run whose stride equals the run's bytes (stride > 0) by one
/// dense run; negative, zero or other strides are left alone. Keeps the byte ranges (in pack
/// order) and the root Layout.
IRPtr foldDense(const IRPtr &root);

} // namespace tempi

/// \file
/// The `regularize-seq` canonicalization pass: Turns runs of a seq's elements that repeat one
/// shape (or one group of shapes) at offsets in arithmetic progression into a stream, and
/// extends a stream by the following or preceding element or stream that continues it.
/// Registered in PassRegistry.cpp; documented in docs/passes/regularize-seq.md; tested in
/// test/passes/regularize-seq.test.
#pragma once

#include "passes/TypeIR.h"

namespace tempi {

/// Turns runs of a seq's elements that repeat one shape (or one group of shapes) at offsets in
/// arithmetic progression into a stream, and extends a stream by the following or preceding
/// element or stream that continues it. Keeps the byte ranges (in pack order) and the root
/// Layout.
IRPtr regularizeSeq(const IRPtr &root);

} // namespace tempi

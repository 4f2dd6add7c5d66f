/// \file
/// The `drop-empty` canonicalization pass: Replaces every part that has no bytes (a dense run
/// of 0 bytes, a stream of count 0 or over an empty child, a seq with no non-empty element) by
/// dense(off=0, bytes=0), and removes empty elements from seqs.
/// Registered in PassRegistry.cpp; documented in docs/passes/drop-empty.md; tested in
/// test/passes/drop-empty.test.
#pragma once

#include "passes/TypeIR.h"

namespace tempi {

/// Replaces every part that has no bytes (a dense run of 0 bytes, a stream of count 0 or over
/// an empty child, a seq with no non-empty element) by dense(off=0, bytes=0), and removes empty
/// elements from seqs. Keeps the byte ranges (in pack order) and the root Layout.
IRPtr dropEmpty(const IRPtr &root);

} // namespace tempi

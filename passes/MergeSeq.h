/// \file
/// The `merge-seq` canonicalization pass: Splices nested seqs into their parent, merges
/// touching dense elements of a seq into one (also with the touching first or last copy of a
/// neighbouring stream over a dense run), and replaces a seq of one element by that element
/// (moved by the seq's offset).
/// Registered in PassRegistry.cpp; documented in docs/passes/merge-seq.md; tested in
/// test/passes/merge-seq.test.
#pragma once

#include "passes/TypeIR.h"

namespace tempi {

/// Splices nested seqs into their parent, merges touching dense elements of a seq into one
/// (also with the touching first or last copy of a neighbouring stream over a dense run), and
/// replaces a seq of one element by that element (moved by the seq's offset). Keeps the byte
/// ranges (in pack order) and the root Layout.
IRPtr mergeSeq(const IRPtr &root);

} // namespace tempi

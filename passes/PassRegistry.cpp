/// \file
/// The one place passes are registered, in the order canonicalize() applies them, and the
/// fixpoint driver. Adding a pass is adding its files and one line here.
///
/// Order: empty parts go first (every later rule can then assume bytes), count-1 streams next,
/// then seqs are flattened and regularized into streams, streams folded into dense runs and
/// flattened into fewer dimensions, offsets hoisted to the root, and inner layouts normalized
/// last. canonicalize() repeats the whole list until a round changes nothing (each pass shrinks
/// the tree or moves offsets up, so this ends; a cap of 64 rounds guards against a bug).
#include "passes/PassRegistry.h"

#include "passes/DropEmpty.h"
#include "passes/ElideUnitStream.h"
#include "passes/FlattenStreams.h"
#include "passes/FoldDense.h"
#include "passes/HoistOffsets.h"
#include "passes/MergeSeq.h"
#include "passes/NormalizeLayouts.h"
#include "passes/RegularizeSeq.h"

namespace tempi {

const std::vector<PassInfo> &allPasses() {
  static const std::vector<PassInfo> passes = {
      {"drop-empty", "replace parts with no bytes by dense(off=0, bytes=0), drop them from seqs",
       dropEmpty},
      {"elide-unit-stream", "replace a count-1 stream by its child, keeping the stream's offset",
       elideUnitStream},
      {"merge-seq", "splice nested seqs, merge adjacent dense elements, unwrap one-element seqs",
       mergeSeq},
      {"regularize-seq", "turn repeated seq elements at offsets in arithmetic progression into "
                         "streams",
       regularizeSeq},
      {"fold-dense", "fold a stream over a dense run of exactly its stride into one dense run",
       foldDense},
      {"flatten-streams", "merge a stream over a stream whose span equals the outer stride",
       flattenStreams},
      {"hoist-offsets", "move offsets towards the root (stream from child, seq from first element)",
       hoistOffsets},
      {"normalize-layouts", "give every inner node its natural layout (the root keeps its own)",
       normalizeLayouts},
  };
  return passes;
}

const PassInfo *findPass(std::string_view name) {
  for (const PassInfo &p : allPasses())
    if (name == p.name)
      return &p;
  return nullptr;
}

IRPtr canonicalize(const IRPtr &root) {
  constexpr int kMaxRounds = 64;
  IRPtr cur = root;
  for (int round = 0; round < kMaxRounds; ++round) {
    IRPtr next = cur;
    for (const PassInfo &p : allPasses())
      next = p.run(next);
    if (equalIR(*next, *cur))
      return next;
    cur = next;
  }
  return cur;
}

} // namespace tempi

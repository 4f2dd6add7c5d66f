/// \file
/// drop-empty: parts with no bytes become dense(off=0, bytes=0) and leave seqs. Acts on dense runs
/// of 0 bytes at a non-zero offset, streams of count 0 or over an empty child, and seqs with empty
/// elements. Never touches a part that has bytes, so the byte ranges cannot change.
#include "passes/DropEmpty.h"

#include "passes/PassUtil.h"

namespace tempi {

namespace {

using passutil::isEmptyDense;

IRPtr empty() { return ir::dense(0, 0, Layout{}); }

IRPtr dropRule(const IRPtr &n) {
  switch (n->kind) {
  case IRKind::Dense:
    return n->bytes == 0 && n->offset != 0 ? empty() : n;
  case IRKind::Stream:
    return n->count == 0 || isEmptyDense(*n->child) ? empty() : n;
  case IRKind::Seq: {
    bool anyEmpty = false;
    for (const IRPtr &e : n->elems)
      anyEmpty = anyEmpty || isEmptyDense(*e);
    if (!anyEmpty && !n->elems.empty())
      return n;
    std::vector<IRPtr> kept;
    for (const IRPtr &e : n->elems)
      if (!isEmptyDense(*e))
        kept.push_back(e);
    if (kept.empty())
      return empty();
    if (kept.size() == n->elems.size())
      return n;
    return ir::seq(n->offset, std::move(kept), n->layout);
  }
  }
  return n;
}

} // namespace

IRPtr dropEmpty(const IRPtr &root) { return passutil::rewriteTree(root, dropRule); }

} // namespace tempi

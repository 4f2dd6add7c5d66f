/// \file
/// merge-seq: flattens and tidies seqs. A seq element that is itself a seq is spliced in (its
/// elements moved by its offset: pack order is the concatenation either way); two consecutive
/// dense elements where the second starts where the first ends become one; a seq left with one
/// element becomes that element moved by the seq's offset, and one with none becomes empty.
/// Dense elements that are not adjacent in memory, or adjacent but in the other order, are not
/// merged (that would reorder packed bytes). Refuses a rewrite whose offsets would overflow.
#include "passes/MergeSeq.h"

#include "passes/PassUtil.h"

namespace tempi {

namespace {

using passutil::addOk;

IRPtr mergeRule(const IRPtr &n) {
  if (n->kind != IRKind::Seq)
    return n;
  bool changed = false;
  std::vector<IRPtr> flat;
  for (const IRPtr &e : n->elems) {
    if (e->kind != IRKind::Seq) {
      flat.push_back(e);
      continue;
    }
    std::vector<IRPtr> inner;
    for (const IRPtr &x : e->elems) {
      IRPtr moved = passutil::shifted(x, e->offset);
      if (!moved)
        return n;
      inner.push_back(moved);
    }
    flat.insert(flat.end(), inner.begin(), inner.end());
    changed = true;
  }
  std::vector<IRPtr> merged;
  for (const IRPtr &e : flat) {
    int64_t end = 0;
    if (!merged.empty() && e->kind == IRKind::Dense && merged.back()->kind == IRKind::Dense &&
        addOk(merged.back()->offset, merged.back()->bytes, end) && end == e->offset) {
      merged.back() = ir::dense(merged.back()->offset, merged.back()->bytes + e->bytes, Layout{});
      changed = true;
      continue;
    }
    merged.push_back(e);
  }
  if (merged.empty())
    return ir::dense(0, 0, Layout{});
  if (merged.size() == 1) {
    IRPtr moved = passutil::shifted(merged.front(), n->offset);
    if (moved)
      return moved;
  }
  return changed ? ir::seq(n->offset, std::move(merged), n->layout) : n;
}

} // namespace

IRPtr mergeSeq(const IRPtr &root) { return passutil::rewriteTree(root, mergeRule); }

} // namespace tempi

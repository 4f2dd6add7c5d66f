/// \file
/// merge-seq: flattens and tidies seqs. A seq element that is itself a seq is spliced in (its
/// elements moved by its offset: pack order is the concatenation either way); two consecutive
/// dense elements where the second starts where the first ends become one, and so does a dense
/// element with the touching first (or last) copy of a neighbouring stream over a dense run, so
/// that dense elements end where the packed ranges really end; a seq left with one element
/// becomes that element moved by the seq's offset, and one with none becomes empty.
/// Dense elements that are not adjacent in memory, or adjacent but in the other order, are not
/// merged (that would reorder packed bytes). Refuses a rewrite whose offsets would overflow.
#include "passes/MergeSeq.h"

#include "passes/PassUtil.h"

namespace tempi {

namespace {

using passutil::addOk;

/// Where copy `index` of a stream over a dense run starts; false unless `n` is such a stream with
/// bytes, or on overflow.
bool denseCopyAt(const IRNode &n, int64_t index, int64_t &at) {
  if (n.kind != IRKind::Stream || n.child->kind != IRKind::Dense || n.child->bytes <= 0 ||
      n.count < 1)
    return false;
  int64_t step = 0;
  return passutil::mulOk(index, n.stride, step) && addOk(n.offset, step, at) &&
         addOk(at, n.child->offset, at);
}

/// The stream `n` without its first (dropFirst) or last copy; nullptr when none is left.
IRPtr withoutOneCopy(const IRNode &n, bool dropFirst) {
  if (n.count <= 1)
    return nullptr;
  int64_t off = n.offset;
  if (dropFirst && !addOk(n.offset, n.stride, off))
    return nullptr;
  return ir::stream(off, n.count - 1, n.stride, n.child, Layout{});
}

/// Appends `e` to `out` by merging it with out.back() when the two touch: two dense runs; a
/// stream over a dense run whose last copy ends where a dense `e` starts (the copy joins `e`); a
/// dense run that ends where the first copy of a stream `e` over a dense run starts (the copy
/// joins the run). The bytes and their order are unchanged: only a boundary between two ranges
/// that follow each other in memory and in pack order disappears. False when nothing touches.
bool joinTouching(std::vector<IRPtr> &out, const IRPtr &e) {
  const IRPtr p = out.back();
  int64_t end = 0, at = 0, bytes = 0;
  if (p->kind == IRKind::Dense && e->kind == IRKind::Dense && addOk(p->offset, p->bytes, end) &&
      end == e->offset && addOk(p->bytes, e->bytes, bytes)) {
    out.back() = ir::dense(p->offset, bytes, Layout{});
    return true;
  }
  if (e->kind == IRKind::Dense && e->bytes > 0 && denseCopyAt(*p, p->count - 1, at) &&
      addOk(at, p->child->bytes, end) && end == e->offset &&
      addOk(p->child->bytes, e->bytes, bytes)) {
    if (IRPtr rest = withoutOneCopy(*p, false))
      out.back() = rest;
    else
      out.pop_back();
    out.push_back(ir::dense(at, bytes, Layout{}));
    return true;
  }
  if (p->kind == IRKind::Dense && p->bytes > 0 && denseCopyAt(*e, 0, at) &&
      addOk(p->offset, p->bytes, end) && end == at && addOk(p->bytes, e->child->bytes, bytes)) {
    if (e->count > 1 && !withoutOneCopy(*e, true))
      return false; // the shifted offset would overflow
    out.back() = ir::dense(p->offset, bytes, Layout{});
    if (IRPtr rest = withoutOneCopy(*e, true))
      out.push_back(rest);
    return true;
  }
  return false;
}

IRPtr mergeRule(const IRPtr &n) {
  if (n->kind != IRKind::Seq)
    return n;
  bool changed = false;
  bool anySeq = false;
  for (const IRPtr &e : n->elems)
    anySeq = anySeq || e->kind == IRKind::Seq;
  std::vector<IRPtr> spliced;
  if (anySeq) {
    for (const IRPtr &e : n->elems) {
      if (e->kind != IRKind::Seq) {
        spliced.push_back(e);
        continue;
      }
      std::vector<IRPtr> inner;
      for (const IRPtr &x : e->elems) {
        IRPtr moved = passutil::shifted(x, e->offset);
        if (!moved)
          return n;
        inner.push_back(moved);
      }
      spliced.insert(spliced.end(), inner.begin(), inner.end());
    }
    changed = true;
  }
  const std::vector<IRPtr> &flat = anySeq ? spliced : n->elems;
  std::vector<IRPtr> merged;
  size_t from = 0;
  if (!changed) {
    // Nothing spliced: find the first pair that joins before copying anything, so that a long
    // seq of separate blocks is not copied.
    std::vector<IRPtr> pair;
    for (from = 1; from < flat.size(); ++from) {
      pair.assign(1, flat[from - 1]);
      if (joinTouching(pair, flat[from]))
        break;
    }
    if (from < flat.size()) {
      merged.assign(flat.begin(), flat.begin() + (from - 1));
      merged.insert(merged.end(), pair.begin(), pair.end());
      changed = true;
      ++from;
    } else if (flat.size() > 1) {
      return n;
    } else {
      merged = flat; // none or one element: handled below
    }
  }
  for (size_t i = from; i < flat.size(); ++i) {
    const IRPtr &e = flat[i];
    if (!merged.empty() && joinTouching(merged, e)) {
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

/// \file
/// regularize-seq: finds regular structure in a seq's element list (what indexed, hindexed and
/// struct types produce) and turns it into streams, element order untouched.
///
/// 1. Runs. From each position, for every group length p from 1 to 16, count how many times the
///    group of p elements repeats with the same shapes at one constant shift d (offsets in
///    arithmetic progression). The run covering the most elements wins (ties: the shorter group);
///    if it repeats at least twice it becomes stream(count=k, stride=d, group), the group a seq
///    when p > 1. Otherwise the element is kept and the search moves one element on.
/// 2. Continuations. A stream followed by an element of its child's shape at the next position
///    (or by a stream of the same stride and child that continues it), or an element followed by
///    a stream of its shape that starts one stride later, become one stream.
/// Refuses anything whose offsets would overflow. Elements are compared with sameShape (layouts
/// ignored), so the byte ranges and their order are exactly preserved.
#include "passes/RegularizeSeq.h"

#include "passes/PassUtil.h"

#include <algorithm>

namespace tempi {

namespace {

using passutil::addOk;
using passutil::mulOk;
using passutil::sameShape;

constexpr size_t kMaxGroup = 16;

/// How many times elems[i, i+p) repeats, each time shifted by a further d (>= 1).
size_t repetitions(const std::vector<IRPtr> &e, size_t i, size_t p, int64_t &d) {
  if (__builtin_sub_overflow(e[i + p]->offset, e[i]->offset, &d))
    return 1;
  size_t k = 1;
  for (;; ++k) {
    size_t base = i + k * p;
    if (base + p > e.size())
      break;
    int64_t shift = 0;
    if (!mulOk(int64_t(k), d, shift))
      break;
    bool same = true;
    for (size_t t = 0; t < p && same; ++t) {
      int64_t want = 0;
      // Offsets first: they are in the elements themselves, shapes are behind pointers.
      same = addOk(e[i + t]->offset, shift, want) && e[base + t]->offset == want &&
             sameShape(*e[base + t], *e[i + t]);
    }
    if (!same)
      break;
  }
  return k;
}

/// The elements with runs made streams; empty (and `changed` untouched) when there is no run, so
/// that a long seq without runs is not copied.
std::vector<IRPtr> findRuns(const std::vector<IRPtr> &e, bool &changed) {
  std::vector<IRPtr> out;
  size_t i = 0, copied = 0; // e[copied, i) is not in out yet
  bool found = false;
  while (i < e.size()) {
    size_t bestP = 0, bestK = 0;
    int64_t bestD = 0;
    for (size_t p = 1; p <= kMaxGroup && i + 2 * p <= e.size(); ++p) {
      int64_t d = 0;
      size_t k = repetitions(e, i, p, d);
      if (k >= 2 && p * k > bestP * bestK) {
        bestP = p;
        bestK = k;
        bestD = d;
      }
    }
    if (bestK < 2) {
      ++i;
      continue;
    }
    out.insert(out.end(), e.begin() + copied, e.begin() + i);
    IRPtr unit;
    int64_t off = 0;
    if (bestP == 1) {
      unit = ir::withOffset(e[i], 0);
      off = e[i]->offset;
    } else {
      unit = ir::seq(0, std::vector<IRPtr>(e.begin() + i, e.begin() + i + bestP), Layout{});
    }
    out.push_back(ir::stream(off, int64_t(bestK), bestD, unit, Layout{}));
    i += bestP * bestK;
    copied = i;
    found = true;
  }
  if (!found)
    return out;
  out.insert(out.end(), e.begin() + copied, e.end());
  changed = true;
  return out;
}

/// Where copy `index` of stream s's child starts, or false on overflow.
bool copyOffset(const IRNode &s, int64_t index, int64_t &at) {
  int64_t step = 0;
  return mulOk(index, s.stride, step) && addOk(s.offset, step, at) &&
         addOk(at, s.child->offset, at);
}

/// a then b as one stream, or nullptr.
IRPtr continuation(const IRPtr &a, const IRPtr &b) {
  int64_t at = 0, count = 0;
  if (a->kind == IRKind::Stream && b->kind == IRKind::Stream && a->stride == b->stride &&
      a->child->offset == b->child->offset && sameShape(*a->child, *b->child) &&
      copyOffset(*a, a->count, at) && at == b->offset + b->child->offset &&
      addOk(a->count, b->count, count))
    return ir::stream(a->offset, count, a->stride, a->child, Layout{});
  if (a->kind == IRKind::Stream && sameShape(*a->child, *b) && copyOffset(*a, a->count, at) &&
      at == b->offset && addOk(a->count, 1, count))
    return ir::stream(a->offset, count, a->stride, a->child, Layout{});
  int64_t start = 0;
  if (b->kind == IRKind::Stream && sameShape(*a, *b->child) && copyOffset(*b, -1, at) &&
      at == a->offset && addOk(b->count, 1, count) &&
      !__builtin_sub_overflow(a->offset, b->child->offset, &start))
    return ir::stream(start, count, b->stride, b->child, Layout{});
  return nullptr;
}

/// The elements with continuations joined; empty (and `changed` untouched) when nothing joins.
std::vector<IRPtr> joinContinuations(const std::vector<IRPtr> &e, bool &changed) {
  std::vector<IRPtr> out;
  bool joinedAny = false; // until the first join, out is e's prefix and is not built
  for (size_t i = 0; i < e.size(); ++i) {
    const IRPtr &x = e[i];
    if (!joinedAny) {
      if (i > 0) {
        if (IRPtr joined = continuation(e[i - 1], x)) {
          out.assign(e.begin(), e.begin() + (i - 1));
          out.push_back(joined);
          joinedAny = true;
        }
      }
      continue;
    }
    if (IRPtr joined = continuation(out.back(), x)) {
      out.back() = joined;
      continue;
    }
    out.push_back(x);
  }
  if (joinedAny)
    changed = true;
  return out;
}

IRPtr regularizeRule(const IRPtr &n) {
  if (n->kind != IRKind::Seq || n->elems.size() < 2)
    return n;
  bool ran = false, joined = false;
  std::vector<IRPtr> runs = findRuns(n->elems, ran);
  std::vector<IRPtr> elems = joinContinuations(ran ? runs : n->elems, joined);
  if (!ran && !joined)
    return n;
  if (!joined)
    elems = std::move(runs);
  if (elems.size() == 1) {
    if (IRPtr moved = passutil::shifted(elems.front(), n->offset))
      return moved;
  }
  return ir::seq(n->offset, std::move(elems), n->layout);
}

} // namespace

IRPtr regularizeSeq(const IRPtr &root) { return passutil::rewriteTree(root, regularizeRule); }

} // namespace tempi

/// \file
/// TypeIR basics: the node builders, structural equality, the natural layout of a node, and
/// forEachBlock, the one definition of what a tree means (its byte ranges in pack order) that the
/// reference packer, the passes' tests and the oracle all rely on.
///
/// Builders do not validate (parseIR and translate do); checkedNaturalLayout refuses trees whose
/// bounds or size do not fit in 64 bits.
#include "passes/TypeIR.h"

#include <algorithm>
#include <limits>

namespace tempi {

namespace {
thread_local uint64_t nodesBuilt = 0;

std::shared_ptr<IRNode> newNode() {
  ++nodesBuilt;
  return std::make_shared<IRNode>();
}
std::shared_ptr<IRNode> copyNode(const IRNode &n) {
  ++nodesBuilt;
  return std::make_shared<IRNode>(n);
}
} // namespace

uint64_t irNodesBuilt() { return nodesBuilt; }

namespace ir {

IRPtr dense(int64_t offset, int64_t bytes, Layout layout) {
  auto n = newNode();
  n->kind = IRKind::Dense;
  n->offset = offset;
  n->bytes = bytes;
  n->layout = layout;
  return n;
}

IRPtr stream(int64_t offset, int64_t count, int64_t stride, IRPtr child, Layout layout) {
  auto n = newNode();
  n->kind = IRKind::Stream;
  n->offset = offset;
  n->count = count;
  n->stride = stride;
  n->child = std::move(child);
  n->layout = layout;
  return n;
}

IRPtr seq(int64_t offset, std::vector<IRPtr> elems, Layout layout) {
  auto n = newNode();
  n->kind = IRKind::Seq;
  n->offset = offset;
  n->elems = std::move(elems);
  n->layout = layout;
  return n;
}

IRPtr withOffset(const IRPtr &n, int64_t offset) {
  if (n->offset == offset)
    return n;
  auto c = copyNode(*n);
  c->offset = offset;
  return c;
}

IRPtr withLayout(const IRPtr &n, Layout layout) {
  if (n->layout == layout)
    return n;
  auto c = copyNode(*n);
  c->layout = layout;
  return c;
}

} // namespace ir

bool equalIR(const IRNode &a, const IRNode &b) {
  if (&a == &b)
    return true;
  if (a.kind != b.kind || a.offset != b.offset || !(a.layout == b.layout))
    return false;
  switch (a.kind) {
  case IRKind::Dense:
    return a.bytes == b.bytes;
  case IRKind::Stream:
    return a.count == b.count && a.stride == b.stride && a.child && b.child &&
           equalIR(*a.child, *b.child);
  case IRKind::Seq:
    if (a.elems.size() != b.elems.size())
      return false;
    for (size_t i = 0; i < a.elems.size(); ++i)
      if (!equalIR(*a.elems[i], *b.elems[i]))
        return false;
    return true;
  }
  return false;
}

namespace {

using i128 = __int128;

bool fits(i128 v) {
  return v >= std::numeric_limits<int64_t>::min() && v <= std::numeric_limits<int64_t>::max();
}

/// Bounds [lo, hi) and byte count of a node, its own offset included.
struct Bounds {
  bool ok = true;
  bool empty = true;
  i128 lo = 0, hi = 0, size = 0;
};

Bounds boundsOf(const IRNode &n) {
  Bounds r;
  switch (n.kind) {
  case IRKind::Dense:
    if (n.bytes < 0) {
      r.ok = false;
      return r;
    }
    if (n.bytes > 0) {
      r.empty = false;
      r.lo = n.offset;
      r.hi = i128(n.offset) + n.bytes;
      r.size = n.bytes;
    }
    break;
  case IRKind::Stream: {
    if (!n.child || n.count < 0) {
      r.ok = false;
      return r;
    }
    Bounds c = boundsOf(*n.child);
    if (!c.ok) {
      r.ok = false;
      return r;
    }
    if (n.count > 0 && !c.empty) {
      i128 last = i128(n.count - 1) * n.stride;
      r.empty = false;
      r.lo = n.offset + std::min<i128>(0, last) + c.lo;
      r.hi = n.offset + std::max<i128>(0, last) + c.hi;
      r.size = c.size * n.count;
    }
    break;
  }
  case IRKind::Seq:
    for (const IRPtr &e : n.elems) {
      if (!e) {
        r.ok = false;
        return r;
      }
      Bounds c = boundsOf(*e);
      if (!c.ok) {
        r.ok = false;
        return r;
      }
      if (c.empty)
        continue;
      i128 lo = n.offset + c.lo, hi = n.offset + c.hi;
      r.lo = r.empty ? lo : std::min(r.lo, lo);
      r.hi = r.empty ? hi : std::max(r.hi, hi);
      r.empty = false;
      r.size += c.size;
      if (!fits(r.size)) {
        r.ok = false;
        return r;
      }
    }
    break;
  }
  if (!fits(r.lo) || !fits(r.hi) || !fits(r.size) || !fits(r.hi - r.lo))
    r.ok = false;
  return r;
}

} // namespace

std::optional<Layout> checkedNaturalLayout(const IRNode &n) {
  Bounds b = boundsOf(n);
  if (!b.ok)
    return std::nullopt;
  Layout l;
  if (b.empty)
    return l;
  l.lb = l.trueLb = int64_t(b.lo);
  l.extent = l.trueExtent = int64_t(b.hi - b.lo);
  l.size = int64_t(b.size);
  return l;
}

Layout naturalLayout(const IRNode &n) { return checkedNaturalLayout(n).value_or(Layout{}); }

namespace {

/// Walks the tree in pack order, merging each range into the pending one when adjacent.
class BlockWalker {
public:
  explicit BlockWalker(const std::function<void(int64_t, int64_t)> &f) : f_(f) {}

  void visit(const IRNode &n, int64_t base) {
    switch (n.kind) {
    case IRKind::Dense:
      emit(base + n.offset, n.bytes);
      break;
    case IRKind::Stream:
      for (int64_t i = 0; i < n.count; ++i)
        visit(*n.child, base + n.offset + i * n.stride);
      break;
    case IRKind::Seq:
      for (const IRPtr &e : n.elems)
        visit(*e, base + n.offset);
      break;
    }
  }

  void flush() {
    if (pendingBytes_ > 0)
      f_(pendingOffset_, pendingBytes_);
    pendingBytes_ = 0;
  }

private:
  void emit(int64_t offset, int64_t bytes) {
    if (bytes <= 0)
      return;
    if (pendingBytes_ > 0 && pendingOffset_ + pendingBytes_ == offset) {
      pendingBytes_ += bytes;
      return;
    }
    flush();
    pendingOffset_ = offset;
    pendingBytes_ = bytes;
  }

  const std::function<void(int64_t, int64_t)> &f_;
  int64_t pendingOffset_ = 0, pendingBytes_ = 0;
};

} // namespace

void forEachBlock(const IRNode &root, int64_t count,
                  const std::function<void(int64_t offset, int64_t bytes)> &f) {
  BlockWalker w(f);
  for (int64_t i = 0; i < count; ++i)
    w.visit(root, i * root.layout.extent);
  w.flush();
}

} // namespace tempi

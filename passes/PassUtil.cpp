/// \file
/// Helpers the canonicalization passes share (see PassUtil.h).
#include "passes/PassUtil.h"

namespace tempi::passutil {

namespace {

IRPtr rewriteNode(const IRPtr &n, NodeRule rule) {
  IRPtr cur = n;
  if (n->kind == IRKind::Stream) {
    IRPtr c = rewriteNode(n->child, rule);
    if (c != n->child)
      cur = ir::stream(n->offset, n->count, n->stride, c, n->layout);
  } else if (n->kind == IRKind::Seq) {
    // The element list is copied only from the first element a rule changed: a pass that changes
    // nothing in a seq of many elements allocates nothing for it.
    std::vector<IRPtr> elems;
    const size_t size = n->elems.size();
    for (size_t i = 0; i < size; ++i) {
      IRPtr r = rewriteNode(n->elems[i], rule);
      if (elems.empty() && r == n->elems[i])
        continue;
      if (elems.empty()) {
        elems.reserve(size);
        elems.assign(n->elems.begin(), n->elems.begin() + i);
      }
      elems.push_back(std::move(r));
    }
    if (!elems.empty())
      cur = ir::seq(n->offset, std::move(elems), n->layout);
  }
  return rule(cur);
}

} // namespace

IRPtr rewriteTree(const IRPtr &root, NodeRule rule) {
  return ir::withLayout(rewriteNode(root, rule), root->layout);
}

IRPtr shifted(const IRPtr &n, int64_t delta) {
  int64_t off = 0;
  if (!addOk(n->offset, delta, off))
    return nullptr;
  return ir::withOffset(n, off);
}

static bool sameInner(const IRNode &a, const IRNode &b) {
  return a.offset == b.offset && sameShape(a, b);
}

bool sameShape(const IRNode &a, const IRNode &b) {
  if (&a == &b)
    return true;
  if (a.kind != b.kind)
    return false;
  switch (a.kind) {
  case IRKind::Dense:
    return a.bytes == b.bytes;
  case IRKind::Stream:
    return a.count == b.count && a.stride == b.stride && sameInner(*a.child, *b.child);
  case IRKind::Seq:
    if (a.elems.size() != b.elems.size())
      return false;
    for (size_t i = 0; i < a.elems.size(); ++i)
      if (!sameInner(*a.elems[i], *b.elems[i]))
        return false;
    return true;
  }
  return false;
}

bool isEmptyDense(const IRNode &n) { return n.kind == IRKind::Dense && n.bytes == 0; }

bool addOk(int64_t a, int64_t b, int64_t &r) { return !__builtin_add_overflow(a, b, &r); }
bool mulOk(int64_t a, int64_t b, int64_t &r) { return !__builtin_mul_overflow(a, b, &r); }

} // namespace tempi::passutil

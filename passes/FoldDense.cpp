/// \file
/// fold-dense: stream(off=o, count=c, stride=b, dense(off=d, bytes=b)) with b > 0 is one dense run
/// of c*b bytes at o+d: the copies touch each other in increasing address order, which is the
/// pack order. Refuses any other stride: a negative stride (copies in decreasing order), a zero
/// stride (the same bytes repeated), a stride larger than b (gaps) or smaller (overlap).
#include "passes/FoldDense.h"

#include "passes/PassUtil.h"

namespace tempi {

namespace {

IRPtr foldRule(const IRPtr &n) {
  if (n->kind != IRKind::Stream || n->child->kind != IRKind::Dense)
    return n;
  const IRNode &d = *n->child;
  int64_t bytes = 0, off = 0;
  if (d.bytes <= 0 || n->stride != d.bytes || !passutil::mulOk(n->count, d.bytes, bytes) ||
      !passutil::addOk(n->offset, d.offset, off))
    return n;
  return ir::dense(off, bytes, Layout{});
}

} // namespace

IRPtr foldDense(const IRPtr &root) { return passutil::rewriteTree(root, foldRule); }

} // namespace tempi

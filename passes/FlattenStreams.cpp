/// \file
/// flatten-streams: stream(off=o1, count=c1, stride=s1, stream(off=o2, count=c2, stride=s2, X))
/// with c2*s2 == s1 is stream(off=o1+o2, count=c1*c2, stride=s2, X): copy (i, j) sits at
/// i*s1 + j*s2 = (i*c2 + j)*s2, and (i, j) in pack order is i*c2 + j in increasing order. Holds
/// for negative strides too. Refuses when the spans differ (the streams are two dimensions) or
/// when a product or sum overflows. Never reorders streams.
#include "passes/FlattenStreams.h"

#include "passes/PassUtil.h"

namespace tempi {

namespace {

IRPtr flattenRule(const IRPtr &n) {
  if (n->kind != IRKind::Stream || n->child->kind != IRKind::Stream)
    return n;
  const IRNode &in = *n->child;
  int64_t span = 0, count = 0, off = 0;
  if (!passutil::mulOk(in.count, in.stride, span) || span != n->stride ||
      !passutil::mulOk(n->count, in.count, count) || !passutil::addOk(n->offset, in.offset, off))
    return n;
  return ir::stream(off, count, in.stride, in.child, Layout{});
}

} // namespace

IRPtr flattenStreams(const IRPtr &root) { return passutil::rewriteTree(root, flattenRule); }

} // namespace tempi

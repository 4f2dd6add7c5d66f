/// \file
/// hoist-offsets: offsets move towards the root, so that in a regular canonical type only the root
/// carries one (the StridedBlock's start). A stream takes its child's offset (the child is the
/// same at every repetition, so the shift commutes with the repetition); a seq takes its first
/// element's offset and moves the other elements back by as much. Refuses when a sum overflows.
#include "passes/HoistOffsets.h"

#include "passes/PassUtil.h"

namespace tempi {

namespace {

using passutil::addOk;

IRPtr hoistRule(const IRPtr &n) {
  int64_t off = 0;
  if (n->kind == IRKind::Stream) {
    if (n->child->offset == 0 || !addOk(n->offset, n->child->offset, off))
      return n;
    return ir::stream(off, n->count, n->stride, ir::withOffset(n->child, 0), n->layout);
  }
  if (n->kind == IRKind::Seq && !n->elems.empty()) {
    int64_t first = n->elems.front()->offset;
    if (first == 0 || !addOk(n->offset, first, off))
      return n;
    std::vector<IRPtr> elems;
    for (const IRPtr &e : n->elems) {
      int64_t eo = 0;
      if (__builtin_sub_overflow(e->offset, first, &eo))
        return n;
      elems.push_back(ir::withOffset(e, eo));
    }
    return ir::seq(off, std::move(elems), n->layout);
  }
  return n;
}

} // namespace

IRPtr hoistOffsets(const IRPtr &root) { return passutil::rewriteTree(root, hoistRule); }

} // namespace tempi

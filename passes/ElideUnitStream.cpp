/// \file
/// elide-unit-stream: stream(off=o, count=1, stride=s, X) becomes X moved by o. The stride of a
/// count-1 stream never matters; its offset always does (a radius-1 halo plane is a count-1
/// stream at a non-zero offset), so the offset is added to the child's, never dropped. Refuses
/// only when that sum overflows.
#include "passes/ElideUnitStream.h"

#include "passes/PassUtil.h"

namespace tempi {

namespace {

IRPtr elideRule(const IRPtr &n) {
  if (n->kind != IRKind::Stream || n->count != 1)
    return n;
  IRPtr moved = passutil::shifted(n->child, n->offset);
  return moved ? moved : n;
}

} // namespace

IRPtr elideUnitStream(const IRPtr &root) { return passutil::rewriteTree(root, elideRule); }

} // namespace tempi

/// \file
/// normalize-layouts: every node below the root gets its natural layout (naturalLayout). Inner
/// layouts carry what translate knew (a resized child's lb and extent, say), but once strides are
/// explicit bytes nothing reads them; making them natural lets two equal shapes compare equal with
/// equalIR. The root's Layout, which MPI reports and count > 1 uses, is never changed.
#include "passes/NormalizeLayouts.h"

#include "passes/PassUtil.h"

namespace tempi {

namespace {

IRPtr naturalRule(const IRPtr &n) { return ir::withLayout(n, naturalLayout(*n)); }

} // namespace

IRPtr normalizeLayouts(const IRPtr &root) { return passutil::rewriteTree(root, naturalRule); }

} // namespace tempi

/// \file
/// The `flatten-streams` canonicalization pass: Replaces stream(count=c1, stride=s1,
/// stream(count=c2, stride=s2, X)) with c2*s2 == s1 by stream(count=c1*c2, stride=s2, X).
/// Registered in PassRegistry.cpp; documented in docs/passes/flatten-streams.md; tested in
/// test/passes/flatten-streams.test.
#pragma once

#include "passes/TypeIR.h"

namespace tempi {

/// Replaces stream(count=c1, stride=s1, stream(count=c2, stride=s2, X)) with c2*s2 == s1 by
/// stream(count=c1*c2, stride=s2, X). Keeps the byte ranges (in pack order) and the root
/// Layout.
IRPtr flattenStreams(const IRPtr &root);

} // namespace tempi

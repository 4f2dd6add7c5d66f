/// \file
/// The canonicalization passes, registered in one place (PassRegistry.cpp).
///
/// A pass is a pure function on TypeIR that keeps the denoted byte-range list and the root Layout
/// unchanged. Each has a stable kebab-case name used by tempi-opt -passes=, diagnostics
/// ([tempi-fold-dense]), tests (test/passes/<name>.test) and docs (docs/passes/<name>.md).
#pragma once

#include "passes/TypeIR.h"

#include <string_view>
#include <vector>

namespace tempi {

struct PassInfo {
  const char *name;    ///< "fold-dense"
  const char *summary; ///< one line for --help and docs
  IRPtr (*run)(const IRPtr &root);
};

/// Every pass, in the order canonicalize() applies them.
const std::vector<PassInfo> &allPasses();
const PassInfo *findPass(std::string_view name);

/// Applies every pass in order, repeatedly, until none changes the tree.
IRPtr canonicalize(const IRPtr &root);

} // namespace tempi

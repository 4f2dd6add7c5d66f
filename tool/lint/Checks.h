/// \file
/// The tempi-lint checks: their registry (stable kebab-case names, one docs page each under
/// docs/lint/<name>.md) and the Finding every check produces.
///
/// A check reads one translation unit through the shared front end (tool/clang: Analysis for the
/// communication calls, DatatypeResolver for the constructor calls) and appends Findings. Checks
/// never print: LintAction turns Findings into Clang diagnostics, SARIF results and YAML
/// replacements, so the three outputs cannot disagree. A check that cannot prove what it would
/// report (an unresolved chain, a pointer it cannot follow) reports nothing.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"

#include <string>
#include <vector>

namespace tempi::lint {

/// One check, as the registry lists it.
struct CheckInfo {
  const char *name;    ///< "non-canonical-type": shown as [tempi-non-canonical-type]
  const char *title;   ///< one line for --list-checks, SARIF shortDescription and the docs
};

/// Every check, in the order they run (and the SARIF rule order).
const std::vector<CheckInfo> &allChecks();
const CheckInfo *findCheck(const std::string &name);
/// Where a check's page is published (SARIF helpUri): the repository's docs/lint/<name>.md.
std::string helpUri(const CheckInfo &check);

/// A replacement a finding proposes (a fix-it): `text` in place of the file range.
struct FixIt {
  clang::CharSourceRange range;
  std::string text;
};

/// A secondary location ("'a' is built here").
struct Note {
  clang::SourceLocation loc;
  std::string message;
};

struct Finding {
  const CheckInfo *check = nullptr;
  clang::SourceLocation loc;     ///< the caret
  clang::CharSourceRange range;  ///< what is highlighted (may be invalid)
  std::string message;           ///< without the [tempi-<name>] suffix
  std::vector<FixIt> fixes;
  std::vector<Note> notes;
};

/// What the lint assumes about the build (command-line options of tempi-lint).
struct LintOptions {
  /// The program is built with TEMPI (tempi-cc): device buffers reach TEMPI, not the MPI.
  bool builtWithTempi = false;
  /// The MPI is CUDA-aware (also assumed when the TU defines MPIX_CUDA_AWARE_SUPPORT to 1).
  bool mpiCudaAware = false;
  /// The file is the whole program (tempi-rewrite's --whole-program): a global datatype of
  /// external linkage, or a function another file could call, is proven as a static one.
  bool wholeProgram = false;
  /// Checks not to report, by name without the "tempi-" prefix (--disable=a,b).
  std::vector<std::string> disabled;
};

/// Runs every check over the main file of a parsed translation unit; findings in source order.
std::vector<Finding> runChecks(clang::ASTContext &ctx, const LintOptions &options);

} // namespace tempi::lint

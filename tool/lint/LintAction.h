/// \file
/// The lint's front-end action: parses one translation unit, runs every check (Checks.h) and
/// reports each finding as a Clang warning "<message> [tempi-<name>]" with its range, fix-its and
/// notes (so `-Xclang -verify=tempi` and `// tempi-warning {{...}}` check it), and keeps a
/// detached copy for SARIF and YAML. A translation unit with compile errors is not linted: its
/// result says so and the driver exits 2.
#pragma once

#include "tool/lint/Checks.h"
#include "tool/lint/Report.h"

#include "clang/Tooling/Tooling.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tempi::lint {

struct LintRunOptions {
  LintOptions checks;
  bool emitDiagnostics = true; ///< false for --format=sarif (the SARIF log is the output)
};

/// What the action produced for one main file.
struct LintResult {
  bool ran = false; ///< parsed without errors and linted
  std::vector<ReportedFinding> findings;
};

/// One lint action per file; results keyed by the main file's name as the tool gave it.
std::unique_ptr<clang::tooling::FrontendActionFactory>
newLintActionFactory(LintRunOptions options, std::map<std::string, LintResult> &results);

} // namespace tempi::lint

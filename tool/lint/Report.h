/// \file
/// Findings detached from the SourceManager (files, offsets, lines and columns), and the two
/// machine-readable outputs built from them: SARIF 2.1.0 (--format=sarif) and clang-apply-
/// replacements YAML (--export-fixes). The text output is Clang's own diagnostics (LintAction).
///
/// Lines and columns are 1-based; columns count bytes (equal to SARIF's default UTF-16 columns
/// for ASCII sources). SARIF end columns are exclusive, as the standard says.
#pragma once

#include "tool/lint/Checks.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tempi::lint {

struct TextRange {
  std::string file;             ///< absolute path
  unsigned offset = 0, length = 0;
  unsigned line = 0, column = 0, endLine = 0, endColumn = 0;
};

struct ReportedFinding {
  std::string check; ///< registry name ("non-canonical-type")
  std::string message;
  TextRange range;
  struct Fix { TextRange range; std::string text; };
  std::vector<Fix> fixes;
  struct Related { TextRange at; std::string message; };
  std::vector<Related> notes;
};

/// A file range (or a point when `r` is invalid, using `loc`) as a TextRange.
TextRange toTextRange(const clang::SourceManager &sm, clang::SourceLocation loc,
                      clang::CharSourceRange r);
ReportedFinding detach(const Finding &f, const clang::SourceManager &sm);

/// A SARIF 2.1.0 log with one run: every registered check as a rule (help URIs to docs/lint),
/// every finding as a result with its region, related locations and fixes.
void writeSarif(llvm::raw_ostream &os, const std::vector<ReportedFinding> &findings,
                bool executionSuccessful);

/// clang-apply-replacements YAML: one document, MainSourceFile the first input, every fix-it.
void writeFixesYaml(llvm::raw_ostream &os, const std::string &mainFile,
                    const std::vector<ReportedFinding> &findings);

} // namespace tempi::lint

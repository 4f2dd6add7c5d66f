/// \file
/// The rewriting front-end action: analyses one translation unit, emits remarks (--explain),
/// applies the Transformer edits to the main file, inserts `#include <tempi/tempi.h>` and one
/// plan per distinct shape after the line that includes mpi.h, followed by a `#line` directive so
/// the rest of the file keeps its line numbers. A file with compile errors yields no output.
#pragma once

#include "passes/StridedBlock.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Tooling/Tooling.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tempi::frontend {

struct RewriteOptions {
  bool explain = false; ///< remarks for every datatype argument (rewritten or not)
  /// The file is the whole program: nothing else linked can write its globals.
  bool wholeProgram = false;
  /// The inputs as spelled on the command line. ClangTool parses each by its absolute path, so
  /// __FILE__ in the tool's parse is absolute; the `#line` after the plans names the spelling
  /// given here instead, which is what __FILE__ is when the user's compiler gets the same name.
  std::vector<std::string> spelledSources;
  /// The compiler's predefined macros (--compiler-macros: `cc <flags> -dM -E`): a file whose
  /// text depends on one the tool's Clang defines otherwise is not rewritten (MacroDivergence).
  std::optional<std::map<std::string, std::string>> compilerMacros;
};

/// What the action produced for one main file.
struct RewriteResult {
  bool ok = false;            ///< parsed without errors and the edits applied
  std::string text;           ///< the rewritten file (the original when nothing was rewritten)
  std::vector<StridedBlock> shapes; ///< distinct shapes whose plans the text defines
  unsigned rewrittenCalls = 0;
};

/// Creates one rewriting action per file; results are keyed by the main file's name as given.
std::unique_ptr<clang::tooling::FrontendActionFactory>
newRewriteActionFactory(RewriteOptions options, std::map<std::string, RewriteResult> &results);

/// Emits the analysis remarks of a translation unit through its diagnostics engine
/// (unresolved datatype arguments always; rewritten calls too when `explainRewritten`).
struct Analysis;
struct SiteEdit;
void emitRemarks(clang::DiagnosticsEngine &diags, const Analysis &analysis,
                 const std::vector<SiteEdit> &edits, bool explainRewritten);

/// The driver's argument adjusters: -resource-dir, CUDA host mode for .cu files, and the include
/// flags of an MPI compiler wrapper (mpicc -show) for compilation-database entries built with one.
clang::tooling::ArgumentsAdjuster tempiArgumentsAdjuster();

/// ClangTool hands the compiler each source by its absolute path, so diagnostics and remarks
/// named it so where the user's compiler names it as given (`x.c:3:5:`). This adjuster gives the
/// compiler the name each of `sources` was spelled by. Only for a fixed compilation database
/// (flags after `--`), whose commands run in the current folder: a compilation database's
/// commands run in folders of their own, where a relative name would not be found.
clang::tooling::ArgumentsAdjuster spelledSourceNames(std::vector<std::string> sources);
/// Whether the command line has `--`, after which CommonOptionsParser reads the flags of a fixed
/// compilation database.
bool hasFlagSeparator(int argc, const char **argv);

} // namespace tempi::frontend

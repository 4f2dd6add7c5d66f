/// \file
/// LintAction: checks one translation unit and reports through its DiagnosticsEngine (see
/// LintAction.h). The TU's own macros refine the options: tempi/tempi.h included means the
/// program is built with TEMPI; MPIX_CUDA_AWARE_SUPPORT defined to 1 means a CUDA-aware MPI.
#include "tool/lint/LintAction.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;

namespace tempi::lint {

namespace {

/// The integer a macro is defined to ("1"), or -1 when it is not defined or not a literal.
long macroValue(Preprocessor &pp, const char *name) {
  const MacroInfo *mi = pp.getMacroInfo(pp.getIdentifierInfo(name));
  if (!mi)
    return -1;
  if (mi->getNumTokens() != 1 || !mi->getReplacementToken(0).is(tok::numeric_constant))
    return 0;
  return std::strtol(pp.getSpelling(mi->getReplacementToken(0)).c_str(), nullptr, 0);
}

class LintConsumer : public ASTConsumer {
public:
  LintConsumer(LintRunOptions opts, LintResult &result, Preprocessor &pp)
      : opts_(opts), result_(result), pp_(pp) {}

  void HandleTranslationUnit(ASTContext &ctx) override {
    DiagnosticsEngine &diags = ctx.getDiagnostics();
    if (diags.hasErrorOccurred())
      return;
    LintOptions options = opts_.checks;
    if (macroValue(pp_, "TEMPI_TEMPI_H") >= 0)
      options.builtWithTempi = true;
    if (macroValue(pp_, "MPIX_CUDA_AWARE_SUPPORT") == 1)
      options.mpiCudaAware = true;
    std::vector<Finding> findings = runChecks(ctx, options);
    const SourceManager &sm = ctx.getSourceManager();
    unsigned warning = diags.getCustomDiagID(DiagnosticsEngine::Warning, "%0");
    unsigned note = diags.getCustomDiagID(DiagnosticsEngine::Note, "%0");
    for (const Finding &f : findings) {
      result_.findings.push_back(detach(f, sm));
      if (!opts_.emitDiagnostics)
        continue;
      {
        DiagnosticBuilder db = diags.Report(f.loc, warning);
        db << (f.message + " [tempi-" + f.check->name + "]");
        if (f.range.isValid())
          db << f.range;
        for (const FixIt &x : f.fixes)
          db << FixItHint::CreateReplacement(x.range, x.text);
      }
      for (const Note &n : f.notes)
        diags.Report(n.loc, note) << n.message;
    }
    result_.ran = true;
  }

private:
  LintRunOptions opts_;
  LintResult &result_;
  Preprocessor &pp_;
};

class LintFrontendAction : public ASTFrontendAction {
public:
  LintFrontendAction(LintRunOptions opts, std::map<std::string, LintResult> &results)
      : opts_(opts), results_(results) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci, StringRef file) override {
    // Keyed by the real path when the file manager knows it (database entries give names
    // relative to their directory, which the driver cannot compare with its inputs).
    std::string key = file.str();
    if (auto fe = ci.getFileManager().getOptionalFileRef(file))
      if (!fe->getFileEntry().tryGetRealPathName().empty())
        key = fe->getFileEntry().tryGetRealPathName().str();
    LintResult &r = results_[key];
    r = LintResult{};
    return std::make_unique<LintConsumer>(opts_, r, ci.getPreprocessor());
  }

private:
  LintRunOptions opts_;
  std::map<std::string, LintResult> &results_;
};

class Factory : public tooling::FrontendActionFactory {
public:
  Factory(LintRunOptions opts, std::map<std::string, LintResult> &results)
      : opts_(opts), results_(results) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<LintFrontendAction>(opts_, results_);
  }

private:
  LintRunOptions opts_;
  std::map<std::string, LintResult> &results_;
};

} // namespace

std::unique_ptr<tooling::FrontendActionFactory>
newLintActionFactory(LintRunOptions options, std::map<std::string, LintResult> &results) {
  return std::make_unique<Factory>(options, results);
}

} // namespace tempi::lint

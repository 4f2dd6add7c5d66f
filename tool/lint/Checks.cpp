/// \file
/// The registry of tempi-lint checks (names are a stable interface: tests, docs pages, SARIF rule
/// ids and CI suppressions use them) and runChecks(), which runs them all in registry order.
#include "tool/lint/CheckContext.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

using namespace clang;

namespace tempi::lint {

const std::vector<CheckInfo> &allChecks() {
  static const std::vector<CheckInfo> checks = {
      {"non-canonical-type",
       "a chain of datatype constructors that one simpler constructor call builds exactly"},
      {"duplicate-layout", "the same datatype layout built twice under different names in one file"},
      {"unresolved-datatype",
       "a datatype argument of a communication call the compiler cannot resolve statically"},
      {"invalid-datatype", "a constructor chain MPI would reject (the reason is the translator's)"},
      {"gpu-tiny-blocks", "a datatype of 1- or 2-byte blocks, slow on a GPU whatever the library"},
      {"gpu-nearly-regular",
       "an irregular block list that is regular except for a few blocks (block-list kernel)"},
      {"gpu-many-dims",
       "a canonical shape with more strided dimensions than a GPU grid maps (loops in the kernel)"},
      {"device-buffer-to-mpi",
       "device memory passed to an MPI that is not CUDA-aware in a program built without TEMPI"},
  };
  return checks;
}

const CheckInfo *findCheck(const std::string &name) {
  for (const CheckInfo &c : allChecks())
    if (name == c.name)
      return &c;
  return nullptr;
}

std::string helpUri(const CheckInfo &check) {
  return std::string("https://github.com/tempi-project/tempi/blob/main/docs/lint/") + check.name +
         ".md";
}

std::string CheckContext::lineOf(SourceLocation loc) const {
  const SourceManager &sm = ctx.getSourceManager();
  return "line " + std::to_string(sm.getExpansionLineNumber(loc));
}

Finding findingAt(const char *name, const Expr *e, std::string message, ASTContext &ctx) {
  Finding f;
  f.check = findCheck(name);
  const SourceManager &sm = ctx.getSourceManager();
  f.loc = sm.getFileLoc(e->getExprLoc());
  if (const auto *call = dyn_cast<CallExpr>(e))
    f.loc = sm.getFileLoc(call->getCallee()->getExprLoc());
  f.range = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(e->getSourceRange()), sm,
                                     ctx.getLangOpts());
  f.message = std::move(message);
  return f;
}

std::vector<Finding> runChecks(ASTContext &ctx, const LintOptions &options) {
  std::vector<ConstructorSite> constructors = collectConstructorSites(ctx);
  frontend::Analysis analysis = frontend::analyze(ctx, nullptr, nullptr, options.wholeProgram);
  CheckContext c{ctx, constructors, analysis, options};
  std::vector<Finding> out;
  checkNonCanonicalType(c, out);
  checkDuplicateLayout(c, out);
  checkUnresolvedDatatype(c, out);
  checkInvalidDatatype(c, out);
  checkGpuShapes(c, out);
  checkDeviceBuffers(c, out);
  std::erase_if(out, [&](const Finding &f) {
    return std::find(options.disabled.begin(), options.disabled.end(), f.check->name) !=
           options.disabled.end();
  });
  const SourceManager &sm = ctx.getSourceManager();
  std::stable_sort(out.begin(), out.end(), [&](const Finding &a, const Finding &b) {
    return sm.isBeforeInTranslationUnit(a.loc, b.loc);
  });
  return out;
}

} // namespace tempi::lint

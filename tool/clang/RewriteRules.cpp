/// \file
/// The Transformer rule of every communication call and the driver that collects its edits.
#include "tool/clang/RewriteRules.h"

#include "passes/StridedBlock.h"
#include "passes/TextForm.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Tooling/Transformer/RangeSelector.h"
#include "clang/Tooling/Transformer/Stencil.h"
#include "clang/Tooling/Transformer/Transformer.h"

#include <map>
#include <set>

using namespace clang;
using namespace clang::ast_matchers;
using namespace clang::transformer;

namespace tempi::frontend {

namespace {

/// A site whose text the rule edits: rewritten, and not through a shadow macro (collectEdits).
AST_MATCHER_P(CallExpr, isEditedSite, const Analysis *, analysis) {
  const CallSite *s = analysis->siteFor(&Node);
  return s && s->rewritten() && !s->shadow;
}

const CallSite &siteOf(const Analysis &a, const MatchFinder::MatchResult &r) {
  return *a.siteFor(r.Nodes.getNodeAs<CallExpr>("call"));
}

/// The closing parenthesis of the bound call, where it is spelled (also inside a macro
/// argument: MPI_CHECK(MPI_Send(...))).
RangeSelector closingParen() {
  return [](const MatchFinder::MatchResult &r) -> llvm::Expected<CharSourceRange> {
    const auto *c = r.Nodes.getNodeAs<CallExpr>("call");
    if (!c)
      return llvm::createStringError(llvm::inconvertibleErrorCode(), "no call bound");
    SourceLocation rp = r.SourceManager->getFileLoc(c->getRParenLoc());
    return CharSourceRange::getCharRange(rp, rp);
  };
}

} // namespace

std::string rewrittenName(const CallSite &site) {
  return site.deferred() ? site.spec->deferredName : site.spec->tempiName;
}

std::string nullPointer(const LangOptions &lang, StringRef type, StringRef inC) {
  if (lang.CPlusPlus11)
    return "nullptr";
  if (lang.CPlusPlus)
    return "static_cast<" + type.str() + ">(0)";
  return inC.str();
}

std::string planArguments(const CallSite &site, const LangOptions &lang) {
  // The argument of a datatype without a plan compiles with the user's flags, as the plans do
  // (RewriteAction); in C it is cast, so the argument has the parameter's type.
  const std::string noPlan =
      ", " + nullPointer(lang, "const tempi_static_plan *", "(const tempi_static_plan *)0");
  std::string s;
  for (const DatatypeArg &arg : site.args) {
    if (arg.ignored && arg.isArray) // MPI_IN_PLACE: no send plans
      s += ", " + nullPointer(lang, "const tempi_static_plan *const *",
                              "(const tempi_static_plan *const *)0");
    else if (arg.ignored)
      s += noPlan;
    else if (arg.isArray) // the file-scope array of the elements' plans (RewriteAction)
      s += ", " + arg.plansSymbol;
    else if (arg.indexed()) // the plan chosen by the datatype's own index
      s += ", " + arg.plansSymbol + "[" + arg.indexText + "]";
    else
      s += arg.hasPlan() ? ", &" + arg.planSymbol : noPlan;
  }
  return s;
}

std::string rewriteExplanation(const CallSite &site) {
  std::string s = std::string(site.spec->name) + " -> " + rewrittenName(site) + ":";
  for (const DatatypeArg &arg : site.args) {
    if (arg.ignored) {
      s += " '" + arg.spelling + "' is ignored with MPI_IN_PLACE;";
      continue;
    }
    if (arg.isArray || arg.indexed()) {
      if (arg.indexed())
        s += " '" + arg.spelling + "' takes its plan by the same index, " + arg.plansSymbol +
             "[" + arg.indexText + "]";
      else
        s += " '" + arg.spelling + "' has plans " + arg.plansSymbol;
      if (arg.isArray && &arg != &site.args.front() &&
          arg.spelling == site.args.front().spelling &&
          arg.plansSymbol == site.args.front().plansSymbol) {
        s += " (the same array);"; // sendtypes and recvtypes are one array
        continue;
      }
      s += " {";
      for (size_t k = 0; k < arg.elements.size(); ++k) {
        const DatatypeArg &el = arg.elements[k];
        s += (k ? "; " : "") + el.spelling + ": ";
        if (el.hasPlan())
          s += printExpr(*el.expr) + ", canonical " + printStrided(*el.shape) + ", plan " +
               el.planSymbol;
        else if (el.predefined)
          s += printExpr(*el.expr) + ", predefined, no plan";
        else
          s += printExpr(*el.expr) + ", no static plan (" + el.why.reason + ")";
      }
      s += "};";
      continue;
    }
    s += " '" + arg.spelling + "'";
    if (arg.hasPlan())
      s += " holds " + printExpr(*arg.expr) + ", canonical " + printStrided(*arg.shape) +
           ", plan " + arg.planSymbol + ";";
    else
      s += " has no static plan (" + arg.why.reason + ");";
  }
  if (site.deferred())
    s += " deferred: " + site.deferral->detail + ";";
  if (!s.empty() && s.back() == ';')
    s.pop_back();
  return s;
}

RewriteRuleWith<std::string> commCallRule(const Analysis &analysis) {
  const Analysis *a = &analysis;
  // The texts come from the site (rewrittenName, planArguments, rewriteExplanation), which the
  // shadow macros of collectEdits use too.
  Stencil newName = run([a](const MatchFinder::MatchResult &r) -> llvm::Expected<std::string> {
    return rewrittenName(siteOf(*a, r));
  });
  Stencil plans = run([a](const MatchFinder::MatchResult &r) -> llvm::Expected<std::string> {
    return planArguments(siteOf(*a, r), r.Context->getLangOpts());
  });
  Stencil explain = run([a](const MatchFinder::MatchResult &r) -> llvm::Expected<std::string> {
    return rewriteExplanation(siteOf(*a, r));
  });
  auto calleeRef = callee(ast_matchers::expr(ignoringParenImpCasts(declRefExpr().bind("fn"))));
  return makeRule(callExpr(calleeRef, isEditedSite(a)).bind("call"),
                  {changeTo(name("fn"), newName), insertBefore(closingParen(), plans)}, explain);
}

llvm::Expected<std::vector<SiteEdit>> collectEdits(ASTContext &ctx, const Analysis &analysis) {
  SourceManager &sm = ctx.getSourceManager();
  std::vector<SiteEdit> edits;
  std::set<std::string> seen; // dedupe by replacement location and text
  llvm::Error err = llvm::Error::success();
  bool failed = false;
  tooling::Transformer t(
      commCallRule(analysis),
      [&](llvm::Expected<tooling::TransformerResult<std::string>> r) {
        if (!r) {
          if (!failed)
            llvm::consumeError(std::move(err));
          failed = true;
          err = r.takeError();
          return;
        }
        SiteEdit e;
        e.explanation = r->Metadata;
        std::string key;
        for (const tooling::AtomicChange &c : r->Changes) {
          for (const tooling::Replacement &rep : c.getReplacements()) {
            key += rep.toString() + "\n";
            e.replacements.push_back(rep);
          }
          if (!e.loc.isValid())
            e.loc = sm.getLocForStartOfFile(sm.getMainFileID())
                        .getLocWithOffset(e.replacements.empty() ? 0
                                                                 : e.replacements[0].getOffset());
        }
        if (e.replacements.empty() || !seen.insert(key).second)
          return;
        edits.push_back(std::move(e));
      });
  MatchFinder finder;
  t.registerMatchers(&finder);
  // The rule only matches rewritten sites, so run it on those calls alone instead of traversing
  // the whole translation unit (this keeps tempi-rewrite within 1.5x of clang -fsyntax-only).
  for (const CallSite &site : analysis.sites) {
    if (!site.rewritten())
      continue;
    if (!site.shadow) {
      finder.match(*site.call, ctx);
      continue;
    }
    // No text edit: RewriteAction defines the shadow macro from the same texts the rule uses.
    SiteEdit e;
    e.loc = sm.getFileLoc(site.call->getCallee()->getExprLoc());
    e.explanation = rewriteExplanation(site) + "; through a macro that shadows " +
                    site.spec->name + " on the lines of its macro invocation" +
                    (site.namePassed ? " (the name is passed to the macro)"
                                     : ", which stringifies the call");
    e.shadow = &site;
    edits.push_back(std::move(e));
  }
  if (failed)
    return std::move(err);
  llvm::consumeError(std::move(err));
  std::sort(edits.begin(), edits.end(), [&sm](const SiteEdit &x, const SiteEdit &y) {
    return sm.getFileOffset(x.loc) < sm.getFileOffset(y.loc);
  });
  return edits;
}

} // namespace tempi::frontend

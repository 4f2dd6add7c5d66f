/// \file
/// collectConstructorSites(): walks every function body (template instantiations and lambdas
/// included), resolves each MPI datatype constructor call of the main file with the front end's
/// DatatypeResolver and canonicalizes the chains it proves. See ConstructorSites.h.
#include "tool/lint/ConstructorSites.h"

#include "tool/clang/DatatypeResolver.h"
#include "tool/clang/Evaluator.h"
#include "tool/clang/Flow.h"

#include "passes/PassRegistry.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <map>
#include <memory>

using namespace clang;

namespace tempi::lint {

namespace {

class Collector : public RecursiveASTVisitor<Collector> {
public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseDecl(Decl *d) {
    auto *fd = dyn_cast_or_null<FunctionDecl>(d);
    bool isFn = fd && fd->doesThisDeclarationHaveABody();
    if (isFn) {
      stack_.push_back(fd->isDependentContext() ? nullptr : fd);
      inst_.push_back((!inst_.empty() && inst_.back()) || fd->isTemplateInstantiation() ||
                      fd->getTemplateInstantiationPattern() != nullptr);
    }
    bool r = RecursiveASTVisitor::TraverseDecl(d);
    if (isFn) {
      stack_.pop_back();
      inst_.pop_back();
    }
    return r;
  }
  bool TraverseLambdaExpr(LambdaExpr *l) {
    const CXXMethodDecl *op = l->getCallOperator();
    stack_.push_back(op && !op->isDependentContext() ? op : nullptr);
    inst_.push_back(!inst_.empty() && inst_.back());
    bool r = RecursiveASTVisitor::TraverseLambdaExpr(l);
    stack_.pop_back();
    inst_.pop_back();
    return r;
  }
  bool VisitCallExpr(CallExpr *c) {
    if (!stack_.empty() && stack_.back())
      calls.push_back({c, stack_.back(), inst_.back()});
    return true;
  }
  struct Call {
    const CallExpr *call;
    const Decl *fn;
    bool inInstantiation;
  };
  std::vector<Call> calls;

private:
  std::vector<const Decl *> stack_;
  std::vector<bool> inst_;
};

std::string calleeName(const CallExpr *c) {
  if (const FunctionDecl *fd = c->getDirectCallee())
    if (fd->getIdentifier())
      return fd->getName().str();
  return "";
}

} // namespace

std::vector<ConstructorSite> collectConstructorSites(ASTContext &ctx) {
  SourceManager &sm = ctx.getSourceManager();
  Collector col;
  col.TraverseDecl(ctx.getTranslationUnitDecl());
  std::map<const Decl *, std::unique_ptr<frontend::FunctionFlow>> flows;
  std::map<SourceLocation, size_t> seen;
  std::vector<ConstructorSite> out;
  for (auto [call, fn, inInstantiation] : col.calls) {
    const frontend::ConstructorSpec *spec = frontend::findConstructor(calleeName(call));
    if (!spec || spec->args.size() != call->getNumArgs())
      continue;
    SourceLocation key = sm.getFileLoc(call->getCallee()->getExprLoc());
    if (!sm.isInMainFile(key) || seen.count(key))
      continue;
    seen[key] = out.size();
    ConstructorSite site;
    site.call = call;
    site.spec = spec;
    site.inInstantiation = inInstantiation;
    for (size_t i = 0; i < spec->args.size(); ++i)
      if (spec->args[i].role == frontend::ArgRole::NewType) {
        site.output = spelledText(call->getArg(static_cast<unsigned>(i)), ctx);
        StringRef v = StringRef(site.output).trim();
        if (v.consume_front("&"))
          v = v.trim();
        site.variable = v.str();
      }
    site.callRange = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(call->getSourceRange()), sm, ctx.getLangOpts());
    site.editable = site.callRange.isValid() && sm.isInMainFile(site.callRange.getBegin()) &&
                    !site.output.empty();

    auto &flow = flows[fn];
    if (!flow)
      flow = frontend::FunctionFlow::build(fn, ctx);
    frontend::Evaluator ev(ctx, *flow);
    frontend::DatatypeResolver resolver(ev);
    if (std::optional<frontend::Point> at = ev.pointOf(call)) {
      frontend::Unresolved why;
      site.expr = resolver.fromConstructor(call, *spec, *at, why);
    }
    if (site.expr) {
      Result<IRPtr> ir = translate(*site.expr);
      if (!ir) {
        site.invalid = ir.error();
      } else {
        site.canonical = canonicalize(*ir);
        site.shape = toStridedBlock(*site.canonical);
      }
    }
    out.push_back(std::move(site));
  }
  std::stable_sort(out.begin(), out.end(), [&](const ConstructorSite &a, const ConstructorSite &b) {
    return sm.isBeforeInTranslationUnit(sm.getFileLoc(a.call->getBeginLoc()),
                                        sm.getFileLoc(b.call->getBeginLoc()));
  });
  return out;
}

} // namespace tempi::lint

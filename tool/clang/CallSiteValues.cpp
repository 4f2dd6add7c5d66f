/// \file
/// CallSiteValues: the one value every call passes to a parameter (see the header).
#include "tool/clang/CallSiteValues.h"

#include "tool/clang/Evaluator.h"
#include "tool/clang/TranslationUnitScan.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace tempi::frontend {

namespace {

/// Every reference to a function: a direct call's callee, or anything else (its address taken,
/// named by a template's unresolved call), with the function the reference is in.
class FunctionReferences : public EnclosingFunctionVisitor<FunctionReferences> {
public:
  struct Ref {
    const FunctionDecl *callee;
    const CallExpr *call; ///< null: not a direct call's callee
    const FunctionDecl *in;
    SourceLocation loc;
  };
  explicit FunctionReferences(ASTContext &ctx) : ctx_(ctx) {}
  bool VisitDeclRefExpr(DeclRefExpr *d) {
    const auto *fd = dyn_cast<FunctionDecl>(d->getDecl());
    if (!fd)
      return true;
    refs.push_back({fd->getCanonicalDecl(), directCallOf(d), currentFunction(), d->getBeginLoc()});
    return true;
  }
  bool VisitOverloadExpr(OverloadExpr *e) {
    for (const NamedDecl *nd : e->decls())
      if (const auto *fd = dyn_cast<FunctionDecl>(nd->getUnderlyingDecl()))
        refs.push_back({fd->getCanonicalDecl(), nullptr, currentFunction(), e->getBeginLoc()});
    return true;
  }
  std::vector<Ref> refs;

private:
  /// The call whose callee `d` is (through parentheses and the decay to a pointer), or null.
  const CallExpr *directCallOf(const DeclRefExpr *d) {
    const Stmt *child = nullptr;
    const auto *call = dyn_cast_or_null<CallExpr>(parentAboveParensAndCasts(d, child, ctx_));
    return call && call->getCallee() == child ? call : nullptr;
  }
  ASTContext &ctx_;
};

} // namespace

void CallSiteValues::scan() {
  scanned_ = true;
  FunctionReferences refs(ctx_);
  refs.TraverseDecl(ctx_.getTranslationUnitDecl());
  const SourceManager &sm = ctx_.getSourceManager();
  for (const FunctionReferences::Ref &r : refs.refs) {
    Calls &c = calls_[r.callee];
    if (r.call) {
      c.sites.push_back({r.call, r.in});
    } else if (c.hidden.reason.empty()) {
      c.hidden = {"whose address is taken on " + lineOf(r.loc, sm), r.loc};
      if (r.in && r.in->isDependentContext())
        c.hidden.reason = "which a template calls on " + lineOf(r.loc, sm);
    }
  }
}

std::string CallSiteValues::unseenCallers(const FunctionDecl *fd) {
  if (isa<CXXMethodDecl>(fd))
    return "a member function (its calls are not followed)";
  if (fd->getTemplatedKind() != FunctionDecl::TK_NonTemplate)
    return "a template or an instance of one (its calls are not followed)";
  if (fd->isVariadic() || !fd->hasPrototype())
    return fd->isVariadic() ? "which is variadic" : "which has no prototype";
  if (fd->isExternallyVisible()) {
    if (!files_.wholeProgram())
      return "which another file may call (it is not static)";
    // In a whole program, a library may still call a function of the program that takes the
    // place of one of its own (an MPI profiling wrapper, a replacement for a C library
    // function): one declared in a system header, or with an MPI name, is not followed.
    const SourceManager &sm = ctx_.getSourceManager();
    std::string name = fd->getIdentifier() ? fd->getName().str() : std::string();
    bool systemDeclared = false;
    for (const FunctionDecl *rd : fd->redecls())
      systemDeclared = systemDeclared || sm.isInSystemHeader(rd->getLocation());
    if (systemDeclared || name.rfind("MPI_", 0) == 0 || name.rfind("PMPI_", 0) == 0)
      return "which a library may call (it is declared by a system header or has an MPI name)";
  }
  return "";
}

std::optional<std::vector<CallSiteValues::Site>>
CallSiteValues::callsPassing(const ParmVarDecl *p, Unresolved &why) {
  const auto *fd = dyn_cast<FunctionDecl>(p->getDeclContext());
  SourceLocation loc = p->getLocation();
  auto refuse = [&](std::string reason, SourceLocation where) {
    why = {std::move(reason), where};
    return std::nullopt;
  };
  // main's parameters come from the command line: nothing to add to "a parameter of 'main'".
  // A reference may be written through; a struct of datatypes' is checked by its reader
  // (DatatypeResolver::fromRecordCallSites).
  if (!fd || fd->isMain() || p->getType().isVolatileQualified() ||
      (p->getType()->isReferenceType() && !datatypeRecordOf(p)))
    return refuse("", loc);
  if (std::string u = unseenCallers(fd); !u.empty())
    return refuse(", " + u, fd->getLocation());
  if (!scanned_)
    scan();
  const Calls &calls = calls_[fd->getCanonicalDecl()];
  if (!calls.hidden.reason.empty())
    return refuse(", " + calls.hidden.reason, calls.hidden.loc);
  if (calls.sites.empty())
    return refuse(", which is never called in this file", fd->getLocation());
  const SourceManager &sm = ctx_.getSourceManager();
  const FunctionFlow &own = files_.flowOf(fd->getDefinition() ? fd->getDefinition() : fd);
  if (std::vector<const VarEvent *> ev = own.eventsFor(p, std::nullopt); !ev.empty())
    return refuse(", which is modified on " + lineOf(ev.front()->loc, sm), ev.front()->loc);
  unsigned index = p->getFunctionScopeIndex();
  std::vector<Site> out;
  for (auto [call, caller] : calls.sites) {
    std::string at = lineOf(call->getBeginLoc(), sm);
    if (!caller || caller->isDependentContext())
      return refuse(", which is called on " + at + " from a lambda, a block or a template",
                    call->getBeginLoc());
    if (index >= call->getNumArgs() || isa<CXXDefaultArgExpr>(call->getArg(index)))
      return refuse(", which is called on " + at + " without that argument", call->getBeginLoc());
    const FunctionFlow &flow = files_.flowOf(caller);
    std::optional<CfgPos> pos = flow.hasCfg() ? flow.position(call) : std::nullopt;
    if (!pos)
      return refuse(", which is called on " + at + " where the tool cannot place the call",
                    call->getBeginLoc());
    out.push_back({call, caller, call->getArg(index), Point{*pos, call->getBeginLoc()}});
  }
  return out;
}

bool CallSiteValues::nested(const ParmVarDecl *p, const std::function<void()> &f) {
  if (nesting_ >= kMaxNesting || inProgress_.count(p))
    return false;
  inProgress_.insert(p);
  ++nesting_;
  f();
  --nesting_;
  inProgress_.erase(p);
  return true;
}

std::optional<int64_t> CallSiteValues::valueOf(const ParmVarDecl *p, Unresolved &why) {
  if (!p->getType()->isIntegralOrEnumerationType()) {
    why = {"", p->getLocation()};
    return std::nullopt;
  }
  std::optional<std::vector<Site>> sites = callsPassing(p, why);
  if (!sites)
    return std::nullopt;
  const SourceManager &sm = ctx_.getSourceManager();
  std::optional<int64_t> value;
  const Site *first = nullptr;
  bool ran = nested(p, [&] {
    for (const Site &s : *sites) {
      std::string at = lineOf(s.call->getBeginLoc(), sm);
      Evaluator ev(ctx_, files_.flowOf(s.caller), nullptr, this);
      Unresolved w;
      std::optional<int64_t> v = ev.evalInt(s.arg, s.at, w);
      if (!v) {
        why = {", whose argument on " + at + " " + w.reason, w.loc};
        value.reset();
        return;
      }
      if (value && *v != *value) {
        why = {", which is called with " + std::to_string(*value) + " on " +
                   lineOf(first->call->getBeginLoc(), sm) + " and " + std::to_string(*v) +
                   " on " + at,
               s.call->getBeginLoc()};
        value.reset();
        return;
      }
      value = v;
      first = &s;
    }
  });
  if (!ran)
    why = {", whose callers pass it on too deeply (or recursively)", p->getLocation()};
  return value;
}

} // namespace tempi::frontend

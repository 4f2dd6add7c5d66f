/// \file
/// DatatypeResolver: from a datatype expression to its constructor tree (see the header for what
/// is proven and what is refused).
#include "tool/clang/DatatypeResolver.h"

#include "tool/clang/CallSiteValues.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace tempi::frontend {

namespace {
constexpr int kMaxDepth = 32;
constexpr int kMaxHelperDepth = 4; ///< helpers followed inside one another
constexpr int64_t kMaxArray = 4096; ///< longest constructor array the tool reads

std::string nameOf(const DeclContext *dc) {
  if (const auto *fd = dyn_cast_or_null<FunctionDecl>(dc))
    return fd->getNameAsString();
  return "its function";
}

/// A function's name for a remark. A conversion function's DeclarationName holds the canonical
/// type ('operator int' for MPICH's MPI_Datatype); its declared return type keeps the user's
/// spelling ('operator MPI_Datatype').
std::string functionName(const FunctionDecl *fd) {
  if (const auto *conv = dyn_cast<CXXConversionDecl>(fd)) {
    PrintingPolicy pp(fd->getASTContext().getLangOpts());
    return "operator " + conv->getConversionType().getAsString(pp);
  }
  return fd->getNameAsString();
}

std::string calleeName(const CallExpr *c) {
  if (const FunctionDecl *fd = c->getDirectCallee())
    return functionName(fd);
  return "";
}


/// What a helper's body holds: its return statements, calls and variable references (not those
/// of lambdas or blocks inside it, which are other functions).
class BodyScan : public RecursiveASTVisitor<BodyScan> {
public:
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseBlockExpr(BlockExpr *) { return true; }
  bool VisitReturnStmt(ReturnStmt *r) {
    returns.push_back(r);
    return true;
  }
  bool VisitCallExpr(CallExpr *c) {
    calls.push_back(c);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *d) {
    refs.push_back(d);
    return true;
  }
  std::vector<const ReturnStmt *> returns;
  std::vector<const CallExpr *> calls;
  std::vector<const DeclRefExpr *> refs;
};

/// Whether the file being rewritten declares `vd` itself. The standard reserves the MPI_ prefix,
/// so a global of that name declared elsewhere is taken for one the MPI predefines; but real
/// programs name their own datatypes so (`MPI_Datatype MPI_Particle;`), and those are followed
/// like any other global.
bool declaredInMainFile(const VarDecl *vd, const SourceManager &sm) {
  for (const VarDecl *r : vd->redecls())
    if (sm.isInMainFile(sm.getExpansionLoc(r->getLocation())))
      return true;
  return false;
}

/// "'t' is reassigned on line 9" -> "'t' in 'make' is reassigned on line 9";
/// "count depends on 'n'" -> "'t' in 'make': count depends on 'n'".
std::string inHelper(const std::string &reason, const std::string &var, const std::string &fn) {
  std::string prefix = "'" + var + "' ";
  if (reason.rfind(prefix, 0) == 0)
    return prefix + "in '" + fn + "' " + reason.substr(prefix.size());
  return prefix + "in '" + fn + "': " + reason;
}
} // namespace

TypeExprPtr DatatypeResolver::resolve(const Expr *e, Point at, Unresolved &why, int depth) {
  if (depth > kMaxDepth) {
    why = {"the datatype chain is too deep (or refers to itself)", e->getBeginLoc()};
    return nullptr;
  }
  SourceLocation loc = e->getBeginLoc();
  for (const std::string &s : ev_.spellings(e)) {
    if (s == "MPI_DATATYPE_NULL") {
      why = {"the datatype is MPI_DATATYPE_NULL", loc};
      return nullptr;
    }
    if (findNamedType(s))
      return expr::named(s);
  }
  const Expr *inner = e->IgnoreParenImpCasts();
  if (const auto *d = dyn_cast<DeclRefExpr>(inner)) {
    const auto *vd = dyn_cast<VarDecl>(d->getDecl());
    std::string name = d->getDecl()->getNameAsString();
    if (!vd) {
      why = {"'" + name + "' is not a variable", loc};
      return nullptr;
    }
    if (name.rfind("MPI_", 0) == 0 && !vd->hasLocalStorage() &&
        !declaredInMainFile(vd, ev_.context().getSourceManager())) {
      why = {"'" + name + "' is not a predefined datatype the tool knows", loc};
      return nullptr;
    }
    if (isa<ParmVarDecl>(vd)) {
      // A helper's MPI_Datatype parameter bound to the call's proven argument.
      if (const Bindings *b = ev_.bindings()) {
        if (auto it = b->types.find(vd); it != b->types.end()) {
          if (ev_.flow().eventsFor(vd, std::nullopt).empty())
            return it->second;
        } else if (auto u = b->unbound.find(vd); u != b->unbound.end()) {
          why = {"'" + name + "' comes from a parameter of '" + nameOf(vd->getDeclContext()) +
                     "' whose argument " + u->second.reason,
                 u->second.loc};
          return nullptr;
        }
      }
      if (!ev_.bindings() && ev_.calls())
        return fromCallSites(cast<ParmVarDecl>(vd), loc, why, depth);
      why = {"'" + name + "' comes from a parameter of '" + nameOf(vd->getDeclContext()) + "'",
             loc};
      return nullptr;
    }
    if (capturedByLambdaOrBlock(d, ev_.context())) {
      why = {"'" + name + "' is captured from an enclosing function", loc};
      return nullptr;
    }
    if (!vd->hasLocalStorage()) {
      if (files_)
        return fromFileScope(vd, why, depth);
      why = {"'" + name + "' is " + (vd->isStaticLocal() ? "a static variable" : "a global variable"),
             loc};
      return nullptr;
    }
    if (vd->getType()->isReferenceType()) {
      why = {"'" + name + "' is a reference", loc};
      return nullptr;
    }
    std::optional<SlotDefinition> def = ev_.slotDefinition(vd, std::nullopt, at, why);
    if (!def)
      return nullptr;
    return fromDefinition(*def, name, why, depth);
  }
  if (const auto *ase = dyn_cast<ArraySubscriptExpr>(inner)) {
    const Expr *base = ase->getBase()->IgnoreParenImpCasts();
    const auto *d = dyn_cast<DeclRefExpr>(base);
    const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    if (const auto *me = dyn_cast<MemberExpr>(base)) {
      Unresolved idxWhy;
      std::optional<int64_t> idx = ev_.evalInt(ase->getIdx(), at, idxWhy);
      if (!idx) {
        why = {"the index into '" + spelledText(me, ev_.context()) + "' " + idxWhy.reason,
               idxWhy.loc};
        return nullptr;
      }
      return fromMember(me, *idx, at, why, depth);
    }
    if (!vd || !vd->getType()->isArrayType()) {
      why = {"the datatype is read through a pointer", loc};
      return nullptr;
    }
    const bool fileScope = isFileScopeArray(vd);
    if ((!vd->hasLocalStorage() && !fileScope) || isa<ParmVarDecl>(vd)) {
      why = {"'" + vd->getNameAsString() + "' is not a local array", loc};
      return nullptr;
    }
    Unresolved idxWhy;
    std::optional<int64_t> idx = ev_.evalInt(ase->getIdx(), at, idxWhy);
    if (!idx) {
      why = {"the index into '" + vd->getNameAsString() + "' " + idxWhy.reason, idxWhy.loc};
      return nullptr;
    }
    return fromSlot(vd, *idx, at, why, depth);
  }
  if (const auto *me = dyn_cast<MemberExpr>(inner))
    return fromMember(me, std::nullopt, at, why, depth);
  if (const auto *call = dyn_cast<CallExpr>(inner))
    return fromHelperCall(call, at, why, depth);
  for (const std::string &s : ev_.spellings(e)) {
    if (s == "MPI_UB" || s == "MPI_LB") {
      why = {"'" + s + "' is MPI-1's bound marker (removed in MPI-3), which the tool leaves to "
                       "the MPI",
             loc};
      return nullptr;
    }
    if (s.rfind("MPI_", 0) == 0) {
      why = {"'" + s + "' is not a predefined datatype the tool knows", loc};
      return nullptr;
    }
  }
  why = {"the datatype expression is not a variable or a predefined type", loc};
  return nullptr;
}

const FunctionDecl *DatatypeResolver::followableHelper(const CallExpr *call,
                                                       const Refuse &refuse) {
  SourceLocation loc = call->getBeginLoc();
  const FunctionDecl *callee = call->getDirectCallee();
  if (helpers_ && helpers_->depth >= kMaxHelperDepth) {
    std::string chain;
    for (const HelperChain *h = helpers_; h; h = h->outer)
      chain += std::string(chain.empty() ? "'" : " in '") + h->fn->getNameAsString() + "'";
    refuse("inside helper " + chain + " (" + std::to_string(kMaxHelperDepth) +
               " levels of helpers are followed)",
           loc);
    return nullptr;
  }
  for (const HelperChain *h = helpers_; h; h = h->outer)
    if (callee->getCanonicalDecl() == h->fn->getCanonicalDecl()) {
      refuse("which calls back into '" + h->fn->getNameAsString() + "' (recursion)", loc);
      return nullptr;
    }
  if (isa<CXXOperatorCallExpr>(call)) {
    refuse("which is an operator", loc);
    return nullptr;
  }
  const FunctionDecl *def = nullptr;
  if (!callee->hasBody(def) || !def || !def->doesThisDeclarationHaveABody()) {
    refuse("which is not defined in this file", loc);
    return nullptr;
  }
  SourceLocation defLoc = def->getLocation();
  if (def->isVariadic()) {
    refuse("which is variadic", defLoc);
    return nullptr;
  }
  if (const auto *md = dyn_cast<CXXMethodDecl>(def); md && md->isVirtual()) {
    refuse("which is virtual", defLoc);
    return nullptr;
  }
  // Without a prototype at the call, arguments are promoted, not converted to the parameters.
  if (!def->hasPrototype() || !callee->hasPrototype()) {
    refuse("which has no prototype", callee->hasPrototype() ? defLoc : loc);
    return nullptr;
  }
  return def;
}

bool DatatypeResolver::argumentsFitNoRecursion(const FunctionDecl *def, const CallExpr *call,
                                               const std::vector<const CallExpr *> &calls,
                                               const Refuse &refuse) {
  if (call->getNumArgs() != def->getNumParams()) {
    refuse("with " + std::to_string(call->getNumArgs()) + " arguments for " +
               std::to_string(def->getNumParams()) + " parameters",
           call->getBeginLoc());
    return false;
  }
  for (const CallExpr *c : calls)
    if (const FunctionDecl *f = c->getDirectCallee();
        f && f->getCanonicalDecl() == def->getCanonicalDecl()) {
      refuse("which calls itself on " + lineOf(c->getBeginLoc(), ev_.context().getSourceManager()),
             c->getBeginLoc());
      return false;
    }
  return true;
}

std::unique_ptr<FunctionFlow> DatatypeResolver::bindHelper(const FunctionDecl *def,
                                                           const CallExpr *call, Point at,
                                                           int depth, Bindings &b,
                                                           const Refuse &refuse,
                                                           const ParmVarDecl *output) {
  ASTContext &ctx = ev_.context();
  const SourceManager &sm = ctx.getSourceManager();
  // The parameters bound to the call's arguments, evaluated in the caller.
  for (unsigned i = 0; i < def->getNumParams(); ++i) {
    const ParmVarDecl *p = def->getParamDecl(i);
    const Expr *arg = call->getArg(i);
    if (p == output)
      continue; // written by the helper, never read as a value (fromHelperOutput checks)
    Unresolved w;
    // MPI_Datatype first: MPICH's handles are ints.
    if (isDatatypeType(p->getType())) {
      if (TypeExprPtr t = resolve(arg, at, w, depth + 1))
        b.types[p] = t;
      else
        b.unbound[p] = {"is unresolved: " + w.reason, w.loc};
    } else if (p->getType()->isIntegralOrEnumerationType()) {
      if (std::optional<int64_t> v = ev_.evalInt(arg, at, w))
        b.ints[p] = *v;
      else
        b.unbound[p] = w;
    } else {
      b.unbound[p] = {"is not bound: only integer and MPI_Datatype parameters are",
                      arg->getBeginLoc()};
    }
  }
  // A struct pointer the helper builds through (fromRecordHelper): its members are tracked.
  const ParmVarDecl *recordOut =
      output && (output->getType()->isPointerType() || output->getType()->isReferenceType()) &&
              datatypeRecordOf(output)
          ? output
          : nullptr;
  std::unique_ptr<FunctionFlow> flow =
      FunctionFlow::build(def, ctx, &b.ints, nullptr, nullptr, recordOut);
  if (!flow->hasCfg()) {
    refuse("whose control flow cannot be analysed", def->getLocation());
    return nullptr;
  }
  // Bound values hold for the whole body only if no parameter is ever written or aliased.
  for (const ParmVarDecl *p : def->parameters()) {
    std::vector<const VarEvent *> events = flow->eventsFor(p, std::nullopt);
    if (events.empty() || p == output)
      continue;
    const VarEvent *e = events.front();
    refuse("whose parameter '" + p->getNameAsString() + "' " +
               (e->kind == VarEvent::Escape ? e->what : std::string("is modified")) + " on " +
               lineOf(e->loc, sm),
           e->loc);
    return nullptr;
  }
  return flow;
}

TypeExprPtr DatatypeResolver::fromCallSites(const ParmVarDecl *p, SourceLocation useLoc,
                                            Unresolved &why, int depth) {
  CallSiteValues &calls = *ev_.calls();
  ASTContext &ctx = ev_.context();
  const SourceManager &sm = ctx.getSourceManager();
  std::string param = "'" + p->getNameAsString() + "' comes from a parameter of '" +
                      nameOf(p->getDeclContext()) + "'";
  Unresolved w;
  std::optional<std::vector<CallSiteValues::Site>> sites = calls.callsPassing(p, w);
  if (!sites) {
    why = {param + w.reason, w.reason.empty() ? useLoc : w.loc};
    return nullptr;
  }
  // Every call's argument proven in its caller, at the call, to one chain.
  TypeExprPtr out;
  const CallSiteValues::Site *first = nullptr;
  bool ran = calls.nested(p, [&] {
    for (const CallSiteValues::Site &s : *sites) {
      Evaluator ev(ctx, calls.files().flowOf(s.caller), nullptr, &calls);
      DatatypeResolver caller(ev, helpers_, files_);
      Unresolved sw;
      TypeExprPtr t = caller.resolve(s.arg, s.at, sw, depth + 1);
      if (!t) {
        why = {param + ", whose argument on " + lineOf(s.call->getBeginLoc(), sm) +
                   " is unresolved: " + sw.reason,
               sw.loc};
        out = nullptr;
        return;
      }
      if (out && !(*out == *t)) {
        why = {param + ", which is called with different datatypes on " +
                   lineOf(first->call->getBeginLoc(), sm) + " and " +
                   lineOf(s.call->getBeginLoc(), sm),
               s.call->getBeginLoc()};
        out = nullptr;
        return;
      }
      out = t;
      first = &s;
    }
  });
  if (!ran)
    why = {param + ", whose callers pass it on too deeply (or recursively)", useLoc};
  return out;
}

TypeExprPtr DatatypeResolver::fromFileScope(const VarDecl *var, Unresolved &why, int depth) {
  std::optional<FileScopeTypes::Builder> b = files_->builderOf(var, why);
  if (!b)
    return nullptr;
  ASTContext &ctx = ev_.context();
  SourceLocation loc = b->call->getBeginLoc();
  std::string built = "'" + var->getNameAsString() + "' is built on " +
                      lineOf(loc, ctx.getSourceManager());
  const FunctionFlow &flow = files_->flowOf(b->function);
  if (!flow.hasCfg()) {
    why = {built + ", in a function whose control flow cannot be analysed", loc};
    return nullptr;
  }
  // The constructor's arguments proven where it stands, with nothing bound: every run of it
  // builds the same datatype.
  Evaluator bev(ctx, flow, nullptr, ev_.calls());
  std::optional<Point> bp = bev.pointOf(b->call);
  if (!bp) {
    why = {built + ", which the tool cannot place in its function's control flow", loc};
    return nullptr;
  }
  DatatypeResolver inner(bev, helpers_, files_);
  Unresolved w;
  TypeExprPtr t = b->spec ? inner.fromConstructor(b->call, *b->spec, *bp, w, depth + 1)
                          : inner.fromHelperOutput(b->call, static_cast<unsigned>(b->output), *bp,
                                                   var->getNameAsString(), w, depth);
  if (!t) {
    // A helper's reasons name the variable already ("'t' is set by 'make', ...").
    why = {b->spec ? built + ": " + w.reason : w.reason, w.loc};
    return nullptr;
  }
  return t;
}

std::optional<DatatypeResolver::MemberSlot>
DatatypeResolver::memberSlot(const MemberExpr *me, Unresolved &why) {
  SourceLocation loc = me->getBeginLoc();
  const std::string member = me->getMemberDecl()->getNameAsString();
  const auto *d = dyn_cast<DeclRefExpr>(me->getBase()->IgnoreParenImpCasts());
  const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  const auto *fd = dyn_cast<FieldDecl>(me->getMemberDecl());
  // `h->m` of a parameter pointing to a struct of datatypes: the helper's own output
  // (fromRecordHelper), or what every call passes (fromMember asks the call sites).
  if (fd && vd && isa<ParmVarDecl>(vd) && datatypeRecordOf(vd) &&
      (me->isArrow() ? vd->getType()->isPointerType() : vd->getType()->isReferenceType()) &&
      !capturedByLambdaOrBlock(d, ev_.context()))
    return MemberSlot{vd, fd};
  if (me->isArrow() || !vd || !fd) {
    const bool self = isa<CXXThisExpr>(me->getBase()->IgnoreParenImpCasts());
    why = {"'" + member + "' is " +
               (self ? std::string("a member of the class, read through 'this'")
                     : me->isArrow() ? std::string("a member reached through a pointer")
                                     : std::string("a member of an object the tool cannot name")) +
               "; only the members of a struct variable are tracked",
           loc};
    return std::nullopt;
  }
  if (vd->getType()->isReferenceType()) {
    why = {"'" + vd->getNameAsString() + "' is a reference", loc};
    return std::nullopt;
  }
  if (!datatypeRecord(vd->getType())) {
    why = {"'" + member + "' is a member of '" + vd->getNameAsString() +
               "', whose type the tool does not track (a C-like struct with MPI_Datatype "
               "members or one-dimensional arrays of them, and no datatype deeper inside)",
           loc};
    return std::nullopt;
  }
  const std::string name = vd->getNameAsString() + "." + member;
  if (isa<ParmVarDecl>(vd)) {
    why = {"'" + name + "' comes from a parameter of '" + nameOf(vd->getDeclContext()) + "'", loc};
    return std::nullopt;
  }
  if (capturedByLambdaOrBlock(d, ev_.context())) {
    why = {"'" + name + "' is captured from an enclosing function", loc};
    return std::nullopt;
  }
  if (!vd->hasLocalStorage() && !files_) {
    why = {"'" + name + "' is a member of " +
               (vd->isStaticLocal() ? "a static variable" : "a global variable"),
           loc};
    return std::nullopt;
  }
  return MemberSlot{vd, fd};
}

TypeExprPtr DatatypeResolver::fromSlot(const VarDecl *vd, int64_t k, Point at, Unresolved &why,
                                       int depth) {
  if (!vd->hasLocalStorage())
    return fromFileScopeElement(vd, k, at, why, depth);
  // A struct pointer parameter other than the one a followed helper builds through: what its
  // callers pass.
  if (const auto *p = dyn_cast<ParmVarDecl>(vd);
      p && (p->getType()->isPointerType() || p->getType()->isReferenceType()) &&
      ev_.flow().recordOut() != p)
    return fromRecordCallSites(p, k, at.loc, why, depth);
  std::optional<SlotDefinition> def = ev_.slotDefinition(vd, k, at, why);
  if (!def)
    return nullptr;
  return fromDefinition(*def, Evaluator::slotName(vd, k), why, depth);
}

TypeExprPtr DatatypeResolver::fromMember(const MemberExpr *me, std::optional<int64_t> index,
                                         Point at, Unresolved &why, int depth) {
  std::optional<MemberSlot> m = memberSlot(me, why);
  if (!m)
    return nullptr;
  const int64_t base = m->field->getFieldIndex() * kMemberStride;
  const bool throughPointer = m->var->getType()->isPointerType();
  const std::string name = m->var->getNameAsString() + (throughPointer ? "->" : ".") +
                           m->field->getNameAsString();
  if (!index) {
    if (!isDatatypeType(m->field->getType())) {
      why = {"'" + name + "' is an array, not a datatype", me->getBeginLoc()};
      return nullptr;
    }
    return fromSlot(m->var, base, at, why, depth);
  }
  std::optional<DatatypeMember> dm = datatypeMember(m->var, base + *index);
  if (!isDatatypeArrayMember(m->field) || *index < 0 || !dm) {
    why = {"'" + name + "[" + std::to_string(*index) + "]' is outside the array",
           me->getBeginLoc()};
    return nullptr;
  }
  return fromSlot(m->var, base + *index, at, why, depth);
}

bool DatatypeResolver::isFileScopeArray(const VarDecl *vd) const {
  return vd && !vd->hasLocalStorage() && files_ &&
         FileScopeTypes::isDatatypeArray(vd->getType(), ev_.context());
}

TypeExprPtr DatatypeResolver::fromFileScopeElement(const VarDecl *var, int64_t k, Point use,
                                                   Unresolved &why, int depth) {
  std::optional<FileScopeTypes::ElementBuilder> b = files_->elementBuilderOf(var, k, why);
  if (!b)
    return nullptr;
  ASTContext &ctx = ev_.context();
  std::string element = Evaluator::slotName(var, k);
  SourceLocation loc = b->event->call->getBeginLoc();
  std::string built = "'" + element + "' is built on " + lineOf(loc, ctx.getSourceManager());
  const FunctionFlow &flow = files_->flowOf(b->function);
  if (!flow.hasCfg()) {
    why = {built + ", in a function whose control flow cannot be analysed", loc};
    return nullptr;
  }
  // As for a variable: the constructor proven where it stands with nothing bound (a counted
  // loop's variable reads as k), so every run of it builds the same datatype.
  Evaluator bev(ctx, flow, nullptr, ev_.calls());
  Unresolved w;
  std::optional<SlotDefinition> def =
      bev.definitionAt(*b->event, var->getCanonicalDecl(), k, use, w);
  TypeExprPtr t;
  if (def) {
    DatatypeResolver inner(bev, helpers_, files_);
    t = inner.fromDefinition(*def, element, w, depth + 1);
  }
  if (!t) {
    why = {built + ": " + w.reason, w.loc};
    return nullptr;
  }
  return t;
}

TypeExprPtr DatatypeResolver::fromHelperCall(const CallExpr *call, Point at, Unresolved &why,
                                             int depth) {
  SourceLocation loc = call->getBeginLoc();
  const FunctionDecl *callee = call->getDirectCallee();
  if (!callee || !callee->getIdentifier()) {
    why = {callee ? "the datatype is returned by a call to '" + functionName(callee) + "'"
                  : std::string("the datatype is returned by an indirect call"),
           loc};
    return nullptr;
  }
  std::string fn = callee->getNameAsString();
  Refuse refuse = [&](std::string reason, SourceLocation where) {
    why = {"the datatype is returned by a call to '" + fn + "', " + reason, where};
  };
  const FunctionDecl *def = followableHelper(call, refuse);
  if (!def)
    return nullptr;
  SourceLocation defLoc = def->getLocation();
  if (def->getReturnType()->isReferenceType()) {
    refuse("which returns a reference", defLoc);
    return nullptr;
  }
  if (!isDatatypeType(def->getReturnType())) {
    refuse("which does not return an MPI_Datatype", defLoc);
    return nullptr;
  }
  BodyScan scan;
  scan.TraverseStmt(def->getBody());
  if (!argumentsFitNoRecursion(def, call, scan.calls, refuse))
    return nullptr;

  ASTContext &ctx = ev_.context();
  const SourceManager &sm = ctx.getSourceManager();

  // Every return statement returns one local variable, a predefined type as spelled
  // (`return MPI_DOUBLE;`, an element-type helper), or another helper's result.
  const VarDecl *result = nullptr;
  if (scan.returns.empty()) {
    refuse("which has no return statement", defLoc);
    return nullptr;
  }
  auto predefined = [&](const Expr *v) {
    for (const std::string &n : Evaluator::spellingsOf(v, ctx))
      if (findNamedType(n))
        return true;
    return false;
  };
  for (const ReturnStmt *r : scan.returns) {
    const Expr *v = r->getRetValue();
    if (v && predefined(v))
      continue;
    const Expr *ret = v ? v->IgnoreParenImpCasts() : nullptr;
    // Another call's result handed on (`return columns(radius, NY);`): the callee's own rules
    // prove it when the return is resolved below.
    if (const auto *c = dyn_cast_or_null<CallExpr>(ret); c && c->getDirectCallee() &&
                                                         isDatatypeType(c->getType()))
      continue;
    // An element of a static-storage array FileScopeTypes proves (`return cols[e];`).
    if (const auto *ase = dyn_cast_or_null<ArraySubscriptExpr>(ret))
      if (const auto *base = dyn_cast<DeclRefExpr>(ase->getBase()->IgnoreParenImpCasts());
          base && isFileScopeArray(dyn_cast<VarDecl>(base->getDecl())))
        ret = base;
    const auto *d = dyn_cast_or_null<DeclRefExpr>(ret);
    const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    // A local, or a static-storage variable FileScopeTypes proves (`static MPI_Datatype t;`
    // built on first use).
    if (!vd || isa<ParmVarDecl>(vd) || (!vd->hasLocalStorage() && !files_) ||
        vd->getType()->isReferenceType()) {
      refuse("which returns something other than a local variable on " +
                 lineOf(r->getBeginLoc(), sm),
             r->getBeginLoc());
      return nullptr;
    }
    if (result && vd != result) {
      refuse("which returns '" + result->getNameAsString() + "' and '" + vd->getNameAsString() +
                 "' (" + lineOf(r->getBeginLoc(), sm) + ")",
             r->getBeginLoc());
      return nullptr;
    }
    result = vd;
  }
  std::string var = result ? result->getNameAsString() : std::string("the result");

  // The returned handle is only built, committed, read by MPI calls and returned: a copy kept
  // elsewhere could be freed behind the caller's back.
  ParentMap pm(def->getBody());
  for (const DeclRefExpr *d : scan.refs) {
    if (!result || d->getDecl() != result || !result->hasLocalStorage())
      continue; // FileScopeTypes checks every reference to a static one
    const Stmt *child = d;
    const Stmt *p = pm.getParent(d);
    bool read = false;
    while (p && (isa<ParenExpr>(p) || isa<ImplicitCastExpr>(p))) {
      if (const auto *ice = dyn_cast<ImplicitCastExpr>(p);
          ice && ice->getCastKind() == CK_LValueToRValue)
        read = true;
      child = p;
      p = pm.getParent(p);
    }
    if (!read)
      continue; // a definition, a free or an escape: FunctionFlow classifies those
    if (p && isa<ReturnStmt>(p))
      continue;
    if (const auto *c = dyn_cast_or_null<CallExpr>(p);
        c && c->getCallee() != child && calleeName(c).rfind("MPI_", 0) == 0)
      continue;
    why = {"'" + var + "' in '" + fn + "' is copied on " + lineOf(d->getBeginLoc(), sm) +
               " (a helper's result may only be built, committed, passed to MPI calls and "
               "returned)",
           d->getBeginLoc()};
    return nullptr;
  }

  Bindings b;
  std::unique_ptr<FunctionFlow> flow = bindHelper(def, call, at, depth, b, refuse);
  if (!flow)
    return nullptr;

  // The returned local, proven at every return by the rules of a caller's local.
  Evaluator hev(ctx, *flow, &b, ev_.calls());
  const HelperChain link{def, helpers_, helpers_ ? helpers_->depth + 1 : 1};
  DatatypeResolver inner(hev, &link, files_);
  TypeExprPtr out;
  for (const ReturnStmt *r : scan.returns) {
    std::optional<Point> rp = hev.pointOf(r);
    if (!rp)
      rp = hev.pointOf(r->getRetValue());
    if (!rp)
      continue; // unreachable: returns nothing
    Unresolved w;
    TypeExprPtr t = inner.resolve(r->getRetValue(), *rp, w, depth + 1);
    if (!t) {
      const auto *handedOn = dyn_cast<CallExpr>(r->getRetValue()->IgnoreParenImpCasts());
      why = {handedOn ? "'" + fn + "' returns the result of '" + calleeName(handedOn) + "' (" +
                            lineOf(r->getBeginLoc(), sm) + "): " + w.reason
                      : inHelper(w.reason, var, fn),
             w.loc};
      return nullptr;
    }
    if (out && !(*out == *t)) {
      why = {(result ? "'" + var + "' in '" + fn + "' holds" : "'" + fn + "' returns") +
                 " different datatypes at its returns (" + lineOf(r->getBeginLoc(), sm) + ")",
             r->getBeginLoc()};
      return nullptr;
    }
    out = t;
  }
  if (!out) {
    refuse("which never returns", defLoc);
    return nullptr;
  }
  return out;
}

TypeExprPtr DatatypeResolver::fromHelperOutput(const CallExpr *call, unsigned argIndex, Point at,
                                               const std::string &name, Unresolved &why,
                                               int depth) {
  const FunctionDecl *callee = call->getDirectCallee();
  std::string fn = callee ? functionName(callee) : std::string("?");
  Refuse refuse = [&](std::string reason, SourceLocation where) {
    why = {"'" + name + "' is set by '" + fn + "', " + reason, where};
  };
  const FunctionDecl *def = callee ? followableHelper(call, refuse) : nullptr;
  if (!def)
    return nullptr;
  BodyScan scan;
  scan.TraverseStmt(def->getBody());
  if (!argumentsFitNoRecursion(def, call, scan.calls, refuse))
    return nullptr;
  const ParmVarDecl *out = def->getParamDecl(argIndex);
  std::string param = out->getNameAsString();
  ASTContext &ctx = ev_.context();
  const SourceManager &sm = ctx.getSourceManager();

  // The output parameter is only handed, as it is, to one constructor as its output and to
  // MPI_Type_commit: never written, copied, dereferenced or passed anywhere else. A C++
  // reference parameter is handed as `&face`.
  const bool byReference = out->getType()->isReferenceType();
  ParentMap pm(def->getBody());
  // Every constructor that builds into the parameter; which one a call runs is decided below,
  // with the parameters bound to the call's arguments.
  std::vector<std::pair<const CallExpr *, const ConstructorSpec *>> builders;
  for (const DeclRefExpr *d : scan.refs) {
    if (d->getDecl() != out)
      continue;
    const Stmt *child = d;
    const Stmt *p = pm.getParent(d);
    auto skipParensAndCasts = [&] {
      while (p && (isa<ParenExpr>(p) || isa<ImplicitCastExpr>(p))) {
        child = p;
        p = pm.getParent(p);
      }
    };
    skipParensAndCasts();
    if (const auto *uo = dyn_cast_or_null<UnaryOperator>(p);
        byReference && uo && uo->getOpcode() == UO_AddrOf) {
      child = p;
      p = pm.getParent(p);
      skipParensAndCasts();
    } else if (byReference) {
      p = nullptr; // the reference used other than by address: refused below
    }
    const auto *c = dyn_cast_or_null<CallExpr>(p);
    int k = c ? argumentIndex(c, child) : -1;
    const ConstructorSpec *cs = c ? findConstructor(calleeName(c)) : nullptr;
    if (cs && k >= 0 && static_cast<size_t>(k) < cs->args.size() &&
        cs->args[k].role == ArgRole::NewType) {
      builders.push_back({c, cs});
      continue;
    }
    if (c && k == 0 && findTypeManagement(calleeName(c)) == TypeManagement::Commit)
      continue;
    refuse("which uses '" + param + "' on " + lineOf(d->getBeginLoc(), sm) +
               " (an output parameter may only be a constructor's output and committed)",
           d->getBeginLoc());
    return nullptr;
  }
  if (builders.empty()) {
    refuse("which never builds a datatype into '" + param + "'", def->getLocation());
    return nullptr;
  }

  Bindings b;
  std::unique_ptr<FunctionFlow> flow = bindHelper(def, call, at, depth, b, refuse, out);
  if (!flow)
    return nullptr;
  // Of several constructors (`if (kind == 0) contiguous else vector`), the call's constant
  // arguments must leave exactly one on a path it can take.
  const CallExpr *builder = nullptr;
  const ConstructorSpec *spec = nullptr;
  size_t taken = 0;
  for (const auto &[c, cs] : builders) {
    if (builders.size() > 1 && !flow->mayRun(c))
      continue;
    ++taken;
    builder = c;
    spec = cs;
  }
  if (taken != 1) {
    std::string lines;
    for (size_t i = 0; i < builders.size(); ++i)
      lines += (i == 0 ? "" : i + 1 == builders.size() ? " and " : ", ") +
               lineOf(builders[i].first->getBeginLoc(), sm);
    refuse(taken == 0 ? "which builds '" + param + "' on no path this call takes (" + lines + ")"
                         : "which builds '" + param + "' with the constructors on " + lines +
                               ", more than one of which this call may run",
           builders[0].first->getBeginLoc());
    return nullptr;
  }
  if (!flow->runsOncePerCall(builder)) {
    refuse("whose constructor on " + lineOf(builder->getBeginLoc(), sm) +
               " does not run exactly once in every call",
           builder->getBeginLoc());
    return nullptr;
  }
  Evaluator hev(ctx, *flow, &b, ev_.calls());
  const HelperChain link{def, helpers_, helpers_ ? helpers_->depth + 1 : 1};
  DatatypeResolver inner(hev, &link, files_);
  std::optional<Point> bp = hev.pointOf(builder);
  if (!bp) {
    refuse("whose constructor the tool cannot place", builder->getBeginLoc());
    return nullptr;
  }
  Unresolved w;
  TypeExprPtr t = inner.fromConstructor(builder, *spec, *bp, w, depth + 1);
  if (!t) {
    why = {"'" + name + "' is set by '" + fn + "': " + w.reason, w.loc};
    return nullptr;
  }
  return t;
}

TypeExprPtr DatatypeResolver::fromRecordHelper(const CallExpr *call, unsigned argIndex,
                                               int64_t element, Point at, const std::string &name,
                                               Unresolved &why, int depth) {
  const FunctionDecl *callee = call->getDirectCallee();
  std::string fn = callee ? functionName(callee) : std::string("?");
  Refuse refuse = [&](std::string reason, SourceLocation where) {
    why = {"'" + name + "' is set by '" + fn + "', " + reason, where};
  };
  const FunctionDecl *def = callee ? followableHelper(call, refuse) : nullptr;
  if (!def)
    return nullptr;
  BodyScan scan;
  scan.TraverseStmt(def->getBody());
  if (!argumentsFitNoRecursion(def, call, scan.calls, refuse))
    return nullptr;
  const ParmVarDecl *out = def->getParamDecl(argIndex);
  Bindings b;
  std::unique_ptr<FunctionFlow> flow = bindHelper(def, call, at, depth, b, refuse, out);
  if (!flow)
    return nullptr;
  // The member as the helper leaves it: its one definition that reaches the helper's exit on
  // every path, proven in the helper's body with the parameters bound to the call's arguments.
  Evaluator hev(ev_.context(), *flow, &b, ev_.calls());
  const HelperChain link{def, helpers_, helpers_ ? helpers_->depth + 1 : 1};
  DatatypeResolver inner(hev, &link, files_);
  Point exit{*flow->exitPosition(), def->getBodyRBrace()};
  Unresolved w;
  TypeExprPtr t = inner.fromSlot(out, element, exit, w, depth + 1);
  if (!t) {
    // The flow's reasons speak of a use; here the use is the helper's return.
    std::string reason = w.reason;
    for (size_t at = reason.find("this use"); at != std::string::npos;
         at = reason.find("this use", at))
      reason.replace(at, 8, "its return");
    why = {"'" + name + "' is set by '" + fn + "' (" +
               lineOf(call->getBeginLoc(), ev_.context().getSourceManager()) + "), where " +
               reason,
           w.loc};
    return nullptr;
  }
  return t;
}

TypeExprPtr DatatypeResolver::fromRecordCallSites(const ParmVarDecl *p, int64_t element,
                                                  SourceLocation useLoc, Unresolved &why,
                                                  int depth) {
  ASTContext &ctx = ev_.context();
  const SourceManager &sm = ctx.getSourceManager();
  const std::string member = Evaluator::slotName(p, element);
  const auto *fd = dyn_cast<FunctionDecl>(p->getDeclContext());
  const std::string param =
      "'" + member + "' comes from a parameter of '" + nameOf(p->getDeclContext()) + "'";
  if (!fd || !ev_.calls() || ev_.bindings()) {
    why = {param, useLoc};
    return nullptr;
  }
  // Nothing in the function writes the member, lets the pointer go, or frees the datatype:
  // what it holds is what every caller's struct holds at the call.
  const FunctionDecl *body = fd->getDefinition() ? fd->getDefinition() : fd;
  std::unique_ptr<FunctionFlow> own =
      FunctionFlow::build(body, ctx, nullptr, nullptr, nullptr, p);
  if (!own->hasCfg()) {
    why = {param + ", whose control flow cannot be analysed", useLoc};
    return nullptr;
  }
  if (std::vector<const VarEvent *> ev = own->eventsFor(p, element); !ev.empty()) {
    const VarEvent &e = *ev.front();
    why = {param + ", in which '" +
               (e.kind == VarEvent::Escape ? p->getNameAsString() + "' " + e.what
                                           : member + "' is written") +
               " on " + lineOf(e.loc, sm),
           e.loc};
    return nullptr;
  }
  CallSiteValues &calls = *ev_.calls();
  Unresolved w;
  std::optional<std::vector<CallSiteValues::Site>> sites = calls.callsPassing(p, w);
  if (!sites) {
    why = {param + w.reason, w.reason.empty() ? useLoc : w.loc};
    return nullptr;
  }
  const RecordDecl *record = datatypeRecordOf(p);
  TypeExprPtr out;
  const CallSiteValues::Site *first = nullptr;
  // One call site's chain `t` (none: unresolved, `sw` says why): every site must pass the same.
  auto take = [&](const CallSiteValues::Site &s, const TypeExprPtr &t, const Unresolved &sw) {
    const std::string at = lineOf(s.call->getBeginLoc(), sm);
    if (!t) {
      why = {param + ", whose argument on " + at + " is unresolved: " + sw.reason, sw.loc};
      out = nullptr;
      return false;
    }
    if (out && !(*out == *t)) {
      why = {param + ", which is called with different datatypes on " +
                 lineOf(first->call->getBeginLoc(), sm) + " and " + at,
             s.call->getBeginLoc()};
      out = nullptr;
      return false;
    }
    out = t;
    first = &s;
    return true;
  };
  bool ran = calls.nested(p, [&] {
    for (const CallSiteValues::Site &s : *sites) {
      const std::string at = lineOf(s.call->getBeginLoc(), sm);
      // Each call passes `&v` (C++: `v` to a reference), a struct variable the caller's flow
      // tracks.
      const auto *addr = dyn_cast<UnaryOperator>(s.arg->IgnoreParenImpCasts());
      const auto *ref = p->getType()->isReferenceType()
                            ? dyn_cast<DeclRefExpr>(s.arg->IgnoreParenImpCasts())
                        : addr && addr->getOpcode() == UO_AddrOf
                            ? dyn_cast<DeclRefExpr>(addr->getSubExpr()->IgnoreParens())
                            : nullptr;
      const auto *v = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
      // The caller's own parameter handed on (`exchange(h)` in `run(struct halo *h)`): what
      // every call of the caller passes, if the caller does not write the member either.
      const auto *direct = dyn_cast<DeclRefExpr>(s.arg->IgnoreParenImpCasts());
      const auto *q = direct ? dyn_cast<ParmVarDecl>(direct->getDecl()) : nullptr;
      const RecordDecl *qr = q ? datatypeRecordOf(q) : nullptr;
      if (q && qr && qr->getCanonicalDecl() == record->getCanonicalDecl() &&
          (q->getType()->isPointerType() || q->getType()->isReferenceType())) {
        Evaluator ev(ctx, calls.files().flowOf(s.caller), nullptr, &calls);
        DatatypeResolver caller(ev, helpers_, files_);
        Unresolved sw;
        TypeExprPtr t = caller.fromRecordCallSites(q, element, s.arg->getBeginLoc(), sw,
                                                   depth + 1);
        if (!take(s, t, sw))
          return;
        continue;
      }
      const RecordDecl *vr = v ? datatypeRecord(v->getType()) : nullptr;
      if (!v || isa<ParmVarDecl>(v) || (!v->hasLocalStorage() && !files_) || !vr ||
          vr->getCanonicalDecl() != record->getCanonicalDecl()) {
        why = {param + ", whose argument on " + at + " is not the address of a struct variable",
               s.arg->getBeginLoc()};
        out = nullptr;
        return;
      }
      Evaluator ev(ctx, calls.files().flowOf(s.caller), nullptr, &calls);
      DatatypeResolver caller(ev, helpers_, files_);
      Unresolved sw;
      TypeExprPtr t = caller.fromSlot(v, element, s.at, sw, depth + 1);
      if (!take(s, t, sw))
        return;
    }
  });
  if (!ran)
    why = {param + ", whose callers pass it on too deeply (or recursively)", useLoc};
  return out;
}

std::vector<TypeExprPtr> DatatypeResolver::resolveArray(const Expr *e, Point at,
                                                        Unresolved &why) {
  SourceLocation loc = e->getBeginLoc();
  const Expr *inner = e->IgnoreParenImpCasts();
  const auto *d = dyn_cast<DeclRefExpr>(inner);
  if (const auto *me = dyn_cast<MemberExpr>(inner))
    return resolveMemberArray(me, at, why);
  if (!d) {
    if (const auto *call = dyn_cast<CallExpr>(inner))
      why = {calleeName(call).empty()
                 ? std::string("the datatype array is returned by an indirect call")
                 : "the datatype array is returned by a call to '" + calleeName(call) + "'",
             loc};
    else if (e->isNullPointerConstant(ev_.context(), Expr::NPC_ValueDependentIsNotNull))
      why = {"the datatype array is a null pointer (the send side is ignored only with "
             "MPI_IN_PLACE written as the send buffer)",
             loc};
    else
      why = {"the datatype array is not a local array variable", loc};
    return {};
  }
  const auto *vd = dyn_cast<VarDecl>(d->getDecl());
  std::string name = d->getDecl()->getNameAsString();
  if (!vd) {
    why = {"'" + name + "' is not a variable", loc};
    return {};
  }
  if (isa<ParmVarDecl>(vd)) {
    why = {"'" + name + "' comes from a parameter of '" + nameOf(vd->getDeclContext()) + "'",
           loc};
    return {};
  }
  if (capturedByLambdaOrBlock(d, ev_.context())) {
    why = {"'" + name + "' is captured from an enclosing function", loc};
    return {};
  }
  const bool fileScope = isFileScopeArray(vd);
  if (!vd->hasLocalStorage() && !fileScope) {
    why = {"'" + name + "' is " + (vd->isStaticLocal() ? "a static variable" : "a global variable"),
           loc};
    return {};
  }
  if (vd->getType()->isReferenceType()) {
    why = {"'" + name + "' is a reference", loc};
    return {};
  }
  const ASTContext &ctx = ev_.context();
  const ConstantArrayType *cat = ctx.getAsConstantArrayType(vd->getType());
  if (!cat) {
    why = {"'" + name + "' is " +
               (vd->getType()->isVariableArrayType() ? "a variable-length array"
                                                     : "a pointer, not an array"),
           loc};
    return {};
  }
  if (cat->getElementType()->isArrayType()) {
    why = {"'" + name + "' is an array of arrays", loc};
    return {};
  }
  uint64_t n = cat->getSize().getZExtValue();
  if (n == 0 || n > static_cast<uint64_t>(kMaxArray)) {
    why = {"'" + name + "' has " + std::to_string(n) + " elements" +
               (n ? ", more than the tool reads (" + std::to_string(kMaxArray) + ")" : ""),
           loc};
    return {};
  }
  return elementsOf(vd, 0, n, name, at, why);
}

std::vector<TypeExprPtr> DatatypeResolver::elementsOf(const VarDecl *vd, int64_t first,
                                                      uint64_t n, const std::string &name,
                                                      Point at, Unresolved &why) {
  std::vector<TypeExprPtr> out;
  for (uint64_t j = 0; j < n; ++j) {
    const int64_t k = first + static_cast<int64_t>(j);
    TypeExprPtr t = fromSlot(vd, k, at, why, 0);
    if (!t) {
      // Name the element in every reason ("'types[1]' is unresolved: count depends on 'argc'").
      std::string elem = Evaluator::slotName(vd, k);
      if (why.reason.rfind("'" + elem + "'", 0) != 0 && why.reason.rfind("'" + name + "'", 0) != 0)
        why.reason = "'" + elem + "' is unresolved: " + why.reason;
      return {};
    }
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<TypeExprPtr> DatatypeResolver::resolveMemberArray(const MemberExpr *me, Point at,
                                                              Unresolved &why) {
  std::optional<MemberSlot> m = memberSlot(me, why);
  if (!m)
    return {};
  const std::string name = m->var->getNameAsString() + (me->isArrow() ? "->" : ".") +
                           m->field->getNameAsString();
  if (!isDatatypeArrayMember(m->field)) {
    why = {"'" + name + "' is not an array of datatypes", me->getBeginLoc()};
    return {};
  }
  const uint64_t n =
      ev_.context().getAsConstantArrayType(m->field->getType())->getSize().getZExtValue();
  if (n == 0 || n > static_cast<uint64_t>(kMaxArray)) {
    why = {"'" + name + "' has " + std::to_string(n) + " elements" +
               (n ? ", more than the tool reads (" + std::to_string(kMaxArray) + ")" : ""),
           me->getBeginLoc()};
    return {};
  }
  return elementsOf(m->var, m->field->getFieldIndex() * kMemberStride, n, name, at, why);
}

TypeExprPtr DatatypeResolver::fromDefinition(const SlotDefinition &def, const std::string &name,
                                             Unresolved &why, int depth) {
  const VarEvent &e = *def.event;
  Evaluator::LoopBinding context(ev_, e); // the definition is evaluated where it stands
  switch (e.kind) {
  case VarEvent::ConstructorOut: {
    const ConstructorSpec *spec = findConstructor(calleeName(e.call));
    if (!spec) {
      why = {"'" + name + "' is set by a call the tool does not know", e.loc};
      return nullptr;
    }
    if (e.inIteration)
      return fromIteration(e, name, why, depth);
    return fromConstructor(e.call, *spec, def.at, why, depth + 1);
  }
  case VarEvent::Init:
  case VarEvent::Assign: {
    if (!def.value) {
      why = {"'" + name + "' is zero-initialized, not a datatype", e.loc};
      return nullptr;
    }
    return resolve(def.value, def.at, why, depth + 1);
  }
  case VarEvent::HelperOut:
    if (e.inIteration)
      return fromIteration(e, name, why, depth);
    return fromHelperOutput(e.call, static_cast<unsigned>(e.opcode), def.at, name, why, depth);
  case VarEvent::RecordHelperOut:
    return fromRecordHelper(e.call, static_cast<unsigned>(e.opcode), *e.element, def.at, name,
                            why, depth);
  default:
    why = {"'" + name + "' is not set by a datatype constructor", e.loc};
    return nullptr;
  }
}

TypeExprPtr DatatypeResolver::fromIteration(const VarEvent &e, const std::string &name,
                                            Unresolved &why, int depth) {
  const FunctionFlow &iteration = ev_.flow().iterationFlow(e);
  std::optional<CfgPos> pos = iteration.hasCfg() ? iteration.position(e.call) : std::nullopt;
  if (!pos) {
    why = {"the constructor on " + lineOf(e.call->getBeginLoc(), ev_.context().getSourceManager()) +
               " cannot be placed in its loop's control flow",
           e.call->getBeginLoc()};
    return nullptr;
  }
  Evaluator iev(ev_.context(), iteration, ev_.bindings(), ev_.calls());
  Evaluator::LoopBinding context(iev, e);
  DatatypeResolver inner(iev, helpers_, files_);
  Point at{*pos, e.call->getBeginLoc()};
  if (e.kind == VarEvent::HelperOut)
    return inner.fromHelperOutput(e.call, static_cast<unsigned>(e.opcode), at, name, why, depth);
  return inner.fromConstructor(e.call, *findConstructor(calleeName(e.call)), at, why, depth + 1);
}

TypeExprPtr DatatypeResolver::fromConstructor(const CallExpr *call, const ConstructorSpec &spec,
                                              Point at, Unresolved &why, int depth) {
  if (call->getNumArgs() != spec.args.size()) {
    why = {std::string(spec.name) + " is called with the wrong number of arguments",
           call->getBeginLoc()};
    return nullptr;
  }
  if (depth > kMaxDepth) {
    why = {"the datatype chain is too deep (or refers to itself)", call->getBeginLoc()};
    return nullptr;
  }
  const size_t n = spec.args.size();
  std::vector<int64_t> ints(n, 0);
  std::vector<std::vector<int64_t>> arrays(n);
  std::vector<std::vector<TypeExprPtr>> typeArrays(n);
  std::vector<TypeExprPtr> types(n);
  Order order = Order::C;
  for (size_t i = 0; i < n; ++i) {
    const ArgSpec &a = spec.args[i];
    const Expr *arg = call->getArg(static_cast<unsigned>(i));
    Unresolved w;
    switch (a.role) {
    case ArgRole::Int:
    case ArgRole::Aint: {
      std::optional<int64_t> v = ev_.evalInt(arg, at, w);
      if (!v) {
        why = {std::string(a.name) + " " + w.reason, w.loc};
        return nullptr;
      }
      ints[i] = *v;
      break;
    }
    case ArgRole::Order: {
      bool found = false;
      // `const int order = MPI_ORDER_FORTRAN;` holds its initializer's spelling.
      const Expr *spelled = arg;
      if (const auto *d = dyn_cast<DeclRefExpr>(arg->IgnoreParenImpCasts()))
        if (const auto *vd = dyn_cast<VarDecl>(d->getDecl());
            vd && vd->getType().isConstQualified() && !vd->getType().isVolatileQualified() &&
            vd->getInit() && !vd->getType()->isReferenceType())
          spelled = vd->getInit();
      for (const std::string &s : ev_.spellings(spelled)) {
        if (s == "MPI_ORDER_C" || s == "MPI_ORDER_FORTRAN") {
          order = s == "MPI_ORDER_C" ? Order::C : Order::Fortran;
          found = true;
          break;
        }
      }
      if (!found) {
        why = {"order is not spelled MPI_ORDER_C or MPI_ORDER_FORTRAN", arg->getBeginLoc()};
        return nullptr;
      }
      break;
    }
    case ArgRole::IntArray:
    case ArgRole::AintArray:
    case ArgRole::TypeArray:
    case ArgRole::DistribArray:
    case ArgRole::DargArray: {
      int64_t len = ints[a.lengthArg];
      if (len < 0) {
        why = {std::string(spec.args[a.lengthArg].name) + " is negative (" +
                   std::to_string(len) + ")",
               call->getArg(a.lengthArg)->getBeginLoc()};
        return nullptr;
      }
      if (len > kMaxArray) {
        why = {std::string(spec.args[a.lengthArg].name) + " is " + std::to_string(len) +
                   ", more elements than the tool reads (" + std::to_string(kMaxArray) + ")",
               call->getArg(a.lengthArg)->getBeginLoc()};
        return nullptr;
      }
      for (int64_t k = 0; k < len; ++k) {
        std::string elemName = std::string(a.name) + "[" + std::to_string(k) + "]";
        if (a.role == ArgRole::IntArray || a.role == ArgRole::AintArray) {
          std::optional<int64_t> v = ev_.evalElement(arg, k, at, w);
          if (!v) {
            why = {elemName + " " + w.reason, w.loc};
            return nullptr;
          }
          arrays[i].push_back(*v);
          continue;
        }
        std::optional<SlotDefinition> def = ev_.elementDefinition(arg, k, at, w);
        if (!def) {
          why = {elemName + " " + w.reason, w.loc};
          return nullptr;
        }
        if (a.role == ArgRole::TypeArray) {
          TypeExprPtr t;
          if (def->event)
            t = fromDefinition(*def, elemName, why, depth + 1);
          else if (def->value)
            t = resolve(def->value, def->at, why, depth + 1);
          else
            why = {elemName + " is zero-initialized, not a datatype", arg->getBeginLoc()};
          if (!t)
            return nullptr;
          typeArrays[i].push_back(t);
          continue;
        }
        const Expr *value = def->value;
        if (def->event && def->event->kind != VarEvent::Init && def->event->kind != VarEvent::Assign)
          value = nullptr;
        if (!value) {
          why = {elemName + " is not a constant the tool can read", arg->getBeginLoc()};
          return nullptr;
        }
        std::vector<std::string> sp = ev_.spellings(value);
        auto has = [&](const char *s) {
          for (const std::string &x : sp)
            if (x == s)
              return true;
          return false;
        };
        if (a.role == ArgRole::DistribArray) {
          if (has("MPI_DISTRIBUTE_BLOCK"))
            arrays[i].push_back(static_cast<int64_t>(Distrib::Block));
          else if (has("MPI_DISTRIBUTE_CYCLIC"))
            arrays[i].push_back(static_cast<int64_t>(Distrib::Cyclic));
          else if (has("MPI_DISTRIBUTE_NONE"))
            arrays[i].push_back(static_cast<int64_t>(Distrib::None));
          else {
            why = {elemName + " is not spelled MPI_DISTRIBUTE_BLOCK, _CYCLIC or _NONE",
                   value->getBeginLoc()};
            return nullptr;
          }
          continue;
        }
        if (has("MPI_DISTRIBUTE_DFLT_DARG")) {
          arrays[i].push_back(kDargDefault);
          continue;
        }
        std::optional<int64_t> v = ev_.evalInt(value, def->at, w);
        if (!v) {
          why = {elemName + " " + w.reason, w.loc};
          return nullptr;
        }
        arrays[i].push_back(*v);
      }
      break;
    }
    case ArgRole::OldType: {
      Unresolved tw;
      types[i] = resolve(arg, at, tw, depth + 1);
      if (!types[i]) {
        why = {"the oldtype of " + std::string(spec.name) + " is unresolved: " + tw.reason, tw.loc};
        return nullptr;
      }
      break;
    }
    case ArgRole::NewType:
      break;
    }
  }
  auto oldType = [&]() -> TypeExprPtr {
    for (const TypeExprPtr &t : types)
      if (t)
        return t;
    return nullptr;
  };
  switch (spec.combiner) {
  case Combiner::Dup:
    return expr::dup(oldType());
  case Combiner::Contiguous:
    return expr::contiguous(ints[0], oldType());
  case Combiner::Vector:
    return expr::vector(ints[0], ints[1], ints[2], oldType());
  case Combiner::Hvector:
    return expr::hvector(ints[0], ints[1], ints[2], oldType());
  case Combiner::Indexed:
    return expr::indexed(arrays[1], arrays[2], oldType());
  case Combiner::Hindexed:
    return expr::hindexed(arrays[1], arrays[2], oldType());
  case Combiner::IndexedBlock:
    return expr::indexedBlock(ints[1], arrays[2], oldType());
  case Combiner::HindexedBlock:
    return expr::hindexedBlock(ints[1], arrays[2], oldType());
  case Combiner::Struct:
    return expr::structType(arrays[1], arrays[2], typeArrays[3]);
  case Combiner::Subarray:
    return expr::subarray(arrays[1], arrays[2], arrays[3], order, oldType());
  case Combiner::Darray: {
    std::vector<Distrib> distribs;
    for (int64_t d : arrays[4])
      distribs.push_back(static_cast<Distrib>(d));
    return expr::darray(ints[0], ints[1], arrays[3], distribs, arrays[5], arrays[6], order,
                        oldType());
  }
  case Combiner::Resized:
    return expr::resized(ints[1], ints[2], oldType());
  case Combiner::Named:
    break;
  }
  why = {"unknown constructor", call->getBeginLoc()};
  return nullptr;
}

} // namespace tempi::frontend

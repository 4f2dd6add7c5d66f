/// \file
/// FunctionFlow: classification of every reference to a local variable, and reachability on the
/// CFG (see Flow.h for the rules). Conservative: a reference it does not understand is an escape.
#include "tool/clang/Flow.h"

#include "tool/clang/MpiNames.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/OpenMPClause.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/OpenMPKinds.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <set>

using namespace clang;

namespace tempi::frontend {

std::string lineOf(SourceLocation loc, const SourceManager &sm) {
  return "line " + std::to_string(sm.getExpansionLineNumber(loc));
}

std::string spelledText(const Expr *e, const ASTContext &ctx) {
  const SourceManager &sm = ctx.getSourceManager();
  CharSourceRange r = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(e->getSourceRange()),
                                               sm, ctx.getLangOpts());
  if (r.isInvalid())
    return "";
  return Lexer::getSourceText(r, sm, ctx.getLangOpts()).str();
}

const VarDecl *firstReadOf(const Stmt *s, const std::set<const VarDecl *> &vars) {
  if (!s || vars.empty())
    return nullptr;
  if (const auto *ref = dyn_cast<DeclRefExpr>(s))
    if (const auto *v = dyn_cast<VarDecl>(ref->getDecl()); v && vars.count(v))
      return v;
  for (const Stmt *child : s->children())
    if (const VarDecl *v = firstReadOf(child, vars))
      return v;
  return nullptr;
}

namespace {

const Stmt *skipUp(const ParentMap &pm, const Stmt *s, const Stmt *&child) {
  const Stmt *p = pm.getParent(s);
  child = s;
  while (p) {
    if (isa<ParenExpr>(p)) {
      child = p;
      p = pm.getParent(p);
      continue;
    }
    if (auto *ice = dyn_cast<ImplicitCastExpr>(p);
        ice && (ice->getCastKind() == CK_NoOp || ice->getCastKind() == CK_BitCast)) {
      child = p;
      p = pm.getParent(p);
      continue;
    }
    break;
  }
  return p;
}

std::string calleeName(const CallExpr *c) {
  if (const FunctionDecl *fd = c->getDirectCallee())
    if (fd->getIdentifier())
      return fd->getName().str();
  return "";
}

int argIndex(const CallExpr *c, const Stmt *arg) {
  for (unsigned i = 0; i < c->getNumArgs(); ++i)
    if (c->getArg(i) == arg)
      return static_cast<int>(i);
  return -1;
}

/// Whether passing an argument to parameter i of the call can change the pointee.
bool paramIsConstPointer(const CallExpr *c, int i) {
  const FunctionDecl *fd = c->getDirectCallee();
  if (!fd || i < 0 || static_cast<unsigned>(i) >= fd->getNumParams())
    return false; // variadic or indirect: may write
  QualType t = fd->getParamDecl(i)->getType();
  if (const auto *pt = t->getAs<PointerType>())
    return pt->getPointeeType().isConstQualified();
  if (const auto *rt = t->getAs<ReferenceType>())
    return rt->getPointeeType().isConstQualified();
  return !t->isPointerType() && !t->isReferenceType();
}

/// The value of a constant index: Clang's folder, or, with bound parameters, +, -, * of bound
/// parameters and constants (overflow refused).
std::optional<int64_t> constantIndex(const Expr *e, ASTContext &ctx,
                                     const std::map<const VarDecl *, int64_t> *bound) {
  if (e->isValueDependent())
    return std::nullopt;
  Expr::EvalResult r;
  if (e->EvaluateAsInt(r, ctx)) {
    if (r.Val.getInt().getSignificantBits() > 64)
      return std::nullopt;
    return r.Val.getInt().getExtValue();
  }
  if (!bound)
    return std::nullopt;
  e = e->IgnoreParenImpCasts();
  if (const auto *d = dyn_cast<DeclRefExpr>(e)) {
    if (const auto *vd = dyn_cast<VarDecl>(d->getDecl()))
      if (auto it = bound->find(vd); it != bound->end())
        return it->second;
    return std::nullopt;
  }
  if (const auto *bo = dyn_cast<BinaryOperator>(e)) {
    std::optional<int64_t> a = constantIndex(bo->getLHS(), ctx, bound);
    std::optional<int64_t> b = constantIndex(bo->getRHS(), ctx, bound);
    int64_t out = 0;
    if (!a || !b)
      return std::nullopt;
    switch (bo->getOpcode()) {
    case BO_Add:
      return __builtin_add_overflow(*a, *b, &out) ? std::nullopt : std::optional<int64_t>(out);
    case BO_Sub:
      return __builtin_sub_overflow(*a, *b, &out) ? std::nullopt : std::optional<int64_t>(out);
    case BO_Mul:
      return __builtin_mul_overflow(*a, *b, &out) ? std::nullopt : std::optional<int64_t>(out);
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

} // namespace

bool capturedByLambdaOrBlock(const DeclRefExpr *d, ASTContext &ctx) {
  if (!d->refersToEnclosingVariableOrCapture())
    return false;
  const auto *vd = dyn_cast<VarDecl>(d->getDecl());
  if (!vd)
    return true;
  const Decl *home = Decl::castFromDeclContext(vd->getDeclContext());
  DynTypedNode node = DynTypedNode::create(*d);
  for (int steps = 0; steps < 100000; ++steps) {
    const auto parents = ctx.getParents(node);
    if (parents.empty())
      return true;
    node = parents[0];
    if (node.get<LambdaExpr>() || node.get<BlockExpr>() || node.get<BlockDecl>())
      return true;
    if (const Decl *decl = node.get<Decl>()) {
      if (decl == home)
        return false; // only OpenMP regions (CapturedDecl) in between
      if (isa<FunctionDecl>(decl) || isa<ObjCMethodDecl>(decl))
        return true;  // a lambda's operator(), or another function
    }
  }
  return true;
}

namespace {

class Classifier : public RecursiveASTVisitor<Classifier> {
public:
  Classifier(ASTContext &ctx, const ParentMap &pm,
             std::map<const VarDecl *, std::vector<VarEvent>> &events,
             std::map<const VarDecl *, const DeclStmt *> &declStmts,
             const std::map<const VarDecl *, int64_t> *bound)
      : ctx_(ctx), pm_(pm), events_(events), declStmts_(declStmts), bound_(bound) {}

  bool VisitDeclStmt(DeclStmt *ds) {
    for (Decl *d : ds->decls())
      if (auto *vd = dyn_cast<VarDecl>(d); vd && vd->hasLocalStorage()) {
        declStmts_[vd] = ds;
        if (vd->getType()->isReferenceType())
          continue;
        if (const Expr *init = vd->getInit()) {
          VarEvent e;
          e.kind = VarEvent::Init;
          e.stmt = ds;
          e.value = init;
          e.loc = vd->getLocation();
          events_[vd].push_back(e);
        }
      }
    return true;
  }

  // OpenMP: a region's body reads and writes the function's variables in place (shared, the
  // default for a parallel or worksharing region), and the CFG holds the body where the region
  // stands. Not so where a clause gives the region a copy of its own (private, firstprivate,
  // lastprivate, linear, reduction, copyin, copyprivate, ...), where a default clause makes every
  // variable private, or where the body may run later or on another device (task, taskloop,
  // target): a write inside is then not the variable's, nor is the value inside the one outside.
  bool VisitOMPExecutableDirective(OMPExecutableDirective *dir) {
    const OpenMPDirectiveKind kind = dir->getDirectiveKind();
    bool everyCapture = isOpenMPTaskingDirective(kind) || isOpenMPTargetExecutionDirective(kind) ||
                        isOpenMPTargetDataManagementDirective(kind);
    for (OMPClause *c : dir->clauses()) {
      if (!c)
        continue;
      if (const auto *def = dyn_cast<OMPDefaultClause>(c))
        everyCapture |= def->getDefaultKind() == llvm::omp::OMP_DEFAULT_private ||
                        def->getDefaultKind() == llvm::omp::OMP_DEFAULT_firstprivate;
      if (!isOpenMPPrivate(c->getClauseKind()) && !isOpenMPThreadPrivate(c->getClauseKind()))
        continue;
      for (Stmt *child : c->children()) {
        const auto *var = dyn_cast_or_null<Expr>(child);
        if (const auto *ref = var ? dyn_cast<DeclRefExpr>(var->IgnoreParenImpCasts()) : nullptr)
          escapeRef(ref, "has a copy of its own in an OpenMP region (a private, firstprivate, "
                         "reduction, ... clause)");
      }
    }
    if (everyCapture && dir->hasAssociatedStmt())
      escapeCaptures(dir->getAssociatedStmt(),
                     "is used in an OpenMP task or target region (it may run apart from the code "
                     "around it) or one whose default clause makes it private");
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *d) {
    auto *vd = dyn_cast<VarDecl>(d->getDecl());
    if (!vd || !vd->hasLocalStorage())
      return true;
    VarEvent e;
    e.loc = d->getLocation();
    if (capturedByLambdaOrBlock(d, ctx_)) {
      escape(vd, e, "is captured by a lambda or block"); // no position: refuses every use
      return true;
    }
    e.stmt = d; // an escape's place (FunctionFlow::classify finds its CFG statement)
    classify(d, vd, e);
    return true;
  }

private:
  void escapeRef(const DeclRefExpr *ref, const std::string &what) {
    const auto *vd = dyn_cast<VarDecl>(ref->getDecl());
    if (!vd || !vd->hasLocalStorage())
      return;
    VarEvent e;
    e.loc = ref->getLocation();
    escape(vd, e, what);
  }

  /// Every local variable of the function that `body` reads through a capture.
  void escapeCaptures(const Stmt *body, const std::string &what) {
    if (!body)
      return;
    if (const auto *ref = dyn_cast<DeclRefExpr>(body);
        ref && ref->refersToEnclosingVariableOrCapture())
      escapeRef(ref, what);
    for (const Stmt *child : body->children())
      escapeCaptures(child, what);
  }

  /// The loop `for (i = lo; i < hi; ++i) { a[i] = E; b[i] = F; ... }` (also `int i = lo`,
  /// `i <= hi`, `i++`, `i += 1`) with lo and hi constants, 1 to 4096 iterations inside every
  /// array, and a body of nothing but such assignments: each with `[i]` exactly, to a local
  /// array, whose value has no side effect and reads none of the arrays the loop writes. Such a
  /// loop defines a[lo..hi-1], each to E with i bound to its index, where it exits; `a[i] = E`
  /// in it becomes one Assign event per element (otherwise it writes through a non-constant
  /// index, as before). Returns whether it did so.
  bool countedLoopWrite(const VarDecl *vd, const ArraySubscriptExpr *ase,
                        const BinaryOperator *assign, const VarEvent &e) {
    const auto *idx = dyn_cast<DeclRefExpr>(ase->getIdx()->IgnoreParenImpCasts());
    const auto *i = idx ? dyn_cast<VarDecl>(idx->getDecl()) : nullptr;
    if (!i || !i->hasLocalStorage() || !i->getType()->isIntegerType() ||
        i->getType().isVolatileQualified())
      return false;
    const Stmt *body = pm_.getParent(assign);
    const auto *loop = dyn_cast_or_null<ForStmt>(body);
    if (!loop) {
      loop = dyn_cast_or_null<ForStmt>(body ? pm_.getParent(body) : nullptr);
      if (!loop || !isa<CompoundStmt>(body))
        return false;
    }
    if (loop->getBody() != body && loop->getBody() != assign)
      return false;
    std::optional<std::pair<int64_t, int64_t>> range = countedRange(loop, i);
    if (!range)
      return false;
    // The body: assignments a[i] = E only; E free of side effects and of the written arrays.
    std::vector<const BinaryOperator *> writes;
    if (const auto *cs = dyn_cast<CompoundStmt>(loop->getBody())) {
      for (const Stmt *st : cs->body()) {
        const auto *w = dyn_cast<BinaryOperator>(st);
        if (!w)
          return false;
        writes.push_back(w);
      }
    } else if (const auto *w = dyn_cast<BinaryOperator>(loop->getBody())) {
      writes.push_back(w);
    } else {
      return false;
    }
    std::set<const VarDecl *> written;
    for (const BinaryOperator *w : writes) {
      const auto *a = w->getOpcode() == BO_Assign
                          ? dyn_cast<ArraySubscriptExpr>(w->getLHS()->IgnoreParens())
                          : nullptr;
      const auto *k = a ? dyn_cast<DeclRefExpr>(a->getIdx()->IgnoreParenImpCasts()) : nullptr;
      const auto *base = a ? dyn_cast<DeclRefExpr>(a->getBase()->IgnoreParenImpCasts()) : nullptr;
      const auto *arr = base ? dyn_cast<VarDecl>(base->getDecl()) : nullptr;
      if (!k || k->getDecl() != i || !arr || !arr->hasLocalStorage())
        return false;
      const ConstantArrayType *cat = ctx_.getAsConstantArrayType(arr->getType());
      if (!cat || range->first < 0 ||
          range->second > static_cast<int64_t>(cat->getSize().getZExtValue()))
        return false;
      written.insert(arr);
    }
    for (const BinaryOperator *w : writes)
      if (w->getRHS()->HasSideEffects(ctx_) || firstReadOf(w->getRHS(), written))
        return false;
    for (int64_t k = range->first; k < range->second; ++k) {
      VarEvent one = e;
      one.kind = VarEvent::Assign;
      one.anyElement = false;
      one.element = k;
      one.stmt = loop;
      one.value = assign->getRHS();
      one.opcode = BO_Assign;
      one.loop = loop;
      one.loopVar = i;
      one.loopValue = k;
      events_[vd].push_back(one);
    }
    return true;
  }

  /// [lo, hi) of a counted loop over `i`: init `i = lo` or `int i = lo`, condition `i < hi` or
  /// `i <= hi`, step `++i`, `i++` or `i += 1`; lo and hi constants; 1 to 4096 iterations.
  std::optional<std::pair<int64_t, int64_t>> countedRange(const ForStmt *loop, const VarDecl *i) {
    auto isI = [&](const Expr *x) {
      const auto *r = x ? dyn_cast<DeclRefExpr>(x->IgnoreParenImpCasts()) : nullptr;
      return r && r->getDecl() == i;
    };
    const Expr *loExpr = nullptr;
    if (const auto *ds = dyn_cast_or_null<DeclStmt>(loop->getInit());
        ds && ds->isSingleDecl() && ds->getSingleDecl() == i)
      loExpr = i->getInit();
    else if (const auto *bo = dyn_cast_or_null<BinaryOperator>(loop->getInit());
             bo && bo->getOpcode() == BO_Assign && isI(bo->getLHS()))
      loExpr = bo->getRHS();
    const auto *cond = dyn_cast_or_null<BinaryOperator>(loop->getCond());
    if (!loExpr || !cond || !isI(cond->getLHS()) ||
        (cond->getOpcode() != BO_LT && cond->getOpcode() != BO_LE))
      return std::nullopt;
    const Expr *inc = loop->getInc() ? loop->getInc()->IgnoreParens() : nullptr;
    bool step = false;
    if (const auto *u = dyn_cast_or_null<UnaryOperator>(inc))
      step = u->isIncrementOp() && isI(u->getSubExpr());
    else if (const auto *c = dyn_cast_or_null<CompoundAssignOperator>(inc))
      step = c->getOpcode() == BO_AddAssign && isI(c->getLHS()) &&
             constantIndex(c->getRHS(), ctx_, nullptr) == 1;
    std::optional<int64_t> lo = constantIndex(loExpr, ctx_, nullptr);
    std::optional<int64_t> hi = constantIndex(cond->getRHS(), ctx_, nullptr);
    if (!step || !lo || !hi)
      return std::nullopt;
    const int64_t end = *hi + (cond->getOpcode() == BO_LE ? 1 : 0);
    if (end <= *lo || end - *lo > 4096)
      return std::nullopt;
    return std::make_pair(*lo, end);
  }

  void escape(const VarDecl *vd, VarEvent e, std::string what) {
    e.kind = VarEvent::Escape;
    e.what = std::move(what);
    events_[vd].push_back(e);
  }

  void classify(const DeclRefExpr *d, const VarDecl *vd, VarEvent e) {
    const Stmt *node = nullptr;
    const Stmt *p = skipUp(pm_, d, node);
    if (!p)
      return;
    // An OpenMP region's capture of the variable (by reference): not a use; the region's body
    // reads and writes the variable itself, and those references are classified one by one.
    if (isa<CapturedStmt>(p))
      return;
    // Arrays: a[k] names element k; a bare decayed array is a pointer to every element.
    if (auto *ice = dyn_cast<ImplicitCastExpr>(p); ice && ice->getCastKind() == CK_ArrayToPointerDecay) {
      const Stmt *child = nullptr;
      const Stmt *pp = skipUp(pm_, ice, child);
      if (auto *ase = dyn_cast_or_null<ArraySubscriptExpr>(pp); ase && ase->getBase() == child) {
        if (std::optional<int64_t> k = constantIndex(ase->getIdx(), ctx_, bound_))
          e.element = *k;
        else
          e.anyElement = true;
        p = skipUp(pm_, ase, node);
        if (!p)
          return;
        if (e.anyElement)
          if (const auto *assign = dyn_cast<BinaryOperator>(p);
              assign && assign->getOpcode() == BO_Assign && assign->getLHS() == node &&
              countedLoopWrite(vd, ase, assign, e))
            return;
        // A constant index outside the array (one past the end only for its address) touches
        // some other object: nothing about the array can be proven.
        if (const ConstantArrayType *cat = ctx_.getAsConstantArrayType(vd->getType());
            cat && e.element) {
          auto size = static_cast<int64_t>(cat->getSize().getZExtValue());
          auto *addr = dyn_cast<UnaryOperator>(p);
          bool addressOnly = addr && addr->getOpcode() == UO_AddrOf;
          if (*e.element < 0 || *e.element > size || (*e.element == size && !addressOnly)) {
            std::string k = std::to_string(*e.element);
            e.element.reset();
            e.anyElement = true;
            escape(vd, e, "is indexed out of bounds ([" + k + "])");
            return;
          }
        }
      } else {
        if (auto *call = dyn_cast_or_null<CallExpr>(pp)) {
          int i = argIndex(call, child);
          if (i >= 0 && paramIsConstPointer(call, i))
            return; // read through a const pointer
          escape(vd, e, "is passed to '" + calleeName(call) + "'");
          return;
        }
        if (isa_and_nonnull<UnaryExprOrTypeTraitExpr>(pp))
          return;
        escape(vd, e, "decays to a pointer");
        return;
      }
    }
    if (auto *ice = dyn_cast<ImplicitCastExpr>(p); ice && ice->getCastKind() == CK_LValueToRValue)
      return; // a read
    if (isa<UnaryExprOrTypeTraitExpr>(p) || isa<MemberExpr>(p))
      return; // sizeof, or the base of s.field
    if (auto *bo = dyn_cast<BinaryOperator>(p)) {
      if (bo->isAssignmentOp() && bo->getLHS() == node) {
        e.kind = bo->getOpcode() == BO_Assign ? VarEvent::Assign : VarEvent::CompoundAssign;
        e.stmt = bo;
        e.value = bo->getRHS();
        e.opcode = bo->getOpcode();
        events_[vd].push_back(e);
        return;
      }
      if (!bo->isAssignmentOp())
        return; // comma, ...
    }
    if (auto *uo = dyn_cast<UnaryOperator>(p)) {
      if (uo->isIncrementDecrementOp()) {
        e.kind = VarEvent::IncDec;
        e.stmt = uo;
        e.opcode = uo->getOpcode();
        events_[vd].push_back(e);
        return;
      }
      if (uo->getOpcode() == UO_AddrOf) {
        addressTaken(vd, uo, e);
        return;
      }
    }
    if (auto *call = dyn_cast<CallExpr>(p)) {
      int i = argIndex(call, node);
      if (i >= 0 && paramIsConstPointer(call, i))
        return;
      escape(vd, e, "is passed by reference to '" + calleeName(call) + "'");
      return;
    }
    escape(vd, e, "is used as an lvalue");
  }

  void addressTaken(const VarDecl *vd, const UnaryOperator *addr, VarEvent e) {
    const Stmt *child = nullptr;
    const Stmt *q = skipUp(pm_, addr, child);
    // Explicit casts of the address ((void *)&x) keep it an address.
    while (q && isa<CastExpr>(q)) {
      child = q;
      q = skipUp(pm_, q, child);
    }
    auto *call = dyn_cast_or_null<CallExpr>(q);
    if (!call) {
      escape(vd, e, "has its address taken");
      return;
    }
    int i = argIndex(call, child);
    std::string name = calleeName(call);
    if (const ConstructorSpec *spec = findConstructor(name)) {
      if (i >= 0 && static_cast<size_t>(i) < spec->args.size() &&
          spec->args[i].role == ArgRole::NewType) {
        e.kind = VarEvent::ConstructorOut;
        e.stmt = call;
        e.call = call;
        events_[vd].push_back(e);
        return;
      }
    }
    switch (findTypeManagement(name)) {
    case TypeManagement::Commit:
      return;
    case TypeManagement::Free:
      e.kind = VarEvent::Free;
      e.stmt = call;
      e.call = call;
      events_[vd].push_back(e);
      return;
    case TypeManagement::None:
      break;
    }
    if (const TypeQuerySpec *q = findTypeQuery(name);
        q && call->getNumArgs() == q->outputs.size() + 1 && i >= 1) {
      e.kind = VarEvent::TypeQueryOut;
      e.stmt = call;
      e.call = call;
      e.value = call->getArg(0);
      e.opcode = static_cast<int>(q->outputs[static_cast<size_t>(i) - 1]);
      events_[vd].push_back(e);
      return;
    }
    if (name == "MPI_Get_address" && call->getNumArgs() == 2) {
      if (i == 1) {
        e.kind = VarEvent::GetAddressOut;
        e.stmt = call;
        e.call = call;
        e.value = call->getArg(0);
        events_[vd].push_back(e);
        return;
      }
      if (i == 0)
        return; // only the address is read
    }
    if (i >= 0 && paramIsConstPointer(call, i))
      return;
    escape(vd, e, "has its address passed to '" + name + "'");
  }

  ASTContext &ctx_;
  const ParentMap &pm_;
  std::map<const VarDecl *, std::vector<VarEvent>> &events_;
  std::map<const VarDecl *, const DeclStmt *> &declStmts_;
  const std::map<const VarDecl *, int64_t> *bound_;
};

} // namespace

std::unique_ptr<FunctionFlow> FunctionFlow::build(const Decl *fn, ASTContext &ctx,
                                                  const std::map<const VarDecl *, int64_t> *bound) {
  auto flow = std::unique_ptr<FunctionFlow>(new FunctionFlow());
  flow->fn_ = fn;
  flow->ctx_ = &ctx;
  Stmt *body = fn->getBody();
  if (!body)
    return flow;
  CFG::BuildOptions opts;
  opts.setAllAlwaysAdd();
  flow->cfg_ = CFG::buildCFG(fn, body, &ctx, opts);
  if (flow->cfg_) {
    for (const CFGBlock *b : *flow->cfg_) {
      unsigned i = 0;
      for (const CFGElement &el : *b) {
        if (auto cs = el.getAs<CFGStmt>()) {
          const Stmt *s = cs->getStmt();
          flow->pos_.emplace(s, CfgPos{b, i});
          if (auto *ds = dyn_cast<DeclStmt>(s))
            for (const Decl *d : ds->decls())
              if (auto *vd = dyn_cast<VarDecl>(d))
                flow->declPos_.emplace(vd, CfgPos{b, i});
        }
        ++i;
      }
      if (const auto *loop = dyn_cast_or_null<ForStmt>(b->getTerminatorStmt()))
        flow->loopExit_.emplace(loop, CfgPos{b, static_cast<unsigned>(b->size())});
    }
  }
  flow->classify(ctx, bound);
  return flow;
}

void FunctionFlow::classify(ASTContext &ctx, const std::map<const VarDecl *, int64_t> *bound) {
  ParentMap pm(fn_->getBody());
  std::map<const VarDecl *, const DeclStmt *> declStmts;
  Classifier c(ctx, pm, events_, declStmts, bound);
  c.TraverseStmt(fn_->getBody());
  // An escape's statement: the innermost enclosing statement the CFG holds, or none (then the
  // escape refuses every use of the variable, as one whose place is unknown must).
  for (auto &[vd, events] : events_)
    for (VarEvent &e : events) {
      if (e.kind != VarEvent::Escape || !e.stmt)
        continue;
      const Stmt *s = e.stmt;
      while (s && !pos_.count(s))
        s = pm.getParent(s);
      e.stmt = s;
    }
}

std::optional<CfgPos> FunctionFlow::position(const Stmt *s) const {
  if (auto it = pos_.find(s); it != pos_.end())
    return it->second;
  return std::nullopt;
}

std::optional<CfgPos> FunctionFlow::eventPosition(const VarEvent &e, const VarDecl *var) const {
  if (e.loop) {
    if (auto it = loopExit_.find(e.loop); it != loopExit_.end())
      return it->second;
    return std::nullopt;
  }
  if (e.kind == VarEvent::Init) {
    if (auto it = declPos_.find(var); it != declPos_.end())
      return it->second;
    return std::nullopt;
  }
  return position(e.stmt);
}

std::vector<const VarEvent *> FunctionFlow::eventsFor(const VarDecl *var,
                                                      std::optional<int64_t> element) const {
  std::vector<const VarEvent *> out;
  auto it = events_.find(var);
  if (it == events_.end())
    return out;
  for (const VarEvent &e : it->second)
    if (!element || !e.element || e.element == element || e.anyElement)
      out.push_back(&e);
  return out;
}

bool FunctionFlow::reaches(std::optional<CfgPos> from, CfgPos to,
                           const std::vector<CfgPos> &kills) const {
  std::map<const CFGBlock *, std::vector<unsigned>> killsIn;
  for (const CfgPos &k : kills)
    killsIn[k.block].push_back(k.index);
  std::set<const CFGBlock *> seen;
  std::vector<std::pair<const CFGBlock *, unsigned>> work;
  if (from)
    work.push_back({from->block, from->index + 1});
  else
    work.push_back({&cfg_->getEntry(), 0});
  while (!work.empty()) {
    auto [b, start] = work.back();
    work.pop_back();
    const std::vector<unsigned> &ks = killsIn[b];
    unsigned firstKill = ~0u;
    for (unsigned k : ks)
      if (k >= start)
        firstKill = std::min(firstKill, k);
    if (b == to.block && to.index >= start && firstKill >= to.index)
      return true;
    if (firstKill != ~0u)
      continue;
    for (const CFGBlock::AdjacentBlock &succ : b->succs()) {
      const CFGBlock *s = succ.getReachableBlock();
      if (s && seen.insert(s).second)
        work.push_back({s, 0});
    }
  }
  return false;
}

Unresolved FunctionFlow::severalDefinitions(const std::vector<const VarEvent *> &reaching,
                                            const std::vector<Placed> &defs) const {
  const SourceManager &sm = ctx_->getSourceManager();
  auto placeOf = [&](const VarEvent *e) {
    for (const Placed &d : defs)
      if (d.e == e)
        return d.pos;
    return CfgPos{};
  };
  // One definition reaching another (a conditional or looping assignment after the first) is a
  // reassignment; definitions none of which leads to another are alternatives (if/else).
  for (const VarEvent *a : reaching)
    for (const VarEvent *b : reaching)
      if (a != b && reaches(placeOf(a), placeOf(b), {}))
        return {"is reassigned on " + lineOf(b->loc, sm), b->loc};
  std::string lines;
  for (size_t i = 0; i < reaching.size(); ++i) {
    std::string line = lineOf(reaching[i]->loc, sm);
    if (i == 0)
      lines = line;
    else
      lines += (i + 1 == reaching.size() ? " or " : ", ") + line.substr(line.find(' ') + 1);
  }
  return {"is defined on " + lines + ", depending on the path taken", reaching[1]->loc};
}

const VarEvent *FunctionFlow::reachingDefinition(const VarDecl *var,
                                                 std::optional<int64_t> element, CfgPos atPos,
                                                 SourceLocation atLoc, Unresolved &why) const {
  const SourceManager &sm = ctx_->getSourceManager();
  std::vector<const VarEvent *> evs = eventsFor(var, element);
  for (const VarEvent *e : evs)
    if (e->kind == VarEvent::Escape) {
      // An escape from which no path leads to this use has not happened yet when the use runs,
      // in this call of the function: the pointer or reference it makes does not exist, and an
      // automatic variable is a new object in every call. (`for (auto *t : {&a, &b})
      // MPI_Type_free(t);` after the exchange.) Unplaced escapes, and any inside a loop around
      // the use, still refuse.
      std::optional<CfgPos> p = cfg_ && e->stmt && var->hasLocalStorage() ? position(e->stmt)
                                                                           : std::nullopt;
      const bool samePlace = p && p->block == atPos.block && p->index == atPos.index;
      if (p && !samePlace && !reaches(p, atPos, {}))
        continue;
      why = {e->what + " on " + lineOf(e->loc, sm), e->loc};
      return nullptr;
    }
  if (!cfg_) {
    why = {"is used in a function whose control flow cannot be analysed", atLoc};
    return nullptr;
  }
  std::vector<Placed> defs, frees;
  for (const VarEvent *e : evs) {
    std::optional<CfgPos> p = eventPosition(*e, var);
    if (!p)
      continue; // unreachable code cannot define anything
    (e->kind == VarEvent::Free ? frees : defs).push_back({e, *p});
  }
  std::vector<CfgPos> killPos;
  for (const Placed &d : defs)
    killPos.push_back(d.pos);
  std::vector<const VarEvent *> reaching;
  for (const Placed &d : defs)
    if (reaches(d.pos, atPos, killPos))
      reaching.push_back(d.e);
  std::sort(reaching.begin(), reaching.end(), [&](const VarEvent *a, const VarEvent *b) {
    return sm.isBeforeInTranslationUnit(a->loc, b->loc);
  });
  for (const VarEvent *e : reaching)
    if (e->anyElement) {
      why = {"is written through a non-constant index on " + lineOf(e->loc, sm),
             e->loc};
      return nullptr;
    }
  if (reaching.size() > 1) {
    why = severalDefinitions(reaching, defs);
    return nullptr;
  }
  if (reaching.empty()) {
    why = {"is not defined before this use", atLoc};
    return nullptr;
  }
  const VarEvent *def = reaching.front();
  CfgPos defPos{};
  for (const Placed &d : defs)
    if (d.e == def)
      defPos = d.pos;
  if (reaches(std::nullopt, atPos, {defPos})) {
    why = {"is not defined on every path to this use", def->loc};
    return nullptr;
  }
  for (const Placed &f : frees)
    if (reaches(f.pos, atPos, killPos)) {
      why = {"is freed on " + lineOf(f.e->loc, sm) + " before this use", f.e->loc};
      return nullptr;
    }
  return def;
}

} // namespace tempi::frontend

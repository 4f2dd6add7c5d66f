/// \file
/// FunctionFlow: classification of every reference to a local variable, and reachability on the
/// CFG (see Flow.h for the rules). Conservative: a reference it does not understand is an escape.
#include "tool/clang/Flow.h"

#include "tool/clang/MpiNames.h"
#include "tool/clang/TranslationUnitScan.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/OpenMPClause.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
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
    if (const auto *v = dyn_cast<VarDecl>(ref->getDecl())) {
      // A global's references may name any of its declarations; sets hold the canonical one.
      if (vars.count(v))
        return v;
      if (vars.count(v->getCanonicalDecl()))
        return v->getCanonicalDecl();
    }
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

} // namespace

std::string directCalleeName(const CallExpr *c) {
  if (const FunctionDecl *fd = c->getDirectCallee())
    return fd->getIdentifier() ? fd->getName().str() : fd->getNameAsString(); // `operator()`
  return "";
}

int argumentIndex(const CallExpr *c, const Stmt *arg) {
  // A member operator's call (a lambda's or functor's `f(x)`, a class's `a = b`) lists the
  // object first: argument i is parameter i - 1, and the object is no parameter.
  unsigned shift = 0;
  if (const auto *op = dyn_cast<CXXOperatorCallExpr>(c))
    if (const auto *m = dyn_cast_or_null<CXXMethodDecl>(op->getDirectCallee());
        m && m->isImplicitObjectMemberFunction())
      shift = 1;
  for (unsigned i = 0; i < c->getNumArgs(); ++i)
    if (c->getArg(i) == arg)
      return i < shift ? -1 : static_cast<int>(i - shift);
  return -1;
}

bool isWithin(const ParentMap &pm, const Stmt *s, const Stmt *ancestor) {
  for (int guard = 0; s && guard < 256; ++guard, s = pm.getParent(s))
    if (s == ancestor)
      return true;
  return false;
}

bool isHelperDatatypeOutput(const CallExpr *call, unsigned i) {
  const FunctionDecl *fd = call->getDirectCallee();
  const FunctionDecl *def = nullptr;
  if (!fd || !fd->hasBody(def) || !def || i >= def->getNumParams())
    return false;
  QualType t = def->getParamDecl(i)->getType();
  QualType pointee;
  if (const auto *pt = t->getAs<PointerType>())
    pointee = pt->getPointeeType();
  else if (const auto *rt = t->getAs<LValueReferenceType>())
    pointee = rt->getPointeeType();
  return !pointee.isNull() && !pointee.isConstQualified() && isDatatypeType(pointee);
}

bool paramIsConstPointer(const CallExpr *c, int i) {
  const FunctionDecl *fd = c->getDirectCallee();
  if (!fd || i < 0 || static_cast<unsigned>(i) >= fd->getNumParams())
    return false; // variadic or indirect: may write
  // A datatype constructor only reads its arrays (the standard makes them IN arguments), also
  // where an MPI header declares them without const: MPI-1's MPI_Type_struct and
  // MPI_Type_hindexed in MPICH and Open MPI 4.
  if (const ConstructorSpec *ctor = findConstructor(fd->getIdentifier() ? fd->getName() : "");
      ctor && static_cast<size_t>(i) < ctor->args.size() && ctor->args[i].role != ArgRole::NewType)
    return true;
  QualType t = fd->getParamDecl(i)->getType();
  if (const auto *pt = t->getAs<PointerType>())
    return pt->getPointeeType().isConstQualified();
  if (const auto *rt = t->getAs<ReferenceType>())
    return rt->getPointeeType().isConstQualified();
  return !t->isPointerType() && !t->isReferenceType();
}

namespace {

bool isGetAddress(const std::string &name) {
  return name == "MPI_Get_address" || name == "MPI_Address"; // MPI-1's name, same arguments
}

/// The MPI datatype calls whose pointer arguments the flow reads as outputs or reads: the
/// constructors, the size and extent queries, commit and free, and MPI_(Get_)address.
bool isTypeCall(const std::string &name) {
  return findConstructor(name) || findTypeQuery(name) ||
         findTypeManagement(name) != TypeManagement::None || isGetAddress(name);
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

/// The truth of a branch condition that constantIndex's values decide: a comparison of two of
/// them, !, && and || of such conditions, or one value (non-zero is true); with `nonNull`, a
/// pointer known not to be null tested (`!h`, `h == NULL`, `if (h)`); else none.
std::optional<bool> constantCondition(const Expr *e, ASTContext &ctx,
                                      const std::map<const VarDecl *, int64_t> *bound,
                                      const VarDecl *nonNull = nullptr) {
  e = e->IgnoreParens();
  auto isNonNull = [&](const Expr *x) {
    const auto *d = dyn_cast<DeclRefExpr>(x->IgnoreParenImpCasts());
    return nonNull && d && d->getDecl() == nonNull;
  };
  if (const auto *ice = dyn_cast<ImplicitCastExpr>(e);
      ice && ice->getCastKind() == CK_PointerToBoolean && isNonNull(ice->getSubExpr()))
    return true;
  e = e->IgnoreParenImpCasts();
  if (isNonNull(e))
    return true;
  if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_LNot) {
    std::optional<bool> c = constantCondition(u->getSubExpr(), ctx, bound, nonNull);
    return c ? std::optional<bool>(!*c) : std::nullopt;
  }
  if (const auto *bo = dyn_cast<BinaryOperator>(e)) {
    if (bo->isLogicalOp()) {
      // Either side decides the whole (false for &&, true for ||): the values read have no side
      // effects, so evaluation order does not matter.
      std::optional<bool> a = constantCondition(bo->getLHS(), ctx, bound, nonNull);
      std::optional<bool> b = constantCondition(bo->getRHS(), ctx, bound, nonNull);
      const bool decider = bo->getOpcode() == BO_LOr;
      if ((a && *a == decider) || (b && *b == decider))
        return decider;
      if (a && b)
        return !decider;
      return std::nullopt;
    }
    if (bo->isEqualityOp()) {
      const Expr *l = bo->getLHS(), *r = bo->getRHS();
      auto isNull = [&](const Expr *x) {
        return x->isNullPointerConstant(ctx, Expr::NPC_ValueDependentIsNotNull) !=
               Expr::NPCK_NotNull;
      };
      if ((isNonNull(l) && isNull(r)) || (isNonNull(r) && isNull(l)))
        return bo->getOpcode() == BO_NE;
    }
    if (bo->isComparisonOp()) {
      std::optional<int64_t> a = constantIndex(bo->getLHS(), ctx, bound);
      std::optional<int64_t> b = constantIndex(bo->getRHS(), ctx, bound);
      if (!a || !b)
        return std::nullopt;
      switch (bo->getOpcode()) {
      case BO_EQ: return *a == *b;
      case BO_NE: return *a != *b;
      case BO_LT: return *a < *b;
      case BO_LE: return *a <= *b;
      case BO_GT: return *a > *b;
      case BO_GE: return *a >= *b;
      default: return std::nullopt;
      }
    }
  }
  if (!bound)
    return std::nullopt;
  std::optional<int64_t> v = constantIndex(e, ctx, bound);
  return v ? std::optional<bool>(*v != 0) : std::nullopt;
}

/// f(k) for every iteration k from `first.value` to `end` - 1, of an index f of the loop's
/// variable (`2 * d + 1`), with `bound`'s other values; none if one is not a constant.
std::optional<std::vector<int64_t>>
elementOfEachIteration(const Expr *index, ASTContext &ctx,
                       const std::map<const VarDecl *, int64_t> *bound,
                       const LoopIteration &first, int64_t end) {
  std::map<const VarDecl *, int64_t> b = bound ? *bound : std::map<const VarDecl *, int64_t>{};
  std::vector<int64_t> out;
  for (int64_t k = first.value; k < end; ++k) {
    b[first.var] = k;
    std::optional<int64_t> idx = constantIndex(index, ctx, &b);
    if (!idx)
      return std::nullopt;
    out.push_back(*idx);
  }
  return out;
}

/// `e` as iteration `it`'s write of `element`: placed where the loop exits (or, for an earlier
/// iteration in an iteration flow, at the loop's head, the same CFG position) and evaluated in
/// that iteration (VarEvent::inIteration).
VarEvent iterationEvent(VarEvent e, const LoopIteration &it, int64_t element) {
  e.anyElement = false;
  e.iterationIndex = nullptr;
  e.element = element;
  e.stmt = it.loop;
  e.loop = it.loop;
  e.loopVar = it.var;
  e.loopValue = it.value;
  e.loopFirst = it.first;
  e.inIteration = true;
  return e;
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

bool isDatatypeType(QualType t) {
  for (int guard = 0; guard < 16; ++guard) {
    const auto *tt = t->getAs<TypedefType>();
    if (!tt)
      return false;
    if (tt->getDecl()->getName() == "MPI_Datatype")
      return true;
    t = tt->desugar();
  }
  return false;
}

namespace {

/// Whether an object of type t holds an MPI_Datatype anywhere (itself, an element, a member).
bool holdsDatatype(QualType t, int depth = 0) {
  if (depth > 8)
    return true; // too deep to look through: assume it does
  if (isDatatypeType(t))
    return true;
  if (const ArrayType *at = t->getAsArrayTypeUnsafe())
    return holdsDatatype(at->getElementType(), depth + 1);
  if (const RecordDecl *rd = t->getAsRecordDecl()) {
    const RecordDecl *def = rd->getDefinition();
    if (!def)
      return false;
    for (const FieldDecl *f : def->fields())
      if (holdsDatatype(f->getType(), depth + 1))
        return true;
  }
  return false;
}

} // namespace

const RecordDecl *datatypeRecord(QualType t) {
  if (t->isReferenceType())
    return nullptr;
  const RecordDecl *rd = t->getAsRecordDecl();
  rd = rd ? rd->getDefinition() : nullptr;
  if (!rd || !rd->isStruct())
    return nullptr;
  if (const auto *cxx = dyn_cast<CXXRecordDecl>(rd); cxx && !cxx->isCLike())
    return nullptr;
  bool any = false;
  for (const FieldDecl *f : rd->fields()) {
    if (isDatatypeType(f->getType()) || isDatatypeArrayMember(f)) {
      any = true;
      continue;
    }
    if (f->isBitField() || holdsDatatype(f->getType()))
      return nullptr; // a datatype deeper inside (a 2-D array, a nested struct): not followed
  }
  return any ? rd : nullptr;
}

bool isDatatypeArrayMember(const FieldDecl *f) {
  const ConstantArrayType *cat = f->getASTContext().getAsConstantArrayType(f->getType());
  return cat && !cat->getElementType()->isArrayType() && isDatatypeType(cat->getElementType()) &&
         cat->getSize().ule(static_cast<uint64_t>(kMemberStride));
}

const RecordDecl *datatypeRecordOf(const VarDecl *var) {
  QualType t = var->getType();
  if (isa<ParmVarDecl>(var) && (t->isPointerType() || t->isLValueReferenceType()))
    t = t->getPointeeType().getUnqualifiedType();
  return datatypeRecord(t);
}

const ParmVarDecl *recordOutputParam(const CallExpr *call, unsigned i, const RecordDecl *record) {
  const FunctionDecl *fd = call->getDirectCallee();
  const FunctionDecl *def = nullptr;
  // An operator's arguments and parameters are not numbered alike (a member's object is one).
  if (!record || !fd || isa<CXXOperatorCallExpr>(call) || !fd->hasBody(def) || !def ||
      i >= def->getNumParams() || i >= call->getNumArgs())
    return nullptr;
  const ParmVarDecl *p = def->getParamDecl(i);
  const RecordDecl *pointee = datatypeRecordOf(p);
  return pointee && pointee->getCanonicalDecl() == record->getCanonicalDecl() &&
                 (p->getType()->isPointerType() || p->getType()->isLValueReferenceType()) &&
                 !p->getType()->getPointeeType().isConstQualified()
             ? p
             : nullptr;
}

std::optional<DatatypeMember> datatypeMember(const VarDecl *var, int64_t element) {
  const RecordDecl *rd = datatypeRecordOf(var);
  if (!rd || element < 0)
    return std::nullopt;
  const int64_t field = element / kMemberStride, index = element % kMemberStride;
  for (const FieldDecl *f : rd->fields()) {
    if (f->getFieldIndex() != field)
      continue;
    if (isDatatypeType(f->getType()) && index == 0)
      return DatatypeMember{f, std::nullopt};
    if (isDatatypeArrayMember(f) &&
        static_cast<uint64_t>(index) <
            var->getASTContext().getAsConstantArrayType(f->getType())->getSize().getZExtValue())
      return DatatypeMember{f, index};
    return std::nullopt;
  }
  return std::nullopt;
}

std::string memberAddressEscape(const MemberExpr *me, ASTContext &ctx) {
  const std::string member = "'" + me->getMemberDecl()->getNameAsString() + "'";
  const Expr *cur = me; // the innermost object reached: a member of a member, an element
  const Stmt *child = nullptr;
  const Stmt *p = parentAboveParensAndCasts(cur, child, ctx);
  for (int guard = 0; p && guard < 64; ++guard) {
    const auto *inner = dyn_cast<MemberExpr>(p);
    const auto *ase = dyn_cast<ArraySubscriptExpr>(p);
    if (!(inner && !inner->isArrow()) && !(ase && ase->getBase()->IgnoreParenImpCasts() == cur))
      break;
    cur = cast<Expr>(p);
    p = parentAboveParensAndCasts(cur, child, ctx);
  }
  // C++: bound to a reference that may write (a parameter `int &`, a variable `int &r`), which
  // is its address under another name.
  auto writableReference = [](QualType t) {
    return t->isReferenceType() && !t->getPointeeType().isConstQualified();
  };
  const auto *load = dyn_cast_or_null<ImplicitCastExpr>(child);
  const bool byValue = load && load->getCastKind() == CK_LValueToRValue;
  if (const auto *call = dyn_cast_or_null<CallExpr>(p);
      call && !byValue && !cur->getType()->isArrayType() && !isa<CXXOperatorCallExpr>(call)) {
    const int k = argumentIndex(call, child);
    const FunctionDecl *fd = call->getDirectCallee();
    const bool byReference =
        k >= 0 && (!fd || static_cast<unsigned>(k) >= fd->getNumParams() ||
                   writableReference(fd->getParamDecl(static_cast<unsigned>(k))->getType()));
    if (byReference)
      return "has its member " + member + " passed by reference to " +
             (directCalleeName(call).empty() ? std::string("an indirect call")
                                             : "'" + directCalleeName(call) + "'");
  }
  if (!p && child) // an initializer: its parent is the declaration
    for (const DynTypedNode &n : ctx.getParents(*child))
      if (const auto *vd = n.get<VarDecl>(); vd && writableReference(vd->getType()))
        return "has its member " + member + " bound to the reference '" +
               vd->getNameAsString() + "'";
  const auto *addr = dyn_cast_or_null<UnaryOperator>(p);
  if (addr && addr->getOpcode() == UO_AddrOf)
    p = parentAboveParensAndCasts(addr, child, ctx);
  else if (!cur->getType()->isArrayType() || isa_and_nonnull<UnaryExprOrTypeTraitExpr>(p))
    return ""; // read or written in place
  // (else an array member decayed to a pointer)
  while (isa_and_nonnull<ExplicitCastExpr>(p)) // (void *)&h.n is still its address
    p = parentAboveParensAndCasts(p, child, ctx);
  if (const auto *call = dyn_cast_or_null<CallExpr>(p)) {
    const int k = argumentIndex(call, child);
    const std::string callee = directCalleeName(call);
    if (k >= 0 && paramIsConstPointer(call, k))
      return "";
    // An MPI function's typed output (`int *rank`) is written as one object of its type; a
    // receive buffer (`void *`) is written for `count` elements, which may run on.
    const FunctionDecl *fd = call->getDirectCallee();
    if (k >= 0 && fd && static_cast<unsigned>(k) < fd->getNumParams() &&
        (callee.rfind("MPI_", 0) == 0 || callee.rfind("PMPI_", 0) == 0) &&
        !fd->getParamDecl(static_cast<unsigned>(k))->getType()->isVoidPointerType())
      return "";
    return "has the address of its member " + member + " passed to " +
           (callee.empty() ? std::string("an indirect call") : "'" + callee + "'");
  }
  return "has the address of its member " + member + " taken";
}

std::optional<int64_t> rowLength(QualType t, const ASTContext &ctx) {
  const ConstantArrayType *outer = ctx.getAsConstantArrayType(t);
  const ConstantArrayType *inner = outer ? ctx.getAsConstantArrayType(outer->getElementType())
                                         : nullptr;
  if (!inner || inner->getElementType()->isArrayType() || inner->getSize().getZExtValue() == 0 ||
      inner->getSize().getActiveBits() > 32 || outer->getSize().getActiveBits() > 32)
    return std::nullopt;
  return static_cast<int64_t>(inner->getSize().getZExtValue());
}

namespace {

/// How many FunctionFlows of a struct-pointer callee (Classifier::recordWrites) are being built
/// on this thread: a callee's own such calls are followed kMaxRecordCallDepth deep (the
/// helpers' four levels, DatatypeResolver), which also ends a recursion.
thread_local int recordCallDepth = 0;
constexpr int kMaxRecordCallDepth = 4;

class Classifier : public RecursiveASTVisitor<Classifier> {
public:
  Classifier(ASTContext &ctx, const ParentMap &pm,
             std::map<const VarDecl *, std::vector<VarEvent>> &events,
             std::map<const VarDecl *, const DeclStmt *> &declStmts,
             const std::map<const VarDecl *, int64_t> *bound,
             const std::set<const VarDecl *> *tracked, const LoopIteration *iteration,
             const Stmt *body, const ParmVarDecl *recordOut)
      : ctx_(ctx), pm_(pm), events_(events), declStmts_(declStmts), bound_(bound),
        tracked_(tracked), iteration_(iteration), body_(body), recordOut_(recordOut) {
    if (iteration_) {
      if (bound_)
        iterationBound_ = *bound_;
      iterationBound_[iteration_->var] = iteration_->value;
    }
  }

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
    const VarDecl *vd = classified(d->getDecl());
    if (!vd)
      return true;
    VarEvent e;
    e.loc = d->getLocation();
    if (capturedByLambdaOrBlock(d, ctx_)) {
      // A const number cannot change after its initialization, by reference or copy: the
      // lambda only reads it. (A const datatype handle still can: a copy of it may be freed.)
      const QualType t = vd->getType();
      if (t.isConstQualified() && !t.isVolatileQualified() && !t->isReferenceType() &&
          (t->isArithmeticType() || t->isEnumeralType()))
        return true;
      escape(vd, e, "is captured by a lambda or block"); // no position: refuses every use
      return true;
    }
    e.stmt = d; // an escape's place (FunctionFlow::classify finds its CFG statement)
    classify(d, vd, e);
    return true;
  }

private:
  /// The variable whose events a reference to `d` makes: a local variable, or a tracked array of
  /// static storage (by its canonical declaration); else nullptr.
  const VarDecl *classified(const Decl *d) const {
    const auto *vd = dyn_cast_or_null<VarDecl>(d);
    if (!vd)
      return nullptr;
    if (vd->hasLocalStorage())
      return vd;
    const VarDecl *canonical = vd->getCanonicalDecl();
    return tracked_ && tracked_->count(canonical) ? canonical : nullptr;
  }

  void escapeRef(const DeclRefExpr *ref, const std::string &what) {
    const VarDecl *vd = classified(ref->getDecl());
    if (!vd)
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

  /// A counted loop whose body the tool understands whole: `for (i = lo; i < hi; ++i) { ... }`
  /// (also `int i = lo`, `i <= hi`, `i++`, `i += 1`; lo and hi constants, 1 to 4096
  /// iterations) whose body holds nothing but
  ///   - `a[i] = E;`
  ///   - an MPI datatype constructor whose output is `&a[i]`, e.g.
  ///     `MPI_Type_create_subarray(3, sizes, sub, starts, order, MPI_DOUBLE, &face[i]);`
  ///   - `MPI_Type_commit(&a[i]);` of an array a constructor of the body writes,
  ///   - either call inside an error check that makes it once each time it runs
  ///     (wrappedDatatypeCall: `CHECK(MPI_Type_commit(&a[i]));`),
  /// with every a a local array holding every index of the range, and every value (E, the
  /// constructor's other arguments) free of side effects and reading an array the body writes
  /// only as `w[i]`, after the statement that writes it. Element k of each array written is
  /// then defined where the loop exits, by its statement read with i = k: the value of w[i] is
  /// iteration k's, and nothing else the values read changes inside the loop.
  struct CountedLoop {
    const ForStmt *loop = nullptr;
    const VarDecl *var = nullptr;
    int64_t lo = 0, hi = 0;
    std::set<const Stmt *> writes; ///< the assignments and calls that write a[i]
  };

  /// The counted loop (above) whose body writes an element through `stmt` (an assignment or a
  /// call), if `stmt` is one of its writes.
  std::optional<CountedLoop> countedLoopAround(const Stmt *stmt) {
    const Stmt *p = stmt;
    for (int guard = 0; guard < 64 && p; ++guard) {
      p = pm_.getParent(p);
      const auto *loop = dyn_cast_or_null<ForStmt>(p);
      if (!loop)
        continue;
      auto [it, fresh] = countedLoops_.try_emplace(loop);
      if (fresh)
        it->second = checkCountedLoop(loop);
      if (it->second && it->second->writes.count(stmt))
        return it->second;
      return std::nullopt;
    }
    return std::nullopt;
  }

  static bool isDatatypeCall(const CallExpr *call) {
    std::string name = directCalleeName(call);
    return findConstructor(name) || findTypeManagement(name) == TypeManagement::Commit;
  }

  /// Every datatype constructor and commit call under `s`; false if `s` holds a jump (break,
  /// continue, goto, a label), a loop other than `do ... while (0)`, a switch, or a lambda or
  /// block, which could skip the call or run it again.
  static bool collectDatatypeCalls(const Stmt *s, std::vector<const CallExpr *> &out) {
    if (!s)
      return true;
    if (isa<BreakStmt, ContinueStmt, GotoStmt, IndirectGotoStmt, LabelStmt, ForStmt, WhileStmt,
            CXXForRangeStmt, SwitchStmt, LambdaExpr, BlockExpr>(s))
      return false;
    if (const auto *d = dyn_cast<DoStmt>(s); d && !isFalseConstant(d->getCond()))
      return false;
    if (const auto *call = dyn_cast<CallExpr>(s); call && isDatatypeCall(call))
      out.push_back(call);
    for (const Stmt *child : s->children())
      if (!collectDatatypeCalls(child, out))
        return false;
    return true;
  }

  static bool isFalseConstant(const Expr *e) {
    const auto *lit = e ? dyn_cast<IntegerLiteral>(e->IgnoreParenImpCasts()) : nullptr;
    return lit && lit->getValue() == 0;
  }

  /// Whether `p` evaluates its part `child` exactly once each time `p` runs (up to `p`'s end,
  /// where nothing may jump away: collectDatatypeCalls refuses jumps).
  bool evaluatesOnce(const Stmt *p, const Stmt *child) const {
    if (isa<ParenExpr, ImplicitCastExpr, CStyleCastExpr, DeclStmt>(p))
      return true;
    if (const auto *call = dyn_cast<CallExpr>(p))
      return argumentIndex(call, child) >= 0; // a checking function's argument
    if (const auto *bo = dyn_cast<BinaryOperator>(p))
      return !bo->isLogicalOp() || bo->getLHS() == child; // `rc = CALL`, `CALL != MPI_SUCCESS`
    if (const auto *uo = dyn_cast<UnaryOperator>(p))
      return uo->getOpcode() == UO_LNot;
    if (const auto *co = dyn_cast<ConditionalOperator>(p))
      return co->getCond() == child;
    if (const auto *is = dyn_cast<IfStmt>(p))
      return is->getCond() == child || is->getConditionVariableDeclStmt() == child;
    if (const auto *d = dyn_cast<DoStmt>(p))
      return d->getBody() == child; // while (0): collectDatatypeCalls checked
    if (const auto *cs = dyn_cast<CompoundStmt>(p)) {
      // Only declarations before it: nothing that could return first.
      for (const Stmt *st : cs->body()) {
        if (st == child)
          return true;
        if (!isa<DeclStmt, NullStmt>(st))
          return false;
      }
    }
    return false;
  }

  /// The one datatype constructor or commit call that the body statement `st` wraps in an error
  /// check and makes exactly once each time it runs: `check(CALL, "what");`,
  /// `if (CALL != MPI_SUCCESS) ...;`, `if ((rc = CALL)) ...;`, `do { int rc = CALL; if (rc)
  /// ... } while (0)`. Whatever else the statement does cannot change the values the loop's
  /// definitions read where they are evaluated, at the loop's exit: a variable the body writes
  /// has no definition there that dominates the exit, so a read of it stays unproven.
  const CallExpr *wrappedDatatypeCall(const Stmt *st) const {
    std::vector<const CallExpr *> calls;
    if (!collectDatatypeCalls(st, calls) || calls.size() != 1)
      return nullptr;
    const Stmt *child = calls.front();
    for (int guard = 0; guard < 64 && child != st; ++guard) {
      const Stmt *p = pm_.getParent(child);
      if (!p || !evaluatesOnce(p, child))
        return nullptr;
      child = p;
    }
    return child == st ? calls.front() : nullptr;
  }

  /// The local (or tracked) array `x` names, with every index of [lo, hi) inside it, or nullptr.
  const VarDecl *arrayCovering(const Expr *x, int64_t lo, int64_t hi) {
    const auto *base = dyn_cast<DeclRefExpr>(x->IgnoreParenImpCasts());
    const VarDecl *arr = base ? classified(base->getDecl()) : nullptr;
    if (!arr)
      return nullptr;
    const ConstantArrayType *cat = ctx_.getAsConstantArrayType(arr->getType());
    if (!cat || lo < 0 || hi > static_cast<int64_t>(cat->getSize().getZExtValue()))
      return nullptr;
    return arr;
  }

  /// `a[i]` with i the variable `i`: the array a, else nullptr.
  static const Expr *elementAtLoopIndex(const Expr *x, const VarDecl *i) {
    const auto *ase = x ? dyn_cast<ArraySubscriptExpr>(x->IgnoreParens()) : nullptr;
    const auto *k = ase ? dyn_cast<DeclRefExpr>(ase->getIdx()->IgnoreParenImpCasts()) : nullptr;
    return k && k->getDecl() == i ? ase->getBase() : nullptr;
  }

  /// `&a[i]`: the array a, else nullptr.
  static const Expr *addressOfElementAtLoopIndex(const Expr *x, const VarDecl *i) {
    const auto *addr = x ? dyn_cast<UnaryOperator>(x->IgnoreParenImpCasts()) : nullptr;
    return addr && addr->getOpcode() == UO_AddrOf ? elementAtLoopIndex(addr->getSubExpr(), i)
                                                  : nullptr;
  }

  /// Whether `s` reads the arrays the loop writes only as w[i] of one already written.
  static bool readsWrittenOnlyAsEarlierElement(const Stmt *s, const VarDecl *i,
                                               const std::set<const VarDecl *> &written,
                                               const std::set<const VarDecl *> &earlier) {
    if (!s)
      return true;
    if (const auto *x = dyn_cast<Expr>(s))
      if (const Expr *base = elementAtLoopIndex(x, i))
        if (const VarDecl *w = firstReadOf(base, written))
          return earlier.count(w) && isa<DeclRefExpr>(base->IgnoreParenImpCasts());
    if (const auto *ref = dyn_cast<DeclRefExpr>(s))
      return !firstReadOf(ref, written);
    for (const Stmt *child : s->children())
      if (!readsWrittenOnlyAsEarlierElement(child, i, written, earlier))
        return false;
    return true;
  }

  /// The header of a counted loop: its variable (a local, non-volatile integer) and range.
  std::optional<CountedLoop> countedHeader(const ForStmt *loop) {
    const VarDecl *i = loopVariable(loop);
    if (!i || !i->hasLocalStorage() || !i->getType()->isIntegerType() ||
        i->getType().isVolatileQualified())
      return std::nullopt;
    std::optional<std::pair<int64_t, int64_t>> range = countedRange(loop, i);
    if (!range)
      return std::nullopt;
    return CountedLoop{loop, i, range->first, range->second, {}};
  }

  std::optional<CountedLoop> checkCountedLoop(const ForStmt *loop) {
    std::optional<CountedLoop> header = countedHeader(loop);
    if (!header)
      return std::nullopt;
    const VarDecl *i = header->var;
    std::vector<const Stmt *> body;
    if (const auto *cs = dyn_cast<CompoundStmt>(loop->getBody()))
      body.assign(cs->body_begin(), cs->body_end());
    else
      body.push_back(loop->getBody());
    // Each statement: the array it writes (none for a commit) and the values it reads.
    std::vector<std::pair<const VarDecl *, std::vector<const Expr *>>> statements;
    std::set<const VarDecl *> written;
    std::set<const Stmt *> writes;
    for (const Stmt *st : body) {
      const VarDecl *out = nullptr;
      std::vector<const Expr *> values;
      const auto *direct = dyn_cast<CallExpr>(st);
      if (!isa<BinaryOperator>(st) && !(direct && isDatatypeCall(direct))) {
        st = wrappedDatatypeCall(st);
        if (!st)
          return std::nullopt;
      }
      writes.insert(st);
      if (const auto *w = dyn_cast<BinaryOperator>(st); w && w->getOpcode() == BO_Assign) {
        const Expr *a = elementAtLoopIndex(w->getLHS(), i);
        out = a ? arrayCovering(a, header->lo, header->hi) : nullptr;
        values.push_back(w->getRHS());
      } else if (const auto *call = dyn_cast<CallExpr>(st)) {
        std::string name = directCalleeName(call);
        if (const ConstructorSpec *spec = findConstructor(name);
            spec && call->getNumArgs() == spec->args.size()) {
          for (unsigned k = 0; k < call->getNumArgs(); ++k) {
            if (spec->args[k].role != ArgRole::NewType) {
              values.push_back(call->getArg(k));
            } else if (const Expr *a = addressOfElementAtLoopIndex(call->getArg(k), i)) {
              out = arrayCovering(a, header->lo, header->hi);
            }
          }
        } else if (findTypeManagement(name) == TypeManagement::Commit && call->getNumArgs() == 1) {
          const Expr *a = addressOfElementAtLoopIndex(call->getArg(0), i);
          const VarDecl *committed = a ? arrayCovering(a, header->lo, header->hi) : nullptr;
          if (!committed || !written.count(committed))
            return std::nullopt;
          statements.push_back({nullptr, {}});
          continue;
        }
      }
      if (!out)
        return std::nullopt;
      written.insert(out);
      statements.push_back({out, std::move(values)});
    }
    std::set<const VarDecl *> earlier;
    for (const auto &[out, values] : statements) {
      for (const Expr *v : values)
        if (v->HasSideEffects(ctx_) ||
            !readsWrittenOnlyAsEarlierElement(v, i, written, earlier))
          return std::nullopt;
      if (out)
        earlier.insert(out);
    }
    header->writes = std::move(writes);
    return header;
  }

  /// The variable a for loop's init sets: `i = lo` or `int i = lo`.
  static const VarDecl *loopVariable(const ForStmt *loop) {
    if (const auto *ds = dyn_cast_or_null<DeclStmt>(loop->getInit()); ds && ds->isSingleDecl())
      return dyn_cast<VarDecl>(ds->getSingleDecl());
    if (const auto *bo = dyn_cast_or_null<BinaryOperator>(loop->getInit());
        bo && bo->getOpcode() == BO_Assign)
      if (const auto *r = dyn_cast<DeclRefExpr>(bo->getLHS()->IgnoreParenImpCasts()))
        return dyn_cast<VarDecl>(r->getDecl());
    return nullptr;
  }

  /// `stmt` (an `a[i] = E` or a constructor writing `&a[i]`) in a counted loop over i: one event
  /// per element of the range, a copy of `e` placed where the loop exits. Returns whether so.
  bool countedLoopWrite(const VarDecl *vd, const ArraySubscriptExpr *ase, const Stmt *stmt,
                        const VarEvent &e) {
    std::optional<CountedLoop> loop = countedLoopAround(stmt);
    const auto *idx = dyn_cast<DeclRefExpr>(ase->getIdx()->IgnoreParenImpCasts());
    if (!loop || !idx || idx->getDecl() != loop->var)
      return false;
    // Every index inside the array (a struct's array member is followed by another member).
    const ConstantArrayType *cat =
        ctx_.getAsConstantArrayType(ase->getBase()->IgnoreParenImpCasts()->getType());
    if (cat && (loop->lo < 0 || static_cast<uint64_t>(loop->hi) > cat->getSize().getZExtValue()))
      return false;
    for (int64_t k = loop->lo; k < loop->hi; ++k) {
      VarEvent one = e;
      one.anyElement = false;
      one.element = e.elementBase + k;
      one.stmt = loop->loop;
      one.loop = loop->loop;
      one.loopVar = loop->var;
      one.loopValue = k;
      events_[vd].push_back(one);
    }
    return true;
  }

  /// The bound values an index at `s` may use: the iteration's variable only inside its loop's
  /// body (elsewhere the variable has other values).
  const std::map<const VarDecl *, int64_t> *boundAt(const Stmt *s) const {
    return iteration_ && isWithin(pm_, s, iteration_->loop->getBody()) ? &iterationBound_ : bound_;
  }

  /// The value of an index, or none; one that only the iteration's variable makes constant is
  /// noted in `e.iterationIndex` (other iterations write other elements through it).
  std::optional<int64_t> indexValue(const Expr *idx, VarEvent &e) const {
    const std::map<const VarDecl *, int64_t> *b = boundAt(idx);
    std::optional<int64_t> k = constantIndex(idx, ctx_, b);
    if (k && b == &iterationBound_ && !constantIndex(idx, ctx_, bound_))
      e.iterationIndex = idx;
    return k;
  }

  /// A loop whose iterations the tool evaluates one by one (iteratedLoopWrite): a counted loop
  /// header (at most 64 iterations) over a variable that nothing writes in the body or through
  /// a pointer, whose body holds no break, continue, goto or label.
  std::optional<CountedLoop> checkIteratedLoop(const ForStmt *loop) {
    std::optional<CountedLoop> header = countedHeader(loop);
    if (!header || header->hi - header->lo > kMaxIterated || hasJump(loop->getBody()) ||
        !onlyReadIn(loop->getBody(), header->var) || addressEscapes(body_, header->var))
      return std::nullopt;
    return header;
  }
  static constexpr int64_t kMaxIterated = 64;

  static bool hasJump(const Stmt *s) {
    if (!s)
      return false;
    if (isa<BreakStmt, ContinueStmt, GotoStmt, IndirectGotoStmt, LabelStmt>(s))
      return true;
    for (const Stmt *child : s->children())
      if (hasJump(child))
        return true;
    return false;
  }

  /// How one reference uses its variable: loads it (or names it in sizeof), writes it (the left
  /// of an assignment, ++, --), or anything else (its address, a reference bound to it).
  enum class Use { Load, Write, Other };
  Use useOf(const DeclRefExpr *ref) const {
    const Stmt *child = ref;
    const Stmt *p = skipUp(pm_, ref, child);
    if (const auto *ice = dyn_cast_or_null<ImplicitCastExpr>(p);
        (ice && ice->getCastKind() == CK_LValueToRValue) || isa_and_nonnull<UnaryExprOrTypeTraitExpr>(p))
      return Use::Load;
    if (const auto *bo = dyn_cast_or_null<BinaryOperator>(p);
        bo && bo->isAssignmentOp() && bo->getLHS() == child)
      return Use::Write;
    if (const auto *uo = dyn_cast_or_null<UnaryOperator>(p); uo && uo->isIncrementDecrementOp())
      return Use::Write;
    return Use::Other;
  }

  /// Whether some reference to `v` under `s` uses it otherwise than `allowed` says.
  bool usedOtherwise(const Stmt *s, const VarDecl *v, bool (*allowed)(Use)) const {
    if (!s)
      return false;
    if (const auto *ref = dyn_cast<DeclRefExpr>(s); ref && ref->getDecl() == v)
      return !allowed(useOf(ref));
    for (const Stmt *child : s->children())
      if (usedOtherwise(child, v, allowed))
        return true;
    return false;
  }

  /// Whether every reference to `v` under `s` loads its value.
  bool onlyReadIn(const Stmt *s, const VarDecl *v) const {
    return !usedOtherwise(s, v, [](Use u) { return u == Use::Load; });
  }

  /// Whether `v`'s address is taken (or a reference bound to it) anywhere under `s`.
  bool addressEscapes(const Stmt *s, const VarDecl *v) const {
    return usedOtherwise(s, v, [](Use u) { return u != Use::Other; });
  }

  /// `&a[f(i)]` as the output of a constructor (or a builder helper) that runs once in every
  /// iteration of a loop the tool evaluates iteration by iteration (checkIteratedLoop): the call
  /// is a statement of the body, or the one call of an error check there (wrappedDatatypeCall),
  /// so no earlier statement can skip it. One event per iteration k, for element f(k), placed where the loop
  /// exits and evaluated at the call in iteration k (FunctionFlow::iterationFlow), where the
  /// body's own set-up (`int sub[3] = {N, N, N}; sub[d] = 1;`) is proven as straight-line code.
  /// Returns whether so.
  bool iteratedLoopWrite(const VarDecl *vd, const ArraySubscriptExpr *ase, const CallExpr *call,
                         const VarEvent &e) {
    const Stmt *child = call;
    const Stmt *p = pm_.getParent(call);
    const ForStmt *loop = nullptr;
    for (int guard = 0; p && guard < 64 && !loop; ++guard) {
      const auto *f = dyn_cast<ForStmt>(p);
      const auto *cs = dyn_cast<CompoundStmt>(p);
      const auto *fp = cs ? dyn_cast_or_null<ForStmt>(pm_.getParent(cs)) : nullptr;
      if (f && f->getBody() == child)
        loop = f;
      else if (fp && fp->getBody() == cs)
        loop = fp;
      else if (f || isa<WhileStmt, CXXForRangeStmt, SwitchStmt>(p) ||
               (isa<DoStmt>(p) && !isFalseConstant(cast<DoStmt>(p)->getCond())))
        return false; // inside another loop, or the loop's header
      else {
        child = p;
        p = pm_.getParent(p);
      }
    }
    if (!loop || (child != call && wrappedDatatypeCall(child) != call))
      return false;
    auto [it, fresh] = iteratedLoops_.try_emplace(loop);
    if (fresh)
      it->second = checkIteratedLoop(loop);
    const QualType arrayType = ase->getBase()->IgnoreParenImpCasts()->getType(); // a member's too
    const ConstantArrayType *cat = ctx_.getAsConstantArrayType(arrayType);
    if (!it->second || !cat || rowLength(arrayType, ctx_))
      return false;
    const CountedLoop &l = *it->second;
    LoopIteration first{loop, l.var, l.lo, l.lo};
    std::optional<std::vector<int64_t>> elements =
        elementOfEachIteration(ase->getIdx(), ctx_, bound_, first, l.hi);
    if (!elements)
      return false;
    for (int64_t k : *elements)
      if (k < 0 || static_cast<uint64_t>(k) >= cat->getSize().getZExtValue())
        return false;
    for (int64_t k = l.lo; k < l.hi; ++k)
      events_[vd].push_back(iterationEvent(e, {loop, l.var, k, l.lo},
                                           e.elementBase +
                                               (*elements)[static_cast<size_t>(k - l.lo)]));
    return true;
  }

  /// A loop bound: a constant the folder knows, or a local integer that is never written after
  /// its constant initializer (`int nfaces = 6;` ... `d < nfaces`): every reference to it in the
  /// function loads it, so it holds the initializer's value wherever it is in scope.
  std::optional<int64_t> loopBound(const Expr *e) {
    if (std::optional<int64_t> v = constantIndex(e, ctx_, nullptr))
      return v;
    const auto *ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    const auto *v = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    if (!v || !v->hasLocalStorage() || isa<ParmVarDecl>(v) || !v->getType()->isIntegerType() ||
        v->getType().isVolatileQualified() || !v->getInit() || !onlyReadIn(body_, v))
      return std::nullopt;
    return constantIndex(v->getInit(), ctx_, nullptr);
  }

  /// [lo, hi) of a counted loop over `i`: init `i = lo` or `int i = lo`, condition `i < hi` or
  /// `i <= hi`, step `++i`, `i++` or `i += 1`; lo and hi bounds (loopBound); 1 to 4096
  /// iterations.
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
    std::optional<int64_t> lo = loopBound(loExpr);
    std::optional<int64_t> hi = loopBound(cond->getRHS());
    if (!step || !lo || !hi)
      return std::nullopt;
    const int64_t end = *hi + (cond->getOpcode() == BO_LE ? 1 : 0);
    if (end <= *lo || end - *lo > 4096)
      return std::nullopt;
    return std::make_pair(*lo, end);
  }

  /// An escape concerns the whole variable: a pointer or reference to one element of an array
  /// reaches every element by arithmetic (`f(&a[2])` may write a[0]).
  void escape(const VarDecl *vd, VarEvent e, std::string what) {
    if (e.element) {
      e.element.reset();
      e.anyElement = true;
    }
    e.kind = VarEvent::Escape;
    e.what = std::move(what);
    events_[vd].push_back(e);
  }

  /// C++: whether the lvalue `e` (an assignment, `++x`, a comma or `?:` of lvalues, `s.*pm`)
  /// is used as an object, not only for its value or discarded: assigned, its address taken,
  /// bound to a reference, returned. Conservative: any use but a load or a discard counts.
  bool resultUsedAsLvalue(const Expr *e) const {
    if (!e->isGLValue())
      return false;
    const Stmt *child = nullptr;
    const Stmt *p = skipUp(pm_, e, child);
    for (int guard = 0; guard < 64; ++guard) {
      if (!p)
        return false;
      if (const auto *ice = dyn_cast<ImplicitCastExpr>(p))
        return ice->getCastKind() != CK_LValueToRValue;
      if (const auto *cast = dyn_cast<CastExpr>(p); cast && cast->getType()->isVoidType())
        return false;
      if (const auto *bo = dyn_cast<BinaryOperator>(p); bo && bo->getOpcode() == BO_Comma) {
        if (bo->getLHS() == child)
          return false;
      } else if (const auto *co = dyn_cast<ConditionalOperator>(p)) {
        if (co->getCond() == child)
          return false;
      } else if (isa<Expr>(p) || isa<DeclStmt, ReturnStmt>(p)) {
        return true;
      } else {
        return false; // a statement of its own: discarded
      }
      p = skipUp(pm_, p, child);
    }
    return true;
  }

  /// C++'s `c ? a : b` of two lvalues is an lvalue: `node` (a branch of the conditional `p`) is
  /// read when the conditional, through any nesting, is loaded. Assigned or bound to a reference
  /// it is not a read, and not a definition either (which variable it writes depends on `c`).
  bool isReadThroughConditional(const Stmt *p, const Stmt *node) const {
    for (int guard = 0; guard < 64; ++guard) {
      const auto *co = dyn_cast_or_null<ConditionalOperator>(p);
      if (!co || co->getCond() == node)
        return false;
      p = skipUp(pm_, co, node);
      if (const auto *ice = dyn_cast_or_null<ImplicitCastExpr>(p);
          ice && ice->getCastKind() == CK_LValueToRValue)
        return true;
    }
    return false;
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
    // The array an index below goes into: the variable, or a struct's array member.
    QualType arrayType = vd->getType();
    // A pointer to a struct of datatypes whose members the flow tracks: only `h->m`, which is
    // then classified as `h.m` of a struct variable; the pointer itself never goes anywhere.
    if (vd == recordOut_) {
      // C++'s `Halo &h` names the struct itself: `h.m`.
      const bool reference = vd->getType()->isReferenceType();
      const Stmt *child = node;
      const auto *load = dyn_cast<ImplicitCastExpr>(p);
      const Stmt *q = reference ? p
                      : load && load->getCastKind() == CK_LValueToRValue ? skipUp(pm_, load, child)
                                                                         : nullptr;
      const auto *me = dyn_cast_or_null<MemberExpr>(q);
      if (!me || me->isArrow() == reference || me->getBase()->IgnoreParenImpCasts() != d) {
        if (!reference && q && recordPointerHandedOn(vd, e, q, child))
          return;
        if (reference && recordPointerHandedOn(vd, e, p, node))
          return;
        escape(vd, e, "is used other than to reach a member ('" + vd->getNameAsString() +
                          (reference ? "." : "->") + "m')");
        return;
      }
      p = q;
      node = child;
      if (!memberElement(vd, me, p, node, e, arrayType))
        return;
    }
    // A struct of datatypes: `h.col` names the member's element, `h.face` is an array.
    else if (const auto *me = dyn_cast<MemberExpr>(p); me && datatypeRecord(vd->getType()))
      if (!memberElement(vd, me, p, node, e, arrayType))
        return;
    const ArraySubscriptExpr *element = nullptr; // the a[k] this reference names, if any
    // Arrays: a[k] names element k; a bare decayed array is a pointer to every element.
    if (auto *ice = dyn_cast<ImplicitCastExpr>(p); ice && ice->getCastKind() == CK_ArrayToPointerDecay) {
      const Stmt *child = nullptr;
      const Stmt *pp = skipUp(pm_, ice, child);
      if (auto *ase = dyn_cast_or_null<ArraySubscriptExpr>(pp); ase && ase->getBase() == child) {
        element = ase;
        if (std::optional<int64_t> k = indexValue(ase->getIdx(), e))
          e.element = *k;
        else
          e.anyElement = true;
        p = skipUp(pm_, ase, node);
        if (!p)
          return;
        std::optional<int64_t> columns = rowLength(arrayType, ctx_);
        if (columns && !classifyRow(vd, ase, *columns, p, node, e))
          return;
        if (e.anyElement)
          if (const auto *assign = dyn_cast<BinaryOperator>(p);
              assign && assign->getOpcode() == BO_Assign && assign->getLHS() == node) {
            VarEvent write = e;
            write.kind = VarEvent::Assign;
            write.value = assign->getRHS();
            write.opcode = BO_Assign;
            if (countedLoopWrite(vd, ase, assign, write))
              return;
          }
        // A constant index outside the array (one past the end only for its address) touches
        // some other object: nothing about the array can be proven.
        if (const ConstantArrayType *cat = ctx_.getAsConstantArrayType(arrayType);
            cat && e.element && !columns) {
          auto size = static_cast<int64_t>(cat->getSize().getZExtValue());
          auto *addr = dyn_cast<UnaryOperator>(p);
          bool addressOnly = addr && addr->getOpcode() == UO_AddrOf;
          if (*e.element < 0 || *e.element > size || (*e.element == size && !addressOnly) ||
              (e.elementBase && *e.element == size)) { // a member's end is the next member
            std::string k = std::to_string(*e.element);
            escape(vd, e, "is indexed out of bounds ([" + k + "])");
            return;
          }
        }
        if (e.element)
          *e.element += e.elementBase; // a struct's array member: the variable's element
      } else {
        // `types + 1` is `&types[1]`: an element's address, for a constructor's output or a
        // read-only parameter as much as for anything else.
        const auto *arith = dyn_cast_or_null<BinaryOperator>(pp);
        const bool pointerPlus =
            arith && arith->getOpcode() == BO_Add && arith->getType()->isPointerType();
        if (pointerPlus && rowLength(arrayType, ctx_)) {
          pp = skipUp(pm_, arith, child); // a row of a 2-D array: read whole, or it escapes
        } else if (pointerPlus) {
          const Expr *offset = arith->getLHS() == child ? arith->getRHS() : arith->getLHS();
          if (std::optional<int64_t> k = indexValue(offset, e))
            e.element = *k;
          else
            e.anyElement = true;
          if (const ConstantArrayType *cat = ctx_.getAsConstantArrayType(arrayType);
              cat && e.element &&
              (*e.element < 0 || *e.element > static_cast<int64_t>(cat->getSize().getZExtValue()))) {
            escape(vd, e, "is indexed out of bounds ([" + std::to_string(*e.element) + "])");
            return;
          }
          if (e.element)
            *e.element += e.elementBase;
          addressTaken(vd, arith, nullptr, e);
          return;
        }
        if (auto *call = dyn_cast_or_null<CallExpr>(pp)) {
          int i = argumentIndex(call, child);
          if (i >= 0 && paramIsConstPointer(call, i))
            return; // read through a const pointer
          // `MPI_Type_contiguous(3, MPI_DOUBLE, types)`: the array is &types[0] there.
          if (i >= 0 && !e.element && !e.anyElement && isTypeCall(directCalleeName(call))) {
            e.element = e.elementBase;
            addressTaken(vd, cast<Expr>(child), nullptr, e);
            return;
          }
          escape(vd, e, "is passed to '" + directCalleeName(call) + "'");
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
    if (isReadThroughConditional(p, node))
      return;
    if (isa<UnaryExprOrTypeTraitExpr>(p) || isa<MemberExpr>(p))
      return; // sizeof, or the base of s.field
    if (auto *bo = dyn_cast<BinaryOperator>(p)) {
      if (bo->isAssignmentOp() && bo->getLHS() == node && !e.element &&
          datatypeRecord(vd->getType())) {
        escape(vd, e, "is assigned as a whole");
        return;
      }
      if (bo->isAssignmentOp() && bo->getLHS() == node && resultUsedAsLvalue(bo)) {
        escape(vd, e, "is assigned in an expression whose result is used as an lvalue");
        return;
      }
      if (bo->isAssignmentOp() && bo->getLHS() == node) {
        e.kind = bo->getOpcode() == BO_Assign ? VarEvent::Assign : VarEvent::CompoundAssign;
        e.stmt = bo;
        e.value = bo->getRHS();
        e.opcode = bo->getOpcode();
        events_[vd].push_back(e);
        return;
      }
      if (bo->getOpcode() == BO_Comma && bo->getLHS() == node)
        return; // its value is discarded
      // C++: `(f(), x) = v` and `s.*pm = v` write through the operator's lvalue; loaded, it
      // is a read.
      if ((bo->getOpcode() == BO_Comma || bo->isPtrMemOp()) && !resultUsedAsLvalue(bo))
        return;
      if (bo->getOpcode() == BO_Comma) {
        escape(vd, e, "is the value of a comma expression used as an lvalue");
        return;
      }
      if (bo->isPtrMemOp()) {
        escape(vd, e, "is reached through a pointer to member");
        return;
      }
      escape(vd, e, "is an operand of '" + bo->getOpcodeStr().str() + "'");
      return;
    }
    if (auto *uo = dyn_cast<UnaryOperator>(p)) {
      if (uo->isIncrementDecrementOp() && resultUsedAsLvalue(uo)) {
        escape(vd, e, "is incremented in an expression whose result is used as an lvalue");
        return;
      }
      if (uo->isIncrementDecrementOp()) {
        e.kind = VarEvent::IncDec;
        e.stmt = uo;
        e.opcode = uo->getOpcode();
        events_[vd].push_back(e);
        return;
      }
      if (uo->getOpcode() == UO_AddrOf) {
        addressTaken(vd, uo, dyn_cast<ArraySubscriptExpr>(uo->getSubExpr()->IgnoreParens()), e);
        return;
      }
    }
    if (auto *call = dyn_cast<CallExpr>(p)) {
      int i = argumentIndex(call, node);
      if (i >= 0 && paramIsConstPointer(call, i))
        return;
      // C++: `make_face(t, 0)` into an `MPI_Datatype &`.
      if (i >= 0 && isHelperDatatypeOutput(call, static_cast<unsigned>(i)) &&
          helperWrite(vd, e, call, i, element))
        return;
      // C++: `setup(h)` of a struct of datatypes into a `Halo &`, as `setup(&h)` in C.
      if (i >= 0 && !e.element && !e.elementBase && vd != recordOut_)
        if (const ParmVarDecl *out = recordOutputParam(call, static_cast<unsigned>(i),
                                                       datatypeRecord(vd->getType()))) {
          recordWrites(vd, e, call, i, out);
          return;
        }
      escape(vd, e, "is passed by reference to '" + directCalleeName(call) + "'");
      return;
    }
    escape(vd, e, "is used as an lvalue");
  }

  /// `h.m` of a variable of a datatypeRecord type, `me` that member expression (`p` on entry):
  /// a datatype member is the element numbered by its field index (p and node move up to its
  /// use, and the caller goes on with the element); an array member is the array the caller
  /// indexes (`arrayType`, and its element 0's number in `e.elementBase`). Another member is not tracked, but its
  /// address could reach the datatype members (pointer arithmetic): taken other than as an
  /// MPI function's typed output or a pointer to const (memberAddressEscape), it escapes the
  /// whole variable. Returns whether the caller goes on.
  bool memberElement(const VarDecl *vd, const MemberExpr *me, const Stmt *&p, const Stmt *&node,
                     VarEvent &e, QualType &arrayType) {
    const auto *fd = dyn_cast<FieldDecl>(me->getMemberDecl());
    if (fd && isDatatypeType(fd->getType())) {
      e.element = fd->getFieldIndex() * kMemberStride;
      p = skipUp(pm_, me, node);
      return p != nullptr;
    }
    if (fd && isDatatypeArrayMember(fd)) { // indexed below as an array whose element 0 is this
      arrayType = fd->getType();
      e.elementBase = fd->getFieldIndex() * kMemberStride;
      p = skipUp(pm_, me, node);
      return p != nullptr;
    }
    if (std::string what = memberAddressEscape(me, ctx_); !what.empty())
      escape(vd, e, what);
    return false; // read or written in place: the datatype members stay as they are
  }

  /// `a[r]` of a two-dimensional array (`int sub[3][3]`), `p` its parent: a[r][c] names element
  /// r*C+c (p and node move up to it, and the caller goes on with the element); a row read
  /// through a const pointer (a constructor's input array) or by sizeof is a read. Anything else
  /// escapes. Returns whether the caller goes on.
  bool classifyRow(const VarDecl *vd, const ArraySubscriptExpr *row, int64_t columns,
                   const Stmt *&p, const Stmt *&node, VarEvent &e) {
    const auto *decay = dyn_cast<ImplicitCastExpr>(p);
    if (!decay || decay->getCastKind() != CK_ArrayToPointerDecay) {
      if (!isa<UnaryExprOrTypeTraitExpr>(p))
        escape(vd, e, "has a row used as an lvalue");
      return false;
    }
    const Stmt *rowChild = nullptr;
    const Stmt *q = skipUp(pm_, decay, rowChild);
    if (const auto *col = dyn_cast_or_null<ArraySubscriptExpr>(q); col && col->getBase() == rowChild) {
      const int64_t rows = static_cast<int64_t>(
          ctx_.getAsConstantArrayType(vd->getType())->getSize().getZExtValue());
      std::optional<int64_t> c = indexValue(col->getIdx(), e);
      if (e.element && c) {
        if (*e.element < 0 || *e.element >= rows || *c < 0 || *c >= columns) {
          std::string at = "[" + std::to_string(*e.element) + "][" + std::to_string(*c) + "]";
          escape(vd, e, "is indexed out of bounds (" + at + ")");
          return false;
        }
        e.element = *e.element * columns + *c;
      } else {
        e.element.reset();
        e.anyElement = true;
      }
      p = skipUp(pm_, col, node);
      return p != nullptr;
    }
    if (const auto *call = dyn_cast_or_null<CallExpr>(q)) {
      int k = argumentIndex(call, rowChild);
      if (k >= 0 && paramIsConstPointer(call, k))
        return false; // the row read through a const pointer
      escape(vd, e, "has a row passed to '" + directCalleeName(call) + "'");
      return false;
    }
    escape(vd, e, "has a row that decays to a pointer");
    return false;
  }

  /// `addr` an address of `vd` or of one of its elements: `&x`, `&a[k]` (`ase`), `a + k` or a
  /// bare array `a` (`ase` null, e.element k or 0): where it goes decides the event.
  void addressTaken(const VarDecl *vd, const Expr *addr, const ArraySubscriptExpr *ase,
                    VarEvent e) {
    const bool arithmetic = !isa<UnaryOperator>(addr); // `a + k` or a bare array
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
    int i = argumentIndex(call, child);
    std::string name = directCalleeName(call);
    if (!ase && !arithmetic && !e.element && !e.elementBase && vd != recordOut_ && i >= 0)
      if (const ParmVarDecl *out =
              recordOutputParam(call, static_cast<unsigned>(i), datatypeRecord(vd->getType()))) {
        recordWrites(vd, e, call, i, out);
        return;
      }
    if (const ConstructorSpec *spec = findConstructor(name)) {
      if (i >= 0 && static_cast<size_t>(i) < spec->args.size() &&
          spec->args[i].role == ArgRole::NewType) {
        e.kind = VarEvent::ConstructorOut;
        e.stmt = call;
        e.call = call;
        if (e.anyElement && ase &&
            (countedLoopWrite(vd, ase, call, e) || iteratedLoopWrite(vd, ase, call, e)))
          return;
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
    if (isGetAddress(name) && call->getNumArgs() == 2) {
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
    if (i >= 0 && !arithmetic && isHelperDatatypeOutput(call, static_cast<unsigned>(i)) &&
        helperWrite(vd, e, call, i, ase))
      return;
    escape(vd, e, "has its address passed to '" + name + "'");
  }

  /// The recordOut pointer's value `child` (C++: the reference itself) used whole by `p`:
  /// tested (`if (!h)`, `h == NULL`), which reads no member; handed to a pointer-to-const
  /// parameter, which only reads them; or handed to a function of the file that takes the same
  /// struct (`exchange(h)` in `run(struct halo *h)`), whose writes recordWrites records; passed
  /// to any other function, it escapes. False where `p` is none of these.
  bool recordPointerHandedOn(const VarDecl *vd, const VarEvent &e, const Stmt *p,
                             const Stmt *child) {
    if (const auto *ice = dyn_cast<ImplicitCastExpr>(p);
        ice && ice->getCastKind() == CK_PointerToBoolean)
      return true;
    if (const auto *u = dyn_cast<UnaryOperator>(p); u && u->getOpcode() == UO_LNot)
      return true;
    if (const auto *bo = dyn_cast<BinaryOperator>(p); bo && bo->isEqualityOp())
      return true;
    const auto *call = dyn_cast<CallExpr>(p);
    const int i = call ? argumentIndex(call, child) : -1;
    if (i < 0)
      return false;
    const FunctionDecl *fd = call->getDirectCallee();
    if (fd && static_cast<unsigned>(i) < fd->getNumParams() && paramIsConstPointer(call, i) &&
        (fd->getParamDecl(i)->getType()->isPointerType() ||
         fd->getParamDecl(i)->getType()->isReferenceType()))
      return true;
    if (const ParmVarDecl *out =
            recordOutputParam(call, static_cast<unsigned>(i), datatypeRecordOf(vd))) {
      recordWrites(vd, e, call, i, out);
      return true;
    }
    const FunctionDecl *def = nullptr;
    escape(vd, e, "is passed to '" + directCalleeName(call) + "'" +
                      (fd && !fd->hasBody(def) ? " (not defined in this file)" : ""));
    return true;
  }

  /// `&vd`, a struct of datatypes, as argument i of a call to a function defined in this file
  /// whose parameter `out` points to such a struct: the function's own flow, with `out` as its
  /// recordOut, says which members it writes. Each such element is defined at the call (a
  /// RecordHelperOut the resolver follows); what the function only reads is not touched. Where
  /// the function cannot be analysed, writes through a non-constant index, lets the pointer go
  /// elsewhere or hands it on too deep, the struct escapes.
  void recordWrites(const VarDecl *vd, VarEvent e, const CallExpr *call, int i,
                    const ParmVarDecl *out) {
    const std::string fn = directCalleeName(call);
    if (recordCallDepth >= kMaxRecordCallDepth) {
      escape(vd, e, "is handed to '" + fn + "' by a function " +
                        std::to_string(kMaxRecordCallDepth) +
                        " calls deep in the functions analysed for their callers");
      return;
    }
    const auto *fd = cast<FunctionDecl>(out->getDeclContext());
    ++recordCallDepth;
    std::unique_ptr<FunctionFlow> callee =
        FunctionFlow::build(fd, ctx_, nullptr, nullptr, nullptr, out);
    // A member indexed by a parameter (`&p->face[dir]`), or written in a branch on one (`if
    // (dir == 0)`): which members this call writes follows from its constant arguments, bound
    // to the parameters the callee never writes (what DatatypeResolver's bindHelper binds when
    // it follows the call).
    if (callee->hasCfg()) {
      std::map<const VarDecl *, int64_t> bound;
      for (unsigned j = 0; j < fd->getNumParams() && j < call->getNumArgs(); ++j) {
        const ParmVarDecl *q = fd->getParamDecl(j);
        if (q == out || !q->getType()->isIntegralOrEnumerationType() ||
            !callee->eventsFor(q, std::nullopt).empty())
          continue;
        if (std::optional<int64_t> v = constantIndex(call->getArg(j), ctx_, bound_))
          bound[q] = *v;
      }
      if (!bound.empty())
        callee = FunctionFlow::build(fd, ctx_, &bound, nullptr, nullptr, out);
    }
    --recordCallDepth;
    if (!callee->hasCfg()) {
      escape(vd, e, "has its address passed to '" + fn +
                        "', whose control flow cannot be analysed");
      return;
    }
    std::set<int64_t> written, freed;
    for (const VarEvent *w : callee->eventsFor(out, std::nullopt)) {
      if (w->kind != VarEvent::Escape && !callee->eventPosition(*w, out))
        continue; // in a branch this call's arguments never take
      if (w->kind == VarEvent::Escape || w->anyElement || !w->element) {
        const std::string what = w->kind == VarEvent::Escape
                                     ? w->what
                                     : std::string("is written through a non-constant index");
        const bool byReference = out->getType()->isReferenceType();
        escape(vd, e, std::string("is in a struct ") +
                          (byReference ? "passed by reference" : "whose address is passed") +
                          " to '" + fn + "' (where '" + out->getNameAsString() + "' " + what +
                          " on " +
                          lineOf(w->loc, ctx_.getSourceManager()) + ")");
        return;
      }
      (w->kind == VarEvent::Free ? freed : written).insert(*w->element);
    }
    e.stmt = call;
    e.call = call;
    e.opcode = i;
    // A member the function only frees is freed at the call; one it also writes is as the
    // function leaves it (fromRecordHelper refuses it if freed last).
    for (int64_t k : freed)
      if (!written.count(k)) {
        e.kind = VarEvent::Free;
        e.element = k;
        events_[vd].push_back(e);
      }
    e.kind = VarEvent::RecordHelperOut;
    for (int64_t k : written) {
      e.element = k;
      events_[vd].push_back(e);
    }
  }

  /// `vd` (or `&vd`, or its element) as argument i of a call to a builder helper: a definition
  /// at the call, or, through a non-constant index, one per iteration of a loop evaluated
  /// iteration by iteration (`make_face(&face[d], d)`). False where neither holds.
  bool helperWrite(const VarDecl *vd, VarEvent e, const CallExpr *call, int i,
                   const ArraySubscriptExpr *element) {
    e.kind = VarEvent::HelperOut;
    e.stmt = call;
    e.call = call;
    e.opcode = i;
    if (!e.anyElement) {
      events_[vd].push_back(e);
      return true;
    }
    return element && iteratedLoopWrite(vd, element, call, e);
  }

  ASTContext &ctx_;
  const ParentMap &pm_;
  std::map<const VarDecl *, std::vector<VarEvent>> &events_;
  std::map<const VarDecl *, const DeclStmt *> &declStmts_;
  const std::map<const VarDecl *, int64_t> *bound_;
  const std::set<const VarDecl *> *tracked_;
  const LoopIteration *iteration_;
  const Stmt *body_; ///< the function's
  const ParmVarDecl *recordOut_; ///< FunctionFlow::build's
  std::map<const VarDecl *, int64_t> iterationBound_; ///< bound_ and the iteration's variable
  std::map<const ForStmt *, std::optional<CountedLoop>> countedLoops_; ///< checked once each
  std::map<const ForStmt *, std::optional<CountedLoop>> iteratedLoops_; ///< checked once each
};

} // namespace

std::unique_ptr<FunctionFlow> FunctionFlow::build(const Decl *fn, ASTContext &ctx,
                                                  const std::map<const VarDecl *, int64_t> *bound,
                                                  const std::set<const VarDecl *> *tracked,
                                                  const LoopIteration *iteration,
                                                  const ParmVarDecl *recordOut) {
  auto flow = std::unique_ptr<FunctionFlow>(new FunctionFlow());
  flow->fn_ = fn;
  flow->ctx_ = &ctx;
  if (bound)
    flow->bound_ = *bound;
  flow->tracked_ = tracked;
  flow->recordOut_ = recordOut;
  if (iteration)
    flow->iteration_ = *iteration;
  Stmt *body = fn->getBody();
  if (!body)
    return flow;
  CFG::BuildOptions opts;
  opts.setAllAlwaysAdd();
  flow->cfg_ = CFG::buildCFG(fn, body, &ctx, opts);
  if (flow->cfg_) {
    // Under bound parameters, a statement in a branch they never take has no position: it is
    // unreachable code for this call, as after a return (takenSuccessor).
    const std::set<const CFGBlock *> taken = flow->blocksTaken();
    for (const CFGBlock *b : *flow->cfg_) {
      if (flow->prunes() && !taken.count(b))
        continue;
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
  flow->classify(ctx);
  return flow;
}

const FunctionFlow &FunctionFlow::iterationFlow(const VarEvent &e) const {
  // One cache for the function's flow and every iteration flow made from it: an iteration's
  // evaluation asks for earlier iterations, which may ask for theirs.
  const FunctionFlow &root = root_ ? *root_ : *this;
  std::unique_ptr<FunctionFlow> &f = root.iterations_[{e.loop, e.loopValue}];
  if (!f) {
    LoopIteration it{e.loop, e.loopVar, e.loopValue, e.loopFirst};
    f = build(fn_, *ctx_, bound(), tracked_, &it, recordOut_);
    f->root_ = &root;
  }
  return *f;
}

bool FunctionFlow::insideIteration(const Stmt *s) const {
  return iteration_ && parents_ && isWithin(*parents_, s, iteration_->loop->getBody());
}

void FunctionFlow::classify(ASTContext &ctx) {
  auto pm = std::make_unique<ParentMap>(fn_->getBody());
  std::map<const VarDecl *, const DeclStmt *> declStmts;
  Classifier c(ctx, *pm, events_, declStmts, bound(), tracked_,
               iteration_ ? &*iteration_ : nullptr, fn_->getBody(), recordOut_);
  c.TraverseStmt(fn_->getBody());
  escapeAcrossTryStatements(*pm, declStmts);
  // An escape's statement: the innermost enclosing statement the CFG holds, or none (then the
  // escape refuses every use of the variable, as one whose place is unknown must).
  for (auto &[vd, events] : events_)
    for (VarEvent &e : events) {
      if (e.kind != VarEvent::Escape || !e.stmt)
        continue;
      const Stmt *s = e.stmt;
      while (s && !pos_.count(s))
        s = pm->getParent(s);
      e.stmt = s;
    }
  if (iteration_) {
    parents_ = std::move(pm);
    accountForEarlierIterations(ctx, declStmts);
  }
}

namespace {

/// Whether some try statement around `s` (reached from its try block or one of its handlers)
/// does not hold `decl` in that same part: a variable declared outside it, written inside.
bool insideTryPartWithout(const ParentMap &pm, const Stmt *s, const DeclStmt *decl) {
  const Stmt *child = s;
  for (int guard = 0; child && guard < 256; ++guard) {
    const Stmt *p = pm.getParent(child);
    if (isa_and_nonnull<CXXTryStmt>(p) && (!decl || !isWithin(pm, decl, child)))
      return true;
    child = p;
  }
  return false;
}

} // namespace

void FunctionFlow::escapeAcrossTryStatements(
    const ParentMap &pm,
    const std::map<const VarDecl *, const DeclStmt *> &declStmts) {
  // Clang's CFG (without EH edges, and even with them for a throwing constructor or `new`)
  // has no edge from a try block to its handlers: a definition there would look as if it
  // dominated the code after the try statement, and a handler's writes would have no place.
  // A variable declared outside a try block or handler and written inside it therefore
  // escapes. One declared inside (the common `try { everything } catch ...` of a C++ main)
  // only lives there, where the normal flow is the whole story.
  for (auto &[vd, events] : events_) {
    auto decl = declStmts.find(vd);
    const DeclStmt *ds = decl == declStmts.end() ? nullptr : decl->second;
    for (const VarEvent &e : events) {
      if (!e.stmt || !insideTryPartWithout(pm, e.stmt, ds))
        continue;
      VarEvent esc;
      esc.kind = VarEvent::Escape;
      esc.loc = e.loc;
      esc.what = "is written inside a try statement (whose exception paths the tool does not "
                 "follow)";
      events.assign(1, esc);
      break;
    }
  }
}

void FunctionFlow::accountForEarlierIterations(
    ASTContext &ctx, const std::map<const VarDecl *, const DeclStmt *> &declStmts) {
  const LoopIteration &it = *iteration_;
  for (auto &[vd, events] : events_) {
    auto decl = declStmts.find(vd);
    if (decl != declStmts.end() && insideIteration(decl->second))
      continue; // a new object in every iteration: earlier ones cannot reach it
    std::vector<VarEvent> earlier;
    for (VarEvent &e : events) {
      if (!e.iterationIndex)
        continue;
      if ((e.kind == VarEvent::ConstructorOut || e.kind == VarEvent::HelperOut) &&
          !rowLength(vd->getType(), ctx)) {
        // Iteration k' < k wrote element f(k'): defined at the loop's head, evaluated in k'.
        LoopIteration first{it.loop, it.var, it.first, it.first};
        if (std::optional<std::vector<int64_t>> elements = elementOfEachIteration(
                e.iterationIndex, ctx, bound(), first, it.value)) {
          for (int64_t k = it.first; k < it.value; ++k)
            earlier.push_back(iterationEvent(
                e, {it.loop, it.var, k, it.first},
                e.elementBase + (*elements)[static_cast<size_t>(k - it.first)]));
          continue;
        }
      }
      // Another write by the loop's variable: which elements earlier iterations wrote, and with
      // what, is not followed; nothing about the array is proven in this iteration.
      e.what = "is written by every iteration through the loop's variable";
      e.kind = VarEvent::Escape;
      e.element.reset();
      e.anyElement = true;
    }
    events.insert(events.end(), earlier.begin(), earlier.end());
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

std::optional<CfgPos> FunctionFlow::exitPosition() const {
  if (!cfg_)
    return std::nullopt;
  return CfgPos{&cfg_->getExit(), 0};
}

bool FunctionFlow::runsOncePerCall(const Stmt *s) const {
  std::optional<CfgPos> p = cfg_ ? position(s) : std::nullopt;
  if (!p)
    return false;
  CfgPos exit{&cfg_->getExit(), 0};
  return !reaches(std::nullopt, exit, {*p}) && !reaches(p, *p, {});
}

bool FunctionFlow::mayRun(const Stmt *s) const {
  std::optional<CfgPos> p = cfg_ ? position(s) : std::nullopt;
  return p && reaches(std::nullopt, *p, {});
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
    std::optional<unsigned> only = takenSuccessor(b);
    unsigned i = 0;
    for (const CFGBlock::AdjacentBlock &succ : b->succs()) {
      const CFGBlock *s = succ.getReachableBlock();
      if (s && (!only || *only == i) && seen.insert(s).second)
        work.push_back({s, 0});
      ++i;
    }
  }
  return false;
}

std::set<const CFGBlock *> FunctionFlow::blocksTaken() const {
  std::set<const CFGBlock *> seen{&cfg_->getEntry()};
  std::vector<const CFGBlock *> work{&cfg_->getEntry()};
  while (!work.empty()) {
    const CFGBlock *b = work.back();
    work.pop_back();
    std::optional<unsigned> only = takenSuccessor(b);
    unsigned i = 0;
    for (const CFGBlock::AdjacentBlock &succ : b->succs()) {
      const CFGBlock *s = succ.getReachableBlock();
      if (s && (!only || *only == i) && seen.insert(s).second)
        work.push_back(s);
      ++i;
    }
  }
  return seen;
}

std::optional<unsigned> FunctionFlow::takenSuccessor(const CFGBlock *b) const {
  const std::map<const VarDecl *, int64_t> *values = bound();
  const Stmt *term = b->getTerminatorStmt();
  if (!prunes() || !term)
    return std::nullopt;
  // A switch on a bound value: the block of its case, else the default's (the last successor).
  if (const auto *sw = dyn_cast<SwitchStmt>(term)) {
    std::optional<int64_t> v =
        values ? constantIndex(sw->getCond(), *ctx_, values) : std::nullopt;
    if (!v || b->succ_empty())
      return std::nullopt;
    unsigned i = 0;
    for (const CFGBlock::AdjacentBlock &succ : b->succs()) {
      const CFGBlock *s = succ.getReachableBlock();
      const auto *c = s ? dyn_cast_or_null<CaseStmt>(s->getLabel()) : nullptr;
      if (c) {
        std::optional<int64_t> lo = constantIndex(c->getLHS(), *ctx_, nullptr);
        std::optional<int64_t> hi =
            c->getRHS() ? constantIndex(c->getRHS(), *ctx_, nullptr) : lo;
        if (!lo || !hi)
          return std::nullopt; // a label the folder cannot read: keep every successor
        if (*lo <= *v && *v <= *hi)
          return i;
      }
      ++i;
    }
    return b->succ_size() - 1;
  }
  // A two-way branch (if, a loop's condition, ?:, && and ||): successor 0 when true, 1 when
  // false.
  if (b->succ_size() != 2 ||
      !(isa<IfStmt, WhileStmt, ForStmt, DoStmt, ConditionalOperator>(term) ||
        (isa<BinaryOperator>(term) && cast<BinaryOperator>(term)->isLogicalOp())))
    return std::nullopt;
  const auto *cond = dyn_cast_or_null<Expr>(b->getTerminatorCondition());
  std::optional<bool> c = cond ? constantCondition(cond, *ctx_, values, recordOut_) : std::nullopt;
  if (!c)
    return std::nullopt;
  return *c ? 0u : 1u;
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
  // Two outputs of one call (`build(&t, &t)`): neither is the value.
  auto helperOut = [](const VarEvent *e) {
    return e->kind == VarEvent::HelperOut || e->kind == VarEvent::RecordHelperOut;
  };
  if (reaching.size() > 1 && helperOut(reaching[0]) && helperOut(reaching[1]) &&
      reaching[0]->stmt == reaching[1]->stmt)
    return {"is written twice by the call on " + lineOf(reaching[1]->loc, sm), reaching[1]->loc};
  // Two iterations of one loop writing the same element (`&t[k - k]`).
  if (reaching.size() > 1 && reaching[0]->loop && reaching[0]->loop == reaching[1]->loop &&
      reaching[0]->loopValue != reaching[1]->loopValue)
    return {"is written by two iterations of the loop on " + lineOf(reaching[0]->loop->getBeginLoc(), sm) +
                " (its variable " + std::to_string(reaching[0]->loopValue) + " and " +
                std::to_string(reaching[1]->loopValue) + ")",
            reaching[1]->loc};
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
  // In an iteration flow, the iteration's own write by the loop's variable does not come round
  // the loop: what reaches the loop's head from the body is an earlier iteration's, another
  // element (accountForEarlierIterations).
  std::optional<CfgPos> head;
  if (iteration_)
    if (auto h = loopExit_.find(iteration_->loop); h != loopExit_.end())
      head = h->second;
  std::vector<const VarEvent *> reaching;
  for (const Placed &d : defs) {
    std::vector<CfgPos> kills = killPos;
    if (d.e->iterationIndex && head)
      kills.push_back(*head);
    if (reaches(d.pos, atPos, kills))
      reaching.push_back(d.e);
  }
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

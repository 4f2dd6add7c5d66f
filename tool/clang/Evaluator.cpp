/// \file
/// Evaluator: integer and address arithmetic on constructor arguments (see Evaluator.h). Every
/// operation is checked for 64-bit overflow; a value that would not fit its C type is refused.
#include "tool/clang/Evaluator.h"

#include "tool/clang/CallSiteValues.h"
#include "tool/clang/DatatypeResolver.h"
#include "tool/clang/MpiNames.h"

#include "passes/TypeIR.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace tempi::frontend {

namespace {
constexpr int kMaxDepth = 64;

std::string functionName(const DeclContext *dc) {
  if (const auto *fd = dyn_cast_or_null<FunctionDecl>(dc))
    return fd->getNameAsString();
  return "its function";
}

std::optional<Value> fail(Unresolved &why, std::string reason, SourceLocation loc) {
  why = {std::move(reason), loc};
  return std::nullopt;
}

/// The bytes one step of pointer arithmetic on type t moves: the pointee's size (1 for void, as
/// GNU C counts it); 1 for a type that is not a pointer (an MPI_Aint holding an address counts
/// bytes); none where the pointee has no size (a function, an incomplete type).
std::optional<int64_t> stepBytes(QualType t, ASTContext &ctx) {
  const auto *pt = t->getAs<PointerType>();
  if (!pt)
    return 1;
  QualType pointee = pt->getPointeeType();
  if (pointee->isVoidType())
    return 1;
  if (pointee->isFunctionType() || pointee->isIncompleteType() || pointee->isSizelessType() ||
      !pointee->isConstantSizeType())
    return std::nullopt;
  return ctx.getTypeSizeInChars(pointee).getQuantity();
}

/// Wraps v to the width and signedness of type t, refusing values that do not fit.
bool fitsType(int64_t v, QualType t, ASTContext &ctx) {
  if (!t->isIntegerType())
    return true;
  unsigned width = ctx.getIntWidth(t);
  if (width >= 64)
    return t->isSignedIntegerOrEnumerationType() || v >= 0;
  bool isSigned = t->isSignedIntegerOrEnumerationType();
  if (isSigned) {
    int64_t lo = -(int64_t(1) << (width - 1)), hi = (int64_t(1) << (width - 1)) - 1;
    return v >= lo && v <= hi;
  }
  return v >= 0 && v < (int64_t(1) << width);
}
} // namespace

std::string Evaluator::slotName(const VarDecl *var, std::optional<int64_t> element) {
  std::string s = var->getNameAsString();
  if (!element)
    return s;
  if (std::optional<DatatypeMember> m = datatypeMember(var, *element))
    return s + (var->getType()->isPointerType() ? "->" : ".") + m->field->getNameAsString() +
           (m->index ? "[" + std::to_string(*m->index) + "]" : "");
  if (std::optional<int64_t> columns = rowLength(var->getType(), var->getASTContext()))
    return s + "[" + std::to_string(*element / *columns) + "][" +
           std::to_string(*element % *columns) + "]";
  return s + "[" + std::to_string(*element) + "]";
}

std::optional<Point> Evaluator::pointOf(const Stmt *s) const {
  if (auto p = flow_.position(s))
    return Point{*p, s->getBeginLoc()};
  return std::nullopt;
}

std::vector<std::string> Evaluator::spellings(const Expr *e) const {
  return spellingsOf(e, ctx_);
}

std::vector<std::string> Evaluator::spellingsOf(const Expr *e, const ASTContext &ctx) {
  std::vector<std::string> out;
  // Only an atomic expression can be "spelled" as one name: a literal, a declaration, the address
  // of one, or a negated literal (MPICH: ((MPI_Datatype)0x4c00080b), -49767; Open MPI:
  // ((MPI_Datatype)&ompi_mpi_double)). `MPI_INT == t ? a : b` begins with MPI_INT but is not it.
  const Expr *atom = e->IgnoreParenCasts();
  if (const auto *uo = dyn_cast<UnaryOperator>(atom);
      uo && (uo->getOpcode() == UO_AddrOf || uo->getOpcode() == UO_Minus))
    atom = uo->getSubExpr()->IgnoreParenCasts();
  if (!isa<IntegerLiteral>(atom) && !isa<DeclRefExpr>(atom))
    return out;
  const SourceManager &sm = ctx.getSourceManager();
  SourceLocation loc = e->getBeginLoc();
  for (int guard = 0; loc.isMacroID() && guard < 32; ++guard) {
    StringRef name = Lexer::getImmediateMacroName(loc, sm, ctx.getLangOpts());
    if (!name.empty())
      out.push_back(name.str());
    loc = sm.getImmediateMacroCallerLoc(loc);
  }
  const Expr *inner = e->IgnoreParenCasts();
  if (const auto *uo = dyn_cast<UnaryOperator>(inner); uo && uo->getOpcode() == UO_AddrOf)
    inner = uo->getSubExpr()->IgnoreParenCasts();
  if (const auto *d = dyn_cast<DeclRefExpr>(inner))
    out.push_back(d->getDecl()->getNameAsString());
  return out;
}

namespace {
/// The integer a value holds; an address (of one object plus k bytes) is refused.
std::optional<int64_t> integerOf(const std::optional<Value> &v, SourceLocation loc,
                                 Unresolved &why) {
  if (!v)
    return std::nullopt;
  if (v->base) {
    why = {"is an address, not a difference of addresses", loc};
    return std::nullopt;
  }
  return v->k;
}
} // namespace

std::optional<int64_t> Evaluator::evalInt(const Expr *e, Point at, Unresolved &why) {
  return integerOf(eval(e, at, why, 0), e->getBeginLoc(), why);
}

std::optional<Value> Evaluator::readRowElement(const VarDecl *vd, int64_t row, int64_t col,
                                               Point at, SourceLocation loc, Unresolved &why,
                                               int depth) {
  const int64_t columns = *rowLength(vd->getType(), ctx_);
  const auto rows =
      static_cast<int64_t>(ctx_.getAsConstantArrayType(vd->getType())->getSize().getZExtValue());
  if (row < 0 || row >= rows || col < 0 || col >= columns)
    return fail(why, "reads '" + vd->getNameAsString() + "' out of bounds", loc);
  return readVariable(vd, row * columns + col, at, loc, why, depth);
}

std::optional<Value> Evaluator::eval(const Expr *e, Point at, Unresolved &why, int depth) {
  if (depth > kMaxDepth)
    return fail(why, "is defined by a chain of definitions too long to follow", e->getBeginLoc());
  e = e->IgnoreParens();
  if (e->isValueDependent() || e->isTypeDependent())
    return fail(why, "depends on a template parameter", e->getBeginLoc());
  if (e->getType()->isIntegerType()) {
    Expr::EvalResult r;
    if (e->EvaluateAsInt(r, ctx_)) {
      const llvm::APSInt &i = r.Val.getInt();
      if (i.getSignificantBits() > 64 || (i.isUnsigned() && i.getActiveBits() > 63))
        return fail(why, "does not fit in 64 bits", e->getBeginLoc());
      return Value{i.getExtValue(), nullptr};
    }
  }
  SourceLocation loc = e->getBeginLoc();

  if (const auto *ce = dyn_cast<CastExpr>(e)) {
    const Expr *sub = ce->getSubExpr();
    switch (ce->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
      return eval(sub, at, why, depth + 1);
    case CK_IntegralCast:
    case CK_IntegralToBoolean: {
      std::optional<Value> v = eval(sub, at, why, depth + 1);
      if (!v)
        return v;
      if (ce->getCastKind() == CK_IntegralToBoolean && !v->base)
        return Value{v->k != 0, nullptr};
      if (!v->base && !fitsType(v->k, ce->getType(), ctx_))
        return fail(why, "does not fit in its type", loc);
      return v;
    }
    case CK_PointerToIntegral:
    case CK_BitCast:
    case CK_ArrayToPointerDecay:
      if (ce->getCastKind() == CK_ArrayToPointerDecay)
        return addressOf(sub, at, why, depth + 1);
      return eval(sub, at, why, depth + 1);
    default:
      return fail(why, "is not a compile-time constant", loc);
    }
  }
  if (const auto *d = dyn_cast<DeclRefExpr>(e)) {
    const auto *vd = dyn_cast<VarDecl>(d->getDecl());
    if (!vd)
      return fail(why, "is not a compile-time constant", loc);
    return readVariable(vd, std::nullopt, at, loc, why, depth);
  }
  if (const auto *me = dyn_cast<MemberExpr>(e))
    return readLocalStructMember(me, why, depth);
  if (const auto *ase = dyn_cast<ArraySubscriptExpr>(e)) {
    const Expr *base = ase->getBase()->IgnoreParenImpCasts();
    std::optional<Value> idx = eval(ase->getIdx(), at, why, depth + 1);
    if (!idx)
      return idx;
    if (idx->base)
      return fail(why, "uses an address as an index", loc);
    if (const auto *d = dyn_cast<DeclRefExpr>(base))
      if (const auto *vd = dyn_cast<VarDecl>(d->getDecl());
          vd && vd->getType()->isArrayType() && !rowLength(vd->getType(), ctx_))
        return readVariable(vd, idx->k, at, loc, why, depth);
    // a[r][c] of a local two-dimensional array: element r*C + c (FunctionFlow's numbering).
    if (const auto *row = dyn_cast<ArraySubscriptExpr>(base))
      if (const auto *d = dyn_cast<DeclRefExpr>(row->getBase()->IgnoreParenImpCasts()))
        if (const auto *vd = dyn_cast<VarDecl>(d->getDecl());
            vd && vd->hasLocalStorage() && !isa<ParmVarDecl>(vd))
          if (rowLength(vd->getType(), ctx_)) {
            std::optional<Value> r = eval(row->getIdx(), at, why, depth + 1);
            if (!r)
              return r;
            if (r->base)
              return fail(why, "uses an address as an index", loc);
            return readRowElement(vd, r->k, idx->k, at, loc, why, depth);
          }
    return fail(why, "reads an array the tool cannot follow", loc);
  }
  if (const auto *uo = dyn_cast<UnaryOperator>(e)) {
    if (uo->getOpcode() == UO_AddrOf)
      return addressOf(uo->getSubExpr(), at, why, depth + 1);
    std::optional<Value> v = eval(uo->getSubExpr(), at, why, depth + 1);
    if (!v)
      return v;
    if (v->base)
      return fail(why, "applies an operator to an address", loc);
    switch (uo->getOpcode()) {
    case UO_Plus:
      return v;
    case UO_Minus:
      if (v->k == INT64_MIN)
        return fail(why, "overflows 64 bits", loc);
      return Value{-v->k, nullptr};
    case UO_Not:
      return Value{~v->k, nullptr};
    case UO_LNot:
      return Value{!v->k, nullptr};
    default:
      return fail(why, "is not a compile-time constant", loc);
    }
  }
  if (const auto *bo = dyn_cast<BinaryOperator>(e)) {
    // `n = stride = 4`: a simple assignment's value is its right side converted to the left
    // side's type (Clang's implicit cast there). The write to `stride` is the flow's business,
    // which records it as that variable's own definition.
    if (bo->getOpcode() == BO_Assign)
      return eval(bo->getRHS(), at, why, depth + 1);
    if (bo->isAssignmentOp() || bo->getOpcode() == BO_Comma)
      return fail(why, "has a side effect", loc);
    std::optional<Value> l = eval(bo->getLHS(), at, why, depth + 1);
    if (!l)
      return l;
    std::optional<Value> r = eval(bo->getRHS(), at, why, depth + 1);
    if (!r)
      return r;
    int64_t out = 0;
    BinaryOperatorKind op = bo->getOpcode();
    // Addresses: a - b of one object, a + k, a - k. An address holds a byte offset; pointer
    // arithmetic counts elements of the pointee (`row1 - row0` of two `double *` is 6, not 48).
    if (l->base || r->base) {
      const Expr *ptr = bo->getRHS()->getType()->isPointerType() && !bo->getLHS()->getType()->isPointerType()
                            ? bo->getRHS()
                            : bo->getLHS();
      std::optional<int64_t> step = stepBytes(ptr->getType(), ctx_);
      if (!step || *step <= 0)
        return fail(why, "does arithmetic on a pointer to a type without a size", loc);
      if (op == BO_Sub && l->base && l->base == r->base) {
        if ((l->k - r->k) % *step != 0)
          return fail(why, "subtracts addresses that are not a whole number of elements apart",
                      loc);
        return Value{(l->k - r->k) / *step, nullptr};
      }
      int64_t bytes = 0;
      const int64_t k = l->base ? r->k : l->k;
      if (__builtin_mul_overflow(k, *step, &bytes))
        return fail(why, "overflows 64 bits", loc);
      if (op == BO_Add && l->base && !r->base && !__builtin_add_overflow(l->k, bytes, &out))
        return Value{out, l->base};
      if (op == BO_Add && r->base && !l->base && !__builtin_add_overflow(bytes, r->k, &out))
        return Value{out, r->base};
      if (op == BO_Sub && l->base && !r->base && !__builtin_sub_overflow(l->k, bytes, &out))
        return Value{out, l->base};
      return fail(why, "combines addresses of different objects", loc);
    }
    int64_t a = l->k, b = r->k;
    bool overflow = false;
    switch (op) {
    case BO_Add: overflow = __builtin_add_overflow(a, b, &out); break;
    case BO_Sub: overflow = __builtin_sub_overflow(a, b, &out); break;
    case BO_Mul: overflow = __builtin_mul_overflow(a, b, &out); break;
    case BO_Div:
    case BO_Rem:
      if (b == 0)
        return fail(why, "divides by zero", loc);
      if (a == INT64_MIN && b == -1)
        return fail(why, "overflows 64 bits", loc);
      out = op == BO_Div ? a / b : a % b;
      break;
    case BO_Shl:
      if (b < 0 || b > 62 || a < 0 || (a >> (62 - b)) != 0)
        return fail(why, "shifts out of range", loc);
      out = a << b;
      break;
    case BO_Shr:
      if (b < 0 || b > 63)
        return fail(why, "shifts out of range", loc);
      out = a >> b;
      break;
    case BO_And: out = a & b; break;
    case BO_Or: out = a | b; break;
    case BO_Xor: out = a ^ b; break;
    case BO_LT: out = a < b; break;
    case BO_GT: out = a > b; break;
    case BO_LE: out = a <= b; break;
    case BO_GE: out = a >= b; break;
    case BO_EQ: out = a == b; break;
    case BO_NE: out = a != b; break;
    case BO_LAnd: out = a && b; break;
    case BO_LOr: out = a || b; break;
    default:
      return fail(why, "is not a compile-time constant", loc);
    }
    if (overflow)
      return fail(why, "overflows 64 bits", loc);
    if (!fitsType(out, bo->getType(), ctx_))
      return fail(why, "overflows its type", loc);
    return Value{out, nullptr};
  }
  if (const auto *co = dyn_cast<ConditionalOperator>(e)) {
    std::optional<Value> c = eval(co->getCond(), at, why, depth + 1);
    if (!c)
      return c;
    if (c->base)
      return fail(why, "tests an address", loc);
    return eval(c->k ? co->getTrueExpr() : co->getFalseExpr(), at, why, depth + 1);
  }
  if (const auto *call = dyn_cast<CallExpr>(e)) {
    std::string name;
    if (const FunctionDecl *fd = call->getDirectCallee())
      name = fd->getNameAsString();
    if ((name == "MPI_Aint_diff" || name == "MPI_Aint_add") && call->getNumArgs() == 2) {
      std::optional<Value> a = eval(call->getArg(0), at, why, depth + 1);
      if (!a)
        return a;
      std::optional<Value> b = eval(call->getArg(1), at, why, depth + 1);
      if (!b)
        return b;
      if (name == "MPI_Aint_diff") {
        if (a->base != b->base)
          return fail(why, "subtracts addresses of different objects", loc);
        return Value{a->k - b->k, nullptr};
      }
      if (a->base && b->base)
        return fail(why, "adds two addresses", loc);
      return Value{a->k + b->k, a->base ? a->base : b->base};
    }
    if (name.empty())
      return fail(why, "depends on an indirect call", loc);
    return fail(why, "depends on a call to '" + name + "'", loc);
  }
  if (isa<UnaryExprOrTypeTraitExpr>(e))
    return fail(why, "is the size of a variable-length array", loc);
  return fail(why, "is not a compile-time constant", loc);
}

Evaluator::LoopBinding::LoopBinding(Evaluator &ev, const VarEvent &e)
    : ev_(ev), saved_(std::move(ev.loopValues_)) {
  ev_.loopValues_.clear();
  if (e.loop && e.loopVar)
    ev_.loopValues_[e.loopVar] = e.loopValue;
  // In one iteration of a loop (FunctionFlow::iterationFlow), a definition inside its body
  // stands where the loop's variable holds the iteration's value.
  if (const LoopIteration *it = ev_.flow_.iteration(); it && e.stmt && ev_.flow_.insideIteration(e.stmt))
    ev_.loopValues_[it->var] = it->value;
}

Evaluator::LoopBinding::~LoopBinding() { ev_.loopValues_ = std::move(saved_); }

namespace {
/// Every reference to one variable in a body.
struct ReferenceFinder : RecursiveASTVisitor<ReferenceFinder> {
  const VarDecl *var;
  std::vector<const DeclRefExpr *> refs;
  explicit ReferenceFinder(const VarDecl *v) : var(v) {}
  bool VisitDeclRefExpr(DeclRefExpr *d) {
    if (d->getDecl() == var)
      refs.push_back(d);
    return true;
  }
};
} // namespace

SourceLocation Evaluator::useOtherThanMemberRead(const VarDecl *vd) const {
  const Stmt *body = flow_.function() ? flow_.function()->getBody() : nullptr;
  if (!body)
    return vd->getLocation();
  ReferenceFinder f(vd);
  f.TraverseStmt(const_cast<Stmt *>(body));
  ParentMap pm(const_cast<Stmt *>(body));
  for (const DeclRefExpr *d : f.refs) {
    // `v.a.b` read as a value (or the whole struct read, `q = v`): up through the members and
    // parentheses to an lvalue-to-rvalue conversion.
    const Stmt *s = d;
    const Stmt *p = pm.getParent(s);
    while (p && (isa<ParenExpr>(p) || (isa<MemberExpr>(p) && !cast<MemberExpr>(p)->isArrow()))) {
      s = p;
      p = pm.getParent(p);
    }
    const auto *ice = dyn_cast_or_null<ImplicitCastExpr>(p);
    if (!ice || ice->getCastKind() != CK_LValueToRValue)
      return d->getBeginLoc();
  }
  return SourceLocation();
}

std::optional<Value> Evaluator::readLocalStructMember(const MemberExpr *me, Unresolved &why,
                                                      int depth) {
  SourceLocation loc = me->getBeginLoc();
  const auto *d = dyn_cast<DeclRefExpr>(me->getBase()->IgnoreParenImpCasts());
  const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  const auto *field = dyn_cast<FieldDecl>(me->getMemberDecl());
  // "depends on 'sd->ny'": the member as written, for the refusals below.
  auto dependsOn = [&] { return "depends on '" + spelledText(me, ctx_) + "', a member "; };
  if (me->isArrow()) {
    const std::string pointer = vd ? "the pointer '" + vd->getNameAsString() + "'" : "a pointer";
    return fail(why, dependsOn() + "read through " + pointer, loc);
  }
  if (vd && field && isa<ParmVarDecl>(vd))
    return fail(why, dependsOn() + "of the parameter '" + vd->getNameAsString() + "'", loc);
  if (vd && field && !vd->hasLocalStorage())
    return fail(why, dependsOn() + "of the " +
                         (vd->isStaticLocal() ? "static" : "global") + " variable '" +
                         vd->getNameAsString() + "'",
                loc);
  if (!vd || !field || field->isBitField() || vd->getType()->isReferenceType() ||
      !field->getType()->isIntegerType())
    return fail(why, "is not a compile-time constant", loc);
  const std::string name = vd->getNameAsString() + "." + field->getNameAsString();
  // A local struct initialized by a list (`struct grid g = {64, 32};`, designators too) and
  // never written, nor its address taken, after: each member holds its initializer.
  const auto *list = dyn_cast_or_null<InitListExpr>(vd->getInit() ? vd->getInit()->IgnoreImplicit()
                                                                   : nullptr);
  if (list && list->isSemanticForm() == false && list->getSemanticForm())
    list = list->getSemanticForm();
  if (!list || list->getNumInits() <= field->getFieldIndex() ||
      field->getParent()->getCanonicalDecl() !=
          vd->getType()->getAsRecordDecl()->getCanonicalDecl())
    return fail(why, "depends on '" + name + "', which is not set by an initializer list", loc);
  if (SourceLocation other = useOtherThanMemberRead(vd); other.isValid())
    return fail(why,
                "depends on '" + name + "', whose struct '" + vd->getNameAsString() +
                    "' is written, or its address taken, on " +
                    lineOf(other, ctx_.getSourceManager()),
                other);
  const DeclStmt *decl = nullptr;
  for (const VarEvent *ev : flow_.eventsFor(vd, std::nullopt))
    if (ev->kind == VarEvent::Init)
      decl = dyn_cast_or_null<DeclStmt>(ev->stmt);
  std::optional<Point> declAt = decl ? pointOf(decl) : std::nullopt;
  if (!declAt)
    return fail(why, "depends on '" + name + "', whose declaration the tool cannot place", loc);
  const Expr *init = list->getInit(field->getFieldIndex());
  if (isa<ImplicitValueInitExpr>(init))
    return Value{0, nullptr};
  std::optional<Value> v = eval(init, *declAt, why, depth + 1);
  if (v && !v->base && !fitsType(v->k, field->getType(), ctx_))
    return fail(why, "depends on '" + name + "', whose initializer does not fit its type", loc);
  return v;
}

std::optional<Value> Evaluator::readVariable(const VarDecl *vd, std::optional<int64_t> element,
                                             Point at, SourceLocation useLoc, Unresolved &why,
                                             int depth) {
  std::string name = slotName(vd, element);
  if (auto it = loopValues_.find(vd); it != loopValues_.end() && !element)
    return Value{it->second, nullptr};
  if (isa<ParmVarDecl>(vd) && bindings_) {
    if (auto it = bindings_->ints.find(vd); it != bindings_->ints.end()) {
      if (!flow_.eventsFor(vd, std::nullopt).empty())
        return fail(why,
                    "depends on '" + name + "', which '" + functionName(vd->getDeclContext()) +
                        "' modifies",
                    useLoc);
      if (element)
        return fail(why, "reads an array the tool cannot follow", useLoc);
      return Value{it->second, nullptr};
    }
    if (auto it = bindings_->unbound.find(vd); it != bindings_->unbound.end())
      return fail(why,
                  "depends on '" + name + "', a parameter of '" +
                      functionName(vd->getDeclContext()) + "' whose argument " + it->second.reason,
                  it->second.loc);
  }
  if (isa<ParmVarDecl>(vd)) {
    std::string param = "depends on '" + vd->getNameAsString() + "', a parameter of '" +
                        functionName(vd->getDeclContext()) + "'";
    // The value every call of the function passes, when all of them are seen.
    if (calls_ && !bindings_ && !element) {
      Unresolved w;
      if (std::optional<int64_t> v = calls_->valueOf(cast<ParmVarDecl>(vd), w))
        return Value{*v, nullptr};
      if (!w.reason.empty())
        return fail(why, param + w.reason, w.loc.isValid() ? w.loc : useLoc);
    }
    return fail(why, param, useLoc);
  }
  if (!vd->hasLocalStorage()) {
    // Constant globals with a visible initializer (the folder took the scalar ones).
    if (vd->getType().isConstQualified() && vd->getInit()) {
      const Expr *init = vd->getInit()->IgnoreImplicit();
      if (element) {
        if (const auto *il = dyn_cast<InitListExpr>(init)) {
          if (*element < 0)
            return fail(why, "reads '" + name + "' before the start of the array", useLoc);
          if (static_cast<uint64_t>(*element) < il->getNumInits())
            return eval(il->getInit(static_cast<unsigned>(*element)), at, why, depth + 1);
          if (const auto *cat = ctx_.getAsConstantArrayType(vd->getType());
              cat && static_cast<uint64_t>(*element) < cat->getSize().getZExtValue())
            return Value{0, nullptr};
          return fail(why, "reads '" + name + "' past the end of the array", useLoc);
        }
      }
    }
    return fail(why,
                "depends on '" + vd->getNameAsString() + "', " +
                    (vd->isStaticLocal() ? "a static variable" : "a global variable"),
                useLoc);
  }
  return readSlot(vd, element, at, useLoc, why, depth);
}

std::optional<SlotDefinition> Evaluator::slotDefinition(const VarDecl *var,
                                                        std::optional<int64_t> element, Point at,
                                                        Unresolved &why) {
  Unresolved inner;
  const VarEvent *def = flow_.reachingDefinition(var, element, at.pos, at.loc, inner);
  if (!def) {
    why = {"'" + slotName(var, element) + "' " + inner.reason, inner.loc};
    return std::nullopt;
  }
  return definitionAt(*def, var, element, at, why);
}

std::optional<SlotDefinition> Evaluator::definitionAt(const VarEvent &event, const VarDecl *var,
                                                      std::optional<int64_t> element, Point at,
                                                      Unresolved &why) {
  const VarEvent *def = &event;
  std::optional<CfgPos> pos = flow_.eventPosition(*def, var);
  if (!pos) {
    why = {"'" + slotName(var, element) + "' is defined in code the tool cannot place", def->loc};
    return std::nullopt;
  }
  // A counted loop's element is evaluated just after the loop exit, where every element the
  // loop writes holds its final value (w[i] read in the body: Flow.cpp, countedLoopAround).
  if (def->loop)
    ++pos->index;
  SlotDefinition out{def, Point{*pos, def->loc}, def->value};
  if (def->kind == VarEvent::Init && element) {
    const Expr *init = def->value->IgnoreImplicit();
    const auto *il = dyn_cast<InitListExpr>(init);
    if (!il) {
      why = {"'" + var->getNameAsString() + "' has an initializer the tool cannot read", def->loc};
      return std::nullopt;
    }
    if (std::optional<DatatypeMember> m = datatypeMember(var, *element)) {
      // A struct's member: the field's initializer, an array member's element in its list;
      // none (zero-initialized) past the lists' ends.
      const unsigned field = m->field->getFieldIndex();
      const Expr *v = field < il->getNumInits() ? il->getInit(field)->IgnoreImplicit() : nullptr;
      if (v && m->index) {
        const auto *sub = dyn_cast<InitListExpr>(v);
        if (!sub && !isa<ImplicitValueInitExpr>(v)) {
          why = {"'" + var->getNameAsString() + "' has an initializer the tool cannot read",
                 def->loc};
          return std::nullopt;
        }
        v = sub && static_cast<uint64_t>(*m->index) < sub->getNumInits()
                ? sub->getInit(static_cast<unsigned>(*m->index))
                : nullptr;
      }
      out.value = v && !isa<ImplicitValueInitExpr>(v->IgnoreImplicit()) ? v : nullptr;
      return out;
    }
    if (*element < 0) {
      why = {"'" + slotName(var, element) + "' is before the start of the array", at.loc};
      return std::nullopt;
    }
    // A two-dimensional array's element r*C+c: element c of row r's list.
    int64_t index = *element;
    if (std::optional<int64_t> columns = rowLength(var->getType(), ctx_)) {
      const int64_t row = *element / *columns;
      index = *element % *columns;
      const auto *cat = ctx_.getAsConstantArrayType(var->getType());
      if (static_cast<uint64_t>(row) >= cat->getSize().getZExtValue()) {
        why = {"'" + slotName(var, element) + "' is past the end of the array", at.loc};
        return std::nullopt;
      }
      if (static_cast<uint64_t>(row) >= il->getNumInits()) {
        out.value = nullptr; // zero-initialized
        return out;
      }
      const Expr *rowInit = il->getInit(static_cast<unsigned>(row))->IgnoreImplicit();
      if (isa<ImplicitValueInitExpr>(rowInit)) {
        out.value = nullptr;
        return out;
      }
      il = dyn_cast<InitListExpr>(rowInit);
      if (!il) {
        why = {"'" + var->getNameAsString() + "' has an initializer the tool cannot read",
               def->loc};
        return std::nullopt;
      }
      out.value = static_cast<uint64_t>(index) < il->getNumInits()
                      ? il->getInit(static_cast<unsigned>(index))
                      : nullptr;
      return out;
    }
    if (static_cast<uint64_t>(index) < il->getNumInits()) {
      out.value = il->getInit(static_cast<unsigned>(index));
    } else if (const auto *cat = ctx_.getAsConstantArrayType(var->getType());
               cat && static_cast<uint64_t>(index) < cat->getSize().getZExtValue()) {
      out.value = nullptr; // zero-initialized
    } else {
      why = {"'" + slotName(var, element) + "' is past the end of the array", at.loc};
      return std::nullopt;
    }
  }
  return out;
}

std::optional<Value> Evaluator::readSlot(const VarDecl *vd, std::optional<int64_t> element,
                                         Point at, SourceLocation useLoc, Unresolved &why,
                                         int depth) {
  if (depth > kMaxDepth)
    return fail(why, "is defined by a chain of definitions too long to follow", useLoc);
  std::string name = slotName(vd, element);
  Unresolved inner;
  std::optional<SlotDefinition> def = slotDefinition(vd, element, at, inner);
  if (!def) {
    // "'n' is reassigned on line 40" -> "depends on 'n', which is reassigned on line 40"
    std::string r = inner.reason;
    std::string prefix = "'" + name + "' ";
    if (r.rfind(prefix, 0) == 0)
      r = "depends on '" + name + "', which " + r.substr(prefix.size());
    return fail(why, r, inner.loc);
  }
  const VarEvent &e = *def->event;
  LoopBinding context(*this, e); // the definition is evaluated where it stands
  switch (e.kind) {
  case VarEvent::Init:
  case VarEvent::Assign: {
    if (!def->value)
      return Value{0, nullptr};
    return eval(def->value, def->at, why, depth + 1);
  }
  case VarEvent::CompoundAssign:
  case VarEvent::IncDec: {
    std::optional<Value> old = readSlot(vd, element, def->at, e.loc, why, depth + 1);
    if (!old)
      return old;
    Value rhs{1, nullptr};
    BinaryOperatorKind op = BO_Add;
    if (e.kind == VarEvent::IncDec) {
      auto uop = static_cast<UnaryOperatorKind>(e.opcode);
      op = (uop == UO_PreInc || uop == UO_PostInc) ? BO_Add : BO_Sub;
    } else {
      std::optional<Value> r = eval(e.value, def->at, why, depth + 1);
      if (!r)
        return r;
      rhs = *r;
      op = BinaryOperator::getOpForCompoundAssignment(static_cast<BinaryOperatorKind>(e.opcode));
    }
    int64_t out = 0;
    if (op == BO_Sub && old->base && old->base == rhs.base)
      return Value{old->k - rhs.k, nullptr}; // `disp -= base` of MPI_Aint addresses: bytes
    if (rhs.base || (old->base && op != BO_Add && op != BO_Sub))
      return fail(why, "combines addresses of different objects", e.loc);
    // `p += k`, `p++` on a pointer move k elements of its pointee (the slot's type: the
    // variable's, or its array's element type).
    QualType slotType = vd->getType();
    if (element)
      if (const ArrayType *at = ctx_.getAsArrayType(slotType))
        slotType = at->getElementType();
    if (slotType->isPointerType()) {
      std::optional<int64_t> step = stepBytes(slotType, ctx_);
      if (!step || *step <= 0 || __builtin_mul_overflow(rhs.k, *step, &rhs.k))
        return fail(why, "depends on '" + name + "', a pointer moved by a step the tool cannot size",
                    e.loc);
    }
    bool overflow = false;
    switch (op) {
    case BO_Add: overflow = __builtin_add_overflow(old->k, rhs.k, &out); break;
    case BO_Sub: overflow = __builtin_sub_overflow(old->k, rhs.k, &out); break;
    case BO_Mul: overflow = __builtin_mul_overflow(old->k, rhs.k, &out); break;
    case BO_Div:
      if (rhs.k == 0)
        return fail(why, "divides by zero", e.loc);
      out = old->k / rhs.k;
      break;
    default:
      return fail(why, "depends on '" + name + "', which is modified on " +
                           lineOf(e.loc, ctx_.getSourceManager()),
                  e.loc);
    }
    if (overflow)
      return fail(why, "overflows 64 bits", e.loc);
    return Value{out, old->base};
  }
  case VarEvent::GetAddressOut:
    return eval(e.value, def->at, why, depth + 1);
  case VarEvent::TypeQueryOut:
    // MPI_Type_size(MPI_INT, &n), MPI_Type_get_extent(MPI_DOUBLE, &lb, &ext): constants of the
    // predefined types' table, the one the plans are made with; a derived type's from its
    // proven chain (queriedLayout).
    for (const std::string &s : spellings(e.value))
      if (const NamedTypeInfo *t = findNamedType(s)) {
        switch (static_cast<TypeQueryField>(e.opcode)) {
        case TypeQueryField::Size: return Value{t->size, nullptr};
        case TypeQueryField::Lb:
        case TypeQueryField::TrueLb: return Value{0, nullptr};
        case TypeQueryField::Ub:
        case TypeQueryField::Extent: return Value{t->extent, nullptr};
        case TypeQueryField::TrueExtent:
          // A pair type's (MPI_DOUBLE_INT) true extent is the span of its two members, which the
          // table does not hold: only a type whose data fills its extent is answered.
          if (t->size == t->extent)
            return Value{t->size, nullptr};
          return fail(why,
                      "depends on '" + name + "', which " +
                          e.call->getDirectCallee()->getNameAsString() +
                          " sets from the pair type " + s + " (its true extent is not tabled)",
                      e.loc);
        }
      }
    return queriedLayout(*def->event, name, def->at, why);
  default:
    return fail(why, "depends on '" + name + "', which is not an integer", e.loc);
  }
}

namespace {

/// Whether MPI defines a chain's lb and extent exactly: a struct pads its extent by the MPI's
/// own alignment rule (implementation-defined), unless a resize above it sets them.
bool portableBounds(const TypeExpr &t) {
  if (t.combiner == Combiner::Resized)
    return true;
  if (t.combiner == Combiner::Struct)
    return false;
  for (const TypeExprPtr &c : t.types)
    if (c && !portableBounds(*c))
      return false;
  return true;
}

/// Chains proven inside a type query, itself inside a chain, ...: a bound on the recursion
/// between DatatypeResolver and Evaluator, which each keep their own depth and make new
/// Evaluators for other functions (two statics built from each other's extents would recurse
/// forever), so the count is the thread's, not one Evaluator's.
constexpr int kMaxQueryNesting = 4;
thread_local int queryNesting = 0;

} // namespace

std::optional<Value> Evaluator::queriedLayout(const VarEvent &e, const std::string &name,
                                              Point at, Unresolved &why) {
  const std::string query = e.call->getDirectCallee()->getNameAsString();
  const std::string prefix = "depends on '" + name + "', which " + query + " sets from ";
  if (!datatypes_)
    return fail(why, prefix + "a datatype that is not a predefined one", e.loc);
  if (queryNesting >= kMaxQueryNesting)
    return fail(why, prefix + "a datatype whose chain queries sizes too deeply (or itself)",
                e.loc);
  Unresolved inner;
  ++queryNesting;
  TypeExprPtr t = datatypes_->resolve(e.value, at, inner, 0);
  --queryNesting;
  if (!t)
    return fail(why, prefix + "a datatype the tool cannot prove: " + inner.reason, inner.loc);
  Result<IRPtr> ir = translate(*t);
  if (!ir)
    return fail(why, prefix + "a datatype MPI would refuse: " + ir.error(), e.loc);
  const Layout &l = (*ir)->layout;
  const auto field = static_cast<TypeQueryField>(e.opcode);
  if (field == TypeQueryField::Size) {
    // MPI_Type_size's int output gets MPI_UNDEFINED for a size over INT_MAX (its _x and _c
    // forms' MPI_Count holds it): the tool does not guess that value.
    const FunctionDecl *fd = e.call->getDirectCallee();
    const QualType out = fd->getNumParams() > 0
                             ? fd->getParamDecl(fd->getNumParams() - 1)->getType()->getPointeeType()
                             : QualType();
    if (out.isNull() || !fitsType(l.size, out, ctx_))
      return fail(why,
                  prefix + "a datatype of " + std::to_string(l.size) +
                      " bytes, more than its output can hold (the MPI sets MPI_UNDEFINED)",
                  e.loc);
    return Value{l.size, nullptr};
  }
  // True bounds span the data alone, so no MPI's padding rule enters them.
  if (field == TypeQueryField::TrueLb)
    return Value{l.trueLb, nullptr};
  if (field == TypeQueryField::TrueExtent)
    return Value{l.trueExtent, nullptr};
  if (!portableBounds(*t))
    return fail(why,
                prefix + "a struct datatype, whose extent each MPI pads by its own alignment "
                         "rule (resize it to fix its bounds)",
                e.loc);
  if (field == TypeQueryField::Ub) {
    int64_t ub = 0;
    if (__builtin_add_overflow(l.lb, l.extent, &ub))
      return fail(why, prefix + "a datatype whose upper bound overflows 64 bits", e.loc);
    return Value{ub, nullptr};
  }
  return Value{field == TypeQueryField::Lb ? l.lb : l.extent, nullptr};
}

std::optional<Value> Evaluator::addressOf(const Expr *lv, Point at, Unresolved &why, int depth) {
  lv = lv->IgnoreParens();
  SourceLocation loc = lv->getBeginLoc();
  if (const auto *d = dyn_cast<DeclRefExpr>(lv)) {
    if (const auto *vd = dyn_cast<VarDecl>(d->getDecl()); vd && !vd->getType()->isReferenceType())
      return Value{0, vd};
    return fail(why, "is the address of a reference", loc);
  }
  if (const auto *me = dyn_cast<MemberExpr>(lv)) {
    if (me->isArrow())
      return fail(why, "is an address reached through a pointer", loc);
    const auto *field = dyn_cast<FieldDecl>(me->getMemberDecl());
    if (!field || field->isBitField() || field->getParent()->isInvalidDecl())
      return fail(why, "is the address of a member the tool cannot place", loc);
    std::optional<Value> base = addressOf(me->getBase(), at, why, depth + 1);
    if (!base)
      return base;
    const ASTRecordLayout &layout = ctx_.getASTRecordLayout(field->getParent());
    int64_t off =
        ctx_.toCharUnitsFromBits(layout.getFieldOffset(field->getFieldIndex())).getQuantity();
    return Value{base->k + off, base->base};
  }
  if (const auto *ase = dyn_cast<ArraySubscriptExpr>(lv)) {
    const Expr *base = ase->getBase()->IgnoreParens();
    const auto *decay = dyn_cast<ImplicitCastExpr>(base);
    if (!decay || decay->getCastKind() != CK_ArrayToPointerDecay)
      return fail(why, "is an address reached through a pointer", loc);
    std::optional<Value> b = addressOf(decay->getSubExpr(), at, why, depth + 1);
    if (!b)
      return b;
    std::optional<Value> idx = eval(ase->getIdx(), at, why, depth + 1);
    if (!idx)
      return idx;
    if (idx->base)
      return fail(why, "uses an address as an index", loc);
    if (ase->getType()->isVariablyModifiedType() || ase->getType()->isIncompleteType())
      return fail(why, "is the address of an element of a variable-length array", loc);
    int64_t elem = ctx_.getTypeSizeInChars(ase->getType()).getQuantity();
    int64_t off = 0;
    if (__builtin_mul_overflow(idx->k, elem, &off) || __builtin_add_overflow(off, b->k, &off))
      return fail(why, "overflows 64 bits", loc);
    return Value{off, b->base};
  }
  return fail(why, "is an address the tool cannot follow", loc);
}

std::optional<int64_t> Evaluator::evalElement(const Expr *array, int64_t i, Point at,
                                              Unresolved &why) {
  const Expr *a = array->IgnoreParenImpCasts();
  int64_t shift = 0;
  if (const VarDecl *x = scalarAddressed(a)) {
    // `&bl` for a one-element array (MPI_Type_create_struct(1, &bl, &disp, &type, ...)).
    if (!onlyElementOf(x, i, a, why))
      return std::nullopt;
    return evalInt(cast<UnaryOperator>(a)->getSubExpr(), at, why);
  }
  if (!elementShift(a, shift, at, why))
    return std::nullopt;
  if (const auto *cl = dyn_cast<CompoundLiteralExpr>(a)) {
    // `&((int[]){9, 1, 2})[1]`: element i of the argument is element i + 1 of the literal.
    int64_t j = 0;
    if (const auto *il = dyn_cast<InitListExpr>(cl->getInitializer());
        il && !__builtin_add_overflow(i, shift, &j) && j >= 0) {
      if (static_cast<uint64_t>(j) < il->getNumInits())
        return evalInt(il->getInit(static_cast<unsigned>(j)), at, why);
      return 0;
    }
  }
  // A row of a local two-dimensional array (`subsizes[d]`): element row*C + i.
  if (const auto *row = dyn_cast<ArraySubscriptExpr>(a); row && shift == 0) {
    const auto *d = dyn_cast<DeclRefExpr>(row->getBase()->IgnoreParenImpCasts());
    const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    if (vd && rowLength(vd->getType(), ctx_) && vd->hasLocalStorage() && !isa<ParmVarDecl>(vd)) {
      std::optional<int64_t> r = evalInt(row->getIdx(), at, why);
      if (!r)
        return r;
      return integerOf(readRowElement(vd, *r, i, at, a->getBeginLoc(), why, 0), a->getBeginLoc(),
                       why);
    }
  }
  if (const auto *d = dyn_cast<DeclRefExpr>(a)) {
    if (const auto *vd = dyn_cast<VarDecl>(d->getDecl())) {
      if (!vd->getType()->isArrayType()) {
        why = {"is the pointer '" + vd->getNameAsString() + "', not an array the tool can read",
               a->getBeginLoc()};
        return std::nullopt;
      }
      return integerOf(readVariable(vd, i + shift, at, a->getBeginLoc(), why, 0),
                       a->getBeginLoc(), why);
    }
  }
  why = {"is not a local or constant array", a->getBeginLoc()};
  return std::nullopt;
}

const VarDecl *Evaluator::scalarAddressed(const Expr *a) {
  const auto *uo = dyn_cast<UnaryOperator>(a);
  const auto *d = uo && uo->getOpcode() == UO_AddrOf
                      ? dyn_cast<DeclRefExpr>(uo->getSubExpr()->IgnoreParens())
                      : nullptr;
  const auto *vd = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  return vd && !vd->getType()->isArrayType() && !vd->getType()->isReferenceType() &&
                 vd->hasLocalStorage() && !isa<ParmVarDecl>(vd)
             ? vd
             : nullptr;
}

bool Evaluator::onlyElementOf(const VarDecl *x, int64_t i, const Expr *a, Unresolved &why) {
  if (i == 0)
    return true;
  why = {"reads element " + std::to_string(i) + " of '&" + x->getNameAsString() +
             "', the address of one variable",
         a->getBeginLoc()};
  return false;
}

bool Evaluator::elementShift(const Expr *&a, int64_t &shift, Point at, Unresolved &why) {
  const Expr *base = nullptr, *index = nullptr;
  if (const auto *uo = dyn_cast<UnaryOperator>(a); uo && uo->getOpcode() == UO_AddrOf) {
    // `&a[k]` of anything indexed: `&rows[r][0]` becomes the row `rows[r]`, read as one.
    if (const auto *ase = dyn_cast<ArraySubscriptExpr>(uo->getSubExpr()->IgnoreParens())) {
      base = ase->getBase()->IgnoreParenImpCasts();
      index = ase->getIdx();
    }
  } else if (const auto *bo = dyn_cast<BinaryOperator>(a);
             bo && bo->getOpcode() == BO_Add && bo->getType()->isPointerType()) {
    // `a + k` only of a named variable (an array's elements are read as such; a pointer gets
    // its remark), since pointer arithmetic on anything else is no index the readers know.
    const bool lhsPointer = bo->getLHS()->getType()->isPointerType();
    base = dyn_cast<DeclRefExpr>((lhsPointer ? bo->getLHS() : bo->getRHS())->IgnoreParenImpCasts());
    index = lhsPointer ? bo->getRHS() : bo->getLHS();
  }
  if (!base)
    return true;
  std::optional<int64_t> j = evalInt(index, at, why);
  if (!j)
    return false;
  shift = *j;
  a = base;
  return true;
}

std::optional<SlotDefinition> Evaluator::elementDefinition(const Expr *array, int64_t i,
                                                           Point at, Unresolved &why) {
  const Expr *a = array->IgnoreParenImpCasts();
  if (const VarDecl *x = scalarAddressed(a)) {
    if (!onlyElementOf(x, i, a, why))
      return std::nullopt;
    return slotDefinition(x, std::nullopt, at, why);
  }
  int64_t shift = 0;
  if (!elementShift(a, shift, at, why))
    return std::nullopt;
  if (__builtin_add_overflow(i, shift, &i)) {
    why = {"is indexed past 64 bits", a->getBeginLoc()};
    return std::nullopt;
  }
  if (const auto *cl = dyn_cast<CompoundLiteralExpr>(a)) {
    if (const auto *il = dyn_cast<InitListExpr>(cl->getInitializer());
        il && i >= 0 && static_cast<uint64_t>(i) < il->getNumInits()) {
      SlotDefinition out;
      out.at = at;
      out.value = il->getInit(static_cast<unsigned>(i));
      return out;
    }
  }
  if (const auto *d = dyn_cast<DeclRefExpr>(a))
    if (const auto *vd = dyn_cast<VarDecl>(d->getDecl()); vd && vd->getType()->isArrayType()) {
      if (isa<ParmVarDecl>(vd) || !vd->hasLocalStorage()) {
        if (!vd->hasLocalStorage() && vd->getType().isConstQualified() && vd->getInit())
          if (const auto *il = dyn_cast<InitListExpr>(vd->getInit()->IgnoreImplicit());
              il && i >= 0 && static_cast<uint64_t>(i) < il->getNumInits()) {
            SlotDefinition out;
            out.at = at;
            out.value = il->getInit(static_cast<unsigned>(i));
            return out;
          }
        why = {"is the array '" + vd->getNameAsString() + "', which is not local",
               a->getBeginLoc()};
        return std::nullopt;
      }
      return slotDefinition(vd, i, at, why);
    }
  why = {"is not a local or constant array", a->getBeginLoc()};
  return std::nullopt;
}

} // namespace tempi::frontend

/// \file
/// FileScopeTypes: the one constructor that writes a static-storage datatype variable, found
/// over the whole translation unit (see the header for the rules).
#include "tool/clang/FileScopeTypes.h"

#include "clang/AST/ExprCXX.h"

#include "tool/clang/Evaluator.h"

#include "tool/clang/TranslationUnitScan.h"

#include <algorithm>
#include <functional>

using namespace clang;

namespace tempi::frontend {

namespace {

/// Every reference to a static-storage MPI_Datatype variable, with the function it is in (a
/// constructor in a lambda or a block is refused).
class ReferenceScan : public EnclosingFunctionVisitor<ReferenceScan> {
public:
  struct Ref {
    const DeclRefExpr *ref;
    const FunctionDecl *function; ///< null outside a function or inside a lambda or block
  };
  bool VisitDeclRefExpr(DeclRefExpr *d) {
    const auto *vd = dyn_cast<VarDecl>(d->getDecl());
    if (vd && vd->hasGlobalStorage() &&
        (isDatatypeType(vd->getType()) ||
         FileScopeTypes::isDatatypeArray(vd->getType(), vd->getASTContext()) ||
         datatypeRecord(vd->getType())))
      refs.push_back({d, currentFunction()});
    return true;
  }
  std::vector<Ref> refs;
};

} // namespace

bool FileScopeTypes::isDatatypeArray(QualType t, const ASTContext &ctx) {
  const ConstantArrayType *cat = ctx.getAsConstantArrayType(t);
  return cat && !cat->getElementType()->isArrayType() && isDatatypeType(cat->getElementType());
}

void FileScopeTypes::scan() {
  scanned_ = true;
  ReferenceScan s;
  s.TraverseDecl(ctx_.getTranslationUnitDecl());
  const SourceManager &sm = ctx_.getSourceManager();
  for (const ReferenceScan::Ref &r : s.refs) {
    const auto *vd = cast<VarDecl>(r.ref->getDecl())->getCanonicalDecl();
    Uses &u = uses_[vd];
    SourceLocation loc = r.ref->getBeginLoc();
    auto other = [&](std::string what) {
      if (u.other.reason.empty())
        u.other = {"'" + vd->getNameAsString() + "' " + what + " on " + lineOf(loc, sm), loc};
    };
    const Stmt *child = r.ref;
    const Stmt *p = parentStmt(child, ctx_);
    if (isa_and_nonnull<UnaryExprOrTypeTraitExpr>(p))
      continue; // sizeof: not evaluated
    // An array: its element a[i] is used as a scalar variable is (below), the array itself only
    // read through a pointer to const (MPI_Alltoallw's types, a struct's member types).
    if (isDatatypeArray(vd->getType(), ctx_)) {
      tracked_.insert(vd);
      const auto *decay = dyn_cast_or_null<ImplicitCastExpr>(p);
      const Stmt *above = decay && decay->getCastKind() == CK_ArrayToPointerDecay
                              ? parentAboveParensAndCasts(decay, child, ctx_)
                              : nullptr;
      const auto *ase = dyn_cast_or_null<ArraySubscriptExpr>(above);
      if (!ase || ase->getBase()->IgnoreParenImpCasts() != r.ref) {
        const auto *call = dyn_cast_or_null<CallExpr>(above);
        int k = call ? argumentIndex(call, child) : -1;
        if (k < 0 || !paramIsConstPointer(call, k))
          other(call && k >= 0 ? "is passed to " + (directCalleeName(call).empty()
                                                        ? std::string("an indirect call")
                                                        : "'" + directCalleeName(call) + "'")
                               : std::string("decays to a pointer"));
        continue;
      }
      child = ase;
      p = parentStmt(child, ctx_);
    }
    // A struct of datatypes: its datatype member h.m is used as a scalar variable is (below);
    // another member is read or written in place, or its address goes to an MPI function or a
    // pointer to const; the whole struct is only read by value.
    if (datatypeRecord(vd->getType())) {
      tracked_.insert(vd);
      if (const auto *me = dyn_cast_or_null<MemberExpr>(p); me && !me->isArrow()) {
        const auto *fd = dyn_cast<FieldDecl>(me->getMemberDecl());
        if (fd && isDatatypeArrayMember(fd)) {
          // An array member, as an array of datatypes above: h.face[i] is used as a scalar
          // variable is; h.face itself only read through a pointer to const.
          const Stmt *below = me;
          const Stmt *above = parentAboveParensAndCasts(me, below, ctx_);
          const auto *ase = dyn_cast_or_null<ArraySubscriptExpr>(above);
          if (!ase || ase->getBase()->IgnoreParenImpCasts() != me) {
            const auto *call = dyn_cast_or_null<CallExpr>(above);
            int k = call ? argumentIndex(call, below) : -1;
            if (k < 0 || !paramIsConstPointer(call, k))
              other("has its member '" + fd->getNameAsString() + "' used as a pointer");
            continue;
          }
          child = ase;
        } else if (!fd || !isDatatypeType(fd->getType())) {
          if (std::string what = memberAddressEscape(me, ctx_); !what.empty())
            other(what);
          continue;
        } else {
          child = me;
        }
        p = parentStmt(child, ctx_);
      }
    }
    // Up through parentheses, implicit casts and the branches of C++'s lvalue `c ? a : b`: a
    // load is a read.
    bool read = false;
    auto branchOf = [&](const Stmt *q) {
      const auto *co = dyn_cast<ConditionalOperator>(q);
      return co && co->getCond() != child;
    };
    while (p && (isa<ParenExpr>(p) || isa<ImplicitCastExpr>(p) || (!read && branchOf(p)))) {
      if (const auto *ice = dyn_cast<ImplicitCastExpr>(p);
          ice && ice->getCastKind() == CK_LValueToRValue)
        read = true;
      child = p;
      p = parentStmt(p, ctx_);
    }
    if (read)
      continue;
    if (r.function && r.function->isDependentContext()) {
      other("is written inside a template"); // the instances are not followed
      continue;
    }
    // C++: the variable bound to a builder helper's `MPI_Datatype &` output.
    if (const auto *call = dyn_cast_or_null<CallExpr>(p)) {
      int k = argumentIndex(call, child);
      if (k >= 0 && isHelperDatatypeOutput(call, static_cast<unsigned>(k))) {
        u.builders.push_back({call, nullptr, r.function, k});
        continue;
      }
      // A struct of datatypes into a `Halo &` of a function of this file (as `&g` below).
      if (const RecordDecl *rec = datatypeRecord(vd->getType()); rec && k >= 0) {
        if (recordOutputParam(call, static_cast<unsigned>(k), rec)) {
          u.builders.push_back({call, nullptr, r.function, k});
          continue;
        }
        if (paramIsConstPointer(call, k))
          continue; // a `const Halo &`: read
      }
    }
    const auto *addr = dyn_cast_or_null<UnaryOperator>(p);
    if (!addr || addr->getOpcode() != UO_AddrOf) {
      const auto *bo = dyn_cast_or_null<BinaryOperator>(p);
      other(bo && bo->isAssignmentOp() && bo->getLHS() == child ? "is assigned"
                                                                 : "is used other than by value");
      continue;
    }
    // &v: the output of a constructor, or the argument of MPI_Type_commit/_free.
    p = parentAboveParensAndCasts(addr, child, ctx_);
    const auto *call = dyn_cast_or_null<CallExpr>(p);
    int k = call ? argumentIndex(call, child) : -1;
    if (k < 0) {
      other("has its address taken");
      continue;
    }
    std::string callee = directCalleeName(call);
    if (const ConstructorSpec *cs = findConstructor(callee);
        cs && static_cast<size_t>(k) < cs->args.size() && cs->args[k].role == ArgRole::NewType) {
      u.builders.push_back({call, cs, r.function});
      continue;
    }
    if (isHelperDatatypeOutput(call, static_cast<unsigned>(k))) {
      u.builders.push_back({call, nullptr, r.function, k}); // a builder helper's output
      continue;
    }
    // A struct of datatypes handed to a function of this file through a pointer to it: the
    // caller's flow says which members that function writes (RecordHelperOut events) or frees;
    // one that only reads writes none. Through a pointer to const it is only read.
    if (const RecordDecl *rec = datatypeRecord(vd->getType())) {
      if (recordOutputParam(call, static_cast<unsigned>(k), rec)) {
        u.builders.push_back({call, nullptr, r.function, k});
        continue;
      }
      if (paramIsConstPointer(call, k))
        continue;
    }
    TypeManagement tm = findTypeManagement(callee);
    if (k == 0 && (tm == TypeManagement::Commit || tm == TypeManagement::Free))
      continue;
    other("has its address passed to " + (callee.empty() ? std::string("an indirect call")
                                                         : "'" + callee + "'"));
  }
}

bool FileScopeTypes::storageAllowsProof(const VarDecl *var, Unresolved &why) {
  const SourceManager &sm = ctx_.getSourceManager();
  std::string name = "'" + var->getNameAsString() + "'";
  SourceLocation loc = var->getLocation();
  auto refuse = [&](std::string reason) {
    why = {name + " " + reason, loc};
    return false;
  };
  if (var->isStaticDataMember())
    return refuse("is a static member of a class; members are not tracked");
  if (var->getType().isVolatileQualified())
    return refuse("is volatile");
  if (var->getType()->isReferenceType())
    return refuse("is a reference");
  if (!var->isStaticLocal() && var->isExternallyVisible()) {
    if (!wholeProgram_)
      return refuse("is a global variable that another file may write (tempi-cc proves one "
                    "only when it compiles and links the whole program in one command, or when "
                    "it is static)");
    if (var->hasDefinition() == VarDecl::DeclarationOnly)
      return refuse("is defined in another file");
  }
  auto spellsNull = [&](const Expr *e) {
    for (const std::string &sp : Evaluator::spellingsOf(e, ctx_))
      if (sp == "MPI_DATATYPE_NULL")
        return true;
    return false;
  };
  // C++'s `static Halo h;` of a C-like struct: a trivial default construction, no value.
  auto trivialDefault = [](const Expr *init) {
    const auto *ce = dyn_cast<CXXConstructExpr>(init->IgnoreImplicit());
    return ce && ce->getNumArgs() == 0 && ce->getConstructor()->isTrivial();
  };
  for (const VarDecl *rd : var->redecls())
    if (const Expr *init = rd->getInit(); init && !trivialDefault(init)) {
      bool null = true;
      // Every datatype an initializer list gives is null (a struct's other members: any value;
      // an array member's list, element by element; an implicit zero, as none).
      std::function<bool(const Expr *)> nullList = [&](const Expr *e) {
        e = e->IgnoreImplicit();
        if (isa<ImplicitValueInitExpr>(e))
          return true;
        const auto *il = dyn_cast<InitListExpr>(e);
        if (!il)
          return spellsNull(e);
        if (const RecordDecl *rec = datatypeRecord(il->getType())) {
          for (const FieldDecl *f : rec->fields())
            if (f->getFieldIndex() < il->getNumInits() &&
                (isDatatypeType(f->getType()) || isDatatypeArrayMember(f)) &&
                !nullList(il->getInit(f->getFieldIndex())))
              return false;
          return true;
        }
        for (const Expr *element : il->inits())
          if (!nullList(element))
            return false;
        return true;
      };
      if (isa<InitListExpr>(init->IgnoreImplicit())) {
        null = nullList(init);
      } else {
        null = spellsNull(init);
      }
      if (!null) {
        loc = init->getBeginLoc();
        return refuse("is initialized on " + lineOf(loc, sm) +
                      " and may be written later (only MPI_DATATYPE_NULL is followed)");
      }
    }
  if (!scanned_)
    scan();
  return true;
}

std::optional<FileScopeTypes::Builder> FileScopeTypes::builderOf(const VarDecl *var,
                                                                  Unresolved &why) {
  var = var->getCanonicalDecl();
  if (!storageAllowsProof(var, why))
    return std::nullopt;
  const SourceManager &sm = ctx_.getSourceManager();
  std::string name = "'" + var->getNameAsString() + "'";
  SourceLocation loc = var->getLocation();
  auto refuse = [&](std::string reason) {
    why = {name + " " + reason, loc};
    return std::nullopt;
  };
  auto it = uses_.find(var);
  if (it != uses_.end() && !it->second.other.reason.empty()) {
    why = it->second.other;
    return std::nullopt;
  }
  if (it == uses_.end() || it->second.builders.empty())
    return refuse("is never built by a datatype constructor in this file");
  const Uses &u = it->second;
  if (u.builders.size() > 1) {
    loc = u.builders[1].call->getBeginLoc();
    return refuse("is built on " + lineOf(u.builders[0].call->getBeginLoc(), sm) + " and on " +
                  lineOf(loc, sm));
  }
  const Builder &b = u.builders.front();
  loc = b.call->getBeginLoc();
  if (!b.function)
    return refuse("is built on " + lineOf(loc, sm) + " outside a function, or in a lambda or block");
  return b;
}

std::optional<FileScopeTypes::ElementBuilder>
FileScopeTypes::elementBuilderOf(const VarDecl *var, int64_t k, Unresolved &why) {
  var = var->getCanonicalDecl();
  if (!storageAllowsProof(var, why))
    return std::nullopt;
  const SourceManager &sm = ctx_.getSourceManager();
  std::string name = "'" + var->getNameAsString() + "'";
  std::string element = "'" + Evaluator::slotName(var, k) + "'";
  auto refuse = [&](std::string who, std::string reason, SourceLocation loc) {
    why = {who + " " + reason, loc};
    return std::nullopt;
  };
  const ConstantArrayType *cat = ctx_.getAsConstantArrayType(var->getType());
  if (!datatypeMember(var, k) &&
      (!cat || k < 0 || static_cast<uint64_t>(k) >= cat->getSize().getZExtValue()))
    return refuse(element, "is outside the array", var->getLocation());
  auto it = uses_.find(var);
  if (it != uses_.end() && !it->second.other.reason.empty()) {
    why = it->second.other;
    return std::nullopt;
  }
  if (it == uses_.end() || it->second.builders.empty())
    return refuse(name, "is never built by a datatype constructor in this file",
                  var->getLocation());
  // Every function that builds an element: which elements its flow proves each call writes.
  std::vector<const FunctionDecl *> functions;
  for (const Builder &b : it->second.builders) {
    SourceLocation loc = b.call->getBeginLoc();
    if (!b.function)
      return refuse(name, "is built on " + lineOf(loc, sm) +
                              " outside a function, or in a lambda or block",
                    loc);
    if (std::find(functions.begin(), functions.end(), b.function) == functions.end())
      functions.push_back(b.function);
  }
  std::vector<ElementBuilder> writes;
  for (const FunctionDecl *fn : functions) {
    const FunctionFlow &flow = flowOf(fn);
    for (const VarEvent *e : flow.eventsFor(var, k)) {
      SourceLocation loc = e->call ? e->call->getBeginLoc() : e->loc;
      switch (e->kind) {
      case VarEvent::Free:
        continue; // the same constructor, run again, builds the same datatype
      case VarEvent::ConstructorOut:
      case VarEvent::HelperOut:
      case VarEvent::RecordHelperOut:
        if (e->anyElement)
          return refuse(name, "is built through a non-constant index on " + lineOf(loc, sm) +
                                  " (outside a counted loop the tool reads whole)",
                        loc);
        writes.push_back({e, fn});
        continue;
      case VarEvent::Escape:
        return refuse(name, e->what + " on " + lineOf(e->loc, sm), e->loc);
      default:
        return refuse(name, "is written on " + lineOf(loc, sm) + " other than by a constructor",
                      loc);
      }
    }
  }
  if (writes.empty())
    return refuse(element, "is never built by a datatype constructor in this file",
                  var->getLocation());
  if (writes.size() > 1) {
    SourceLocation second = writes[1].event->call->getBeginLoc();
    return refuse(element, "is built on " + lineOf(writes[0].event->call->getBeginLoc(), sm) +
                               " and on " + lineOf(second, sm),
                  second);
  }
  return writes.front();
}

FunctionFlow &FileScopeTypes::flowOf(const Decl *fn) {
  if (!scanned_)
    scan(); // the arrays every flow tracks
  std::unique_ptr<FunctionFlow> &f = flows_[fn];
  if (!f)
    f = FunctionFlow::build(fn, ctx_, nullptr, &tracked_);
  return *f;
}

} // namespace tempi::frontend

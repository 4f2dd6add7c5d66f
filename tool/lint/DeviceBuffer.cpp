/// \file
/// device-buffer-to-mpi: device memory passed to an MPI call in a program built without TEMPI
/// against an MPI that is not CUDA-aware. Such an MPI reads the pointer as host memory: a crash
/// or silently wrong bytes.
///
/// Acts only where the tool sees the allocation: within one function, a local pointer defined by
/// cudaMalloc / cudaMallocAsync / cudaMallocPitch (`&p` as the first argument, casts allowed) or
/// the `.ptr` of a cudaPitchedPtr filled by cudaMalloc3D, and the local pointers derived from it
/// (initialized or assigned from it, pointer arithmetic, `&p[i]`, casts), reaching a `void *`
/// parameter of a function whose name starts with `MPI_`. A pointer that is also assigned
/// anything else in the function (malloc in a host branch, a parameter) is not followed: the tool
/// cannot tell which one reaches the call. Managed and pinned host memory (cudaMallocManaged,
/// cudaMallocHost) are host-accessible and never reported.
///
/// Silent when the program is built with TEMPI (--tempi, or the TU includes tempi/tempi.h) or the
/// MPI is CUDA-aware (--mpi-cuda-aware, or MPIX_CUDA_AWARE_SUPPORT defined to 1 by the MPI's
/// headers, as Open MPI's mpi-ext.h does).
#include "tool/lint/CheckContext.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

#include <map>
#include <set>

using namespace clang;

namespace tempi::lint {

namespace {

/// A pointer slot: a local variable, or the .ptr field of a local cudaPitchedPtr.
struct Slot {
  const VarDecl *var = nullptr;
  bool pitchedPtr = false;
  bool operator<(const Slot &o) const {
    return var != o.var ? var < o.var : pitchedPtr < o.pitchedPtr;
  }
};

std::string calleeName(const CallExpr *c) {
  if (const FunctionDecl *fd = c->getDirectCallee())
    if (fd->getIdentifier())
      return fd->getName().str();
  return "";
}

const VarDecl *localVar(const Expr *e) {
  if (const auto *dr = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
    if (const auto *v = dyn_cast<VarDecl>(dr->getDecl()))
      if (v->hasLocalStorage() && !isa<ParmVarDecl>(v))
        return v;
  return nullptr;
}

/// The slot an lvalue names: `p`, `pp.ptr`.
std::optional<Slot> slotOf(const Expr *e) {
  e = e->IgnoreParenCasts();
  if (const VarDecl *v = localVar(e))
    return Slot{v, false};
  if (const auto *m = dyn_cast<MemberExpr>(e))
    if (!m->isArrow() && m->getMemberDecl()->getName() == "ptr")
      if (const VarDecl *v = localVar(m->getBase()))
        return Slot{v, true};
  return std::nullopt;
}

/// The slot a pointer value is derived from: p, p + k, k + p, p - k, &p[k], (T *)p, pp.ptr.
std::optional<Slot> baseOf(const Expr *e) {
  e = e->IgnoreParenCasts();
  if (const auto *b = dyn_cast<BinaryOperator>(e)) {
    if (b->getOpcode() == BO_Add || b->getOpcode() == BO_Sub) {
      if (b->getLHS()->getType()->isPointerType())
        return baseOf(b->getLHS());
      if (b->getOpcode() == BO_Add && b->getRHS()->getType()->isPointerType())
        return baseOf(b->getRHS());
    }
    return std::nullopt;
  }
  if (const auto *u = dyn_cast<UnaryOperator>(e)) {
    if (u->getOpcode() == UO_AddrOf)
      if (const auto *a = dyn_cast<ArraySubscriptExpr>(u->getSubExpr()->IgnoreParens()))
        return baseOf(a->getBase());
    return std::nullopt;
  }
  if (!e->getType()->isPointerType() && !e->getType()->isArrayType())
    return std::nullopt;
  return slotOf(e);
}

struct Definition {
  Slot slot;
  const Expr *value; ///< the assigned value; null for a cudaMalloc output
  const CallExpr *alloc;
};

class FunctionScan : public RecursiveASTVisitor<FunctionScan> {
public:
  bool VisitCallExpr(CallExpr *c) {
    std::string name = calleeName(c);
    if ((name == "cudaMalloc" || name == "cudaMallocAsync" || name == "cudaMallocPitch" ||
         name == "cudaMalloc3D") &&
        c->getNumArgs() > 0) {
      if (const auto *u = dyn_cast<UnaryOperator>(c->getArg(0)->IgnoreParenCasts()))
        if (u->getOpcode() == UO_AddrOf)
          if (const VarDecl *v = localVar(u->getSubExpr()))
            defs.push_back({Slot{v, name == "cudaMalloc3D"}, nullptr, c});
    } else if (name.rfind("MPI_", 0) == 0) {
      mpiCalls.push_back(c);
    }
    return true;
  }
  bool VisitVarDecl(VarDecl *v) {
    if (v->hasLocalStorage() && v->getType()->isPointerType() && v->getInit())
      defs.push_back({Slot{v, false}, v->getInit(), nullptr});
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *b) {
    // p += k keeps p inside its allocation: only plain assignments define a new pointer.
    if (b->getOpcode() == BO_Assign && b->getLHS()->getType()->isPointerType())
      if (std::optional<Slot> s = slotOf(b->getLHS()))
        defs.push_back({*s, b->getRHS(), nullptr});
    return true;
  }
  std::vector<Definition> defs;
  std::vector<const CallExpr *> mpiCalls;
};

bool isNull(const Expr *e, ASTContext &ctx) {
  return e->IgnoreParenCasts()->isNullPointerConstant(ctx, Expr::NPC_ValueDependentIsNotNull) !=
         Expr::NPCK_NotNull;
}

class Functions : public RecursiveASTVisitor<Functions> {
public:
  bool VisitFunctionDecl(FunctionDecl *fd) {
    if (fd->doesThisDeclarationHaveABody() && !fd->isDependentContext())
      bodies.push_back(fd);
    return true;
  }
  bool shouldVisitTemplateInstantiations() const { return true; }
  std::vector<const FunctionDecl *> bodies;
};

} // namespace

void checkDeviceBuffers(const CheckContext &c, std::vector<Finding> &out) {
  if (c.options.builtWithTempi || c.options.mpiCudaAware)
    return;
  const SourceManager &sm = c.ctx.getSourceManager();
  Functions fns;
  fns.TraverseDecl(c.ctx.getTranslationUnitDecl());
  std::set<SourceLocation> reported;
  for (const FunctionDecl *fd : fns.bodies) {
    FunctionScan scan;
    scan.TraverseStmt(fd->getBody());
    // Device slots and the allocation they come from; a slot with any other definition is
    // dropped (the tool cannot tell which definition reaches a call).
    std::map<Slot, const CallExpr *> device;
    for (const Definition &d : scan.defs)
      if (d.alloc)
        device[d.slot] = d.alloc;
    for (bool changed = true; changed;) {
      changed = false;
      for (const Definition &d : scan.defs) {
        if (d.alloc)
          continue;
        const CallExpr *from = nullptr;
        if (d.value) {
          std::optional<Slot> b = baseOf(d.value);
          if (b && device.count(*b))
            from = device[*b];
          else if (isNull(d.value, c.ctx))
            continue; // p = NULL before the allocation does not compete with it
        }
        auto it = device.find(d.slot);
        if (from && it == device.end()) {
          device[d.slot] = from;
          changed = true;
        } else if (!from && it != device.end()) {
          device.erase(it);
          changed = true;
        }
      }
    }
    if (device.empty())
      continue;
    for (const CallExpr *call : scan.mpiCalls) {
      const FunctionDecl *callee = call->getDirectCallee();
      if (!callee)
        continue;
      for (unsigned i = 0; i < call->getNumArgs() && i < callee->getNumParams(); ++i) {
        if (!callee->getParamDecl(i)->getType()->isVoidPointerType())
          continue;
        std::optional<Slot> b = baseOf(call->getArg(i));
        if (!b || !device.count(*b))
          continue;
        const CallExpr *alloc = device[*b];
        SourceLocation loc = sm.getFileLoc(call->getArg(i)->getExprLoc());
        if (!sm.isInMainFile(loc) || !reported.insert(loc).second)
          continue;
        std::string arg = spelledText(call->getArg(i), c.ctx);
        Finding f = findingAt(
            "device-buffer-to-mpi", call->getArg(i),
            "'" + arg + "' is device memory (" + calleeName(alloc) + " on " +
                c.lineOf(alloc->getBeginLoc()) + ") passed to " + calleeName(call) +
                ", but this MPI is not CUDA-aware and the program is not built with TEMPI: the "
                "MPI reads it as host memory; build with tempi-cc, or copy through host memory",
            c.ctx);
        f.loc = loc;
        f.notes.push_back({sm.getFileLoc(alloc->getBeginLoc()), "the device allocation is here"});
        out.push_back(std::move(f));
      }
    }
  }
}

} // namespace tempi::lint

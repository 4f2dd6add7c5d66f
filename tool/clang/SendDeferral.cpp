/// \file
/// SendDeferral: the classification of every call on a path (flush, neutral, end, barrier) and
/// the path proof on Clang's CFG. See SendDeferral.h for the rules and what is refused.
#include "tool/clang/SendDeferral.h"

#include "tool/clang/Flow.h"
#include "tool/clang/MpiNames.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ExprObjC.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <vector>

using namespace clang;

namespace tempi::frontend {

namespace {

/// The MPI functions libtempi interposes (issue 3) that start the deferred sends: all of them but
/// the nonblocking receives, and but MPI_Isend/MPI_Issend, which are neutral here because a
/// rewritten one may itself be deferred (treating a real flush as neutral is always safe).
constexpr std::string_view kFlushingMpi[] = {
    "MPI_Init",          "MPI_Init_thread",        "MPI_Finalize",        "MPI_Type_commit",
    "MPI_Type_free",     "MPI_Type_dup",           "MPI_Send",            "MPI_Ssend",
    "MPI_Rsend",         "MPI_Bsend",              "MPI_Recv",            "MPI_Sendrecv",
    "MPI_Sendrecv_replace", "MPI_Pack",            "MPI_Unpack",          "MPI_Pack_size",
    "MPI_Send_init",     "MPI_Start",              "MPI_Startall",        "MPI_Wait",
    "MPI_Waitall",       "MPI_Waitany",            "MPI_Waitsome",        "MPI_Test",
    "MPI_Testall",       "MPI_Testany",            "MPI_Testsome",        "MPI_Request_free",
    "MPI_Cancel",        "MPI_Neighbor_alltoallv", "MPI_Neighbor_alltoallw", "MPI_Alltoallv",
    "MPI_Alltoallw",
    // The large-count forms libtempi interposes too (runtime/src; tempi.h: "any MPI_X libtempi
    // interposes" flushes).
    "MPI_Send_c",        "MPI_Ssend_c",            "MPI_Rsend_c",         "MPI_Bsend_c",
    "MPI_Recv_c",        "MPI_Sendrecv_c",         "MPI_Sendrecv_replace_c", "MPI_Send_init_c",
    "MPI_Pack_c",        "MPI_Unpack_c",           "MPI_Pack_size_c",     "MPI_Alltoallv_c",
    "MPI_Alltoallw_c",   "MPI_Neighbor_alltoallv_c", "MPI_Neighbor_alltoallw_c",
};

/// MPI functions that neither flush nor wait: nonblocking receives and sends (they return at
/// once), and local queries that do no communication and cannot block on a peer.
constexpr std::string_view kNeutralMpi[] = {
    "MPI_Irecv",        "MPI_Recv_init",       "MPI_Isend",     "MPI_Issend",
    "MPI_Irecv_c",      "MPI_Recv_init_c",     "MPI_Isend_c",   "MPI_Issend_c",
    "MPI_Comm_rank",    "MPI_Comm_size",       "MPI_Cart_rank", "MPI_Cart_coords",
    "MPI_Cart_shift",   "MPI_Cart_get",        "MPI_Cartdim_get", "MPI_Dims_create",
    "MPI_Type_size",       "MPI_Type_size_c", "MPI_Type_get_extent",
    "MPI_Type_get_extent_c", "MPI_Type_get_true_extent", "MPI_Get_address", "MPI_Address",
    "MPI_Aint_add",     "MPI_Aint_diff",       "MPI_Error_string", "MPI_Wtime", "MPI_Wtick",
};

/// Entry points of libtempi that do not flush (tempi.h): the nonblocking receives and the
/// deferred sends, with their large-count forms.
constexpr std::string_view kNeutralTempi[] = {
    "tempi_Irecv", "tempi_Recv_init", "tempi_Isend_deferred", "tempi_Issend_deferred",
};

/// Functions after which the program does not go on (the path needs no flush).
constexpr std::string_view kEnds[] = {
    "MPI_Abort",     "exit",         "_Exit",   "quick_exit", "abort", "__assert_fail",
    "__assert_perror_fail", "__assert_rtn", "__assert", "_assert", "__builtin_trap",
    "__builtin_unreachable", "__builtin_abort",
};

/// C library functions that cannot call MPI and return in bounded time (with glibc's
/// _FORTIFY_SOURCE forms, which replace them at -O2).
constexpr std::string_view kNeutralLibc[] = {
    "printf",  "fprintf", "sprintf", "snprintf", "vprintf", "vfprintf", "vsprintf", "vsnprintf",
    "puts",    "fputs",   "putchar", "fputc",    "putc",    "fflush",   "fwrite",   "perror",
    "strerror", "__errno_location", "memcpy", "memmove", "memset", "memcmp", "strlen", "strcmp",
    "strncmp", "strcpy",  "strncpy", "strcat",   "strchr",  "strrchr",  "strstr",
    "abs",     "labs",    "llabs",   "fabs",     "fabsf",   "sqrt",     "sqrtf",    "cbrt",
    "floor",   "ceil",    "round",   "lround",   "trunc",   "fmod",     "pow",      "powf",
    "exp",     "expf",    "log",     "logf",     "log2",    "log10",    "sin",      "cos",
    "tan",     "fmin",    "fmax",    "fminf",    "fmaxf",
    "__printf_chk", "__fprintf_chk", "__sprintf_chk", "__snprintf_chk", "__vprintf_chk",
    "__vfprintf_chk", "__vsprintf_chk", "__vsnprintf_chk", "__memcpy_chk", "__memmove_chk",
    "__memset_chk", "__strcpy_chk", "__strncpy_chk", "__strcat_chk",
};

/// Builtins that transfer control where the CFG does not see it.
constexpr std::string_view kBarrierBuiltins[] = {
    "__builtin_longjmp", "__builtin_setjmp", "__builtin_eh_return",
    "__builtin_dump_struct", "__builtin_call_with_static_chain", // call a function they are given
};

template <size_t N> bool listed(const std::string_view (&list)[N], std::string_view name) {
  return std::find(std::begin(list), std::end(list), name) != std::end(list);
}

/// Neutral MPI calls: the listed ones, and every datatype constructor and size or extent query
/// (MpiNames): local, they never wait on a peer, and libtempi does not intercept them
/// (MPI_Type_dup, which it does, is a flush and is matched first).
bool isNeutralMpiCall(std::string_view name) {
  return listed(kNeutralMpi, name) || findConstructor(name) || findTypeQuery(name);
}

std::string_view withoutLargeCount(std::string_view name) {
  if (name.size() > 2 && name.substr(name.size() - 2) == "_c")
    return name.substr(0, name.size() - 2);
  return name;
}

/// A function of the C library or of an MPI: declared at file scope, extern "C" or in std::.
bool isGlobalC(const FunctionDecl *fd) {
  const DeclContext *dc = fd->getDeclContext()->getRedeclContext();
  return fd->getIdentifier() && (dc->isTranslationUnit() || dc->isStdNamespace() || fd->isExternC());
}

enum class Effect { None, Neutral, Flush, End, Barrier };

/// What one element of a path does. `what`: for a flush or an end, "MPI_Waitall on line 345";
/// for a barrier, the whole reason ("'foo' is called on line 12 before any MPI call TEMPI
/// intercepts").
struct Event {
  Effect effect = Effect::None;
  std::string what;
  SourceLocation loc;
  unsigned height = 0; ///< a call of a function of this file: the nesting height of its calls
};

struct FnGraph {
  const Decl *fn = nullptr;
  std::unique_ptr<CFG> cfg;
  std::map<const Stmt *, CfgPos> pos;
  std::unique_ptr<ParentMap> parents;
};

/// What calling a function of the translation unit does: Neutral, Flush, End or Barrier (why:
/// the reason inside it).
struct Summary {
  Effect effect = Effect::Barrier;
  std::string why;
  unsigned height = 1; ///< 1 + the largest height of the functions of this file it calls
};

/// The outcome of a walk from one position: ok when no barrier (or return) is reachable.
struct Walk {
  bool ok = true;
  Event barrier;
  std::vector<Event> flushes; ///< the first flush of each path
  std::vector<Event> ends;    ///< the paths that end the program first
  unsigned height = 0;        ///< the largest height of the calls it classified
};

/// Stack protection only: summaries nested deeper than this are not computed (nor cached).
constexpr unsigned kRecursionCap = 32;

constexpr const char *kBeforeFlush = " before any MPI call TEMPI intercepts";

} // namespace

bool isFlushingMpiCall(std::string_view name) { return listed(kFlushingMpi, name); }

struct SendDeferral::Impl {
  explicit Impl(ASTContext &c) : ctx(c) {}

  ASTContext &ctx;
  std::map<const Decl *, std::unique_ptr<FnGraph>> graphs;
  std::map<const FunctionDecl *, Summary> summaries;
  std::set<const FunctionDecl *> inProgress;
  bool depthCut = false; ///< a summary being computed met kRecursionCap (not cached)

  /// "line 12", or "line 12 of file.h" outside the main file.
  std::string where(SourceLocation loc) const {
    const SourceManager &sm = ctx.getSourceManager();
    std::string s = lineOf(loc, sm);
    SourceLocation e = sm.getExpansionLoc(loc);
    if (e.isValid() && !sm.isInMainFile(e))
      s += " of " + llvm::sys::path::filename(sm.getFilename(e)).str();
    return s;
  }

  const FnGraph &graph(const Decl *fn) {
    std::unique_ptr<FnGraph> &g = graphs[fn];
    if (g)
      return *g;
    g = std::make_unique<FnGraph>();
    g->fn = fn;
    Stmt *body = fn->getBody();
    if (!body)
      return *g;
    CFG::BuildOptions o;
    o.setAllAlwaysAdd();
    o.AddImplicitDtors = true;
    o.AddTemporaryDtors = true;
    o.AddInitializers = true;
    o.AddCXXDefaultInitExprInCtors = true;
    g->cfg = CFG::buildCFG(fn, body, &ctx, o);
    g->parents = std::make_unique<ParentMap>(body);
    if (!g->cfg)
      return *g;
    for (const CFGBlock *b : *g->cfg) {
      unsigned i = 0;
      for (const CFGElement &el : *b) {
        if (auto cs = el.getAs<CFGStmt>())
          g->pos.emplace(cs->getStmt(), CfgPos{b, i});
        ++i;
      }
    }
    return *g;
  }

  Event barrier(std::string what, SourceLocation loc) {
    return {Effect::Barrier, std::move(what), loc};
  }

  /// Calls hidden in default arguments (the CFG does not expand them): any call that is not
  /// neutral there is a barrier.
  Event hiddenCalls(const Stmt *s, unsigned depth) {
    if (!s)
      return {};
    for (const Stmt *child : s->children()) {
      Event e = hiddenCalls(child, depth);
      if (e.effect == Effect::Barrier)
        return e;
    }
    const FunctionDecl *fd = nullptr;
    if (auto *c = dyn_cast<CallExpr>(s)) {
      fd = c->getDirectCallee();
      if (!fd)
        return barrier("an indirect call in a default argument on " + where(s->getBeginLoc()) +
                           " comes" + kBeforeFlush,
                       s->getBeginLoc());
    } else if (auto *ce = dyn_cast<CXXConstructExpr>(s)) {
      if (!ce->getConstructor()->isTrivial())
        fd = ce->getConstructor();
    } else if (auto *d = dyn_cast<CXXDefaultArgExpr>(s)) {
      return hiddenCalls(d->getExpr(), depth);
    }
    if (!fd)
      return {};
    Event e = classifyCallee(fd, s->getBeginLoc(), depth);
    if (e.effect == Effect::Neutral || e.effect == Effect::None)
      return {};
    return barrier("a default argument on " + where(s->getBeginLoc()) + " calls '" +
                       fd->getNameAsString() + "'" + kBeforeFlush,
                   s->getBeginLoc());
  }

  Event classify(const CFGElement &el, unsigned depth) {
    if (auto cs = el.getAs<CFGStmt>()) {
      const Stmt *s = cs->getStmt();
      SourceLocation loc = s->getBeginLoc();
      if (isa<CUDAKernelCallExpr>(s))
        return barrier("a kernel launch on " + where(loc) + " comes" + kBeforeFlush, loc);
      if (auto *c = dyn_cast<CallExpr>(s)) {
        for (const Expr *arg : c->arguments())
          if (auto *d = dyn_cast<CXXDefaultArgExpr>(arg)) {
            Event e = hiddenCalls(d->getExpr(), depth);
            if (e.effect == Effect::Barrier)
              return e;
          }
        const FunctionDecl *fd = c->getDirectCallee();
        if (!fd)
          return barrier("an indirect call on " + where(loc) + " comes" + kBeforeFlush, loc);
        if (auto *m = dyn_cast<CXXMethodDecl>(fd); m && m->isVirtual())
          return barrier("a virtual call to '" + m->getNameAsString() + "' on " + where(loc) +
                             " comes" + kBeforeFlush,
                         loc);
        return classifyCallee(fd, loc, depth);
      }
      if (auto *ce = dyn_cast<CXXConstructExpr>(s)) {
        const CXXConstructorDecl *cd = ce->getConstructor();
        if (cd->isTrivial())
          return {};
        return classifyCallee(cd, loc, depth);
      }
      if (isa<CXXNewExpr>(s) || isa<CXXDeleteExpr>(s))
        return barrier("a new or delete expression on " + where(loc) + " comes" + kBeforeFlush,
                       loc);
      if (isa<CXXThrowExpr>(s))
        return barrier("an exception may be thrown on " + where(loc) + kBeforeFlush, loc);
      if (isa<AsmStmt>(s))
        return barrier("inline assembly on " + where(loc) + " comes" + kBeforeFlush, loc);
      if (isa<CoroutineSuspendExpr>(s) || isa<CoreturnStmt>(s))
        return barrier("a coroutine suspends on " + where(loc) + kBeforeFlush, loc);
      if (isa<ObjCMessageExpr>(s))
        return barrier("an Objective-C message on " + where(loc) + " comes" + kBeforeFlush, loc);
      // Another thread's progress: a loop spinning on an atomic or volatile flag that a thread
      // sets once the peer's message arrives never ends if that message waits for this flush
      // (the loops the walk crosses are otherwise assumed to end).
      if (isa<AtomicExpr>(s))
        return barrier("an atomic operation on " + where(loc) + " comes" + kBeforeFlush, loc);
      if (const auto *ice = dyn_cast<ImplicitCastExpr>(s);
          ice && ice->getCastKind() == CK_LValueToRValue &&
          ice->getSubExpr()->getType().isVolatileQualified())
        return barrier("a volatile read on " + where(loc) + " comes" + kBeforeFlush, loc);
      return {};
    }
    if (auto cf = el.getAs<CFGCleanupFunction>()) {
      SourceLocation loc = cf->getVarDecl()->getLocation();
      if (const FunctionDecl *fd = cf->getFunctionDecl())
        return classifyCallee(fd, loc, depth);
      return barrier("a cleanup function runs on " + where(loc) + kBeforeFlush, loc);
    }
    if (auto dt = el.getAs<CFGImplicitDtor>()) {
      SourceLocation loc;
      if (auto a = el.getAs<CFGAutomaticObjDtor>())
        loc = a->getTriggerStmt()->getEndLoc();
      else if (auto t = el.getAs<CFGTemporaryDtor>())
        loc = t->getBindTemporaryExpr()->getEndLoc();
      const CXXDestructorDecl *d = dt->getDestructorDecl(ctx);
      if (!d)
        return barrier("a destructor runs on " + where(loc) + kBeforeFlush, loc);
      if (d->isTrivial())
        return {};
      return classifyCallee(d, loc, depth);
    }
    return {};
  }

  Event classifyCallee(const FunctionDecl *fd, SourceLocation loc, unsigned depth) {
    std::string name = fd->getNameAsString();
    std::string at = " on " + where(loc);
    if (isGlobalC(fd)) {
      std::string_view n = fd->getName();
      // The program's own MPI_X (a profiling wrapper that calls PMPI_X): libtempi never sees
      // the call, so it flushes nothing.
      if (const FunctionDecl *def = nullptr;
          n.rfind("MPI_", 0) == 0 && fd->hasBody(def) &&
          (isFlushingMpiCall(n) || isNeutralMpiCall(n) || listed(kEnds, n)))
        return barrier("'" + name + "', which this program defines itself, is called" + at +
                           kBeforeFlush,
                       loc);
      if (n.rfind("MPI_", 0) == 0 || n.rfind("PMPI_", 0) == 0) {
        if (isFlushingMpiCall(n))
          return {Effect::Flush, name + at, loc};
        if (isNeutralMpiCall(n))
          return {Effect::Neutral, "", loc};
        if (listed(kEnds, n))
          return {Effect::End, name + at, loc};
        return barrier("'" + name + "' (not intercepted by TEMPI) is called" + at + kBeforeFlush,
                       loc);
      }
      if (n.rfind("tempi_", 0) == 0) {
        std::string_view base = withoutLargeCount(n);
        if (listed(kNeutralTempi, base))
          return {Effect::Neutral, "", loc};
        std::string mpi = "MPI_" + std::string(base.substr(6));
        if (isFlushingMpiCall(mpi) || mpi == "MPI_Isend" || mpi == "MPI_Issend")
          return {Effect::Flush, name + at, loc};
        return barrier("'" + name + "' is called" + at + kBeforeFlush, loc);
      }
      if (listed(kEnds, n))
        return {Effect::End, name + at, loc};
      if (listed(kNeutralLibc, n) ||
          (n.rfind("__builtin_", 0) == 0 && !listed(kBarrierBuiltins, n)))
        return fd->isNoReturn() ? Event{Effect::End, name + at, loc} : Event{Effect::Neutral, "", loc};
    }
    const FunctionDecl *def = nullptr;
    if (fd->hasBody(def) && def) {
      if (depth >= kRecursionCap) {
        depthCut = true;
        Event e = barrier("'" + name + "' is called" + at + " and its calls nest too deeply",
                          loc);
        e.height = kRecursionCap;
        return e;
      }
      Summary s = summarize(def, depth + 1);
      Event e;
      if (s.effect == Effect::Barrier)
        e = barrier("'" + name + "' is called" + at + " and in it " + s.why, loc);
      else if (s.height > kMaxCallDepth)
        e = barrier("'" + name + "' is called" + at + " and its calls nest deeper than " +
                        std::to_string(kMaxCallDepth) + " levels, which the tool does not follow",
                    loc);
      else if (s.effect == Effect::Flush)
        e = {Effect::Flush, "'" + name + "'" + at + " (every path through it reaches one)", loc};
      else if (s.effect == Effect::End)
        e = {Effect::End, "'" + name + "'" + at, loc};
      else
        e = {Effect::Neutral, "", loc};
      e.height = s.height;
      return e;
    }
    return barrier("'" + name + "' is called" + at + kBeforeFlush, loc);
  }

  /// What a call of `def` does (cached unless the depth limit cut the analysis short).
  Summary summarize(const FunctionDecl *def, unsigned depth) {
    if (auto it = summaries.find(def); it != summaries.end())
      return it->second;
    if (inProgress.count(def))
      return {Effect::Barrier, "it calls itself recursively" + std::string(kBeforeFlush)};
    inProgress.insert(def);
    bool outerCut = depthCut;
    depthCut = false;
    const FnGraph &g = graph(def);
    Summary out;
    if (!g.cfg) {
      out = {Effect::Barrier, "the control flow cannot be analysed"};
    } else {
      // Neutral when every reachable element is (the scan stops at the first barrier).
      bool neutral = true;
      unsigned height = 0;
      Event firstBarrier;
      std::set<const CFGBlock *> seen{&g.cfg->getEntry()};
      std::deque<const CFGBlock *> work{&g.cfg->getEntry()};
      while (!work.empty() && firstBarrier.effect != Effect::Barrier) {
        const CFGBlock *b = work.front();
        work.pop_front();
        for (const CFGElement &el : *b) {
          Event e = classify(el, depth);
          height = std::max(height, e.height);
          if (e.effect == Effect::Flush || e.effect == Effect::Barrier)
            neutral = false;
          if (e.effect == Effect::Barrier) {
            firstBarrier = std::move(e);
            break;
          }
        }
        for (const CFGBlock::AdjacentBlock &a : b->succs())
          if (const CFGBlock *s = a.getReachableBlock(); s && seen.insert(s).second)
            work.push_back(s);
      }
      if (neutral) {
        out = {def->isNoReturn() ? Effect::End : Effect::Neutral, "", 1 + height};
      } else {
        Walk w = walk(g, &g.cfg->getEntry(), 0, depth);
        height = std::max(height, w.height);
        if (w.ok)
          out = {w.flushes.empty() ? Effect::End : Effect::Flush, "", 1 + height};
        else
          out = {Effect::Barrier, w.barrier.what, 1 + height};
      }
    }
    inProgress.erase(def);
    if (!depthCut)
      summaries[def] = out;
    depthCut = depthCut || outerCut;
    return out;
  }

  /// The return that leaves `g`'s function from block `b` (or the closing brace).
  Event returnFrom(const FnGraph &g, const CFGBlock *b) {
    SourceLocation loc;
    for (auto it = b->rbegin(); it != b->rend() && !loc.isValid(); ++it)
      if (auto cs = it->getAs<CFGStmt>())
        if (auto *r = dyn_cast<ReturnStmt>(cs->getStmt()))
          loc = r->getBeginLoc();
    if (!loc.isValid()) {
      const Stmt *body = g.fn->getBody();
      if (auto *c = dyn_cast_or_null<CompoundStmt>(body))
        loc = c->getRBracLoc();
      else if (body)
        loc = body->getEndLoc();
    }
    return barrier("the function returns on " + where(loc) + " first", loc);
  }

  /// The OpenMP directive around `s` in `g`'s function (else a captured region), if any.
  const Stmt *enclosingOmpRegion(const FnGraph &g, const Stmt *s) const {
    const Stmt *captured = nullptr;
    for (const Stmt *p = g.parents->getParent(s); p; p = g.parents->getParent(p)) {
      if (isa<OMPExecutableDirective>(p))
        return p;
      if (!captured && isa<CapturedStmt>(p))
        captured = p;
    }
    return captured;
  }

  /// Breadth-first over the CFG from element `start` of `from`: a path stops at its first flush
  /// or end; a barrier or the function's exit on any path fails the walk. A barrier is the reason
  /// given in preference to a return (it says more about what to change).
  Walk walk(const FnGraph &g, const CFGBlock *from, unsigned start, unsigned depth) {
    Walk w;
    std::deque<std::pair<const CFGBlock *, unsigned>> work{{from, start}};
    std::set<const CFGBlock *> queued;
    while (!work.empty()) {
      auto [b, first] = work.front();
      work.pop_front();
      bool stopped = false;
      for (unsigned k = first; k < b->size() && !stopped; ++k) {
        Event e = classify((*b)[k], depth);
        w.height = std::max(w.height, e.height);
        // A flush or an end inside an OpenMP region may run on another thread, and the runtime
        // flushes per thread: the send would wait forever (`#pragma omp masked filter(1)`
        // around the MPI_Waitall). Regions of neutral code are crossed.
        if (e.effect == Effect::Flush || e.effect == Effect::End)
          if (auto cs = (*b)[k].getAs<CFGStmt>())
            if (const Stmt *region = enclosingOmpRegion(g, cs->getStmt())) {
              w.ok = false;
              w.barrier = barrier(e.what + " is inside the OpenMP region on " +
                                      where(region->getBeginLoc()) +
                                      ", which may run it on another thread",
                                  e.loc);
              return w;
            }
        switch (e.effect) {
        case Effect::None:
        case Effect::Neutral:
          break;
        case Effect::Flush:
          w.flushes.push_back(std::move(e));
          stopped = true;
          break;
        case Effect::End:
          w.ends.push_back(std::move(e));
          stopped = true;
          break;
        case Effect::Barrier:
          w.ok = false;
          w.barrier = std::move(e);
          return w;
        }
      }
      if (stopped)
        continue;
      for (const CFGBlock::AdjacentBlock &a : b->succs()) {
        const CFGBlock *s = a.getReachableBlock();
        if (!s)
          continue;
        if (s == &g.cfg->getExit()) {
          if (w.ok) {
            w.ok = false;
            w.barrier = returnFrom(g, b);
          }
          continue;
        }
        if (queued.insert(s).second)
          work.push_back({s, 0});
      }
    }
    return w;
  }
};

SendDeferral::SendDeferral(ASTContext &ctx) : impl_(std::make_unique<Impl>(ctx)) {}
SendDeferral::~SendDeferral() = default;

DeferralProof SendDeferral::prove(const CallExpr *call, const Decl *fn) {
  const FnGraph &g = impl_->graph(fn);
  SourceLocation loc = call->getBeginLoc();
  if (!g.cfg)
    return {false, "the control flow of the function cannot be analysed", loc};
  auto it = g.pos.find(call);
  if (it == g.pos.end())
    return {false, "the call is in code the analysis cannot place", loc};
  // In an OpenMP region the send may run on another thread, whose later calls the proof of
  // this function does not see (the runtime flushes per thread).
  for (const Stmt *p = g.parents->getParent(call); p; p = g.parents->getParent(p))
    if (isa<OMPExecutableDirective>(p) || isa<CapturedStmt>(p))
      return {false,
              "it is inside an OpenMP region on " + impl_->where(p->getBeginLoc()) +
                  ", where another thread may run it",
              p->getBeginLoc()};
  Walk w = impl_->walk(g, it->second.block, it->second.index + 1, 0);
  if (!w.ok)
    return {false, w.barrier.what, w.barrier.loc};
  const SourceManager &sm = impl_->ctx.getSourceManager();
  auto order = [&](std::vector<Event> &v) {
    std::stable_sort(v.begin(), v.end(), [&](const Event &x, const Event &y) {
      return sm.isBeforeInTranslationUnit(x.loc, y.loc);
    });
    v.erase(std::unique(v.begin(), v.end(),
                        [](const Event &x, const Event &y) { return x.what == y.what; }),
            v.end());
  };
  order(w.flushes);
  order(w.ends);
  auto list = [](const std::vector<Event> &v) {
    std::string s;
    for (size_t i = 0; i < v.size() && i < 4; ++i)
      s += (i ? ", " : "") + v[i].what;
    if (v.size() > 4)
      s += " and " + std::to_string(v.size() - 4) + " more";
    return s;
  };
  if (w.flushes.empty() && w.ends.empty())
    return {false, "no path from the send reaches a call TEMPI intercepts (it never leaves a loop)",
            loc};
  DeferralProof p;
  p.deferred = true;
  if (w.flushes.empty()) {
    p.detail = "every path ends the program first (" + list(w.ends) + ")";
    p.loc = w.ends.empty() ? loc : w.ends.front().loc;
    return p;
  }
  p.detail = std::string("the next call TEMPI intercepts is ") +
             (w.flushes.size() > 1 ? "one of " : "") + list(w.flushes);
  if (!w.ends.empty())
    p.detail += "; other paths end the program (" + list(w.ends) + ")";
  p.loc = w.flushes.front().loc;
  return p;
}

} // namespace tempi::frontend

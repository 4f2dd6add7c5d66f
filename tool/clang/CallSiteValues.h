/// \file
/// The value of a parameter that every call of its function passes alike: the sizes and types a
/// program hands to its set-up and exchange functions (`init_types(NX, NY)`,
/// `exchange(u, NX, NY)`, `send_face(u, column)`), which the function then gives to datatype
/// constructors or MPI calls. The Evaluator asks for an integer parameter (valueOf), the
/// DatatypeResolver for an MPI_Datatype one (callsPassing), when they read a parameter of the
/// function they analyse (not of a helper followed from one call, whose parameters are bound to
/// that call's arguments).
///
/// Proven when every call of the function is visible and passes one value:
///   - the function has internal linkage (static, an anonymous namespace), or the file is the
///     whole program (FileScopeTypes) and the function is neither declared by a system header
///     nor named MPI_*/PMPI_* (a library may call a program's replacement of its own function);
///     it is not main, a member function, a template or an instance of one, variadic or
///     unprototyped;
///   - nothing in the file names it other than as the callee of a direct call (its address is
///     never taken, so no caller is hidden behind a pointer), and no template names it;
///   - it is called at least once, never from a lambda, a block or a template, and never leaves
///     the argument to a default;
///   - the parameter is never written and its address never taken in the function;
///   - each call's argument is proven at that call, in the caller (which may ask for the
///     caller's own parameters in turn, up to kMaxNesting functions deep), all to the same
///     integer or chain.
/// A recursive function's call from itself reads the parameter it is asked for: refused.
#pragma once

#include "tool/clang/Evaluator.h"
#include "tool/clang/FileScopeTypes.h"
#include "tool/clang/Flow.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace tempi::frontend {

class CallSiteValues {
public:
  static constexpr int kMaxNesting = 4;

  CallSiteValues(clang::ASTContext &ctx, FileScopeTypes &files) : ctx_(ctx), files_(files) {}

  /// The integer every call passes to `p`, or none with `why.reason` a phrase that completes
  /// "depends on 'n', a parameter of 'f'" (", which is called with 8 on line 40 and 16 on line
  /// 52").
  std::optional<int64_t> valueOf(const clang::ParmVarDecl *p, Unresolved &why);

  struct Site {
    const clang::CallExpr *call;
    const clang::FunctionDecl *caller;
    const clang::Expr *arg; ///< the argument passed to the parameter asked about
    Point at;               ///< the call, in the caller's flow
  };
  /// Every call of `p`'s function, each placed in its caller's flow (files().flowOf(caller)),
  /// when all of them are seen and `p` is never modified (the rules above, for a parameter of
  /// any type); or none with `why.reason` as for valueOf (empty for main's parameters).
  std::optional<std::vector<Site>> callsPassing(const clang::ParmVarDecl *p, Unresolved &why);

  /// Runs `f` with `p` marked as being proven: false (and nothing run) when `p` is already, or
  /// kMaxNesting parameters are, so that callers passing their own parameters on terminate.
  bool nested(const clang::ParmVarDecl *p, const std::function<void()> &f);

  FileScopeTypes &files() { return files_; }

private:
  struct Calls {
    std::vector<std::pair<const clang::CallExpr *, const clang::FunctionDecl *>> sites;
    Unresolved hidden; ///< the first reference that is not a direct call's callee
  };
  void scan();
  /// Why the calls of `fd` cannot all be seen (an empty reason when they can).
  std::string unseenCallers(const clang::FunctionDecl *fd);

  clang::ASTContext &ctx_;
  FileScopeTypes &files_;
  bool scanned_ = false;
  std::map<const clang::FunctionDecl *, Calls> calls_; ///< by canonical declaration
  std::set<const clang::ParmVarDecl *> inProgress_;    ///< recursion guard
  int nesting_ = 0;
};

} // namespace tempi::frontend

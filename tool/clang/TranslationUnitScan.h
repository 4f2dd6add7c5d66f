/// \file
/// Helpers of the whole-file scans (FileScopeTypes, CallSiteValues): a visitor that knows the
/// function each node is in, and a node's one parent (also above parentheses and casts).
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <algorithm>
#include <vector>

namespace tempi::frontend {

/// A RecursiveASTVisitor (CRTP, like the one it derives from) whose currentFunction() is the
/// function with a body being traversed; null outside any, and inside a lambda or a block, whose
/// bodies are other functions with flows of their own that the tool does not build.
template <typename Derived>
class EnclosingFunctionVisitor : public clang::RecursiveASTVisitor<Derived> {
  using Base = clang::RecursiveASTVisitor<Derived>;

public:
  bool TraverseDecl(clang::Decl *d) {
    const auto *fd = llvm::dyn_cast_or_null<clang::FunctionDecl>(d);
    if (!fd || !fd->doesThisDeclarationHaveABody())
      return Base::TraverseDecl(d);
    return within(fd, [&] { return Base::TraverseDecl(d); });
  }
  bool TraverseLambdaExpr(clang::LambdaExpr *e) {
    return within(nullptr, [&] { return Base::TraverseLambdaExpr(e); });
  }
  bool TraverseBlockExpr(clang::BlockExpr *e) {
    return within(nullptr, [&] { return Base::TraverseBlockExpr(e); });
  }

protected:
  const clang::FunctionDecl *currentFunction() const {
    return functions_.empty() ? nullptr : functions_.back();
  }

private:
  template <typename F> bool within(const clang::FunctionDecl *fd, F traverse) {
    functions_.push_back(fd);
    bool ok = traverse();
    functions_.pop_back();
    return ok;
  }
  std::vector<const clang::FunctionDecl *> functions_;
};

/// The one parent of a node, or none when it has several (a node shared by template
/// instantiations). An initializer list's two forms share their elements: the syntactic one holds
/// an element as written, the other under its implicit conversion, which is the parent that
/// counts, so an initializer list beside another parent is not one.
inline const clang::Stmt *parentStmt(const clang::Stmt *s, clang::ASTContext &ctx) {
  std::vector<const clang::Stmt *> parents;
  for (const clang::DynTypedNode &n : ctx.getParents(*s))
    parents.push_back(n.get<clang::Stmt>());
  if (parents.size() > 1)
    parents.erase(std::remove_if(parents.begin(), parents.end(),
                                 [](const clang::Stmt *p) {
                                   return llvm::isa_and_nonnull<clang::InitListExpr>(p);
                                 }),
                  parents.end());
  return parents.size() == 1 ? parents.front() : nullptr;
}

/// The first parent of `s` that is not a parenthesis or an implicit cast; `child` becomes the
/// node just below it (`s` itself when its parent is no such wrapper).
inline const clang::Stmt *parentAboveParensAndCasts(const clang::Stmt *s,
                                                    const clang::Stmt *&child,
                                                    clang::ASTContext &ctx) {
  child = s;
  const clang::Stmt *p = parentStmt(s, ctx);
  while (p && (llvm::isa<clang::ParenExpr>(p) || llvm::isa<clang::ImplicitCastExpr>(p))) {
    child = p;
    p = parentStmt(p, ctx);
  }
  return p;
}

} // namespace tempi::frontend

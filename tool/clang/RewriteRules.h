/// \file
/// Call-site rewriting as a Clang Transformer rule over every communication call (MPI_Isend,
/// MPI_Issend and their _c forms go to the deferred entry point when the Analysis proved a
/// flush follows, SendDeferral.h, else the plain one), with an explanation (the rule's
/// metadata). tempi-rewrite applies the edits; tempi-lint shows the
/// same edits as fix-its, so the two cannot drift apart.
///
/// It matches only a call whose site the Analysis marks rewritten() and not shadowed (a call in
/// a stringified macro argument, or one whose name is passed to a macro, CallSite::shadow: no
/// text edit can rewrite those, collectEdits gives their texts instead); it renames the callee
/// (MPI_Send -> tempi_Send) and inserts the plan argument(s) before the closing parenthesis
/// (", &tempi_gen_plan_<key>", or a null plan for a datatype argument without one; for a datatype
/// array of MPI_Alltoallw and friends, ", tempi_gen_plans_<n>", the array of its elements' plans
/// that RewriteAction defines at file scope with the plans). Edits of the
/// several instances of one site (C++ template instantiations) are deduplicated by location.
#pragma once

#include "tool/clang/Analysis.h"

#include "clang/AST/ASTContext.h"
#include "clang/Tooling/Core/Replacement.h"
#include "clang/Tooling/Transformer/RewriteRule.h"

#include <string>
#include <vector>

namespace tempi::frontend {

/// The rule: matches the calls of rewritten sites that are not shadowed; the metadata is the
/// explanation of the edit.
clang::transformer::RewriteRuleWith<std::string> commCallRule(const Analysis &analysis);

/// The texts of a rewritten site, shared by the rule and the shadow macros: the new callee name
/// (tempi_X, or the deferred entry point), the plan arguments inserted before the closing
/// parenthesis (", &tempi_gen_plan_<key>", ...), and the explanation ("MPI_X -> tempi_X: ...").
std::string rewrittenName(const CallSite &site);
std::string planArguments(const CallSite &site, const clang::LangOptions &lang);
std::string rewriteExplanation(const CallSite &site);

/// A null pointer of type `type` spelled so that it compiles with the user's warnings: `nullptr`
/// in C++11 and later, `static_cast<type>(0)` in older C++ (a C-style cast trips
/// -Wold-style-cast, a bare `0` g++'s -Wzero-as-null-pointer-constant), `inC` in C.
std::string nullPointer(const clang::LangOptions &lang, llvm::StringRef type, llvm::StringRef inC);

/// The edits of one call site, with their explanation.
struct SiteEdit {
  clang::SourceLocation loc;   ///< the call (its callee name, in the main file)
  std::vector<clang::tooling::Replacement> replacements; ///< empty for a shadowed site
  std::string explanation;
  /// A site rewritten through a shadow macro (CallSite::shadow) has no replacements; the
  /// macro is `#define MPI_X(...) NAME(__VA_ARGS__ PLANS)` from rewrittenName and planArguments
  /// (RewriteAction).
  const CallSite *shadow = nullptr;
};

/// Runs commCallRule over the AST; one SiteEdit per rewritten site, in source order (a shadowed
/// site's without replacements). Fails when
/// the Transformer reports an error (an edit that cannot be made).
llvm::Expected<std::vector<SiteEdit>> collectEdits(clang::ASTContext &ctx,
                                                   const Analysis &analysis);

} // namespace tempi::frontend

/// \file
/// Call-site rewriting as Clang Transformer rules, one case per communication call (two for
/// MPI_Isend/MPI_Issend and their _c forms: the deferred entry point when the Analysis proved a
/// flush follows, SendDeferral.h, else the plain one), each with an explanation (the rule's
/// metadata). tempi-rewrite applies the edits; tempi-lint shows the
/// same edits as fix-its, so the two cannot drift apart.
///
/// A case matches only a call whose site the Analysis marks rewritten(); it renames the callee
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

/// The rule: one case per CommCallSpec (a deferred case first where the spec has a deferredName);
/// the metadata is the explanation of the edit.
clang::transformer::RewriteRuleWith<std::string> commCallRule(const Analysis &analysis);

/// The edits of one call site, with their explanation.
struct SiteEdit {
  clang::SourceLocation loc;   ///< the call
  std::vector<clang::tooling::Replacement> replacements;
  std::string explanation;
};

/// Runs commCallRule over the AST; one SiteEdit per rewritten site, in source order. Fails when
/// the Transformer reports an error (an edit that cannot be made).
llvm::Expected<std::vector<SiteEdit>> collectEdits(clang::ASTContext &ctx,
                                                   const Analysis &analysis);

} // namespace tempi::frontend

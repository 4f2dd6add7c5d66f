/// \file
/// Every datatype constructor call of the main file, with the chain it builds when the front end
/// can prove it (DatatypeResolver::fromConstructor at the call) and its canonical form.
///
/// The non-canonical, duplicate and GPU-shape checks all look at these. A call is listed once
/// however many template instantiations contain it (keyed by the file location of its callee); a
/// call in a dependent context or spelled inside a macro definition is resolved where it can be,
/// but its fix-its are not offered (`editable` is false).
#pragma once

#include "tool/clang/Flow.h"
#include "tool/clang/MpiNames.h"

#include "passes/StridedBlock.h"
#include "passes/TypeExpr.h"
#include "passes/TypeIR.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <optional>
#include <string>
#include <vector>

namespace tempi::lint {

struct ConstructorSite {
  const clang::CallExpr *call = nullptr;
  const frontend::ConstructorSpec *spec = nullptr;
  std::string output;            ///< the output argument as spelled ("&t", "&types[1]")
  std::string variable;          ///< what it defines, for messages ("t", "types[1]")
  TypeExprPtr expr;              ///< the proven chain (null when unresolved)
  IRPtr canonical;               ///< canonicalize(translate(expr)) when it translates
  std::string invalid;           ///< translate()'s error when the chain is not a valid type
  std::optional<StridedBlock> shape; ///< the StridedBlock of `canonical` when regular
  bool editable = false;         ///< the call's text is in the main file, outside macro bodies
  bool inInstantiation = false;  ///< inside a template instantiation (the chain may differ per one)
  clang::CharSourceRange callRange; ///< the call's file range (valid when editable)
};

/// The constructor calls of the main file in source order.
std::vector<ConstructorSite> collectConstructorSites(clang::ASTContext &ctx);

using frontend::spelledText; // tool/clang/Flow.h

} // namespace tempi::lint

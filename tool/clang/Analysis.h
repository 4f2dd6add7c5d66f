/// \file
/// The front end's analysis of one translation unit: every communication call of the main file,
/// each datatype argument either resolved to a canonical shape (and plan) or left to the runtime
/// with a reason and a location.
///
/// This is the library tempi-rewrite and tempi-lint share. A call site is keyed by the file
/// location of its callee name, so a call in a C++ template yields one site whatever the number
/// of instantiations (and is only rewritten when every instantiation resolves to the same
/// shapes), and a call inside a macro argument (MPI_CHECK(MPI_Send(...))) is rewritten where it
/// is spelled. A call spelled inside a macro definition is rewritten only when its callee name is
/// passed to the macro as an argument (through a shadow macro, CallSite::shadow).
#pragma once

#include "tool/clang/Flow.h"
#include "tool/clang/MpiNames.h"
#include "tool/clang/SendDeferral.h"

#include "passes/StridedBlock.h"
#include "passes/TypeExpr.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/MacroInfo.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class Preprocessor;
}

namespace tempi::frontend {

/// One datatype argument of a communication call, or one element of a datatype array argument.
struct DatatypeArg {
  unsigned index = 0;             ///< argument index in the call
  std::string spelling;           ///< the argument as written ("t", "MPI_DOUBLE"); "types[1]"
  clang::SourceLocation loc;      ///< the argument's location
  TypeExprPtr expr;               ///< the proven chain (null when unresolved; for a scalar
                                  ///< argument also null when predefined)
  std::optional<StridedBlock> shape; ///< its canonical form (when it has a plan)
  std::string planSymbol;         ///< tempi_gen_plan_<key> when it has a plan
  Unresolved why;                 ///< when it has no plan: why, and where
  bool predefined = false;        ///< a predefined type: nothing to specialize, no remark
  /// The send datatype(s) of an MPI_Alltoallv/w whose send buffer is spelled MPI_IN_PLACE: the
  /// MPI ignores them, so there is nothing to prove, plan or remark on (a null plan is passed).
  bool ignored = false;
  /// A datatype array argument (sendtypes/recvtypes of MPI_Alltoallw and
  /// MPI_Neighbor_alltoallw): `elements` holds one proven entry per element of the local array
  /// when every element is proven (each like a scalar argument: a plan, predefined, or no plan
  /// with a reason), and is empty when one is not (`why` names the first such element).
  bool isArray = false;
  std::vector<DatatypeArg> elements;
  std::string plansSymbol;        ///< tempi_gen_plans_<n>: the emitted array of element plans
  /// A scalar argument `a[i]` whose index the analysis cannot evaluate (a loop variable), where
  /// every element of the local array `a` is proven at the call: `elements` holds them and the
  /// call passes `plansSymbol[indexText]`, the plan chosen by the same index. Set only when the
  /// index and every other argument of the call are free of side effects, so the index reads
  /// the same value in both places.
  std::string indexText;
  bool indexed() const { return !indexText.empty(); }
  bool arrayProven() const { return ignored || ((isArray || indexed()) && !elements.empty()); }
  /// A scalar with a plan; an array (or an indexed scalar) whose every element is proven and
  /// one has a plan.
  bool hasPlan() const {
    if (!isArray && !indexed())
      return shape.has_value();
    for (const DatatypeArg &e : elements)
      if (e.hasPlan())
        return true;
    return false;
  }
};

/// One communication call site (all template instantiations of it together).
struct CallSite {
  const clang::CallExpr *call = nullptr; ///< the first instance seen
  const CommCallSpec *spec = nullptr;
  std::vector<DatatypeArg> args;
  bool editable = true;  ///< false when the call is spelled inside a macro definition
  Unresolved siteWhy;    ///< why the whole call is left alone (macro, instantiations differ)
  /// Set when the call's text cannot be edited but the call may be rewritten through `shadow`
  /// instead (left alone for this reason when that is not safe): the call is spelled in a macro
  /// argument that the macro stringifies (`#define CHECK(c) ... #c ...`), so editing it would
  /// change that text; or (`namePassed`) only the callee's name is spelled in a macro argument
  /// and the call's parentheses are in the macro's body (`#define MPI_CALL(fn, ...)
  /// fn(__VA_ARGS__)`, `MPI_CALL(MPI_Send, ...)`), where no edit can reach them.
  std::string shadowWhy;
  /// The callee name alone is a macro argument (see shadowWhy); `editable` is false then.
  bool namePassed = false;
  /// The lines of the outermost macro invocation around such a call: the rewrite defines
  /// the MPI name as a function-like macro before them (`#define MPI_Send(...)
  /// tempi_Send(__VA_ARGS__, &plan)`, then `#line`) and undefines it after, so the expanded call
  /// reaches TEMPI while `#c` (or `#fn`) still reads as written. Set only when no other call of
  /// that name is expanded on those lines, the name is no macro, and the lines hold no directive.
  struct Shadow {
    clang::SourceLocation firstLine, lastLine; ///< the start of each line
  };
  std::optional<Shadow> shadow;
  /// Sends with a deferred entry point (MPI_Isend, MPI_Issend) that have a plan: whether every
  /// instance is followed by a flush on every path (SendDeferral), and why or why not.
  std::optional<DeferralProof> deferral;
  /// Rewritten when editable (or namePassed: then through `shadow`), no site-wide reason, and at
  /// least one datatype argument has a plan;
  /// for the datatype-array calls also every element of every array argument is proven.
  bool rewritten() const;
  /// Rewritten into the deferred entry point (spec->deferredName).
  bool deferred() const;
};

/// A remark about a call the analysis saw but cannot rewrite at all (a `_c` large-count call
/// when tempi.h declares no large-count entry points).
struct SiteRemark {
  clang::SourceLocation loc;
  std::string message;
};

struct Analysis {
  std::vector<CallSite> sites;
  std::vector<SiteRemark> remarks;
  /// Every instance (template instantiations included) of a rewritten call -> its site.
  std::map<const clang::CallExpr *, size_t> siteOf;
  /// Distinct shapes with plans, in order of first use.
  std::vector<StridedBlock> shapes;
  /// The plan arrays of rewritten datatype-array calls (MPI_Alltoallw, ...): distinct contents
  /// in order of first use, each a list of plan symbols ("" for a NULL entry).
  struct PlanArray {
    std::string symbol; ///< tempi_gen_plans_<n>
    std::vector<std::string> entries;
  };
  std::vector<PlanArray> planArrays;
  /// The main-file location after which the TEMPI include and the plans go (invalid: file start).
  clang::SourceLocation includeAnchor;

  const CallSite *siteFor(const clang::CallExpr *c) const;
};

/// Records, while the preprocessor runs (register it before parsing), where the arguments of
/// function-like macro invocations are used as written rather than expanded: operands of `#`
/// (stringified) and `##` (pasted). A call spelled in such an argument also reaches the program
/// as text (`#define TRACE(c) do { puts(#c); c; } while (0)`), and rewriting it would change the
/// text the program prints.
class UnexpandedMacroArgs : public clang::PPCallbacks {
public:
  explicit UnexpandedMacroArgs(const clang::SourceManager &sm) : sm_(sm) {}
  void MacroExpands(const clang::Token &name, const clang::MacroDefinition &md,
                    clang::SourceRange range, const clang::MacroArgs *args) override;
  struct Use {
    clang::SourceLocation begin, end; ///< spelling locations of the argument's first, last token
    std::string macro, param;
    bool pasted = false;              ///< ## rather than #
    /// The macro's name is written in the file (not produced by another macro): its argument is
    /// the text as written, not one another macro has already expanded.
    bool direct = false;
  };
  /// The first recorded use (outermost macro first) whose argument holds the spelling location.
  const Use *find(clang::SourceLocation spelling) const;
  /// Whether every recorded use whose argument holds the spelling location is direct.
  bool allDirect(clang::SourceLocation spelling) const;

private:
  /// Every recorded use whose argument holds the spelling location, in recording order.
  std::vector<const Use *> covering(clang::SourceLocation spelling) const;
  const clang::SourceManager &sm_;
  /// Per macro definition: (parameter index, pasted) of each parameter used unexpanded.
  std::map<const clang::MacroInfo *, std::vector<std::pair<unsigned, bool>>> params_;
  std::vector<Use> uses_;
};

class MacroDivergence;

/// Analyses every function body of the translation unit (template instantiations included).
/// With the preprocessor, the `_c` large-count calls are left alone (with a remark) when the MPI
/// header's MPI_VERSION is below 4 or undefined, since tempi.h then declares no tempi_X_c.
/// With `unexpanded`, a call spelled in a macro argument that the macro stringifies or pastes
/// is left unchanged (with a remark). `wholeProgram`: the file is the whole program, so a global
/// datatype of external linkage is proven like a static one (FileScopeTypes).
/// With `macros`, a file whose text depends on a predefined macro the compiler and the tool's
/// Clang disagree on (outside system headers and the MPI's own) rewrites nothing (remarks say
/// where).
Analysis analyze(clang::ASTContext &ctx, const clang::Preprocessor *pp = nullptr,
                 const UnexpandedMacroArgs *unexpanded = nullptr, bool wholeProgram = false,
                 const MacroDivergence *macros = nullptr);

/// The MPI header's MPI_VERSION, kMpiVersionUndefined, or kMpiVersionUnknown (not one number).
constexpr long kMpiVersionUndefined = -1;
constexpr long kMpiVersionUnknown = -2;
long mpiVersionOf(const clang::Preprocessor &pp);

/// The canonical shape of a chain, or why it has no plan (invalid, irregular, too many dims).
std::optional<StridedBlock> shapeOf(const TypeExpr &e, std::string &whyNot);

} // namespace tempi::frontend

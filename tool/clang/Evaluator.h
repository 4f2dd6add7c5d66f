/// \file
/// Compile-time evaluation of the integer arguments of datatype constructors.
///
/// Evaluates an expression as it stands just before a point of a function: Clang's constant
/// folder first (literals, macros, enums, sizeof, offsetof, const/constexpr variables), then, for
/// what the folder refuses, local variables and elements of local arrays through their one
/// proven definition (FunctionFlow), arithmetic with overflow checks, and addresses of members of
/// one local object (MPI_Get_address, MPI_Aint_diff, MPI_Aint_add) whose differences are
/// constants. Anything else is refused with the root cause: "depends on 'argc', a parameter of
/// 'main'", "depends on 'n', which is reassigned on line 40", "depends on a call to 'atoi'".
#pragma once

#include "tool/clang/Flow.h"

#include "passes/TypeExpr.h"

#include "clang/AST/ASTContext.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tempi::frontend {

class CallSiteValues;
class DatatypeResolver;

/// A point of a function: evaluation happens just before it.
struct Point {
  CfgPos pos;
  clang::SourceLocation loc;
};

/// An integer, or the address of `base` plus k bytes.
struct Value {
  int64_t k = 0;
  const clang::ValueDecl *base = nullptr;
};

/// The definition that holds one variable (or array element) at a point.
struct SlotDefinition {
  const VarEvent *event = nullptr;
  Point at;                          ///< where the definition happens
  const clang::Expr *value = nullptr; ///< Init/Assign: the value (the element of an init list)
};

/// The parameters of a helper function bound to the values of one call's arguments
/// (DatatypeResolver follows a helper that returns a datatype). A parameter is bound only when
/// the helper never writes it nor takes its address; an argument that is not a constant leaves
/// its parameter unbound, with the reason, so a read of it says why.
struct Bindings {
  std::map<const clang::VarDecl *, int64_t> ints;       ///< integer parameters
  std::map<const clang::VarDecl *, TypeExprPtr> types;  ///< MPI_Datatype parameters
  std::map<const clang::VarDecl *, Unresolved> unbound; ///< why the argument is unknown
};

class Evaluator {
public:
  /// `calls`: where a parameter of the analysed function (not a bound helper's) gets the value
  /// every call passes (without it, parameters are unknown).
  Evaluator(clang::ASTContext &ctx, const FunctionFlow &flow, const Bindings *bindings = nullptr,
            CallSiteValues *calls = nullptr)
      : ctx_(ctx), flow_(flow), bindings_(bindings), calls_(calls) {}

  /// The integer value of e just before `at`; on failure `why.reason` completes "<argument> ...".
  std::optional<int64_t> evalInt(const clang::Expr *e, Point at, Unresolved &why);
  /// Element i of an array argument (a local array, a constant array, &a[j], a compound literal).
  std::optional<int64_t> evalElement(const clang::Expr *array, int64_t i, Point at,
                                     Unresolved &why);
  /// `&x` of a local scalar (not an array, reference or parameter): x, else nullptr. MPI reads
  /// it as a one-element array.
  static const clang::VarDecl *scalarAddressed(const clang::Expr *a);
  /// `&a[k]` (a anything indexed) or `a + k` / `k + a` (a a named variable): `a` becomes that
  /// base and `shift` k, so element i of the argument is element i + k of the base. Anything
  /// else is left as it is (true); false when k is not proven (`why` says why).
  bool elementShift(const clang::Expr *&a, int64_t &shift, Point at, Unresolved &why);
  /// Whether element i of `&x` (the expression `a`) is x itself (i == 0); else why not.
  static bool onlyElementOf(const clang::VarDecl *x, int64_t i, const clang::Expr *a,
                            Unresolved &why);
  /// The definition of element i of an array argument (for arrays of datatypes or of spelled
  /// constants).
  std::optional<SlotDefinition> elementDefinition(const clang::Expr *array, int64_t i, Point at,
                                                  Unresolved &why);
  /// The definition of a local variable (or one of its elements) at a point.
  std::optional<SlotDefinition> slotDefinition(const clang::VarDecl *var,
                                               std::optional<int64_t> element, Point at,
                                               Unresolved &why);
  /// One event of this flow placed as the definition of `var` (or its element): where it
  /// happens (a counted loop's element just after the loop) and the value it gives; `at` is
  /// the use, for the reasons' locations.
  std::optional<SlotDefinition> definitionAt(const VarEvent &event, const clang::VarDecl *var,
                                             std::optional<int64_t> element, Point at,
                                             Unresolved &why);

  /// The names an expression spells, innermost first: macro names of its expansion and the
  /// name of the declaration it refers to ("MPI_ORDER_C", "MPI_DOUBLE").
  std::vector<std::string> spellings(const clang::Expr *e) const;
  /// The same, where no Evaluator is at hand.
  static std::vector<std::string> spellingsOf(const clang::Expr *e, const clang::ASTContext &ctx);
  /// Display name of a variable or one of its elements: "sizes[1]".
  static std::string slotName(const clang::VarDecl *var, std::optional<int64_t> element);

  clang::ASTContext &context() { return ctx_; }
  const FunctionFlow &flow() const { return flow_; }
  /// The parameter bindings of a helper analysed for one call site (null otherwise).
  const Bindings *bindings() const { return bindings_; }
  /// The call-site values this Evaluator asks for its function's parameters (may be null).
  CallSiteValues *calls() const { return calls_; }
  /// The point of a statement of this function.
  std::optional<Point> pointOf(const clang::Stmt *s) const;

  /// While alive, `resolver` proves the chains of datatype expressions this Evaluator meets in
  /// MPI_Type_size and MPI_Type_get_extent (a derived type's size, lb and extent come from its
  /// chain's translation); without one only predefined types' are known. DatatypeResolver
  /// installs itself for its lifetime.
  class DatatypeScope {
  public:
    DatatypeScope(Evaluator &ev, DatatypeResolver *resolver)
        : ev_(ev), saved_(ev.datatypes_) {
      ev.datatypes_ = resolver;
    }
    ~DatatypeScope() { ev_.datatypes_ = saved_; }
    DatatypeScope(const DatatypeScope &) = delete;
    DatatypeScope &operator=(const DatatypeScope &) = delete;

  private:
    Evaluator &ev_;
    DatatypeResolver *saved_;
  };

  /// While alive, the evaluation context of one definition: the variable of the counted loop
  /// that made it (VarEvent::loop) reads as the index of the element it defines, and no other
  /// loop's variable is bound. A definition's value is evaluated where it stands, so a binding of
  /// the loop whose element is being read must not leak into it (`int m = i + 1;` before
  /// `for (i = 0; i < 3; i++) a[i] = m;` reads i's value at m's definition, not the index).
  class LoopBinding {
  public:
    LoopBinding(Evaluator &ev, const VarEvent &e);
    ~LoopBinding();
    LoopBinding(const LoopBinding &) = delete;
    LoopBinding &operator=(const LoopBinding &) = delete;

  private:
    Evaluator &ev_;
    std::map<const clang::VarDecl *, int64_t> saved_;
  };

private:
  std::optional<Value> eval(const clang::Expr *e, Point at, Unresolved &why, int depth);
  std::optional<Value> addressOf(const clang::Expr *lvalue, Point at, Unresolved &why, int depth);
  std::optional<Value> readSlot(const clang::VarDecl *var, std::optional<int64_t> element,
                                Point at, clang::SourceLocation useLoc, Unresolved &why,
                                int depth);
  /// Where the function writes `vd` or a member of it, takes an address, or uses it other than
  /// as a value (`v.a` read); invalid if nowhere.
  clang::SourceLocation useOtherThanMemberRead(const clang::VarDecl *vd) const;
  /// `g.nx` of a local struct initialized by a list and never written or aliased after.
  std::optional<Value> readLocalStructMember(const clang::MemberExpr *me, Unresolved &why,
                                             int depth);
  std::optional<Value> readVariable(const clang::VarDecl *var, std::optional<int64_t> element,
                                    Point at, clang::SourceLocation useLoc, Unresolved &why,
                                    int depth);
  /// a[row][col] of a local two-dimensional array (FunctionFlow's element row*C + col), bounds
  /// checked.
  std::optional<Value> readRowElement(const clang::VarDecl *var, int64_t row, int64_t col,
                                      Point at, clang::SourceLocation loc, Unresolved &why,
                                      int depth);

  clang::ASTContext &ctx_;
  const FunctionFlow &flow_;
  const Bindings *bindings_;
  CallSiteValues *calls_;
  std::map<const clang::VarDecl *, int64_t> loopValues_; ///< LoopBinding's
  /// MPI_Type_size / _get_extent of a derived type: its value from the type's chain.
  std::optional<Value> queriedLayout(const VarEvent &e, const std::string &name, Point at,
                                     Unresolved &why);
  DatatypeResolver *datatypes_ = nullptr; ///< DatatypeScope's
};

} // namespace tempi::frontend

/// \file
/// Proves which constructor chain a datatype expression holds at a point, and builds its TypeExpr.
///
/// Resolved: a predefined type as the source spells it (MPI_DOUBLE, also through user macros),
/// a local MPI_Datatype variable (or an element, with a constant index, of a local array of them)
/// whose one definition is proven by FunctionFlow and is a constructor call with compile-time
/// arguments (Evaluator) or a copy of another resolved datatype, recursively; and, for the
/// per-peer datatype arrays of MPI_Alltoallw, every element of a local array.
///
/// The value returned by a call to a helper function (`MPI_Datatype x = make_face_type(0)`) is
/// proven when the helper's body is in the translation unit, it is not variadic, virtual or
/// recursive, never writes a parameter nor takes a parameter's address, and every return
/// statement returns one local variable that the same rules prove in the helper's body, with
/// the parameters bound to the call's constant arguments (integers through the Evaluator,
/// MPI_Datatype parameters through resolve()); that local may only be built, committed, read
/// as a value by MPI calls, and returned. A helper that builds into an `MPI_Datatype *`
/// parameter instead (`make_face(&t, 0)`, FunctionFlow's HelperOut) is followed the same way;
/// there the parameter may only be the output of exactly one constructor, which runs once in
/// every call, and be committed; a C++ `MPI_Datatype &` parameter likewise, handed as `&face`.
/// Helpers called by helpers are followed too, four levels deep.
///
/// A variable of static storage (a static global, a static local; a global of external linkage
/// when the file is the whole program) is proven by FileScopeTypes' rules: one constructor in the
/// whole file writes it, with arguments proven where that constructor stands.
///
/// A parameter of the analysed function is proven when every call of the function is seen and
/// passes one chain (CallSiteValues: a static function whose address is never taken).
///
/// An MPI_Datatype member of a struct variable (`halo.col`, Flow.h's datatypeRecord), or an
/// element of an array member (`halo.send[d]`), is proven as an element of that variable: a
/// local's by FunctionFlow, a static one's by FileScopeTypes. Through a pointer parameter to
/// such a struct: a member a called function writes (`setup(&halo)` building `h->col`,
/// VarEvent::RecordHelperOut) as that function leaves it (fromRecordHelper), and a member a
/// function only reads (`exchange(&halo)` sending `h->col`) as every call's `&v` holds it
/// (fromRecordCallSites).
///
/// Refused, with a sentence that says why: other parameters ("'t' comes from a parameter of
/// 'f', which another file may call (it is not static)"), other globals and statics, members
/// read through `this` or a pointer that is not a parameter, captures, indirect calls and calls the rules above refuse
/// ("'t' in 'make' is reassigned on line 40"), MPI_DATATYPE_NULL, and everything FunctionFlow or
/// Evaluator refuses ("'t' is reassigned on line 40", "count depends on 'argc', ...").
#pragma once

#include "tool/clang/Evaluator.h"
#include "tool/clang/FileScopeTypes.h"
#include "tool/clang/MpiNames.h"

#include "passes/TypeExpr.h"

#include <functional>
#include <memory>
#include <string>

namespace tempi::frontend {

/// The helpers being followed when a resolver analyses a helper's body, innermost first: the
/// helper, then the one whose body called it, up to the analysed function's call.
struct HelperChain {
  const clang::FunctionDecl *fn;
  const HelperChain *outer; ///< the helper that called fn, or none
  int depth;                ///< 1 for a helper called by the analysed function
};

class DatatypeResolver {
public:
  /// `helpers`: the helpers whose body `ev` analyses, when it is one followed from a call site
  /// (a helper it calls is followed up to kMaxHelperDepth levels, never back into one of them).
  /// `files`: the translation unit's static-storage datatypes (without it, they are refused).
  explicit DatatypeResolver(Evaluator &ev, const HelperChain *helpers = nullptr,
                            FileScopeTypes *files = nullptr)
      : ev_(ev), helpers_(helpers), files_(files) {}

  /// The chain `e` holds just before `at`, or nullptr with `why` set (a whole sentence).
  TypeExprPtr resolve(const clang::Expr *e, Point at, Unresolved &why, int depth = 0);
  /// The chains of every element of a datatype array argument (sendtypes of MPI_Alltoallw), in
  /// order, or an empty vector with `why` set. The argument must name a local array of constant
  /// length, or an array member of a struct variable (not a parameter, class member, pointer or
  /// variable-length array) and resolve()'s
  /// rules must prove each element at `at`: one dominating definition (a constructor writing
  /// &a[k], a copy of a proven datatype, a predefined type), no escape, not freed; or an array
  /// of static storage whose every element FileScopeTypes proves.
  std::vector<TypeExprPtr> resolveArray(const clang::Expr *e, Point at, Unresolved &why);
  /// The chain built by a constructor call (evaluated at its own point).
  TypeExprPtr fromConstructor(const clang::CallExpr *call, const ConstructorSpec &spec, Point at,
                              Unresolved &why, int depth = 0);

private:
  TypeExprPtr fromDefinition(const SlotDefinition &def, const std::string &name, Unresolved &why,
                             int depth);
  /// A loop's element written in one iteration (VarEvent::inIteration): its constructor (or
  /// builder helper) proven at the call, in that iteration's flow, with the loop's variable read
  /// as the iteration's.
  TypeExprPtr fromIteration(const VarEvent &e, const std::string &name, Unresolved &why,
                            int depth);
  /// A static-storage datatype variable (`static MPI_Datatype face;`): its one constructor,
  /// resolved where it stands (FileScopeTypes).
  TypeExprPtr fromFileScope(const clang::VarDecl *var, Unresolved &why, int depth);
  /// `h.col` (index none) or `h.face[index]`: a datatype member of a struct variable
  /// (datatypeRecord), proven as an element of the variable is (a local's by FunctionFlow, a
  /// static one's by FileScopeTypes).
  TypeExprPtr fromMember(const clang::MemberExpr *me, std::optional<int64_t> index, Point at,
                         Unresolved &why, int depth);
  /// The struct variable and field of `h.m`, when the tool tracks that member's variable; else
  /// none with `why` set.
  struct MemberSlot {
    const clang::VarDecl *var = nullptr;
    const clang::FieldDecl *field = nullptr;
  };
  std::optional<MemberSlot> memberSlot(const clang::MemberExpr *me, Unresolved &why);
  /// resolveArray of a struct's array member (`h.face`): each element as fromMember proves it.
  std::vector<TypeExprPtr> resolveMemberArray(const clang::MemberExpr *me, Point at,
                                              Unresolved &why);
  /// Elements first .. first + n - 1 of `vd` (an array, or a struct's array member spelled
  /// `name`), each as fromSlot proves it; empty with `why` naming the element that is not.
  std::vector<TypeExprPtr> elementsOf(const clang::VarDecl *vd, int64_t first, uint64_t n,
                                      const std::string &name, Point at, Unresolved &why);
  /// Element k of a local (FunctionFlow) or static-storage (FileScopeTypes) variable.
  TypeExprPtr fromSlot(const clang::VarDecl *vd, int64_t k, Point at, Unresolved &why, int depth);
  /// Whether `vd` is an array of datatypes in static storage that FileScopeTypes follows.
  bool isFileScopeArray(const clang::VarDecl *vd) const;
  /// Element k of a static-storage array of datatypes (`static MPI_Datatype face[6];`): its one
  /// constructor, resolved where it stands, with a counted loop's variable read as k.
  TypeExprPtr fromFileScopeElement(const clang::VarDecl *var, int64_t k, Point use,
                                   Unresolved &why, int depth);
  /// An MPI_Datatype parameter of the analysed function (not a bound helper's): the one chain
  /// every call of the function passes (CallSiteValues' rules).
  TypeExprPtr fromCallSites(const clang::ParmVarDecl *p, clang::SourceLocation useLoc,
                            Unresolved &why, int depth);
  TypeExprPtr fromHelperCall(const clang::CallExpr *call, Point at, Unresolved &why, int depth);
  /// The datatype a helper builds into its `MPI_Datatype *` parameter `argIndex`
  /// (`make_face(&t, 0)`), `name` the caller's variable.
  TypeExprPtr fromHelperOutput(const clang::CallExpr *call, unsigned argIndex, Point at,
                               const std::string &name, Unresolved &why, int depth);
  /// Element `element` of the caller's struct as the helper leaves it, `&v` passed to its
  /// struct-pointer parameter `argIndex` (`setup(&halo, n)` building `h->col`; a
  /// VarEvent::RecordHelperOut): the one definition of `h->col` that reaches the helper's exit
  /// on every path, proven in its body with the other parameters bound to the call's arguments.
  TypeExprPtr fromRecordHelper(const clang::CallExpr *call, unsigned argIndex, int64_t element,
                               Point at, const std::string &name, Unresolved &why, int depth);
  /// Element `element` read through `p`, a struct-pointer parameter of the analysed function
  /// (`exchange(struct halo *h)` sending with `h->col`): the function never writes that member
  /// nor lets `p` go elsewhere, and every call passes `&v` of a local struct variable whose
  /// element the caller proves at the call, all to one chain (CallSiteValues' rules).
  TypeExprPtr fromRecordCallSites(const clang::ParmVarDecl *p, int64_t element,
                                  clang::SourceLocation useLoc, Unresolved &why, int depth);
  /// Sets the refusal: "<what the helper does>, <reason>".
  using Refuse = std::function<void(std::string reason, clang::SourceLocation where)>;
  /// The checks every followed helper passes (one level only, a direct call of a function
  /// defined in this file with a prototype, not an operator, variadic or virtual): its
  /// definition, or nullptr after refuse().
  const clang::FunctionDecl *followableHelper(const clang::CallExpr *call, const Refuse &refuse);
  /// Whether the call passes one argument per parameter and the helper never calls itself
  /// (`calls`: every call in its body), else refuse().
  bool argumentsFitNoRecursion(const clang::FunctionDecl *def, const clang::CallExpr *call,
                               const std::vector<const clang::CallExpr *> &calls,
                               const Refuse &refuse);
  /// The helper's flow with its parameters bound to the call's arguments (integers and
  /// datatypes), after checking that no parameter is written or aliased; nullptr after refuse().
  /// `output`: the parameter a builder writes (fromHelperOutput), neither bound nor checked.
  std::unique_ptr<FunctionFlow> bindHelper(const clang::FunctionDecl *def,
                                           const clang::CallExpr *call, Point at, int depth,
                                           Bindings &b, const Refuse &refuse,
                                           const clang::ParmVarDecl *output = nullptr);
  Evaluator &ev_;
  /// While this resolver lives, ev_ proves the datatypes of MPI_Type_size/_get_extent with it.
  Evaluator::DatatypeScope scope_{ev_, this};
  const HelperChain *helpers_;
  FileScopeTypes *files_;
};

} // namespace tempi::frontend

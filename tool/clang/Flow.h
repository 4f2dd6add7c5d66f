/// \file
/// Def-use facts of one function body, on Clang's CFG: what the resolver needs to prove that a
/// variable (or one element of a local array) holds exactly one value at a statement.
///
/// Every reference to a local variable is classified once (FunctionFlow::build) as a read, a
/// definition (initializer, assignment, compound assignment, ++/--, the output argument of an MPI
/// datatype constructor or of MPI_Get_address; the members a function defined in this file
/// writes through a struct's address, `setup(&h)`), a free (MPI_Type_free), or an escape (address or
/// reference taken anywhere else, captured by a lambda, passed to a non-const pointer parameter,
/// written through a non-constant index, indexed out of bounds by a constant; a helper's bound
/// parameters count as constants). reachingDefinition() then answers, for one variable at
/// one statement, which single definition holds there, or why none can be proven:
///   - an escape refuses (the value can change behind the tool's back) unless no CFG path leads
///     from it to the statement: then the alias it makes does not exist yet there (automatic
///     variables only; an escape whose place is unknown, such as a lambda's capture, refuses);
///   - exactly one definition may reach the statement on some CFG path, and it must dominate it
///     (no path from the entry reaches the statement without passing it);
///   - a free that reaches the statement refuses.
/// Functions whose CFG Clang cannot build refuse everything.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/CFG.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tempi::frontend {

/// Why something could not be proven, and where (a remark's text and location).
struct Unresolved {
  std::string reason;
  clang::SourceLocation loc;
};

/// A position in the CFG: element `index` of `block`.
struct CfgPos {
  const clang::CFGBlock *block = nullptr;
  unsigned index = 0;
};

struct VarEvent {
  enum Kind {
    Init,           ///< the variable's initializer (value = init expression)
    Assign,         ///< x = value
    CompoundAssign, ///< x op= value (op in opcode)
    IncDec,         ///< ++x, x--, ... (opcode)
    ConstructorOut, ///< &x as the output argument of an MPI datatype constructor (call)
    GetAddressOut,  ///< &x as the output of MPI_Get_address (value = the address argument)
    TypeQueryOut,   ///< &x as an output of MPI_Type_size / _get_extent (value = the datatype,
                    ///< opcode = its TypeQueryField)
    HelperOut,      ///< &x (an MPI_Datatype) passed to an `MPI_Datatype *` parameter of a
                    ///< function defined in this file (call; opcode = the argument's index):
                    ///< DatatypeResolver follows the function or refuses every use it reaches
    RecordHelperOut, ///< &x (a datatypeRecord variable) passed to a pointer to its struct, a
                     ///< parameter of a function defined in this file that writes `element`
                     ///< through it (`setup(&halo)` building `h->col`): one event per element
                     ///< the function writes (call; opcode = the argument's index), none for
                     ///< a function that only reads (recordWrites)
    Free,           ///< MPI_Type_free(&x)
    Escape,         ///< anything that lets the value change unseen (what says how)
  };
  Kind kind = Init;
  const clang::Stmt *stmt = nullptr; ///< the CFG statement (call, operator, DeclStmt; for an
                                     ///< escape the innermost one holding it, or none)
  const clang::Expr *value = nullptr;
  const clang::CallExpr *call = nullptr;
  int opcode = 0;                   ///< BinaryOperatorKind / UnaryOperatorKind
  std::optional<int64_t> element;   ///< the element for a[k] (constant k); none = whole variable
  bool anyElement = false;          ///< a[i] with a non-constant i: may be any element
  /// An element written by a counted loop (`for (i = 0; i < 3; ++i) a[i] = E;`): one Assign
  /// event per element, placed where the loop exits, whose value is E with `loopVar` = `loopValue`.
  const clang::ForStmt *loop = nullptr;
  const clang::VarDecl *loopVar = nullptr;
  int64_t loopValue = 0;
  /// A loop's element whose statement is evaluated where it stands, in the iteration that
  /// writes it (FunctionFlow::iterationFlow), not at the loop's exit: the loop body sets up
  /// what it reads (`int sub[3] = {N, N, N}; sub[d] = 1; MPI_Type_create_subarray(..., sub,
  /// ..., &face[2 * d]);`).
  bool inIteration = false;
  int64_t loopFirst = 0; ///< inIteration: the loop's first value of its variable
  /// In an iteration flow, inside the loop's body: the index that names this element only
  /// through the iteration's value (`&face[2 * d]`), which other iterations give other values.
  const clang::Expr *iterationIndex = nullptr;
  /// The element that index 0 of the indexed array is: 0, or for an array member of a struct
  /// its first element (kMemberStride times its field index).
  int64_t elementBase = 0;
  clang::SourceLocation loc;
  std::string what;                 ///< Escape: "its address is passed to 'f'", ...
};

/// One iteration of a counted loop: its variable holds `value` throughout the loop's body.
struct LoopIteration {
  const clang::ForStmt *loop = nullptr;
  const clang::VarDecl *var = nullptr;
  int64_t value = 0;
  int64_t first = 0; ///< the variable's value in the loop's first iteration
};

class FunctionFlow {
public:
  /// Builds the CFG and classifies every reference to a local variable of `fn`'s body.
  /// `bound` (a helper analysed for one call site, DatatypeResolver) gives constant values to
  /// parameters, so that `a[dim] = 1` names one element; the caller must have checked that those
  /// parameters are never written and their address never taken.
  /// `tracked` (FileScopeTypes) names arrays of static storage duration, by canonical
  /// declaration, whose references in this body are classified as a local array's are (their
  /// events are keyed by that declaration): which elements the body's constructors write.
  /// `iteration`: the flow of one iteration of a loop (iterationFlow).
  /// `recordOut`: a parameter of `fn` that points to a datatypeRecord struct (`struct halo
  /// *h`), whose members the flow tracks as a struct variable's elements (`&h->col` defines
  /// element 0): its every other use (`h` read, passed on, dereferenced) escapes.
  static std::unique_ptr<FunctionFlow>
  build(const clang::Decl *fn, clang::ASTContext &ctx,
        const std::map<const clang::VarDecl *, int64_t> *bound = nullptr,
        const std::set<const clang::VarDecl *> *tracked = nullptr,
        const LoopIteration *iteration = nullptr,
        const clang::ParmVarDecl *recordOut = nullptr);

  /// The flow in which an `inIteration` event is evaluated: the same function, classified with
  /// the loop's variable bound to the event's iteration inside the loop's body only, so that
  /// `sub[d] = 1` there writes element k, and `&face[2 * d]` is element 2k's definition at the
  /// call. Built once per iteration. Every fact it gives holds at points inside the body during
  /// that iteration; the resolver asks it nothing else.
  const FunctionFlow &iterationFlow(const VarEvent &e) const;
  /// The iteration this flow was built for, if any.
  const LoopIteration *iteration() const { return iteration_ ? &*iteration_ : nullptr; }
  /// Whether `s` is inside the body of the loop this flow is an iteration of.
  bool insideIteration(const clang::Stmt *s) const;

  bool hasCfg() const { return cfg_ != nullptr; }
  /// The function's exit (what every return reaches), if it has a CFG.
  std::optional<CfgPos> exitPosition() const;
  /// build()'s recordOut.
  const clang::ParmVarDecl *recordOut() const { return recordOut_; }
  /// The CFG position of a statement (a call, an operator, a DeclStmt), if it is in the CFG.
  std::optional<CfgPos> position(const clang::Stmt *s) const;
  /// The events of `var` that concern element `element` (none: the whole variable).
  std::vector<const VarEvent *> eventsFor(const clang::VarDecl *var,
                                          std::optional<int64_t> element) const;

  /// The one definition of var (or of its element) that holds at `at`, or why there is none:
  /// `why.reason` is a predicate to put after the variable's name ("is reassigned on line 40").
  const VarEvent *reachingDefinition(const clang::VarDecl *var, std::optional<int64_t> element,
                                     CfgPos at, clang::SourceLocation atLoc,
                                     Unresolved &why) const;
  /// Whether statement `s` runs exactly once in every call of the function that returns: every
  /// path from the entry to the exit passes it, and no path leads from it back to itself.
  bool runsOncePerCall(const clang::Stmt *s) const;
  /// Whether some path from the entry reaches statement `s` (with bound parameters, only the
  /// branches they decide are taken). False for a statement not in the CFG.
  bool mayRun(const clang::Stmt *s) const;
  /// Where an event of `var` happens (its initializer: the declaration), if in the CFG.
  std::optional<CfgPos> eventPosition(const VarEvent &e, const clang::VarDecl *var) const;

  const clang::Decl *function() const { return fn_; }

private:
  struct Placed {
    const VarEvent *e;
    CfgPos pos;
  };
  /// Whether a path leads from `from` (the entry if none) to `to` without passing a kill. With
  /// bound parameters, a branch on a condition they decide goes one way only (takenSuccessor).
  bool reaches(std::optional<CfgPos> from, CfgPos to, const std::vector<CfgPos> &kills) const;
  /// The one successor a block's terminator takes when build()'s bound parameters decide it
  /// (`if (dim == 0)`, `switch (dim)` in a helper followed for `make_face(&t, 0)`): they hold
  /// their values for the whole call, so the other successors are never taken.
  std::optional<unsigned> takenSuccessor(const clang::CFGBlock *b) const;
  /// The blocks a path from the entry reaches, taking only takenSuccessor's successor where
  /// there is one.
  std::set<const clang::CFGBlock *> blocksTaken() const;
  /// Whether takenSuccessor may decide a branch: with bound parameters, or a recordOut pointer,
  /// which is never null (every flow built with one follows `&v`, or a recordOut handed on).
  bool prunes() const { return (bound_ && !bound_->empty()) || recordOut_; }
  /// Why more than one definition reaching a use refuses it: one is reassigned after another
  /// ("is reassigned on line 40"), or they are alternatives ("is defined on line 38 or 40, ...").
  Unresolved severalDefinitions(const std::vector<const VarEvent *> &reaching,
                                const std::vector<Placed> &defs) const;
  void classify(clang::ASTContext &ctx);
  /// A variable written inside a try block or handler it is not declared in escapes.
  void escapeAcrossTryStatements(const clang::ParentMap &pm,
                                 const std::map<const clang::VarDecl *,
                                                const clang::DeclStmt *> &declStmts);
  /// An iteration flow's writes, inside the loop's body, of an array declared outside it through
  /// an index that depends on the loop's variable (VarEvent::iterationIndex) stand for every
  /// earlier iteration's too: a constructor's output gets one definition per earlier iteration
  /// at the loop's head (evaluated in that iteration); any other such write escapes the array.
  void accountForEarlierIterations(clang::ASTContext &ctx,
                                   const std::map<const clang::VarDecl *, const clang::DeclStmt *> &declStmts);

  const clang::Decl *fn_ = nullptr;
  clang::ASTContext *ctx_ = nullptr;
  std::unique_ptr<clang::CFG> cfg_;
  std::map<const clang::Stmt *, CfgPos> pos_;
  std::map<const clang::VarDecl *, CfgPos> declPos_;
  std::map<const clang::ForStmt *, CfgPos> loopExit_; ///< after the condition block's elements
  std::map<const clang::VarDecl *, std::vector<VarEvent>> events_;
  /// build()'s bound parameters, kept for the iteration flows.
  std::optional<std::map<const clang::VarDecl *, int64_t>> bound_;
  const std::map<const clang::VarDecl *, int64_t> *bound() const {
    return bound_ ? &*bound_ : nullptr;
  }
  const std::set<const clang::VarDecl *> *tracked_ = nullptr;
  const clang::ParmVarDecl *recordOut_ = nullptr;
  std::optional<LoopIteration> iteration_;
  std::unique_ptr<clang::ParentMap> parents_;             ///< iteration flows only
  mutable std::map<std::pair<const clang::ForStmt *, int64_t>, std::unique_ptr<FunctionFlow>>
      iterations_;                                        ///< the root flow's, shared
  const FunctionFlow *root_ = nullptr; ///< an iteration flow's: the flow that owns it
};

/// Whether `d` reads a variable of an enclosing function through the capture of a lambda or a
/// block. An OpenMP region captures too (a CapturedStmt) but its body is part of the function's
/// CFG and reads the variable itself (shared, the default), so a reference from one is an
/// ordinary reference. Where the walk up cannot tell, true (the refusal stays).
bool capturedByLambdaOrBlock(const clang::DeclRefExpr *d, clang::ASTContext &ctx);

/// C for a two-dimensional array type T[R][C] of non-arrays, whose elements the flow numbers
/// r*C+c; none for any other type.
std::optional<int64_t> rowLength(clang::QualType t, const clang::ASTContext &ctx);

/// A struct whose MPI_Datatype members the flows track one by one, each as an element of the
/// variable: a C struct, or a C++ one that is C-like (no base, no member function, not a
/// template), with at least one MPI_Datatype member or one-dimensional array of them, and no
/// datatype deeper inside (a two-dimensional array, a nested struct holding one). Its
/// definition, or nullptr for any other type.
const clang::RecordDecl *datatypeRecord(clang::QualType t);

/// The datatypeRecord whose members `var`'s elements are: its type's, or, for a parameter that
/// points to one (FunctionFlow's recordOut; const or not), the pointee's; else nullptr.
const clang::RecordDecl *datatypeRecordOf(const clang::VarDecl *var);

/// The parameter of the call's direct callee that argument i goes to when it is a pointer to a
/// non-const struct of `record`'s type and the callee's body is in this file (a helper that
/// may build the struct's members: `setup(&halo, n)`); else nullptr.
const clang::ParmVarDecl *recordOutputParam(const clang::CallExpr *call, unsigned i,
                                            const clang::RecordDecl *record);

/// The elements of a datatypeRecord variable: member i (its field index) is element
/// i * kMemberStride, element j of an array member i * kMemberStride + j (`h.col` is element
/// 0 and `h.face[2]` element 2^20 + 2 of `struct { MPI_Datatype col, face[6]; } h;`).
constexpr int64_t kMemberStride = int64_t(1) << 20;

/// A datatype member named by an element: the field, and the index into it for an array member.
struct DatatypeMember {
  const clang::FieldDecl *field = nullptr;
  std::optional<int64_t> index;
};
/// The datatype member that is element `element` of a variable of a datatypeRecord type (an
/// array member's index within its bounds), or none.
std::optional<DatatypeMember> datatypeMember(const clang::VarDecl *var, int64_t element);
/// Whether a field is a one-dimensional array of MPI_Datatype of constant size (at most
/// kMemberStride elements) that a datatypeRecord tracks.
bool isDatatypeArrayMember(const clang::FieldDecl *f);

/// How `me`, a member of a datatypeRecord variable that is not a datatype, is used when the use
/// could reach the datatype members (pointer arithmetic from its address): its address, or an
/// array member's decayed pointer, taken other than as a typed output of an MPI function (`int
/// *rank`, written as the one object it is given; a `void *` receive buffer is not one) or a
/// pointer-to-const parameter: "has the address of its member 'n' passed to 'f'". Read or
/// written in place: "".
std::string memberAddressEscape(const clang::MemberExpr *me, clang::ASTContext &ctx);

/// Whether argument i of the call goes to an `MPI_Datatype *` (or C++ `MPI_Datatype &`)
/// parameter of a function whose body this file holds (a builder helper: DatatypeResolver
/// follows it).
bool isHelperDatatypeOutput(const clang::CallExpr *call, unsigned i);

/// Whether parameter i of the call (argumentIndex) is a pointer to const (read, never written).
bool paramIsConstPointer(const clang::CallExpr *c, int i);

/// The name of a call's direct callee ("operator()" for an operator; "" for an indirect call).
std::string directCalleeName(const clang::CallExpr *c);

/// The index of the parameter `arg` is passed to, or -1 (not an argument, or the object of a
/// member operator's call, which lists it as argument 0).
int argumentIndex(const clang::CallExpr *c, const clang::Stmt *arg);

/// Whether a type is spelled MPI_Datatype (through any typedefs of it).
bool isDatatypeType(clang::QualType t);

/// "line 40" for a location (the expansion line in the main file).
std::string lineOf(clang::SourceLocation loc, const clang::SourceManager &sm);

/// The source text of an expression's file range ("" when it has none, e.g. inside a macro body).
std::string spelledText(const clang::Expr *e, const clang::ASTContext &ctx);

/// The first of `vars` that `s` (or anything under it) names, or nullptr.
const clang::VarDecl *firstReadOf(const clang::Stmt *s, const std::set<const clang::VarDecl *> &vars);

} // namespace tempi::frontend

/// \file
/// Datatypes kept in variables of static storage duration: a file-scope `static MPI_Datatype
/// face;` and a function's `static MPI_Datatype t;`, set up once (often in an init function) and
/// used by the exchange functions. Their value outlives every call, so FunctionFlow, which
/// proves a value from one function's definitions, cannot prove them. Instead every reference in
/// the translation unit is classified once, and the variable holds one datatype wherever it is
/// read when:
///   - it has internal linkage (static, an anonymous namespace, a static local), or external
///     linkage and the tool was told that this file is the whole program (tempi-cc when one
///     command compiles and links one source), and this file defines it;
///   - exactly one call writes it: a datatype constructor whose output argument is `&v`, or a
///     builder helper of this file given `&v` (C++: `v` for an `MPI_Datatype &`), whose
///     arguments DatatypeResolver proves at that call, in that function, with nothing bound
///     (so every run of it builds the same datatype);
///   - every other reference reads its value, or passes `&v` to MPI_Type_commit or
///     MPI_Type_free; it has no initializer but MPI_DATATYPE_NULL; it is not volatile, a
///     reference, an array or a class's static member.
/// A read before the constructor ran, or after MPI_Type_free, is erroneous in MPI already (the
/// handle is null); a free followed by the same constructor builds the same datatype again.
///
/// An array of datatypes (`static MPI_Datatype face[6];`, one dimension) is proven element by
/// element under the same rules, an element standing for the variable: element k holds one
/// datatype when exactly one constructor (or builder helper) of the file writes `&face[k]`,
/// with k a constant or the variable of a loop FunctionFlow reads whole or evaluates iteration
/// by iteration (`for (d = 0; d < 6; ++d) MPI_Type_create_subarray(..., &face[d]);`), and no
/// write elsewhere can reach any element (through a non-constant index outside such a loop, or
/// a pointer). The array itself may be read through a pointer to const (MPI_Alltoallw's types).
/// Its initializer may only spell MPI_DATATYPE_NULL.
///
/// A struct of datatypes (Flow.h's datatypeRecord: `static struct halo h;` with MPI_Datatype
/// members or arrays of them) is proven member by member the same way, a member (or an array
/// member's element) being an element of the variable (Flow.h's kMemberStride): exactly one
/// call writes `&h.m` (`&h.a[k]`). Its other members may be read and written in
/// place and their address handed to MPI functions' typed outputs (Flow.h's
/// memberAddressEscape); the whole struct is only read by value. Its initializer may only spell
/// MPI_DATATYPE_NULL for the datatype members.
#pragma once

#include "tool/clang/Flow.h"
#include "tool/clang/MpiNames.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <set>
#include <memory>

namespace tempi::frontend {

class FileScopeTypes {
public:
  /// `wholeProgram`: this translation unit is the whole program, so a variable of external
  /// linkage that it defines is written only here.
  FileScopeTypes(clang::ASTContext &ctx, bool wholeProgram)
      : ctx_(ctx), wholeProgram_(wholeProgram) {}

  /// The one call that writes `var`: a datatype constructor, or a builder helper (DatatypeResolver
  /// follows it) whose argument `output` is `&var` (C++: `var`).
  struct Builder {
    const clang::CallExpr *call = nullptr;
    const ConstructorSpec *spec = nullptr;         ///< null for a builder helper
    const clang::FunctionDecl *function = nullptr; ///< whose body holds the call
    int output = -1;                               ///< a builder helper's output argument
  };
  /// The builder of a static-storage MPI_Datatype variable, or none with `why.reason` a sentence
  /// that starts with the variable's name ("'face' is a global variable that another file may
  /// write", "'face' is written on line 12 by ...").
  std::optional<Builder> builderOf(const clang::VarDecl *var, Unresolved &why);

  /// The one definition of element k of a static-storage array of datatypes: a ConstructorOut
  /// event of `function`'s flow (one of a counted loop's, or a constant index's), or none with
  /// `why.reason` a sentence that starts with the element's name ("'face[2]' is built on line 12
  /// and on line 20").
  struct ElementBuilder {
    const VarEvent *event = nullptr;
    const clang::FunctionDecl *function = nullptr;
  };
  std::optional<ElementBuilder> elementBuilderOf(const clang::VarDecl *var, int64_t k,
                                                 Unresolved &why);

  /// Whether `t` is a one-dimensional array of MPI_Datatype of constant size.
  static bool isDatatypeArray(clang::QualType t, const clang::ASTContext &ctx);

  /// The flow of a function body, built once per function and shared with the call sites.
  FunctionFlow &flowOf(const clang::Decl *fn);
  /// Whether the file is the whole program (nothing else linked can write or call into it).
  bool wholeProgram() const { return wholeProgram_; }

private:
  struct Uses {
    std::vector<Builder> builders;
    Unresolved other; ///< the first reference that is neither a read, a builder, a commit nor a free
  };
  void scan();
  /// Why `var`'s storage or initializer keeps it from being proven at all (a sentence starting
  /// with its name, in `why`), or true.
  bool storageAllowsProof(const clang::VarDecl *var, Unresolved &why);

  clang::ASTContext &ctx_;
  bool wholeProgram_;
  bool scanned_ = false;
  std::map<const clang::VarDecl *, Uses> uses_; ///< by canonical declaration
  std::set<const clang::VarDecl *> tracked_;    ///< arrays and structs, which every flow classifies
  std::map<const clang::Decl *, std::unique_ptr<FunctionFlow>> flows_;
};

} // namespace tempi::frontend

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
///   - exactly one call writes it: a datatype constructor whose output argument is `&v`, whose
///     arguments DatatypeResolver proves at that call, in that function, with nothing bound
///     (so every run of it builds the same datatype);
///   - every other reference reads its value, or passes `&v` to MPI_Type_commit or
///     MPI_Type_free; it has no initializer but MPI_DATATYPE_NULL; it is not volatile, a
///     reference, an array or a class's static member.
/// A read before the constructor ran, or after MPI_Type_free, is erroneous in MPI already (the
/// handle is null); a free followed by the same constructor builds the same datatype again.
#pragma once

#include "tool/clang/Flow.h"
#include "tool/clang/MpiNames.h"

#include "clang/AST/ASTContext.h"

#include <map>
#include <memory>

namespace tempi::frontend {

class FileScopeTypes {
public:
  /// `wholeProgram`: this translation unit is the whole program, so a variable of external
  /// linkage that it defines is written only here.
  FileScopeTypes(clang::ASTContext &ctx, bool wholeProgram)
      : ctx_(ctx), wholeProgram_(wholeProgram) {}

  /// The one constructor call that writes `var`.
  struct Builder {
    const clang::CallExpr *call = nullptr;
    const ConstructorSpec *spec = nullptr;
    const clang::FunctionDecl *function = nullptr; ///< whose body holds the call
  };
  /// The builder of a static-storage MPI_Datatype variable, or none with `why.reason` a sentence
  /// that starts with the variable's name ("'face' is a global variable that another file may
  /// write", "'face' is written on line 12 by ...").
  std::optional<Builder> builderOf(const clang::VarDecl *var, Unresolved &why);

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

  clang::ASTContext &ctx_;
  bool wholeProgram_;
  bool scanned_ = false;
  std::map<const clang::VarDecl *, Uses> uses_; ///< by canonical declaration
  std::map<const clang::Decl *, std::unique_ptr<FunctionFlow>> flows_;
};

} // namespace tempi::frontend

/// \file
/// What the front end knows about MPI functions, by the name the source spells.
///
/// Datatype constructors (every MPI-4.1 one, the deprecated MPI-1 names and the `_c` large-count
/// forms) are described by the roles of their arguments, so that the resolver can evaluate them
/// and name an argument in a remark ("count", "array_of_sizes[1]"). Communication calls are
/// described by where their datatype arguments are and which runtime entry point (tempi.h)
/// replaces them. Recognition is by spelling only: it works with MPICH's and Open MPI's headers
/// (where MPI_Datatype is an int or a pointer) and with the mock header of the tests.
#pragma once

#include "passes/TypeExpr.h"

#include <string_view>
#include <vector>

namespace tempi::frontend {

/// How one argument of a constructor is used.
enum class ArgRole {
  Int,        ///< an integer (count, blocklength, stride in elements, ndims, order, ...)
  Aint,       ///< an address-sized integer (stride or lb/extent in bytes)
  IntArray,   ///< an array of `count` integers
  AintArray,  ///< an array of `count` MPI_Aint
  TypeArray,  ///< an array of `count` datatypes (struct)
  Order,      ///< MPI_ORDER_C / MPI_ORDER_FORTRAN, read as spelled
  DistribArray, ///< MPI_DISTRIBUTE_BLOCK / _CYCLIC / _NONE, read as spelled
  DargArray,  ///< integers or MPI_DISTRIBUTE_DFLT_DARG, read as spelled
  OldType,    ///< the input datatype
  NewType,    ///< the output datatype (a pointer)
};

struct ArgSpec {
  const char *name; ///< as in the standard: "count", "array_of_blocklengths", ...
  ArgRole role;
  int lengthArg = -1; ///< for arrays: the index of the argument that holds the length
};

struct ConstructorSpec {
  const char *name;  ///< "MPI_Type_vector"
  Combiner combiner; ///< Dup for MPI_Type_dup
  std::vector<ArgSpec> args;
  bool deprecated = false; ///< an MPI-1 name removed in MPI-3
  bool largeCount = false; ///< an MPI-4 `_c` form
};

/// The constructor called `name` (as spelled), or nullptr.
const ConstructorSpec *findConstructor(std::string_view name);
const std::vector<ConstructorSpec> &allConstructors();

/// Type-management calls that take a datatype by address without defining a new chain.
enum class TypeManagement { None, Commit, Free };
TypeManagement findTypeManagement(std::string_view name);

/// One communication call that the rewriter replaces when its datatype is resolved.
struct CommCallSpec {
  const char *name;        ///< "MPI_Sendrecv"
  const char *tempiName;   ///< "tempi_Sendrecv"
  std::vector<int> datatypeArgs; ///< argument indices of the datatype(s), one plan each
  bool datatypeArrays = false;   ///< alltoallw forms: the datatype arguments are arrays
  /// The deferred entry point (tempi_Isend_deferred) used when SendDeferral proves a flush
  /// follows the call on every path; null for calls that are never deferred.
  const char *deferredName = nullptr;
  /// An MPI-4 `_c` form (MPI_Send_c -> tempi_Send_c): rewritten only when tempi.h declares the
  /// large-count entry points, i.e. the MPI header defines MPI_VERSION >= 4.
  bool largeCount = false;
};

/// The communication call called `name` (also a `_c` large-count form), or nullptr.
const CommCallSpec *findCommCall(std::string_view name);
const std::vector<CommCallSpec> &allCommCalls();

/// What an output argument of a datatype query receives.
enum class TypeQueryField { Size, Lb, Ub, Extent, TrueLb, TrueExtent };

/// A query whose outputs are constants for a predefined datatype: MPI_Type_size(type, &size),
/// MPI_Type_get_extent(type, &lb, &extent), MPI_Type_get_true_extent(type, &lb, &extent), and
/// their `_x` and `_c` forms, and MPI-1's MPI_Type_extent(type, &extent), MPI_Type_lb(type, &lb)
/// and MPI_Type_ub(type, &ub) (removed in MPI-3, still declared by MPICH and Open MPI 4). `outputs[k]` is what
/// argument k + 1 receives; argument 0 is the datatype.
struct TypeQuerySpec {
  const char *name;
  std::vector<TypeQueryField> outputs;
};
const TypeQuerySpec *findTypeQuery(std::string_view name);

/// An MPI call with datatype arguments that tempi-rewrite never rewrites (collectives other than
/// the alltoallv/w forms, one-sided and file I/O calls), for --explain's "left unchanged" remark.
struct UnrewrittenCallSpec {
  const char *name;
  std::vector<int> datatypeArgs;
  const char *runtime; ///< what libtempi does with a device buffer there
};
const UnrewrittenCallSpec *findUnrewrittenCall(std::string_view name);

/// The predefined datatype a name spells ("MPI_DOUBLE"), or nullptr (passes/TypeExpr.h).
const NamedTypeInfo *findNamedType(std::string_view name);

} // namespace tempi::frontend

/// \file
/// TypeExpr: an MPI datatype as the constructor tree that built it.
///
/// A node holds exactly what MPI_Type_get_contents returns for it: a combiner, the integer
/// arguments, the address arguments and the child datatypes, in the order of the MPI-4.1 standard
/// (section 5.1.13). The compile-time front end (tool/) and the runtime decoder (runtime/) both
/// produce this form, so the rest of the pipeline cannot tell them apart.
///
/// Encodings that differ between MPI implementations are normalized here: subarray/darray order is
/// 0 = C, 1 = Fortran; darray distributions are the Distrib values; MPI_DISTRIBUTE_DFLT_DARG is
/// kDargDefault. Named types are kept by the name the source spells ("MPI_DOUBLE").
///
/// Argument layouts (integers | addresses | types):
///   Named          - | - | -                         (name holds the spelling)
///   Dup            - | - | old
///   Contiguous     count | - | old
///   Vector         count, blocklength, stride | - | old
///   Hvector        count, blocklength | stride | old
///   Indexed        count, bl[count], disp[count] | - | old
///   Hindexed       count, bl[count] | disp[count] | old
///   IndexedBlock   count, blocklength, disp[count] | - | old
///   HindexedBlock  count, blocklength | disp[count] | old
///   Struct         count, bl[count] | disp[count] | types[count]
///   Subarray       ndims, sizes[n], subsizes[n], starts[n], order | - | old
///   Darray         size, rank, ndims, gsizes[n], distribs[n], dargs[n], psizes[n], order | - | old
///   Resized        - | lb, extent | old
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tempi {

enum class Combiner {
  Named, Dup, Contiguous, Vector, Hvector, Indexed, Hindexed, IndexedBlock, HindexedBlock,
  Struct, Subarray, Darray, Resized,
};

/// The text-form keyword of a combiner: "vector", "hindexed_block", ... ("named" for Named).
const char *combinerName(Combiner c);

enum class Order : int64_t { C = 0, Fortran = 1 };
enum class Distrib : int64_t { None = 0, Block = 1, Cyclic = 2 };
constexpr int64_t kDargDefault = -1; ///< MPI_DISTRIBUTE_DFLT_DARG

/// A predefined MPI datatype on LP64 Linux (x86-64), as MPICH and Open MPI define it there.
/// Pair types (MPI_DOUBLE_INT, ...) have two fields with a gap; every other type has one field.
struct NamedTypeInfo {
  const char *name;   ///< "MPI_DOUBLE"
  int64_t size;       ///< bytes of data (MPI_Type_size)
  int64_t extent;     ///< MPI_Type_get_extent (lb is always 0)
  int64_t alignment;  ///< natural alignment, used by MPICH's struct extent padding
  int nfields;        ///< 1, or 2 for pair types
  struct Field { int64_t offset, bytes; } fields[2];
};

/// The predefined type called `name`, or nullptr. Accepts every MPI-4.1 predefined C, C++ and
/// Fortran type name, and the aliases the standard defines (MPI_LONG_LONG_INT = MPI_LONG_LONG).
const NamedTypeInfo *lookupNamedType(std::string_view name);
/// Every predefined type, for generators and tests.
const std::vector<NamedTypeInfo> &allNamedTypes();

/// Alignment calibration. A named type's alignment (what MPICH pads a struct's extent to) is a
/// property of the MPI library, not of the platform: MPICH 4.0.2 aligns MPI_REAL16 and
/// MPI_COMPLEX32 to 1, MPICH 5.0.2 to 16. The built-in table holds MPICH 4.0.2's values; a
/// process linked with an MPI measures that MPI's (runtime/mpitypes/NamedProbe.h) and sets them
/// here before it translates types. The compile-time tool, which knows no MPI, keeps the table's.
/// Not synchronized with translate(): set alignments before any thread translates (libtempi does
/// it once, in MPI_Init).
///
/// Sets the alignment translate() uses for `name`. Returns false, changing nothing, for an
/// unknown name or an alignment that is not a positive power of two.
bool setNamedTypeAlignment(std::string_view name, int64_t alignment);
/// The built-in table's alignment of `name`, whatever was set since; 0 for an unknown name.
int64_t builtinNamedTypeAlignment(std::string_view name);
/// Undoes every setNamedTypeAlignment.
void resetNamedTypeAlignments();
/// A named type whose alignment now differs from the built-in table's.
struct AlignmentDifference {
  const char *name;
  int64_t builtin, now;
};
/// Every type set to an alignment other than the built-in one, in table order.
std::vector<AlignmentDifference> namedAlignmentDifferences();

struct TypeExpr;
using TypeExprPtr = std::shared_ptr<const TypeExpr>;

struct TypeExpr {
  Combiner combiner = Combiner::Named;
  std::string name;               ///< Named only
  std::vector<int64_t> integers;  ///< array_of_integers (large counts are held as 64-bit too)
  std::vector<int64_t> addresses; ///< array_of_addresses (MPI_Aint)
  std::vector<TypeExprPtr> types; ///< array_of_datatypes
};

/// Structural equality (same combiner, arguments and children; names compared as spelled).
bool operator==(const TypeExpr &a, const TypeExpr &b);

/// Builders, one per MPI constructor, taking the C call's arguments in the C call's order.
/// They do not validate: translate() does, and reports what is wrong.
namespace expr {
TypeExprPtr named(std::string name);
TypeExprPtr dup(TypeExprPtr old);
TypeExprPtr contiguous(int64_t count, TypeExprPtr old);
TypeExprPtr vector(int64_t count, int64_t blocklength, int64_t stride, TypeExprPtr old);
TypeExprPtr hvector(int64_t count, int64_t blocklength, int64_t strideBytes, TypeExprPtr old);
TypeExprPtr indexed(std::vector<int64_t> blocklengths, std::vector<int64_t> displacements,
                    TypeExprPtr old);
TypeExprPtr hindexed(std::vector<int64_t> blocklengths, std::vector<int64_t> displacementsBytes,
                     TypeExprPtr old);
TypeExprPtr indexedBlock(int64_t blocklength, std::vector<int64_t> displacements, TypeExprPtr old);
TypeExprPtr hindexedBlock(int64_t blocklength, std::vector<int64_t> displacementsBytes,
                          TypeExprPtr old);
TypeExprPtr structType(std::vector<int64_t> blocklengths, std::vector<int64_t> displacementsBytes,
                       std::vector<TypeExprPtr> types);
TypeExprPtr subarray(std::vector<int64_t> sizes, std::vector<int64_t> subsizes,
                     std::vector<int64_t> starts, Order order, TypeExprPtr old);
TypeExprPtr darray(int64_t size, int64_t rank, std::vector<int64_t> gsizes,
                   std::vector<Distrib> distribs, std::vector<int64_t> dargs,
                   std::vector<int64_t> psizes, Order order, TypeExprPtr old);
TypeExprPtr resized(int64_t lb, int64_t extent, TypeExprPtr old);
} // namespace expr

} // namespace tempi

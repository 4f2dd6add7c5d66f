/// \file
/// The predefined MPI datatypes on LP64 Linux (x86-64): size, extent, alignment and, for the pair
/// types, where their two fields lie. Sizes and extents are what MPICH and Open MPI report there.
/// Alignments are MPICH 4.0.2's (for the types it lacks, MPICH 5.0.2's), and they are the MPI
/// library's choice, not the platform's: MPICH 4.0.2 aligns MPI_REAL16 and MPI_COMPLEX32 to 1 (a
/// struct {REAL16; char} has extent 17), unlike MPI_LONG_DOUBLE (16); MPICH 5.0.2 to 16. So a
/// process linked with an MPI measures that MPI's alignments and sets them here
/// (setNamedTypeAlignment; the oracle and libtempi's MPI_Init do, through
/// runtime/mpitypes/NamedProbe.h); the built-in values stay readable (builtinNamedTypeAlignment).
/// test/oracle checks every row against the MPI it is built with: `oracle-named-builtin` the
/// built-in table as it is (MPICH 4.0.2 in CI), `oracle-named` the calibrated one, reporting each
/// difference.
/// Unknown names return nullptr; nothing here knows about MPI handles (runtime/mpitypes does).
#include "passes/TypeExpr.h"

#include <optional>
#include <unordered_map>

namespace tempi {
namespace {

NamedTypeInfo scalar(const char *name, int64_t size, int64_t align) {
  return NamedTypeInfo{name, size, size, align, 1, {{0, size}, {0, 0}}};
}
NamedTypeInfo pair(const char *name, int64_t first, int64_t secondOffset, int64_t second,
                   int64_t extent, int64_t align) {
  return NamedTypeInfo{name, first + second, extent, align, 2, {{0, first}, {secondOffset, second}}};
}

std::vector<NamedTypeInfo> makeTable() {
  return {
      // C
      scalar("MPI_CHAR", 1, 1), scalar("MPI_SIGNED_CHAR", 1, 1), scalar("MPI_UNSIGNED_CHAR", 1, 1),
      scalar("MPI_BYTE", 1, 1), scalar("MPI_WCHAR", 4, 4), scalar("MPI_SHORT", 2, 2),
      scalar("MPI_UNSIGNED_SHORT", 2, 2), scalar("MPI_INT", 4, 4), scalar("MPI_UNSIGNED", 4, 4),
      scalar("MPI_LONG", 8, 8), scalar("MPI_UNSIGNED_LONG", 8, 8), scalar("MPI_FLOAT", 4, 4),
      scalar("MPI_DOUBLE", 8, 8), scalar("MPI_LONG_DOUBLE", 16, 16),
      scalar("MPI_LONG_LONG", 8, 8), scalar("MPI_LONG_LONG_INT", 8, 8),
      scalar("MPI_UNSIGNED_LONG_LONG", 8, 8), scalar("MPI_PACKED", 1, 1),
      scalar("MPI_INT8_T", 1, 1), scalar("MPI_INT16_T", 2, 2), scalar("MPI_INT32_T", 4, 4),
      scalar("MPI_INT64_T", 8, 8), scalar("MPI_UINT8_T", 1, 1), scalar("MPI_UINT16_T", 2, 2),
      scalar("MPI_UINT32_T", 4, 4), scalar("MPI_UINT64_T", 8, 8), scalar("MPI_C_BOOL", 1, 1),
      scalar("MPI_C_COMPLEX", 8, 4), scalar("MPI_C_FLOAT_COMPLEX", 8, 4),
      scalar("MPI_C_DOUBLE_COMPLEX", 16, 8), scalar("MPI_C_LONG_DOUBLE_COMPLEX", 32, 16),
      scalar("MPI_AINT", 8, 8), scalar("MPI_OFFSET", 8, 8), scalar("MPI_COUNT", 8, 8),
      // C++
      scalar("MPI_CXX_BOOL", 1, 1), scalar("MPI_CXX_FLOAT_COMPLEX", 8, 4),
      scalar("MPI_CXX_DOUBLE_COMPLEX", 16, 8), scalar("MPI_CXX_LONG_DOUBLE_COMPLEX", 32, 16),
      // Fortran
      scalar("MPI_CHARACTER", 1, 1), scalar("MPI_LOGICAL", 4, 4), scalar("MPI_INTEGER", 4, 4),
      scalar("MPI_REAL", 4, 4), scalar("MPI_DOUBLE_PRECISION", 8, 8), scalar("MPI_COMPLEX", 8, 4),
      scalar("MPI_DOUBLE_COMPLEX", 16, 8), scalar("MPI_INTEGER1", 1, 1),
      scalar("MPI_INTEGER2", 2, 2), scalar("MPI_INTEGER4", 4, 4), scalar("MPI_INTEGER8", 8, 8),
      scalar("MPI_INTEGER16", 16, 16), scalar("MPI_REAL2", 2, 2), scalar("MPI_REAL4", 4, 4),
      // MPI_COMPLEX4: MPICH 4.0.2 lacks it; 4 is MPICH 5.0.2's alignment (not REAL2's 2).
      scalar("MPI_REAL8", 8, 8), scalar("MPI_REAL16", 16, 1), scalar("MPI_COMPLEX4", 4, 4),
      scalar("MPI_COMPLEX8", 8, 4), scalar("MPI_COMPLEX16", 16, 8),
      scalar("MPI_COMPLEX32", 32, 1), scalar("MPI_LOGICAL1", 1, 1), scalar("MPI_LOGICAL2", 2, 2),
      scalar("MPI_LOGICAL4", 4, 4), scalar("MPI_LOGICAL8", 8, 8), scalar("MPI_LOGICAL16", 16, 16),
      // Pair types for MPI_MINLOC / MPI_MAXLOC (C: a struct {T a; int b;} with C padding).
      pair("MPI_FLOAT_INT", 4, 4, 4, 8, 4), pair("MPI_DOUBLE_INT", 8, 8, 4, 16, 8),
      pair("MPI_LONG_INT", 8, 8, 4, 16, 8), pair("MPI_2INT", 4, 4, 4, 8, 4),
      pair("MPI_SHORT_INT", 2, 4, 4, 8, 4), pair("MPI_LONG_DOUBLE_INT", 16, 16, 4, 32, 16),
      // Fortran pair types (two adjacent values of one type).
      pair("MPI_2REAL", 4, 4, 4, 8, 4), pair("MPI_2DOUBLE_PRECISION", 8, 8, 8, 16, 8),
      pair("MPI_2INTEGER", 4, 4, 4, 8, 4),
  };
}

/// The table translate() reads: the built-in one until an alignment is set.
std::vector<NamedTypeInfo> &liveTable() {
  static std::vector<NamedTypeInfo> table = makeTable();
  return table;
}

const std::vector<NamedTypeInfo> &builtinTable() {
  static const std::vector<NamedTypeInfo> table = makeTable();
  return table;
}

/// Row index by name (the live and built-in tables have the same rows in the same order).
const std::unordered_map<std::string_view, size_t> &rowIndex() {
  static const std::unordered_map<std::string_view, size_t> index = [] {
    std::unordered_map<std::string_view, size_t> m;
    const std::vector<NamedTypeInfo> &t = builtinTable();
    for (size_t i = 0; i < t.size(); ++i) m.emplace(t[i].name, i);
    return m;
  }();
  return index;
}

std::optional<size_t> rowOf(std::string_view name) {
  auto it = rowIndex().find(name);
  if (it == rowIndex().end()) return std::nullopt;
  return it->second;
}

} // namespace

const std::vector<NamedTypeInfo> &allNamedTypes() { return liveTable(); }

const NamedTypeInfo *lookupNamedType(std::string_view name) {
  std::optional<size_t> row = rowOf(name);
  return row ? &liveTable()[*row] : nullptr;
}

bool setNamedTypeAlignment(std::string_view name, int64_t alignment) {
  std::optional<size_t> row = rowOf(name);
  if (!row || alignment <= 0 || (alignment & (alignment - 1)) != 0) return false;
  liveTable()[*row].alignment = alignment;
  return true;
}

int64_t builtinNamedTypeAlignment(std::string_view name) {
  std::optional<size_t> row = rowOf(name);
  return row ? builtinTable()[*row].alignment : 0;
}

void resetNamedTypeAlignments() {
  const std::vector<NamedTypeInfo> &builtin = builtinTable();
  std::vector<NamedTypeInfo> &live = liveTable();
  for (size_t i = 0; i < live.size(); ++i) live[i].alignment = builtin[i].alignment;
}

std::vector<AlignmentDifference> namedAlignmentDifferences() {
  std::vector<AlignmentDifference> out;
  const std::vector<NamedTypeInfo> &builtin = builtinTable();
  const std::vector<NamedTypeInfo> &live = liveTable();
  for (size_t i = 0; i < live.size(); ++i)
    if (live[i].alignment != builtin[i].alignment)
      out.push_back({live[i].name, builtin[i].alignment, live[i].alignment});
  return out;
}

} // namespace tempi

/// \file
/// The predefined MPI datatypes on LP64 Linux (x86-64): size, extent, natural alignment and, for
/// the pair types, where their two fields lie. The values are what MPICH 4 and Open MPI report
/// there; test/oracle's `oracle-named` test checks every row against the MPI it is built with
/// (size, extent, true extent, and the alignment through MPICH's struct extent padding).
/// Surprise, measured with MPICH 4.0.2: MPI_REAL16 and MPI_COMPLEX32 have alignment 1 there (a
/// struct {REAL16; char} has extent 17), unlike MPI_LONG_DOUBLE (16).
/// Unknown names return nullptr; nothing here knows about MPI handles (runtime/mpitypes does).
#include "passes/TypeExpr.h"

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
      scalar("MPI_REAL8", 8, 8), scalar("MPI_REAL16", 16, 1), scalar("MPI_COMPLEX4", 4, 2),
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

} // namespace

const std::vector<NamedTypeInfo> &allNamedTypes() {
  static const std::vector<NamedTypeInfo> table = makeTable();
  return table;
}

const NamedTypeInfo *lookupNamedType(std::string_view name) {
  static const std::unordered_map<std::string_view, const NamedTypeInfo *> index = [] {
    std::unordered_map<std::string_view, const NamedTypeInfo *> m;
    for (const NamedTypeInfo &t : allNamedTypes()) m.emplace(t.name, &t);
    return m;
  }();
  auto it = index.find(name);
  return it == index.end() ? nullptr : it->second;
}

} // namespace tempi

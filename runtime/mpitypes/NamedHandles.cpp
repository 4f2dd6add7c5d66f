/// \file
/// The predefined-datatype table of the MPI this file is compiled against (see NamedHandles.h).
/// Each entry is guarded by #ifdef: both MPICH and Open MPI define every predefined datatype as a
/// macro, so a name this MPI lacks drops out at compile time. The order puts the preferred
/// spelling of an alias first (MPI_C_FLOAT_COMPLEX before MPI_C_COMPLEX).
#include "runtime/mpitypes/NamedHandles.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace tempi {
namespace {

struct Entry {
  const char *name;
  MPI_Datatype handle;
};

const std::vector<Entry> &entries() {
  static const std::vector<Entry> table = {
#ifdef MPI_CHAR
      {"MPI_CHAR", MPI_CHAR},
#endif
#ifdef MPI_SIGNED_CHAR
      {"MPI_SIGNED_CHAR", MPI_SIGNED_CHAR},
#endif
#ifdef MPI_UNSIGNED_CHAR
      {"MPI_UNSIGNED_CHAR", MPI_UNSIGNED_CHAR},
#endif
#ifdef MPI_BYTE
      {"MPI_BYTE", MPI_BYTE},
#endif
#ifdef MPI_WCHAR
      {"MPI_WCHAR", MPI_WCHAR},
#endif
#ifdef MPI_SHORT
      {"MPI_SHORT", MPI_SHORT},
#endif
#ifdef MPI_UNSIGNED_SHORT
      {"MPI_UNSIGNED_SHORT", MPI_UNSIGNED_SHORT},
#endif
#ifdef MPI_INT
      {"MPI_INT", MPI_INT},
#endif
#ifdef MPI_UNSIGNED
      {"MPI_UNSIGNED", MPI_UNSIGNED},
#endif
#ifdef MPI_LONG
      {"MPI_LONG", MPI_LONG},
#endif
#ifdef MPI_UNSIGNED_LONG
      {"MPI_UNSIGNED_LONG", MPI_UNSIGNED_LONG},
#endif
#ifdef MPI_FLOAT
      {"MPI_FLOAT", MPI_FLOAT},
#endif
#ifdef MPI_DOUBLE
      {"MPI_DOUBLE", MPI_DOUBLE},
#endif
#ifdef MPI_LONG_DOUBLE
      {"MPI_LONG_DOUBLE", MPI_LONG_DOUBLE},
#endif
#ifdef MPI_LONG_LONG
      {"MPI_LONG_LONG", MPI_LONG_LONG},
#endif
#ifdef MPI_LONG_LONG_INT
      {"MPI_LONG_LONG_INT", MPI_LONG_LONG_INT},
#endif
#ifdef MPI_UNSIGNED_LONG_LONG
      {"MPI_UNSIGNED_LONG_LONG", MPI_UNSIGNED_LONG_LONG},
#endif
#ifdef MPI_PACKED
      {"MPI_PACKED", MPI_PACKED},
#endif
#ifdef MPI_INT8_T
      {"MPI_INT8_T", MPI_INT8_T},
#endif
#ifdef MPI_INT16_T
      {"MPI_INT16_T", MPI_INT16_T},
#endif
#ifdef MPI_INT32_T
      {"MPI_INT32_T", MPI_INT32_T},
#endif
#ifdef MPI_INT64_T
      {"MPI_INT64_T", MPI_INT64_T},
#endif
#ifdef MPI_UINT8_T
      {"MPI_UINT8_T", MPI_UINT8_T},
#endif
#ifdef MPI_UINT16_T
      {"MPI_UINT16_T", MPI_UINT16_T},
#endif
#ifdef MPI_UINT32_T
      {"MPI_UINT32_T", MPI_UINT32_T},
#endif
#ifdef MPI_UINT64_T
      {"MPI_UINT64_T", MPI_UINT64_T},
#endif
#ifdef MPI_C_BOOL
      {"MPI_C_BOOL", MPI_C_BOOL},
#endif
#ifdef MPI_C_FLOAT_COMPLEX
      {"MPI_C_FLOAT_COMPLEX", MPI_C_FLOAT_COMPLEX},
#endif
#ifdef MPI_C_COMPLEX
      {"MPI_C_COMPLEX", MPI_C_COMPLEX},
#endif
#ifdef MPI_C_DOUBLE_COMPLEX
      {"MPI_C_DOUBLE_COMPLEX", MPI_C_DOUBLE_COMPLEX},
#endif
#ifdef MPI_C_LONG_DOUBLE_COMPLEX
      {"MPI_C_LONG_DOUBLE_COMPLEX", MPI_C_LONG_DOUBLE_COMPLEX},
#endif
#ifdef MPI_AINT
      {"MPI_AINT", MPI_AINT},
#endif
#ifdef MPI_OFFSET
      {"MPI_OFFSET", MPI_OFFSET},
#endif
#ifdef MPI_COUNT
      {"MPI_COUNT", MPI_COUNT},
#endif
#ifdef MPI_CXX_BOOL
      {"MPI_CXX_BOOL", MPI_CXX_BOOL},
#endif
#ifdef MPI_CXX_FLOAT_COMPLEX
      {"MPI_CXX_FLOAT_COMPLEX", MPI_CXX_FLOAT_COMPLEX},
#endif
#ifdef MPI_CXX_DOUBLE_COMPLEX
      {"MPI_CXX_DOUBLE_COMPLEX", MPI_CXX_DOUBLE_COMPLEX},
#endif
#ifdef MPI_CXX_LONG_DOUBLE_COMPLEX
      {"MPI_CXX_LONG_DOUBLE_COMPLEX", MPI_CXX_LONG_DOUBLE_COMPLEX},
#endif
#ifdef MPI_CHARACTER
      {"MPI_CHARACTER", MPI_CHARACTER},
#endif
#ifdef MPI_LOGICAL
      {"MPI_LOGICAL", MPI_LOGICAL},
#endif
#ifdef MPI_INTEGER
      {"MPI_INTEGER", MPI_INTEGER},
#endif
#ifdef MPI_REAL
      {"MPI_REAL", MPI_REAL},
#endif
#ifdef MPI_DOUBLE_PRECISION
      {"MPI_DOUBLE_PRECISION", MPI_DOUBLE_PRECISION},
#endif
#ifdef MPI_COMPLEX
      {"MPI_COMPLEX", MPI_COMPLEX},
#endif
#ifdef MPI_DOUBLE_COMPLEX
      {"MPI_DOUBLE_COMPLEX", MPI_DOUBLE_COMPLEX},
#endif
#ifdef MPI_INTEGER1
      {"MPI_INTEGER1", MPI_INTEGER1},
#endif
#ifdef MPI_INTEGER2
      {"MPI_INTEGER2", MPI_INTEGER2},
#endif
#ifdef MPI_INTEGER4
      {"MPI_INTEGER4", MPI_INTEGER4},
#endif
#ifdef MPI_INTEGER8
      {"MPI_INTEGER8", MPI_INTEGER8},
#endif
#ifdef MPI_INTEGER16
      {"MPI_INTEGER16", MPI_INTEGER16},
#endif
#ifdef MPI_REAL2
      {"MPI_REAL2", MPI_REAL2},
#endif
#ifdef MPI_REAL4
      {"MPI_REAL4", MPI_REAL4},
#endif
#ifdef MPI_REAL8
      {"MPI_REAL8", MPI_REAL8},
#endif
#ifdef MPI_REAL16
      {"MPI_REAL16", MPI_REAL16},
#endif
#ifdef MPI_COMPLEX4
      {"MPI_COMPLEX4", MPI_COMPLEX4},
#endif
#ifdef MPI_COMPLEX8
      {"MPI_COMPLEX8", MPI_COMPLEX8},
#endif
#ifdef MPI_COMPLEX16
      {"MPI_COMPLEX16", MPI_COMPLEX16},
#endif
#ifdef MPI_COMPLEX32
      {"MPI_COMPLEX32", MPI_COMPLEX32},
#endif
#ifdef MPI_LOGICAL1
      {"MPI_LOGICAL1", MPI_LOGICAL1},
#endif
#ifdef MPI_LOGICAL2
      {"MPI_LOGICAL2", MPI_LOGICAL2},
#endif
#ifdef MPI_LOGICAL4
      {"MPI_LOGICAL4", MPI_LOGICAL4},
#endif
#ifdef MPI_LOGICAL8
      {"MPI_LOGICAL8", MPI_LOGICAL8},
#endif
#ifdef MPI_LOGICAL16
      {"MPI_LOGICAL16", MPI_LOGICAL16},
#endif
#ifdef MPI_FLOAT_INT
      {"MPI_FLOAT_INT", MPI_FLOAT_INT},
#endif
#ifdef MPI_DOUBLE_INT
      {"MPI_DOUBLE_INT", MPI_DOUBLE_INT},
#endif
#ifdef MPI_LONG_INT
      {"MPI_LONG_INT", MPI_LONG_INT},
#endif
#ifdef MPI_2INT
      {"MPI_2INT", MPI_2INT},
#endif
#ifdef MPI_SHORT_INT
      {"MPI_SHORT_INT", MPI_SHORT_INT},
#endif
#ifdef MPI_LONG_DOUBLE_INT
      {"MPI_LONG_DOUBLE_INT", MPI_LONG_DOUBLE_INT},
#endif
#ifdef MPI_2REAL
      {"MPI_2REAL", MPI_2REAL},
#endif
#ifdef MPI_2DOUBLE_PRECISION
      {"MPI_2DOUBLE_PRECISION", MPI_2DOUBLE_PRECISION},
#endif
#ifdef MPI_2INTEGER
      {"MPI_2INTEGER", MPI_2INTEGER},
#endif
  };
  return table;
}

struct Index {
  std::unordered_map<std::string_view, MPI_Datatype> byName;
  std::unordered_map<MPI_Datatype, const char *> byHandle;
  Index() {
    for (const Entry &e : entries()) {
      if (e.handle == MPI_DATATYPE_NULL) continue; // declared but not supported by this build
      byName.emplace(e.name, e.handle);
      byHandle.emplace(e.handle, e.name); // first spelling wins
    }
  }
};

const Index &index() {
  static const Index idx;
  return idx;
}

} // namespace

MPI_Datatype namedTypeHandle(std::string_view name) {
  auto it = index().byName.find(name);
  return it == index().byName.end() ? MPI_DATATYPE_NULL : it->second;
}

const char *namedTypeName(MPI_Datatype t) {
  auto it = index().byHandle.find(t);
  return it == index().byHandle.end() ? nullptr : it->second;
}

bool isNamedHandle(MPI_Datatype t) {
  if (t == MPI_DATATYPE_NULL) return false;
  if (namedTypeName(t)) return true;
  int ni, na, nd, combiner;
  if (MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner) != MPI_SUCCESS) return false;
  return combiner == MPI_COMBINER_NAMED;
}

} // namespace tempi

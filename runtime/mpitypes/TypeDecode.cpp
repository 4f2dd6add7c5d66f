/// \file
/// decodeMpiType (see TypeDecode.h): envelope, contents, one TypeExpr node per level, children
/// decoded recursively and their handles freed unless predefined.
#include "runtime/mpitypes/TypeDecode.h"

#include "runtime/mpitypes/NamedHandles.h"

#include <string>
#include <vector>

namespace tempi {
namespace {

using R = Result<TypeExprPtr>;

std::string combinerText(int c) {
  if (c == MPI_COMBINER_NAMED) return "MPI_COMBINER_NAMED";
#ifdef MPI_COMBINER_F90_REAL
  if (c == MPI_COMBINER_F90_REAL) return "MPI_COMBINER_F90_REAL";
  if (c == MPI_COMBINER_F90_COMPLEX) return "MPI_COMBINER_F90_COMPLEX";
  if (c == MPI_COMBINER_F90_INTEGER) return "MPI_COMBINER_F90_INTEGER";
#endif
  return "combiner " + std::to_string(c);
}

int64_t mapOrder(int o) { return o == MPI_ORDER_FORTRAN ? 1 : 0; }
int64_t mapDistrib(int d) {
  if (d == MPI_DISTRIBUTE_BLOCK) return static_cast<int64_t>(Distrib::Block);
  if (d == MPI_DISTRIBUTE_CYCLIC) return static_cast<int64_t>(Distrib::Cyclic);
  return static_cast<int64_t>(Distrib::None);
}
int64_t mapDarg(int a) { return a == MPI_DISTRIBUTE_DFLT_DARG ? kDargDefault : a; }

R decode(MPI_Datatype t, int depth) {
  if (t == MPI_DATATYPE_NULL) return R::fail("MPI_DATATYPE_NULL has no contents");
  if (depth > 64) return R::fail("datatype nesting deeper than 64");
  int ni = 0, na = 0, nd = 0, combiner = 0;
  if (MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner) != MPI_SUCCESS)
    return R::fail("MPI_Type_get_envelope failed");
  if (combiner == MPI_COMBINER_NAMED) {
    const char *name = namedTypeName(t);
    if (!name) return R::fail("a predefined datatype this MPI's table does not name");
    return R::ok(expr::named(name));
  }
  std::vector<int> ints(ni);
  std::vector<MPI_Aint> addrs(na);
  std::vector<MPI_Datatype> types(nd);
  if (MPI_Type_get_contents(t, ni, na, nd, ints.data(), addrs.data(), types.data()) != MPI_SUCCESS)
    return R::fail("MPI_Type_get_contents failed");

  // Decode the children first, then release the handles get_contents handed us.
  // A handle that appears twice (struct fields) decodes to one shared node, so translate() can
  // tell "the same type" the way MPICH does.
  std::vector<TypeExprPtr> kids;
  std::string err;
  std::vector<MPI_Datatype> seen(types);
  for (size_t i = 0; i < types.size(); ++i) {
    if (err.empty()) {
      size_t same = i;
      for (size_t j = 0; j < i; ++j)
        if (seen[j] == seen[i]) { same = j; break; }
      if (same != i) {
        kids.push_back(kids[same]);
      } else {
        R d = decode(types[i], depth + 1);
        if (d) kids.push_back(*d);
        else err = d.error();
      }
    }
    if (!isNamedHandle(types[i])) MPI_Type_free(&types[i]);
  }
  if (!err.empty()) return R::fail(err);

  auto node = std::make_shared<TypeExpr>();
  node->types = kids;
  node->integers.assign(ints.begin(), ints.end());
  node->addresses.assign(addrs.begin(), addrs.end());
  auto &I = node->integers;
  if (combiner == MPI_COMBINER_DUP) {
    node->combiner = Combiner::Dup;
  } else if (combiner == MPI_COMBINER_CONTIGUOUS) {
    node->combiner = Combiner::Contiguous;
  } else if (combiner == MPI_COMBINER_VECTOR) {
    node->combiner = Combiner::Vector;
  } else if (combiner == MPI_COMBINER_HVECTOR) {
    node->combiner = Combiner::Hvector;
  } else if (combiner == MPI_COMBINER_INDEXED) {
    node->combiner = Combiner::Indexed;
  } else if (combiner == MPI_COMBINER_HINDEXED) {
    node->combiner = Combiner::Hindexed;
  } else if (combiner == MPI_COMBINER_INDEXED_BLOCK) {
    node->combiner = Combiner::IndexedBlock;
  } else if (combiner == MPI_COMBINER_HINDEXED_BLOCK) {
    node->combiner = Combiner::HindexedBlock;
  } else if (combiner == MPI_COMBINER_STRUCT) {
    node->combiner = Combiner::Struct;
  } else if (combiner == MPI_COMBINER_SUBARRAY) {
    node->combiner = Combiner::Subarray;
    if (I.empty()) return R::fail("subarray contents without ndims");
    I.back() = mapOrder(static_cast<int>(I.back()));
  } else if (combiner == MPI_COMBINER_DARRAY) {
    node->combiner = Combiner::Darray;
    if (I.size() < 3) return R::fail("darray contents too short");
    int64_t n = I[2];
    if (static_cast<int64_t>(I.size()) != 4 + 4 * n) return R::fail("darray contents of the wrong length");
    for (int64_t d = 0; d < n; ++d) {
      I[3 + n + d] = mapDistrib(static_cast<int>(I[3 + n + d]));
      I[3 + 2 * n + d] = mapDarg(static_cast<int>(I[3 + 2 * n + d]));
    }
    I.back() = mapOrder(static_cast<int>(I.back()));
  } else if (combiner == MPI_COMBINER_RESIZED) {
    node->combiner = Combiner::Resized;
  } else {
    return R::fail("unsupported datatype constructor (" + combinerText(combiner) + ")");
  }
  return R::ok(node);
}

} // namespace

Result<TypeExprPtr> decodeMpiType(MPI_Datatype t) { return decode(t, 0); }

} // namespace tempi

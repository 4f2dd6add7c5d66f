/// \file
/// buildMpiType: one MPI constructor call per TypeExpr node (see TypeBuild.h). Refuses what
/// translate() refuses, names the MPI lacks, and integers outside the C bindings' int range.
#include "runtime/mpitypes/TypeBuild.h"

#include "passes/TypeIR.h"
#include "runtime/mpitypes/NamedHandles.h"

#include <climits>
#include <string>
#include <vector>

namespace tempi {
namespace {

using R = Result<MPI_Datatype>;

bool fitsInt(int64_t v) { return v >= INT_MIN && v <= INT_MAX; }

std::vector<int> toInts(const std::vector<int64_t> &v, size_t from, size_t n) {
  return std::vector<int>(v.begin() + from, v.begin() + from + n);
}

R mpiFail(const TypeExpr &e, int code) {
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(code, msg, &len);
  return R::fail(std::string(combinerName(e.combiner)) + ": the MPI refused the type: " +
                 std::string(msg, len));
}

R build(const TypeExpr &e) {
  if (e.combiner == Combiner::Named) {
    MPI_Datatype h = namedTypeHandle(e.name);
    if (h == MPI_DATATYPE_NULL) return R::fail("this MPI has no predefined type '" + e.name + "'");
    return R::ok(h);
  }
  for (int64_t v : e.integers)
    if (!fitsInt(v))
      return R::fail(std::string(combinerName(e.combiner)) + ": integer argument " +
                     std::to_string(v) + " does not fit the C binding's int");
  std::vector<MPI_Datatype> kids;
  auto freeKids = [&] {
    const std::vector<MPI_Datatype> handles = kids; // freeing nulls the variable it is given
    for (size_t i = 0; i < handles.size(); ++i) {
      bool seen = false;
      for (size_t j = 0; j < i; ++j) seen = seen || handles[j] == handles[i];
      if (!seen) freeBuiltType(kids[i]);
    }
  };
  for (size_t i = 0; i < e.types.size(); ++i) {
    // The same child node twice (struct fields) is one handle, as MPI would see it from the
    // source: MPICH's struct padding depends on whether the fields share a handle.
    size_t same = i;
    for (size_t j = 0; j < i; ++j)
      if (e.types[j] == e.types[i]) same = j;
    if (same != i) {
      kids.push_back(kids[same]);
      continue;
    }
    R k = build(*e.types[i]);
    if (!k) {
      freeKids();
      return k;
    }
    kids.push_back(*k);
  }
  const auto &I = e.integers;
  const auto &A = e.addresses;
  MPI_Datatype out = MPI_DATATYPE_NULL;
  int rc = MPI_SUCCESS;
  int n = I.empty() ? 0 : static_cast<int>(I[0]);
  switch (e.combiner) {
  case Combiner::Named:
    break;
  case Combiner::Dup:
    rc = MPI_Type_dup(kids[0], &out);
    break;
  case Combiner::Contiguous:
    rc = MPI_Type_contiguous(n, kids[0], &out);
    break;
  case Combiner::Vector:
    rc = MPI_Type_vector(n, static_cast<int>(I[1]), static_cast<int>(I[2]), kids[0], &out);
    break;
  case Combiner::Hvector:
    rc = MPI_Type_create_hvector(n, static_cast<int>(I[1]), A[0], kids[0], &out);
    break;
  case Combiner::Indexed: {
    auto bl = toInts(I, 1, n), d = toInts(I, 1 + n, n);
    rc = MPI_Type_indexed(n, bl.data(), d.data(), kids[0], &out);
    break;
  }
  case Combiner::Hindexed: {
    auto bl = toInts(I, 1, n);
    std::vector<MPI_Aint> d(A.begin(), A.end());
    rc = MPI_Type_create_hindexed(n, bl.data(), d.data(), kids[0], &out);
    break;
  }
  case Combiner::IndexedBlock: {
    auto d = toInts(I, 2, n);
    rc = MPI_Type_create_indexed_block(n, static_cast<int>(I[1]), d.data(), kids[0], &out);
    break;
  }
  case Combiner::HindexedBlock: {
    std::vector<MPI_Aint> d(A.begin(), A.end());
    rc = MPI_Type_create_hindexed_block(n, static_cast<int>(I[1]), d.data(), kids[0], &out);
    break;
  }
  case Combiner::Struct: {
    auto bl = toInts(I, 1, n);
    std::vector<MPI_Aint> d(A.begin(), A.end());
    rc = MPI_Type_create_struct(n, bl.data(), d.data(), kids.data(), &out);
    break;
  }
  case Combiner::Subarray: {
    auto sz = toInts(I, 1, n), sub = toInts(I, 1 + n, n), st = toInts(I, 1 + 2 * n, n);
    int order = I[1 + 3 * n] == 0 ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
    rc = MPI_Type_create_subarray(n, sz.data(), sub.data(), st.data(), order, kids[0], &out);
    break;
  }
  case Combiner::Darray: {
    int nd = static_cast<int>(I[2]);
    auto g = toInts(I, 3, nd), p = toInts(I, 3 + 3 * nd, nd);
    std::vector<int> dist(nd), darg(nd);
    for (int d = 0; d < nd; ++d) {
      int64_t x = I[3 + nd + d];
      dist[d] = x == static_cast<int64_t>(Distrib::Block)    ? MPI_DISTRIBUTE_BLOCK
                : x == static_cast<int64_t>(Distrib::Cyclic) ? MPI_DISTRIBUTE_CYCLIC
                                                             : MPI_DISTRIBUTE_NONE;
      int64_t a = I[3 + 2 * nd + d];
      darg[d] = a == kDargDefault ? MPI_DISTRIBUTE_DFLT_DARG : static_cast<int>(a);
    }
    int order = I[3 + 4 * nd] == 0 ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
    rc = MPI_Type_create_darray(static_cast<int>(I[0]), static_cast<int>(I[1]), nd, g.data(),
                                dist.data(), darg.data(), p.data(), order, kids[0], &out);
    break;
  }
  case Combiner::Resized:
    rc = MPI_Type_create_resized(kids[0], A[0], A[1], &out);
    break;
  }
  freeKids();
  if (rc != MPI_SUCCESS) return mpiFail(e, rc);
  return R::ok(out);
}

} // namespace

Result<MPI_Datatype> buildMpiType(const TypeExpr &e) {
  auto checked = translate(e);
  if (!checked) return R::fail(checked.error());
  return build(e);
}

void freeBuiltType(MPI_Datatype &t) {
  if (t != MPI_DATATYPE_NULL && !isNamedHandle(t)) MPI_Type_free(&t);
  t = MPI_DATATYPE_NULL;
}

} // namespace tempi

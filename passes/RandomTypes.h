/// \file
/// Seeded generators of datatypes for property tests (like yaksa's DTPools): random constructor
/// chains, pools of equivalent descriptions of one regular layout, and pairs that cover the same
/// bytes in a different order. Standard library only; the same seed gives the same types on every
/// machine (std::mt19937_64 and our own integer draws, no std::*_distribution).
///
/// Every generated type is accepted by translate(), has a non-negative extent, and spans at most
/// `maxSpan` bytes (bounds and true bounds within [-maxSpan, maxSpan]), so the oracle stays fast.
#pragma once

#include "passes/TypeExpr.h"

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace tempi {

struct RandomTypeOptions {
  int maxDepth = 6;              ///< constructor levels above the named leaves
  int64_t maxSpan = 1 << 18;     ///< bytes: |lb|, |ub|, |true bounds| stay below this
  /// Which predefined names may appear (the oracle passes "does this MPI have it").
  std::function<bool(const char *)> allowName;
};

/// A set of descriptions that must canonicalize to one form (and pack identically).
struct TypePool {
  std::string what;                 ///< a short description for failure reports
  std::vector<TypeExprPtr> members; ///< all with lb 0 and the same extent
};

class RandomTypes {
public:
  explicit RandomTypes(uint64_t seed, RandomTypeOptions options = {});

  /// A random constructor chain: every constructor (Fortran-order subarray and darray
  /// included), depth up to maxDepth, resized, negative strides and lower bounds, zero counts.
  TypeExprPtr next();
  /// Equivalent descriptions of a random 3-D cuboid (n2 planes x n1 rows x n0 elements inside a
  /// P x R x C array at a random start): one 3-D subarray (C and Fortran order), a vector of a
  /// 2-D subarray, vector -> hvector -> hvector, indexed_block / hindexed_block / indexed rows
  /// with arithmetic displacements, one-field structs, resized contiguous rows, byte rows.
  TypePool nextPool();
  /// The same rows x cols elements of a matrix, built row by row and column by column: same bytes,
  /// different pack order. [0] is row-built, [1] column-built.
  std::vector<TypeExprPtr> rowColumnPair();

  /// Uniform integer in [lo, hi].
  int64_t uniform(int64_t lo, int64_t hi);
  bool chance(int percent) { return uniform(0, 99) < percent; }
  std::mt19937_64 &engine() { return rng_; }

private:
  TypeExprPtr gen(int depth);
  TypeExprPtr leaf();
  TypeExprPtr pick(const std::vector<const char *> &names);
  bool acceptable(const TypeExpr &e);
  static TypeExprPtr dupIfOdd(TypeExprPtr t, int64_t k);
  std::mt19937_64 rng_;
  RandomTypeOptions opt_;
  std::vector<const char *> names_;
};

} // namespace tempi

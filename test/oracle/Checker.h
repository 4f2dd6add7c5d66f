/// \file
/// The oracle's checks of one datatype against the MPI it is linked with (see Checker.cpp).
#pragma once

#include "passes/TypeExpr.h"

#include <cstdint>
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace tempi::oracle {

struct CheckOptions {
  bool verbose = false;
  bool allCounts = false; ///< pack with count 1, 2 and 3 instead of one random count
  /// Predefined types the MPI packs only partly in strided types (probeMpi): in a type holding
  /// one, the bytes the MPI does not write are not compared. Every other type's bytes all are.
  std::set<std::string> partlyPacked;
};

/// What the oracle learns from the MPI before checking (runtime/mpitypes/NamedProbe.h): sets the
/// MPI's alignment of every predefined type in passes/ (unless `builtinAlignments`: then the
/// built-in table stays, to check it as it is), and returns the types a strided MPI_Pack writes
/// only part of. Prints one "note:" line to `out` per alignment that differs from the built-in
/// table and per partly packed type, so neither is silent.
std::set<std::string> probeMpi(bool builtinAlignments, std::FILE *out);

/// Collects failures; each names the check, the type in text form and what differed.
class Checker {
public:
  Checker(uint64_t seed, CheckOptions opt) : rng_(seed), opt_(opt) {}

  /// Every per-type check (layout, MPI_Pack vs the reference packer on raw and canonical IR and
  /// the strided form, unpack round trips, decode, text round trip). True when all pass.
  bool checkType(const TypeExpr &e);
  /// Members must pack exactly like each other under MPICH, each must pass checkType, and all
  /// must canonicalize to one printed form.
  bool checkPool(const std::string &what, const std::vector<TypeExprPtr> &members);
  /// Same bytes in a different order: each passes checkType, and they must NOT canonicalize to
  /// the same form.
  bool checkDifferentOrder(const TypeExprPtr &a, const TypeExprPtr &b);
  /// The translated layout of every predefined type against the MPI, and its alignment through
  /// MPICH's struct padding.
  bool checkNamedTable();

  const std::vector<std::string> &failures() const { return failures_; }

private:
  bool fail(const std::string &check, const TypeExpr &e, const std::string &detail);
  std::mt19937_64 rng_;
  CheckOptions opt_;
  std::vector<std::string> failures_;
};

} // namespace tempi::oracle

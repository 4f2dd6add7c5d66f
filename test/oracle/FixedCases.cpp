/// \file
/// The focused oracle cases: the named traps (three cuboid descriptions, the radius-1
/// halo plane, row- vs column-built hvectors, resized with count > 1, negative strides and lower
/// bounds, pair types, zero counts) and MPICH's struct padding rules. Types are written in the
/// text form, so a failure prints exactly what to paste into tempi-opt.
#include "FixedCases.h"

#include "passes/TextForm.h"

#include <cstdio>
#include <functional>
#include <map>

namespace tempi::oracle {
namespace {

TypeExprPtr P(const char *text) {
  auto r = parseExpr(text);
  if (!r) {
    std::fprintf(stderr, "bad fixed case '%s': %s\n", text, r.error().c_str());
    return nullptr;
  }
  return *r;
}

using Items = std::vector<std::function<bool(Checker &)>>;

std::function<bool(Checker &)> one(const char *text) {
  return [text](Checker &c) {
    TypeExprPtr t = P(text);
    return t && c.checkType(*t);
  };
}
std::function<bool(Checker &)> pool(const char *what, std::vector<const char *> texts) {
  return [what, texts](Checker &c) {
    std::vector<TypeExprPtr> m;
    for (const char *t : texts) {
      m.push_back(P(t));
      if (!m.back()) return false;
    }
    return c.checkPool(what, m);
  };
}

const std::map<std::string, Items> &cases() {
  static const std::map<std::string, Items> all = {
      {"cuboid",
       {// The three descriptions of one 2x4x4 cuboid of doubles at (3,2,2) in 8x8x8.
        pool("cuboid 2x4x4 at (3,2,2) in 8x8x8 doubles",
             {"subarray(3, [8, 8, 8], [2, 4, 4], [3, 2, 2], C, MPI_DOUBLE)",
              "resized(0, 4096, hindexed_block(1, 1, [1536], vector(2, 1, 1, subarray(2, [8, 8], [4, 4], [2, 2], C, MPI_DOUBLE))))",
              "resized(0, 4096, hindexed_block(1, 1, [1680], hvector(2, 1, 512, hvector(4, 1, 64, vector(4, 1, 1, MPI_DOUBLE)))))",
              "subarray(3, [8, 8, 8], [4, 4, 2], [2, 2, 3], Fortran, MPI_DOUBLE)"}),
        pool("cuboid 3x2x5 at origin in 4x3x6 floats",
             {"subarray(3, [4, 3, 6], [3, 2, 5], [0, 0, 0], C, MPI_FLOAT)",
              "resized(0, 288, vector(3, 1, 1, subarray(2, [3, 6], [2, 5], [0, 0], C, MPI_FLOAT)))",
              "resized(0, 288, hvector(3, 1, 72, hvector(2, 1, 24, vector(5, 1, 1, MPI_FLOAT))))"})}},
      {"halo",
       {// Radius-1 halo planes: a subsize-1 dimension at a non-zero start keeps its offset.
        one("subarray(3, [10, 10, 10], [1, 8, 8], [9, 1, 1], C, MPI_FLOAT)"),
        one("subarray(3, [10, 10, 10], [8, 1, 8], [1, 9, 1], C, MPI_FLOAT)"),
        one("subarray(3, [10, 10, 10], [8, 8, 1], [1, 1, 9], C, MPI_FLOAT)"),
        one("subarray(3, [10, 10, 10], [1, 8, 8], [1, 1, 1], Fortran, MPI_DOUBLE)"),
        one("subarray(3, [6, 6, 6], [1, 1, 4], [5, 4, 1], C, MPI_INT)"),
        pool("halo plane x=9",
             {"subarray(3, [10, 10, 10], [1, 8, 8], [9, 1, 1], C, MPI_FLOAT)",
              "resized(0, 4000, hindexed_block(1, 1, [3644], hvector(1, 1, 400, hvector(8, 1, 40, contiguous(8, MPI_FLOAT)))))"})}},
      {"rowcol",
       {[](Checker &c) {
          return c.checkDifferentOrder(P("resized(0, 96, vector(3, 4, 8, MPI_FLOAT))"),
                                       P("resized(0, 96, hvector(4, 1, 4, vector(3, 1, 8, MPI_FLOAT)))"));
        },
        [](Checker &c) {
          return c.checkDifferentOrder(P("vector(4, 4, 4, MPI_DOUBLE)"),
                                       P("resized(0, 128, hvector(4, 1, 8, vector(4, 1, 4, MPI_DOUBLE)))"));
        }}},
      {"resized",
       {one("resized(0, 12, MPI_INT)"), one("resized(-8, 24, dup(MPI_INT))"),
        one("contiguous(3, resized(0, 12, MPI_INT))"), one("resized(4, 2, contiguous(2, MPI_SHORT))"),
        one("vector(3, 2, 3, resized(-4, 12, MPI_INT))"), one("resized(0, 0, MPI_DOUBLE)"),
        one("contiguous(3, resized(0, 0, MPI_INT))"),
        one("subarray(2, [4, 5], [2, 3], [1, 1], Fortran, resized(-4, 12, MPI_INT))"),
        one("darray(2, 1, 1, [9], [CYCLIC], [2], [2], C, resized(-4, 12, MPI_INT))")}},
      {"negative",
       {one("vector(3, 2, -4, MPI_INT)"), one("hvector(3, 1, -24, contiguous(2, MPI_DOUBLE))"),
        one("indexed(3, [1, 2, 1], [5, -3, 0], MPI_SHORT)"),
        one("hindexed(2, [2, 1], [-40, 8], MPI_DOUBLE)"),
        one("struct(2, [1, 2], [-16, 4], [MPI_DOUBLE, MPI_INT])"),
        one("resized(-100, 50, vector(2, 1, -3, MPI_FLOAT))"),
        one("hvector(2, 2, -7, MPI_CHAR)"), one("indexed_block(3, 2, [4, -4, 0], MPI_FLOAT)")}},
      {"pairs",
       {one("MPI_DOUBLE_INT"), one("MPI_SHORT_INT"), one("MPI_LONG_DOUBLE_INT"),
        one("MPI_FLOAT_INT"), one("MPI_LONG_INT"), one("MPI_2INT"),
        one("contiguous(3, MPI_DOUBLE_INT)"), one("vector(2, 2, 3, MPI_SHORT_INT)"),
        one("struct(2, [1, 1], [0, 32], [MPI_LONG_DOUBLE_INT, MPI_CHAR])"),
        one("resized(0, 12, MPI_DOUBLE_INT)"),
        one("subarray(1, [5], [2], [3], C, MPI_DOUBLE_INT)")}},
      {"zero",
       {one("contiguous(0, MPI_INT)"), one("vector(0, 2, 3, MPI_INT)"),
        one("hvector(2, 0, 8, MPI_INT)"), one("indexed(2, [0, 0], [1, 2], MPI_INT)"),
        one("indexed(2, [0, 1], [-5, 10], MPI_INT)"), one("struct(0, [], [], [])"),
        one("struct(2, [0, 1], [-50, 100], [MPI_INT, MPI_CHAR])"),
        one("indexed_block(2, 0, [1, 3], MPI_INT)"), one("hindexed_block(0, 2, [], MPI_INT)"),
        one("contiguous(3, contiguous(0, MPI_INT))"),
        one("darray(4, 3, 1, [2], [BLOCK], [DFLT], [4], C, MPI_INT)"),
        one("vector(3, 1, 2, contiguous(0, MPI_DOUBLE))")}},
      {"padding",
       {one("struct(2, [1, 1], [0, 8], [MPI_DOUBLE, MPI_CHAR])"),
        one("struct(1, [1], [0], [resized(0, 9, MPI_DOUBLE)])"),
        one("struct(2, [1, 0], [0, 9], [resized(0, 9, MPI_DOUBLE), MPI_CHAR])"),
        one("struct(2, [1, 1], [0, 9], [resized(0, 9, MPI_DOUBLE), resized(0, 9, MPI_DOUBLE)])"),
        one("struct(2, [1, 0], [0, 0], [contiguous(3, MPI_CHAR), MPI_INT])"),
        one("struct(2, [1, 1], [0, 32], [contiguous(1, MPI_C_LONG_DOUBLE_COMPLEX), MPI_CHAR])"),
        one("struct(2, [1, 1], [0, 16], [MPI_DOUBLE_INT, MPI_CHAR])"),
        one("struct(2, [1, 1], [0, 8], [MPI_SHORT_INT, MPI_CHAR])"),
        one("struct(2, [1, 1], [0, 4], [resized(-4, 12, MPI_INT), MPI_CHAR])"),
        one("struct(2, [1, 1], [0, 64], [darray(2, 1, 1, [8], [BLOCK], [DFLT], [2], C, MPI_DOUBLE), MPI_CHAR])"),
        one("struct(2, [1, 1], [0, 4], [subarray(1, [4], [2], [1], C, MPI_CHAR), MPI_DOUBLE])"),
        one("struct(3, [2, 1, 3], [1, 24, 40], [MPI_SHORT, MPI_DOUBLE, MPI_CHAR])")}},
      {"named", {[](Checker &c) { return c.checkNamedTable(); }}},
  };
  return all;
}

} // namespace

std::vector<std::string> caseNames() {
  std::vector<std::string> n;
  for (const auto &[k, v] : cases()) n.push_back(k);
  return n;
}

bool runCase(const std::string &name, Checker &c, int &passed, int &failed) {
  auto it = cases().find(name);
  if (it == cases().end()) return false;
  for (const auto &item : it->second) (item(c) ? passed : failed)++;
  return true;
}

} // namespace tempi::oracle

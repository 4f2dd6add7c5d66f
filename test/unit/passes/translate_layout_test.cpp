// Unit tests of translate(): layouts against values MPICH 4.0.2 reported for the same types
// (measured with MPI_Type_get_extent / get_true_extent / size; the oracle re-checks them against
// the live MPI), and one test per refusal.
#include "passes/TextForm.h"
#include "passes/TypeIR.h"

#include <gtest/gtest.h>

#include <limits>

using namespace tempi;

namespace {

Layout layoutOf(const std::string &text) {
  auto e = parseExpr(text);
  EXPECT_TRUE(e) << e.error();
  auto ir = translate(**e);
  EXPECT_TRUE(ir) << text << ": " << ir.error();
  return ir ? (*ir)->layout : Layout{-1, -1, -1, -1, -1};
}

std::string translateError(const TypeExprPtr &e) {
  auto ir = translate(*e);
  EXPECT_FALSE(ir) << printExpr(*e);
  return ir ? "" : ir.error();
}

// Layout{lb, extent, true_lb, true_extent, size}
} // namespace

TEST(TranslateLayout, PairTypes) {
  EXPECT_EQ(layoutOf("MPI_DOUBLE_INT"), (Layout{0, 16, 0, 12, 12}));
  EXPECT_EQ(layoutOf("MPI_SHORT_INT"), (Layout{0, 8, 0, 8, 6}));
  EXPECT_EQ(layoutOf("MPI_LONG_DOUBLE_INT"), (Layout{0, 32, 0, 20, 20}));
  EXPECT_EQ(layoutOf("contiguous(3, MPI_DOUBLE_INT)"), (Layout{0, 48, 0, 44, 36}));
}

TEST(TranslateLayout, NegativeStridesAndLowerBounds) {
  EXPECT_EQ(layoutOf("vector(3, 2, -4, MPI_INT)"), (Layout{-32, 40, -32, 40, 24}));
  EXPECT_EQ(layoutOf("resized(-4, 12, MPI_INT)"), (Layout{-4, 12, 0, 4, 4}));
  EXPECT_EQ(layoutOf("vector(2, 1, 3, resized(-4, 12, MPI_INT))"), (Layout{-4, 48, 0, 40, 8}));
}

TEST(TranslateLayout, ZeroCountsFollowMpich) {
  EXPECT_EQ(layoutOf("contiguous(0, MPI_INT)"), (Layout{}));
  // A vector with blocklength 0 keeps bounds although it has no data.
  EXPECT_EQ(layoutOf("hvector(2, 0, 8, MPI_INT)"), (Layout{0, 8, 0, 8, 0}));
  // ... but anything built from a size-0 type is MPICH's zero-length type.
  EXPECT_EQ(layoutOf("contiguous(2, hvector(2, 0, 8, MPI_INT))"), (Layout{}));
  EXPECT_EQ(layoutOf("indexed_block(2, 0, [1, 3], MPI_INT)"), (Layout{4, 8, 4, 8, 0}));
  EXPECT_EQ(layoutOf("indexed(2, [0, 1], [-5, 10], MPI_INT)"), (Layout{40, 4, 40, 4, 4}));
  EXPECT_EQ(layoutOf("struct(2, [0, 1], [-50, 100], [MPI_INT, MPI_CHAR])"), (Layout{100, 1, 100, 1, 1}));
}

TEST(TranslateLayout, StructPadding) {
  EXPECT_EQ(layoutOf("struct(2, [1, 1], [0, 8], [MPI_DOUBLE, MPI_CHAR])"), (Layout{0, 16, 0, 9, 9}));
  // Fields of one type class are not padded.
  EXPECT_EQ(layoutOf("struct(2, [1, 1], [0, 5], [MPI_INT, MPI_UNSIGNED])"), (Layout{0, 9, 0, 9, 8}));
  EXPECT_EQ(layoutOf("struct(1, [1], [0], [resized(0, 9, MPI_DOUBLE)])"), (Layout{0, 9, 0, 8, 8}));
  EXPECT_EQ(layoutOf("struct(2, [1, 1], [0, 16], [MPI_REAL16, MPI_CHAR])"), (Layout{0, 17, 0, 17, 17}));
}

TEST(TranslateLayout, SubarrayAndDarray) {
  EXPECT_EQ(layoutOf("subarray(1, [4], [2], [1], C, resized(-4, 12, MPI_INT))"), (Layout{0, 48, 12, 16, 8}));
  EXPECT_EQ(layoutOf("subarray(2, [4, 5], [2, 3], [1, 1], Fortran, resized(-4, 12, MPI_INT))"),
            (Layout{0, 240, 60, 112, 24}));
  EXPECT_EQ(layoutOf("darray(2, 1, 1, [9], [CYCLIC], [2], [2], C, MPI_DOUBLE)"), (Layout{0, 72, 16, 48, 32}));
  EXPECT_EQ(layoutOf("darray(2, 0, 1, [9], [CYCLIC], [2], [2], C, MPI_DOUBLE)"), (Layout{0, 72, 0, 72, 40}));
  EXPECT_EQ(layoutOf("darray(2, 1, 1, [9], [BLOCK], [DFLT], [2], C, resized(-4, 12, MPI_INT))"),
            (Layout{0, 108, 60, 40, 16}));
  EXPECT_EQ(layoutOf("darray(4, 0, 2, [6, 4], [CYCLIC, BLOCK], [2, DFLT], [2, 2], C, MPI_INT)"),
            (Layout{0, 96, 0, 88, 32}));
}

TEST(TranslateLayout, HaloPlaneKeepsItsOffset) {
  auto e = parseExpr("subarray(3, [10, 10, 10], [1, 8, 8], [9, 1, 1], C, MPI_FLOAT)");
  ASSERT_TRUE(e);
  auto ir = translate(**e);
  ASSERT_TRUE(ir);
  int64_t first = -1;
  forEachBlock(**ir, 1, [&](int64_t off, int64_t) { if (first < 0) first = off; });
  EXPECT_EQ(first, (9 * 100 + 1 * 10 + 1) * 4);
  EXPECT_EQ((*ir)->layout, (Layout{0, 4000, 3644, 312, 256}));
}

TEST(TranslateErrors, NegativeCount) {
  EXPECT_EQ(translateError(expr::contiguous(-2, expr::named("MPI_INT"))), "contiguous: negative count -2");
  EXPECT_EQ(translateError(expr::vector(2, -1, 3, expr::named("MPI_INT"))), "vector: negative blocklength -1");
  EXPECT_EQ(translateError(expr::indexed({1, -4}, {0, 2}, expr::named("MPI_INT"))),
            "indexed: negative blocklength -4 in block 1");
}

TEST(TranslateErrors, ArrayLengthMismatch) {
  auto e = std::make_shared<TypeExpr>(*expr::indexed({1, 2}, {0, 5}, expr::named("MPI_INT")));
  e->integers.pop_back();
  EXPECT_EQ(translateError(e), "indexed: array length mismatch: expected 5 integer arguments, got 4");
  auto s = std::make_shared<TypeExpr>(*expr::structType({1, 1}, {0, 8}, {expr::named("MPI_INT"), expr::named("MPI_INT")}));
  s->types.pop_back();
  EXPECT_EQ(translateError(s), "struct: array length mismatch: count 2 but 1 types");
}

TEST(TranslateErrors, SubarrayOutOfRange) {
  auto T = expr::named("MPI_INT");
  EXPECT_EQ(translateError(expr::subarray({8}, {4}, {5}, Order::C, T)),
            "subarray: start 5 out of range [0, 4] in dimension 0");
  EXPECT_EQ(translateError(expr::subarray({8, 2}, {4, 3}, {0, 0}, Order::C, T)),
            "subarray: subsize 3 exceeds size 2 in dimension 1");
  EXPECT_EQ(translateError(expr::subarray({8}, {0}, {0}, Order::C, T)),
            "subarray: subsize 0 must be positive in dimension 0");
}

TEST(TranslateErrors, DarrayArguments) {
  auto T = expr::named("MPI_INT");
  EXPECT_EQ(translateError(expr::darray(4, 0, {8}, {Distrib::Block}, {kDargDefault}, {2}, Order::C, T)),
            "darray: product of psizes 2 differs from size 4");
  EXPECT_EQ(translateError(expr::darray(2, 2, {8}, {Distrib::Block}, {kDargDefault}, {2}, Order::C, T)),
            "darray: rank 2 out of range [0, 1]");
  EXPECT_EQ(translateError(expr::darray(2, 0, {8}, {Distrib::Block}, {3}, {2}, Order::C, T)),
            "darray: BLOCK darg 3 times psize 2 does not cover gsize 8 in dimension 0");
  EXPECT_EQ(translateError(expr::darray(2, 0, {8}, {Distrib::None}, {kDargDefault}, {2}, Order::C, T)),
            "darray: NONE distribution needs psize 1, got 2 in dimension 0");
}

TEST(TranslateErrors, UnknownName) {
  EXPECT_EQ(translateError(expr::dup(expr::named("MPI_FANCY"))), "unknown named type 'MPI_FANCY'");
}

TEST(TranslateErrors, Overflow) {
  const int64_t big = std::numeric_limits<int64_t>::max() / 2;
  EXPECT_EQ(translateError(expr::contiguous(big, expr::contiguous(4, expr::named("MPI_DOUBLE")))),
            "contiguous: 64-bit overflow computing offsets, bounds or size");
  EXPECT_EQ(translateError(expr::hvector(3, 1, big, expr::named("MPI_INT"))),
            "hvector: 64-bit overflow computing offsets, bounds or size");
  EXPECT_EQ(translateError(expr::resized(std::numeric_limits<int64_t>::max(), 1, expr::named("MPI_INT"))),
            "resized: 64-bit overflow computing offsets, bounds or size");
  EXPECT_EQ(translateError(expr::subarray({1 << 30, 1 << 30, 1 << 30}, {1, 1, 1}, {0, 0, 0}, Order::C,
                                          expr::contiguous(1 << 20, expr::named("MPI_DOUBLE")))),
            "subarray: 64-bit overflow computing offsets, bounds or size");
}

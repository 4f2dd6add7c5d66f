// Unit tests of the TypeExpr text form: exact round trips for every constructor, and one test per
// parse error naming its position ("line:column: reason").
#include "passes/TextForm.h"
#include "passes/TypeExpr.h"

#include <gtest/gtest.h>

using namespace tempi;

namespace {

std::string roundTrip(const std::string &text) {
  auto e = parseExpr(text);
  EXPECT_TRUE(e) << text << ": " << e.error();
  if (!e) return "";
  auto again = parseExpr(printExpr(**e));
  EXPECT_TRUE(again);
  EXPECT_TRUE(**again == **e);
  return printExpr(**e);
}

std::string parseError(const std::string &text) {
  auto e = parseExpr(text);
  EXPECT_FALSE(e) << text << " parsed";
  return e ? "" : e.error();
}

} // namespace

TEST(ExprText, EveryConstructorRoundTrips) {
  const char *cases[] = {
      "MPI_DOUBLE",
      "dup(MPI_INT)",
      "contiguous(3, MPI_FLOAT)",
      "vector(4, 1, 8, MPI_DOUBLE)",
      "vector(3, 2, -4, MPI_INT)",
      "hvector(4, 1, 512, contiguous(2, MPI_FLOAT))",
      "indexed(2, [1, 2], [0, 5], MPI_INT)",
      "hindexed(2, [1, 2], [-40, 8], MPI_DOUBLE)",
      "indexed_block(3, 2, [4, -4, 0], MPI_FLOAT)",
      "hindexed_block(2, 1, [0, 24], MPI_SHORT_INT)",
      "struct(2, [1, 1], [0, 8], [MPI_DOUBLE, MPI_INT])",
      "struct(0, [], [], [])",
      "subarray(3, [8, 8, 8], [4, 4, 1], [2, 2, 3], C, MPI_DOUBLE)",
      "subarray(2, [4, 5], [2, 3], [1, 1], Fortran, MPI_LONG_DOUBLE_INT)",
      "darray(4, 1, 2, [8, 8], [BLOCK, CYCLIC], [DFLT, 2], [2, 2], C, MPI_INT)",
      "darray(1, 0, 1, [5], [NONE], [DFLT], [1], Fortran, MPI_CHAR)",
      "resized(-8, 24, dup(MPI_INT))",
      "resized(-9223372036854775808, 9223372036854775807, MPI_BYTE)",
  };
  for (const char *c : cases) EXPECT_EQ(roundTrip(c), c);
}

TEST(ExprText, WhitespaceAndNewlinesAreFree) {
  EXPECT_EQ(roundTrip("  vector( 4,1 ,\n 8,\tMPI_DOUBLE )  "), "vector(4, 1, 8, MPI_DOUBLE)");
}

TEST(ExprText, BuildersMatchTheParser) {
  auto p = parseExpr("struct(2, [1, 3], [0, 16], [MPI_DOUBLE, subarray(1, [5], [2], [3], C, MPI_INT)])");
  ASSERT_TRUE(p);
  auto b = expr::structType({1, 3}, {0, 16},
                            {expr::named("MPI_DOUBLE"),
                             expr::subarray({5}, {2}, {3}, Order::C, expr::named("MPI_INT"))});
  EXPECT_TRUE(**p == *b);
  EXPECT_FALSE(**p == *expr::structType({1, 3}, {0, 17}, b->types));
}

TEST(ExprText, CombinerNames) {
  EXPECT_STREQ(combinerName(Combiner::IndexedBlock), "indexed_block");
  EXPECT_STREQ(combinerName(Combiner::Named), "named");
  EXPECT_STREQ(combinerName(Combiner::Darray), "darray");
}

TEST(ExprTextErrors, MalformedText) {
  EXPECT_EQ(parseError(""), "1:1: expected a datatype, found end of input");
  EXPECT_EQ(parseError("vector(4, 1, 8, MPI_DOUBLE"), "1:27: expected ')', found end of input");
  EXPECT_EQ(parseError("vector(4 1, 8, MPI_DOUBLE)"), "1:10: expected ',', found '1'");
  EXPECT_EQ(parseError("vector(4, x, 8, MPI_DOUBLE)"), "1:11: expected an integer, found 'x'");
  EXPECT_EQ(parseError("MPI_DOUBLE)"), "1:11: unexpected ')' after the type");
  EXPECT_EQ(parseError("bogus(1, MPI_INT)"), "1:1: unknown constructor 'bogus'");
  EXPECT_EQ(parseError("contiguous(2,\n  MPI_NOPE)"), "2:3: unknown named type 'MPI_NOPE'");
  EXPECT_EQ(parseError("contiguous(2, double)"), "1:15: unknown datatype 'double'");
  EXPECT_EQ(parseError("subarray(1, [4], [2], [0], Z, MPI_INT)"), "1:28: expected order C or Fortran, found 'Z'");
  EXPECT_EQ(parseError("darray(2, 0, 1, [4], [BLOKC], [DFLT], [2], C, MPI_INT)"),
            "1:23: expected BLOCK, CYCLIC or NONE, found 'BLOKC'");
  EXPECT_EQ(parseError("darray(2, 0, 1, [4], [BLOCK], [DEFAULT], [2], C, MPI_INT)"),
            "1:32: expected a darg or DFLT, found 'DEFAULT'");
}

TEST(ExprTextErrors, NegativeCounts) {
  EXPECT_EQ(parseError("contiguous(-1, MPI_INT)"), "1:12: negative count -1");
  EXPECT_EQ(parseError("vector(2, -3, 4, MPI_INT)"), "1:11: negative blocklength -3");
  EXPECT_EQ(parseError("indexed(2, [1, -2], [0, 4], MPI_INT)"), "1:16: negative blocklength -2");
  EXPECT_EQ(parseError("subarray(-1, [], [], [], C, MPI_INT)"), "1:10: negative ndims -1");
}

TEST(ExprTextErrors, ArrayLengthMismatch) {
  EXPECT_EQ(parseError("indexed(3, [1, 2], [0, 5], MPI_INT)"), "1:12: count 3 but 2 blocklengths");
  EXPECT_EQ(parseError("struct(2, [1, 1], [0, 8], [MPI_INT])"), "1:27: count 2 but 1 types");
  EXPECT_EQ(parseError("subarray(2, [4, 4], [2], [0, 0], C, MPI_INT)"), "1:21: count 2 but 1 subsizes");
}

TEST(ExprTextErrors, IntegerOverflow) {
  EXPECT_EQ(parseError("hvector(2, 1, 9223372036854775808, MPI_INT)"),
            "1:15: integer 9223372036854775808 does not fit in 64 bits");
  EXPECT_EQ(parseError("resized(-99999999999999999999, 4, MPI_INT)"),
            "1:9: integer -99999999999999999999 does not fit in 64 bits");
}

TEST(ExprTextErrors, DeepNestingIsRefusedNotACrash) {
  std::string t;
  for (int i = 0; i < 1000; ++i) t += "dup(";
  t += "MPI_INT";
  for (int i = 0; i < 1000; ++i) t += ")";
  std::string err = parseError(t);
  EXPECT_NE(err.find("nesting deeper than 64"), std::string::npos) << err;
}

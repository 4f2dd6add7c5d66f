// Unit tests of named-type alignment calibration (setNamedTypeAlignment in passes/TypeExpr.h):
// the built-in table holds MPICH 4.0.2's alignments; a measured alignment replaces one for
// translate(), struct padding included, and can be undone. The values set here are MPICH 5.0.2's
// (a struct {MPI_REAL16 at 0; MPI_CHAR at 16} has extent 32 there, 17 under MPICH 4.0.2).
#include "passes/TextForm.h"
#include "passes/TypeIR.h"

#include <gtest/gtest.h>

#include <string>

using namespace tempi;

namespace {

int64_t extentOf(const std::string &text) {
  auto e = parseExpr(text);
  EXPECT_TRUE(e) << e.error();
  auto ir = translate(**e);
  EXPECT_TRUE(ir) << text << ": " << ir.error();
  return ir ? (*ir)->layout.extent : -1;
}

/// Every test starts and ends with the built-in table (the table is process-wide).
class NamedAlignment : public ::testing::Test {
protected:
  void SetUp() override { resetNamedTypeAlignments(); }
  void TearDown() override { resetNamedTypeAlignments(); }
};

const char *kReal16Probe = "struct(2, [1, 1], [0, 16], [MPI_REAL16, MPI_CHAR])";

} // namespace

TEST_F(NamedAlignment, BuiltInTableIsMpich4) {
  EXPECT_EQ(builtinNamedTypeAlignment("MPI_REAL16"), 1);
  EXPECT_EQ(builtinNamedTypeAlignment("MPI_COMPLEX32"), 1);
  EXPECT_EQ(builtinNamedTypeAlignment("MPI_LONG_DOUBLE"), 16);
  EXPECT_EQ(builtinNamedTypeAlignment("MPI_NOT_A_TYPE"), 0);
  EXPECT_EQ(extentOf(kReal16Probe), 17);
  EXPECT_TRUE(namedAlignmentDifferences().empty());
}

TEST_F(NamedAlignment, ASetAlignmentPadsStructs) {
  ASSERT_TRUE(setNamedTypeAlignment("MPI_REAL16", 16));
  EXPECT_EQ(lookupNamedType("MPI_REAL16")->alignment, 16);
  EXPECT_EQ(extentOf(kReal16Probe), 32);
  // Through derived types too: the alignment travels with the element.
  EXPECT_EQ(extentOf("struct(2, [1, 1], [0, 32], [contiguous(2, MPI_REAL16), MPI_CHAR])"), 48);
  // A struct of one type is not padded, whatever its alignment (MPICH's "same type" rule).
  EXPECT_EQ(extentOf("struct(2, [1, 1], [0, 20], [MPI_REAL16, MPI_REAL16])"), 36);
  // The built-in value stays readable, and the difference is listed.
  EXPECT_EQ(builtinNamedTypeAlignment("MPI_REAL16"), 1);
  auto d = namedAlignmentDifferences();
  ASSERT_EQ(d.size(), 1u);
  EXPECT_STREQ(d[0].name, "MPI_REAL16");
  EXPECT_EQ(d[0].builtin, 1);
  EXPECT_EQ(d[0].now, 16);
}

TEST_F(NamedAlignment, SettingTheBuiltInValueIsNoDifference) {
  ASSERT_TRUE(setNamedTypeAlignment("MPI_DOUBLE", 8));
  EXPECT_TRUE(namedAlignmentDifferences().empty());
}

TEST_F(NamedAlignment, ResetRestoresTheBuiltInTable) {
  ASSERT_TRUE(setNamedTypeAlignment("MPI_REAL16", 16));
  ASSERT_TRUE(setNamedTypeAlignment("MPI_COMPLEX32", 16));
  resetNamedTypeAlignments();
  EXPECT_EQ(extentOf(kReal16Probe), 17);
  EXPECT_TRUE(namedAlignmentDifferences().empty());
}

TEST_F(NamedAlignment, RefusesUnknownNamesAndOddAlignments) {
  EXPECT_FALSE(setNamedTypeAlignment("MPI_NOT_A_TYPE", 8));
  EXPECT_FALSE(setNamedTypeAlignment("MPI_REAL16", 0));
  EXPECT_FALSE(setNamedTypeAlignment("MPI_REAL16", -16));
  EXPECT_FALSE(setNamedTypeAlignment("MPI_REAL16", 12));
  EXPECT_EQ(lookupNamedType("MPI_REAL16")->alignment, 1);
  EXPECT_TRUE(namedAlignmentDifferences().empty());
}

TEST_F(NamedAlignment, AliasesAreSeparateRows) {
  // MPI_LONG_LONG_INT and MPI_LONG_LONG are one handle in the MPI but two rows here; the probe
  // measures each name, so each row is set on its own.
  ASSERT_TRUE(setNamedTypeAlignment("MPI_LONG_LONG", 4));
  EXPECT_EQ(lookupNamedType("MPI_LONG_LONG")->alignment, 4);
  EXPECT_EQ(lookupNamedType("MPI_LONG_LONG_INT")->alignment, 8);
}

/// \file
/// canonicalize() on the cases the project must get right (as IR, so this runs without the
/// TypeExpr front end), and the pass registry's own contract.
#include "passes/PassRegistry.h"
#include "passes/TextForm.h"

#include <gtest/gtest.h>

#include <set>

using namespace tempi;

namespace {

std::string canon(const std::string &text, bool withLayout = false) {
  Result<IRPtr> r = parseIR(text);
  EXPECT_TRUE(bool(r)) << r.error();
  return r ? printIR(*canonicalize(*r), withLayout) : "";
}

TEST(Canonicalize, HaloPlaneKeepsItsOffset) {
  EXPECT_EQ(canon("stream(off=768, count=1, stride=256, stream(off=0, count=8, stride=32, "
                  "dense(off=0, bytes=32)))"),
            "dense(off=768, bytes=256)");
  EXPECT_EQ(canon("stream(off=0, count=8, stride=256, stream(off=224, count=1, stride=32, "
                  "stream(off=0, count=8, stride=4, dense(off=0, bytes=4))))"),
            "stream(off=224, count=8, stride=256, dense(off=0, bytes=32))");
}

TEST(Canonicalize, ColumnAndRowBuiltStayDifferent) {
  std::string row = canon("stream(off=0, count=2, stride=16, stream(off=0, count=2, stride=4, "
                          "dense(off=0, bytes=4)))");
  std::string col = canon("stream(off=0, count=2, stride=4, stream(off=0, count=2, stride=16, "
                          "dense(off=0, bytes=4)))");
  EXPECT_EQ(row, "stream(off=0, count=2, stride=16, dense(off=0, bytes=8))");
  EXPECT_EQ(col, "stream(off=0, count=2, stride=4, stream(off=0, count=2, stride=16, "
                 "dense(off=0, bytes=4)))");
}

TEST(Canonicalize, ThreeCuboidDescriptionsAsTranslated) {
  const char *expected = "stream(off=4368, count=4, stride=2048, stream(off=0, count=4, "
                         "stride=128, dense(off=0, bytes=32)))";
  // One 3-D subarray (a stream per dimension, offsets at each level).
  EXPECT_EQ(canon("stream(off=4096, count=4, stride=2048, stream(off=256, count=4, stride=128, "
                  "stream(off=16, count=4, stride=8, dense(off=0, bytes=8))))"),
            expected);
  // Planes as a seq of copies (hindexed of a 2-D subarray).
  EXPECT_EQ(canon("seq(off=4096, [stream(off=272, count=4, stride=128, dense(off=0, bytes=32)), "
                  "stream(off=2320, count=4, stride=128, dense(off=0, bytes=32)), "
                  "stream(off=4368, count=4, stride=128, dense(off=0, bytes=32)), "
                  "stream(off=6416, count=4, stride=128, dense(off=0, bytes=32))])"),
            expected);
  // hvector of hvector of contiguous, with count-1 wrappers as resized/dup chains leave them.
  EXPECT_EQ(canon("stream(off=4368, count=4, stride=2048, stream(off=0, count=1, stride=416, "
                  "stream(off=0, count=4, stride=128, stream(off=0, count=1, stride=32, "
                  "stream(off=0, count=4, stride=8, dense(off=0, bytes=8))))))"),
            expected);
}

TEST(Canonicalize, IrregularDescriptionsOfOneBlockListMeet) {
  // struct { vector of 3 ints 16 bytes apart; an int right after the last one } and hindexed
  // blocks of 4, 4 and 8 bytes at 0, 16, 32: the same merged ranges, in the same order.
  std::string viaStruct = canon("seq(off=0, [stream(off=0, count=3, stride=16, dense(off=0, "
                                "bytes=4)), dense(off=36, bytes=4)])");
  std::string viaHindexed = canon("seq(off=0, [dense(off=0, bytes=4), dense(off=16, bytes=4), "
                                  "dense(off=32, bytes=8)])");
  EXPECT_EQ(viaStruct, viaHindexed);
  EXPECT_EQ(viaStruct, "seq(off=0, [stream(off=0, count=2, stride=16, dense(off=0, bytes=4)), "
                       "dense(off=32, bytes=8)])");
}

TEST(Canonicalize, NeverFoldsNegativeStrides) {
  EXPECT_EQ(canon("stream(off=8, count=2, stride=-8, dense(off=0, bytes=8))"),
            "stream(off=8, count=2, stride=-8, dense(off=0, bytes=8))");
}

TEST(Canonicalize, KeepsTheRootLayout) {
  EXPECT_EQ(canon("stream(off=0, count=3, stride=4, dense(off=0, bytes=4)) @ lb=-4 extent=20 "
                  "true_lb=0 true_extent=12 size=12",
                  true),
            "dense(off=0, bytes=12) @ lb=-4 extent=20 true_lb=0 true_extent=12 size=12");
}

TEST(PassRegistry, NamesAreUniqueKebabCaseAndFindable) {
  std::set<std::string> seen;
  for (const PassInfo &p : allPasses()) {
    std::string name = p.name;
    EXPECT_TRUE(seen.insert(name).second) << name;
    EXPECT_FALSE(name.empty());
    for (char c : name)
      EXPECT_TRUE((c >= 'a' && c <= 'z') || c == '-') << name;
    EXPECT_EQ(findPass(name), &p);
    EXPECT_NE(std::string(p.summary), "");
  }
  EXPECT_EQ(findPass("no-such-pass"), nullptr);
  for (const char *required : {"fold-dense", "flatten-streams", "elide-unit-stream",
                               "hoist-offsets", "drop-empty", "merge-seq", "regularize-seq"})
    EXPECT_NE(findPass(required), nullptr) << required;
}

TEST(PassRegistry, EveryPassIsIdempotentOnItsOwnOutputAfterCanonicalize) {
  Result<IRPtr> r = parseIR("seq(off=4, [dense(off=0, bytes=4), stream(off=16, count=3, "
                            "stride=16, dense(off=0, bytes=4)), stream(off=1, count=0, stride=1, "
                            "dense(off=0, bytes=1))])");
  ASSERT_TRUE(bool(r));
  IRPtr c = canonicalize(*r);
  EXPECT_EQ(printIR(*c, false), "stream(off=4, count=4, stride=16, dense(off=0, bytes=4))");
  for (const PassInfo &p : allPasses())
    EXPECT_TRUE(equalIR(*p.run(c), *c)) << p.name;
}

} // namespace

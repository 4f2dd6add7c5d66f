/// \file
/// TypeIR text form: exact round trips (inner layouts included), and every parse error naming
/// its line, column and reason.
#include "passes/TextForm.h"

#include <gtest/gtest.h>

using namespace tempi;

namespace {

IRPtr parseOk(const std::string &text) {
  Result<IRPtr> r = parseIR(text);
  EXPECT_TRUE(bool(r)) << text << ": " << r.error();
  return r ? *r : ir::dense(0, 0, {});
}

std::string parseError(const std::string &text) {
  Result<IRPtr> r = parseIR(text);
  EXPECT_FALSE(bool(r)) << text;
  return r ? std::string() : r.error();
}

TEST(IRText, PrintsTheDocumentedForm) {
  IRPtr n = ir::stream(0, 4, 512, ir::dense(0, 8, {0, 8, 0, 8, 8}), {0, 1544, 0, 1544, 32});
  EXPECT_EQ(printIR(*n, false), "stream(off=0, count=4, stride=512, dense(off=0, bytes=8))");
  EXPECT_EQ(printIR(*n), "stream(off=0, count=4, stride=512, dense(off=0, bytes=8)) @ lb=0 "
                         "extent=1544 true_lb=0 true_extent=1544 size=32");
}

TEST(IRText, RoundTripsExactly) {
  const char *texts[] = {
      "dense(off=0, bytes=0) @ lb=0 extent=0 true_lb=0 true_extent=0 size=0",
      "dense(off=-8, bytes=12) @ lb=-16 extent=40 true_lb=-8 true_extent=12 size=12",
      "stream(off=100, count=3, stride=-16, dense(off=4, bytes=4)) @ lb=0 extent=200 true_lb=72 "
      "true_extent=36 size=12",
      "seq(off=0, [dense(off=0, bytes=8), stream(off=16, count=2, stride=0, dense(off=0, "
      "bytes=4) @ lb=-4 extent=16 true_lb=0 true_extent=4 size=4)]) @ lb=0 extent=16 true_lb=0 "
      "true_extent=20 size=16",
      "seq(off=3, []) @ lb=0 extent=0 true_lb=0 true_extent=0 size=0",
  };
  for (const char *t : texts) {
    IRPtr n = parseOk(t);
    EXPECT_EQ(printIR(*n), t);
    IRPtr again = parseOk(printIR(*n));
    EXPECT_TRUE(equalIR(*n, *again)) << t;
  }
}

TEST(IRText, MissingLayoutIsNatural) {
  IRPtr n = parseOk("stream(off=100, count=3, stride=-16, dense(off=4, bytes=4))");
  EXPECT_EQ(n->layout, (Layout{72, 36, 72, 36, 12}));
  EXPECT_EQ(n->child->layout, (Layout{4, 4, 4, 4, 4}));
}

TEST(IRText, ToleratesWhitespaceAndNewlines) {
  IRPtr n = parseOk("  stream( off = 0 ,count=2,\n stride=8, dense(off=0,bytes=4) )  ");
  EXPECT_EQ(printIR(*n, false), "stream(off=0, count=2, stride=8, dense(off=0, bytes=4))");
}

TEST(IRText, ErrorsNameLineColumnAndReason) {
  EXPECT_EQ(parseError("dense(off=0, bytes=-4)"), "1:20: bytes must not be negative");
  EXPECT_EQ(parseError("stream(off=0, count=-1, stride=8, dense(off=0, bytes=4))"),
            "1:21: count must not be negative");
  EXPECT_EQ(parseError("blob(off=0)"),
            "1:1: unknown node 'blob' (expected 'dense', 'stream' or 'seq')");
  EXPECT_EQ(parseError("dense(off=0 bytes=4)"), "1:13: expected ',' before 'b'");
  EXPECT_EQ(parseError("dense(off=0, bytes=4"), "1:21: expected ')' at end of input");
  EXPECT_EQ(parseError("dense(off=0, bytes=4) x"), "1:23: unexpected text after the type");
  EXPECT_EQ(parseError("seq(off=0, [dense(off=0, bytes=4),\n  dense(off=0, bites=4)])"),
            "2:16: expected 'bytes' before 'b'");
  EXPECT_EQ(parseError("dense(off=99999999999999999999, bytes=4)"),
            "1:11: integer does not fit in 64 bits");
  EXPECT_EQ(parseError("dense(off=0, bytes=4) @ lb=0 extent=4 true_lb=0 true_extent=4 size=5"),
            "1:23: layout size=5 but the node has 4 bytes");
  EXPECT_EQ(parseError("dense(off=9223372036854775807, bytes=1)"),
            "1:1: the bounds or the size of this node overflow 64 bits");
  EXPECT_EQ(parseError("stream(off=0, count=4611686018427387904, stride=4, dense(off=0, bytes=4))"),
            "1:1: the bounds or the size of this node overflow 64 bits");
  EXPECT_EQ(parseError(""), "1:1: expected 'dense', 'stream' or 'seq' at end of input");
}

TEST(IRText, RefusesDeepNestingWithoutCrashing) {
  std::string text;
  for (int i = 0; i < 2000; ++i)
    text += "stream(off=0, count=1, stride=0, ";
  text += "dense(off=0, bytes=1)";
  text += std::string(2000, ')');
  EXPECT_NE(parseError(text).find("nested deeper than 512"), std::string::npos);
}

} // namespace

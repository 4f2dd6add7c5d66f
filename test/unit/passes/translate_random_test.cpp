// Unit tests of the random type generators (passes/RandomTypes): determinism per seed, every
// generated type accepted by translate() within the span bound, text round trips, and pools whose
// members all have one layout. The MPI comparison itself is test/oracle's job.
#include "passes/RandomTypes.h"
#include "passes/TextForm.h"
#include "passes/TypeIR.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

using namespace tempi;

TEST(RandomTypes, SameSeedSameTypes) {
  RandomTypes a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 200; ++i) {
    std::string ta = printExpr(*a.next()), tb = printExpr(*b.next()), tc = printExpr(*c.next());
    EXPECT_EQ(ta, tb);
    differs = differs || ta != tc;
  }
  EXPECT_TRUE(differs);
}

TEST(RandomTypes, EveryTypeTranslatesWithinBounds) {
  RandomTypeOptions opt;
  opt.maxSpan = 1 << 16;
  RandomTypes g(7, opt);
  int seen[13] = {};
  for (int i = 0; i < 3000; ++i) {
    TypeExprPtr e = g.next();
    auto ir = translate(*e);
    ASSERT_TRUE(ir) << printExpr(*e) << ": " << ir.error();
    const Layout &l = (*ir)->layout;
    EXPECT_GE(l.extent, 0);
    EXPECT_LT(std::abs(l.lb), opt.maxSpan);
    EXPECT_LT(std::abs(l.trueLb), opt.maxSpan);
    auto back = parseExpr(printExpr(*e));
    ASSERT_TRUE(back) << back.error();
    EXPECT_TRUE(**back == *e);
    seen[static_cast<int>(e->combiner)]++;
  }
  // Every constructor appears at the root (a bare predefined type is not required).
  for (int c = 1; c < 13; ++c) EXPECT_GT(seen[c], 0) << "no root " << combinerName(static_cast<Combiner>(c));
}

TEST(RandomTypes, PoolMembersShareOneLayoutAndByteList) {
  RandomTypes g(3);
  for (int i = 0; i < 100; ++i) {
    TypePool p = g.nextPool();
    ASSERT_GE(p.members.size(), 3u);
    auto first = translate(*p.members[0]);
    ASSERT_TRUE(first);
    std::vector<std::pair<int64_t, int64_t>> blocks0;
    forEachBlock(**first, 2, [&](int64_t o, int64_t b) { blocks0.push_back({o, b}); });
    for (const TypeExprPtr &m : p.members) {
      auto ir = translate(*m);
      ASSERT_TRUE(ir) << printExpr(*m);
      EXPECT_EQ((*ir)->layout, (*first)->layout) << p.what << "\n" << printExpr(*m);
      std::vector<std::pair<int64_t, int64_t>> blocks;
      forEachBlock(**ir, 2, [&](int64_t o, int64_t b) { blocks.push_back({o, b}); });
      EXPECT_EQ(blocks, blocks0) << p.what << "\n" << printExpr(*m);
    }
  }
}

TEST(RandomTypes, RowColumnPairCoversTheSameBytesInAnotherOrder) {
  RandomTypes g(5);
  for (int i = 0; i < 50; ++i) {
    auto pair = g.rowColumnPair();
    auto a = translate(*pair[0]), b = translate(*pair[1]);
    ASSERT_TRUE(a && b);
    EXPECT_EQ((*a)->layout, (*b)->layout);
    std::vector<std::pair<int64_t, int64_t>> ba, bb;
    forEachBlock(**a, 1, [&](int64_t o, int64_t n) { for (int64_t k = 0; k < n; ++k) ba.push_back({o + k, 0}); });
    forEachBlock(**b, 1, [&](int64_t o, int64_t n) { for (int64_t k = 0; k < n; ++k) bb.push_back({o + k, 0}); });
    EXPECT_NE(ba, bb);
    std::sort(ba.begin(), ba.end());
    std::sort(bb.begin(), bb.end());
    EXPECT_EQ(ba, bb);
  }
}

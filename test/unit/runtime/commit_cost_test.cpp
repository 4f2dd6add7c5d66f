/// \file
/// The cost of planning a type at MPI_Type_commit (typecache::buildPlan, what libtempi's
/// MPI_Type_commit adds), bounded in IR nodes built (irNodesBuilt), never timed: a regular
/// hindexed face of 65,536 rows is a few nodes and a StridedBlock; a million irregular blocks are
/// planned from their block list without canonicalization (about one node per block; with the
/// passes, as before, 4.7 million nodes and 7.6 s on the CPU machine); a long regular list
/// translate cannot shorten, planned from its block list too, still gets its StridedBlock; a
/// short irregular list is still canonicalized. Every plan is compared with the MPI's own
/// MPI_Pack of the same bytes, or with the blocks computed from the constructor's arguments.
#include "MpiTestSupport.h"
#include "TypeCache.h"
#include "passes/StridedBlock.h"
#include "passes/TypeIR.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstring>
#include <random>
#include <utility>
#include <vector>

using namespace tempi;
using tempi::test::Committed;

namespace {

using Blocks = std::vector<std::pair<int64_t, int64_t>>;

/// An hindexed type of MPI_INT blocks, committed.
void hindexedInts(const std::vector<int> &len, const std::vector<MPI_Aint> &disp, Committed &t) {
  ASSERT_EQ(MPI_Type_create_hindexed(int(len.size()), len.data(), disp.data(), MPI_INT, &t.type),
            MPI_SUCCESS);
  ASSERT_EQ(MPI_Type_commit(&t.type), MPI_SUCCESS);
}

/// Its blocks in argument order, adjacent ones merged (what a block-list plan must hold).
Blocks reference(const std::vector<int> &len, const std::vector<MPI_Aint> &disp) {
  Blocks b;
  for (size_t i = 0; i < len.size(); ++i) {
    int64_t bytes = int64_t(len[i]) * 4;
    if (!b.empty() && b.back().first + b.back().second == disp[i]) b.back().second += bytes;
    else b.push_back({disp[i], bytes});
  }
  return b;
}

/// `count` random MPI_INT blocks of 1-4 ints in increasing order, each after a gap of
/// minGap to minGap + 3 ints (a gap of 0 lets neighbours touch and merge).
void irregularInts(int count, unsigned seed, int minGap, std::vector<int> &len,
                   std::vector<MPI_Aint> &disp) {
  std::mt19937 rng(seed);
  len.assign(size_t(count), 0);
  disp.assign(size_t(count), 0);
  MPI_Aint at = 0;
  for (size_t i = 0; i < len.size(); ++i) {
    len[i] = 1 + int(rng() % 4);
    at += 4 * MPI_Aint(minGap + int(rng() % 4));
    disp[i] = at;
    at += 4 * MPI_Aint(len[i]);
  }
}

/// A block-list plan's blocks.
Blocks blocksOf(const TypePlan &p) {
  Blocks got;
  for (size_t i = 0; i < p.blocks.offsets.size(); ++i)
    got.push_back({p.blocks.offsets[i], p.blocks.lengths[i]});
  return got;
}

/// The plan built as MPI_Type_commit builds it, and the IR nodes that took.
TypePlanPtr planCounted(MPI_Datatype t, uint64_t &nodes) {
  const uint64_t before = irNodesBuilt();
  TypePlanPtr p = typecache::buildPlan(t, /*probeOrder=*/true);
  nodes = irNodesBuilt() - before;
  return p;
}

/// The MPI's packed bytes of one element against the plan's runs over the same memory.
void expectPacksAsTheMpi(MPI_Datatype t, const TypePlan &p) {
  ASSERT_GE(p.trueLb, 0);
  std::vector<unsigned char> memory(size_t(p.trueLb + p.trueExtent));
  for (size_t i = 0; i < memory.size(); ++i) memory[i] = (unsigned char)(i * 131 + (i >> 9) + 1);
  int size = 0, position = 0;
  ASSERT_EQ(MPI_Pack_size(1, t, MPI_COMM_SELF, &size), MPI_SUCCESS);
  std::vector<unsigned char> theirs(static_cast<size_t>(size)), ours;
  ASSERT_EQ(MPI_Pack(memory.data(), 1, t, theirs.data(), size, &position, MPI_COMM_SELF),
            MPI_SUCCESS);
  theirs.resize(size_t(position));
  forEachRun(p, 0, p.size, [&](int64_t off, int64_t n) {
    ours.insert(ours.end(), memory.begin() + off, memory.begin() + off + n);
  });
  EXPECT_TRUE(ours == theirs) << "the plan packs other bytes than MPI_Pack";
}
} // namespace

TEST(CommitCost, AHindexedFaceOf65536RowsIsAFewNodesAndStrided) {
  // bench-commit's hindexed x face of a 262^3 grid of doubles: one block of 3 per row.
  const int n = 256, w = n + 6;
  const MPI_Aint row = MPI_Aint(w) * 8, plane = MPI_Aint(w) * w * 8;
  std::vector<int> len(n * n, 3);
  std::vector<MPI_Aint> disp;
  for (int z = 0; z < n; ++z)
    for (int y = 0; y < n; ++y) disp.push_back((z + 3) * plane + (y + 3) * row + 3 * 8);
  Committed t;
  ASSERT_EQ(MPI_Type_create_hindexed(n * n, len.data(), disp.data(), MPI_DOUBLE, &t.type),
            MPI_SUCCESS);
  ASSERT_EQ(MPI_Type_commit(&t.type), MPI_SUCCESS);
  uint64_t nodes = 0;
  TypePlanPtr p = planCounted(t.type, nodes);
  ASSERT_EQ(p->kind, TypePlan::Kind::Strided) << p->why;
  EXPECT_EQ(p->kernel.shape.start, disp[0]);
  EXPECT_EQ(p->kernel.shape.bytes, 24);
  EXPECT_EQ(p->kernel.shape.dims, (std::vector<StridedBlock::Dim>{{n, row}, {n, plane}}));
  // Before (one seq element per row, copied by every pass): over 500,000 nodes, 67 ms.
  EXPECT_LT(nodes, 2000u);
}

TEST(CommitCost, AMillionIrregularBlocksArePlannedFromTheirBlockList) {
  const int count = 1000000;
  std::vector<int> len;
  std::vector<MPI_Aint> disp;
  irregularInts(count, 5, 0, len, disp); // gaps of 0 to 3 ints: some blocks touch and merge
  Committed t;
  hindexedInts(len, disp, t);
  uint64_t nodes = 0;
  TypePlanPtr p = planCounted(t.type, nodes);
  ASSERT_EQ(p->kind, TypePlan::Kind::Blocks) << p->why;
  EXPECT_TRUE(blocksOf(*p) == reference(len, disp));
  // translate builds about one node per block; canonicalize would build at least one more per
  // block (normalize-layouts, fold-dense or elide-unit-stream rewrite each).
  EXPECT_LT(nodes, uint64_t(count) * 3 / 2);
  expectPacksAsTheMpi(t.type, *p);
}

TEST(CommitCost, ALongRegularListTranslateCannotShortenStillGetsItsStridedBlock) {
  // Two blocks of 4 ints per row, 16 bytes apart, rows 100 bytes apart: runs of two that
  // translate cannot join, 40,000 rows.
  const int rows = 40000;
  std::vector<int> len(2 * rows, 4);
  std::vector<MPI_Aint> disp;
  for (int r = 0; r < rows; ++r) {
    disp.push_back(r * MPI_Aint(100) + 8);
    disp.push_back(r * MPI_Aint(100) + 40);
  }
  Committed t;
  hindexedInts(len, disp, t);
  uint64_t nodes = 0;
  TypePlanPtr p = planCounted(t.type, nodes);
  ASSERT_EQ(p->kind, TypePlan::Kind::Strided) << p->why;
  EXPECT_EQ(p->kernel.shape.start, 8);
  EXPECT_EQ(p->kernel.shape.bytes, 16);
  EXPECT_EQ(p->kernel.shape.dims, (std::vector<StridedBlock::Dim>{{2, 32}, {rows, 100}}));
  EXPECT_LT(nodes, uint64_t(rows) * 4);
  expectPacksAsTheMpi(t.type, *p);
}

TEST(CommitCost, ASmallIrregularListIsStillCanonicalized) {
  std::vector<int> len;
  std::vector<MPI_Aint> disp;
  irregularInts(200, 9, 1, len, disp);
  Committed t;
  hindexedInts(len, disp, t);
  uint64_t nodes = 0;
  TypePlanPtr p = planCounted(t.type, nodes);
  ASSERT_EQ(p->kind, TypePlan::Kind::Blocks) << p->why;
  EXPECT_TRUE(blocksOf(*p) == reference(len, disp));
  EXPECT_GE(nodes, 2 * len.size()); // translated, then rewritten by the passes
  expectPacksAsTheMpi(t.type, *p);
}

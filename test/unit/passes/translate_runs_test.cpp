/// \file
/// translate()'s block runs: consecutive blocks of one shape at displacements in arithmetic
/// progression become one stream. The byte ranges in pack order stay exactly the arguments'
/// (checked against a reference computed from the arguments, for random lists with and without
/// runs, (h)indexed, (h)indexed_block and struct); and the work is bounded by the number of runs,
/// not of blocks, which is the regression guard for the cost of MPI_Type_commit (bench-commit's
/// hindexed face of 65,536 rows took 67 ms when every block was a node): counted in IR nodes
/// built (irNodesBuilt), never timed.
#include "passes/PassRegistry.h"
#include "passes/StridedBlock.h"
#include "passes/TextForm.h"

#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

using namespace tempi;

namespace {

using Blocks = std::vector<std::pair<int64_t, int64_t>>;

Blocks blocksOf(const IRNode &n) {
  Blocks b;
  forEachBlock(n, 1, [&](int64_t o, int64_t s) { b.push_back({o, s}); });
  return b;
}

/// The blocks (disp, bytes) in argument order, adjacent ones merged as forEachBlock does.
Blocks reference(const std::vector<int64_t> &disp, const std::vector<int64_t> &bytes) {
  Blocks b;
  for (size_t i = 0; i < disp.size(); ++i) {
    if (bytes[i] == 0)
      continue;
    if (!b.empty() && b.back().first + b.back().second == disp[i])
      b.back().second += bytes[i];
    else
      b.push_back({disp[i], bytes[i]});
  }
  return b;
}

/// bench-commit's x face of an (n+6)^3 grid of doubles: one hindexed block of 3 per row.
TypeExprPtr hindexedFace(int64_t n) {
  const int64_t w = n + 6, row = w * 8, plane = w * w * 8;
  std::vector<int64_t> len, disp;
  for (int64_t z = 0; z < n; ++z)
    for (int64_t y = 0; y < n; ++y) {
      len.push_back(3);
      disp.push_back((z + 3) * plane + (y + 3) * row + 3 * 8);
    }
  return expr::hindexed(len, disp, expr::named("MPI_DOUBLE"));
}

TEST(TranslateRuns, AHindexedFaceOf65536RowsIsAFewNodes) {
  const uint64_t before = irNodesBuilt();
  Result<IRPtr> ir = translate(*hindexedFace(256));
  ASSERT_TRUE(bool(ir)) << ir.error();
  IRPtr canon = canonicalize(*ir);
  const uint64_t built = irNodesBuilt() - before;
  std::optional<StridedBlock> b = toStridedBlock(*canon);
  ASSERT_TRUE(b.has_value()) << printIR(*canon);
  const int64_t w = 262;
  EXPECT_EQ(*b, (StridedBlock{3 * w * w * 8 + 3 * w * 8 + 24, 24, {{256, w * 8}, {256, w * w * 8}},
                              b->extent, b->lb}));
  // One stream per plane (256) and a few nodes each; one node per row (65,536) before, and
  // each pass copied them again.
  EXPECT_LT(built, 2000u) << "translate + canonicalize built " << built << " IR nodes";
}

TEST(TranslateRuns, RandomListsKeepTheirBlocks) {
  std::mt19937 rng(31);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (int iter = 0; iter < 400; ++iter) {
    // Stretches of one length at one stride (runs), stretches of random blocks, zero-length
    // blocks, equal and decreasing displacements.
    std::vector<int64_t> len, disp;
    int64_t at = pick(-16, 16) * 4;
    for (int stretch = int(pick(1, 5)); stretch > 0; --stretch) {
      int64_t n = pick(1, 12), bl = pick(0, 3), d = pick(-2, 6) * 4;
      bool run = pick(0, 1);
      for (int64_t i = 0; i < n; ++i) {
        len.push_back(run ? bl : pick(0, 3));
        disp.push_back(at);
        at += run ? d : pick(-3, 8) * 4;
      }
    }
    std::vector<int64_t> bytes;
    for (int64_t l : len)
      bytes.push_back(l * 4);
    const Blocks want = reference(disp, bytes);
    const TypeExprPtr intType = expr::named("MPI_INT");
    std::vector<int64_t> units;
    for (int64_t d : disp)
      units.push_back(d / 4);
    std::vector<std::pair<std::string, TypeExprPtr>> forms = {
        {"hindexed", expr::hindexed(len, disp, intType)},
        {"indexed", expr::indexed(len, units, intType)},
        {"struct", expr::structType(len, disp, std::vector<TypeExprPtr>(len.size(), intType))},
    };
    bool oneLength = true;
    for (int64_t l : len)
      oneLength = oneLength && l == len[0];
    if (oneLength && len[0] > 0) {
      forms.push_back({"hindexed_block", expr::hindexedBlock(len[0], disp, intType)});
      forms.push_back({"indexed_block", expr::indexedBlock(len[0], units, intType)});
    }
    for (auto &[name, e] : forms) {
      Result<IRPtr> ir = translate(*e);
      ASSERT_TRUE(bool(ir)) << name << ": " << ir.error();
      SCOPED_TRACE(name + ": " + printExpr(*e) + "\n  -> " + printIR(**ir));
      ASSERT_EQ(blocksOf(**ir), want);
      ASSERT_EQ(blocksOf(*canonicalize(*ir)), want);
    }
  }
}

TEST(TranslateRuns, StructFieldsJoinARunByTheirBytesNotTheirNode) {
  // The decoder gives one TypeExpr node per handle, the text form one per field: both must
  // translate and canonicalize alike (fuzz_decoder found a struct where they did not, when runs
  // were joined by node). Fields 7 and 8: the same bytes twice at one displacement.
  std::vector<int64_t> len{2, 5, 3, 9, 3, 3, 9, 3, 3};
  std::vector<int64_t> disp{-39, -28, -30, -30, -30, -30, -30, -30, -30};
  std::vector<std::string> names{"MPI_LOGICAL", "MPI_CXX_LONG_DOUBLE_COMPLEX", "MPI_INTEGER2",
                                 "MPI_CXX_LONG_DOUBLE_COMPLEX", "MPI_CXX_LONG_DOUBLE_COMPLEX",
                                 "MPI_INTEGER2", "MPI_CXX_LONG_DOUBLE_COMPLEX",
                                 "MPI_CXX_LONG_DOUBLE_COMPLEX", "MPI_CXX_LONG_DOUBLE_COMPLEX"};
  std::vector<TypeExprPtr> perField, perName;
  std::vector<std::pair<std::string, TypeExprPtr>> handles;
  for (const std::string &n : names) {
    perField.push_back(expr::named(n));
    TypeExprPtr shared;
    for (auto &[hn, h] : handles)
      if (hn == n) shared = h;
    if (!shared) {
      shared = expr::named(n);
      handles.push_back({n, shared});
    }
    perName.push_back(shared);
  }
  Result<IRPtr> a = translate(*expr::structType(len, disp, perField));
  Result<IRPtr> b = translate(*expr::structType(len, disp, perName));
  ASSERT_TRUE(a && b);
  EXPECT_EQ(printIR(**a), printIR(**b));
  EXPECT_EQ(printIR(*canonicalize(*a)), printIR(*canonicalize(*b)));
  // Equal bytes join a run even across different names: MPI_INT and MPI_FLOAT, 8 bytes apart.
  Result<IRPtr> c = translate(*expr::structType(
      {1, 1, 1}, {0, 8, 16},
      {expr::named("MPI_INT"), expr::named("MPI_FLOAT"), expr::named("MPI_INT")}));
  ASSERT_TRUE(bool(c));
  ASSERT_EQ((*c)->elems.size(), 1u) << printIR(**c);
  EXPECT_EQ((*c)->elems[0]->kind, IRKind::Stream) << printIR(**c);
}

TEST(TranslateRuns, AStructTranslatesEachFieldTypeOnce) {
  // 4096 fields of one vector type: once per distinct handle, and the fields are one run.
  TypeExprPtr v = expr::vector(4, 3, 10, expr::named("MPI_DOUBLE"));
  std::vector<int64_t> len(4096, 1), disp;
  for (int64_t i = 0; i < 4096; ++i)
    disp.push_back(1000 + i * 4096);
  const uint64_t before = irNodesBuilt();
  Result<IRPtr> ir = translate(*expr::structType(len, disp, std::vector<TypeExprPtr>(4096, v)));
  ASSERT_TRUE(bool(ir)) << ir.error();
  EXPECT_LT(irNodesBuilt() - before, 20u) << printIR(**ir);
  EXPECT_EQ((*ir)->layout.size, 4096 * 4 * 3 * 8);
}

} // namespace

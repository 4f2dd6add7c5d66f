/// \file
/// HandleMap (HandleMap.h) against std::unordered_map: random inserts and erases, keys that
/// collide in their home slot, and growth with entries erased along the way.
#include "HandleMap.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <unordered_map>

using tempi::HandleMap;

TEST(HandleMap, EmptyMapFindsNothing) {
  HandleMap<int> m;
  EXPECT_EQ(m.find(0), nullptr);
  EXPECT_EQ(m.find(42), nullptr);
  EXPECT_FALSE(m.erase(42));
  EXPECT_TRUE(m.empty());
}

TEST(HandleMap, KeyZeroIsAKey) {
  HandleMap<int> m;
  *m.tryEmplace(0).first = 7;
  ASSERT_NE(m.find(0), nullptr);
  EXPECT_EQ(*m.find(0), 7);
  int out = 0;
  EXPECT_TRUE(m.erase(0, &out));
  EXPECT_EQ(out, 7);
  EXPECT_EQ(m.find(0), nullptr);
}

TEST(HandleMap, TryEmplaceKeepsTheExistingValue) {
  HandleMap<int> m;
  auto [v, inserted] = m.tryEmplace(5);
  EXPECT_TRUE(inserted);
  *v = 1;
  auto [w, again] = m.tryEmplace(5);
  EXPECT_FALSE(again);
  EXPECT_EQ(*w, 1);
  EXPECT_EQ(m.size(), 1u);
}

TEST(HandleMap, MoveOnlyValuesAreMovedOutOnErase) {
  HandleMap<std::unique_ptr<int>> m;
  *m.tryEmplace(3).first = std::make_unique<int>(9);
  std::unique_ptr<int> out;
  ASSERT_TRUE(m.erase(3, &out));
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, 9);
}

// Handles 1 apart (MPICH's are small integers), 64 apart (Open MPI's are pointers) and 2^32 apart;
// every step is checked against the reference, and every key's find now and then.
TEST(HandleMap, AgreesWithUnorderedMapUnderRandomOperations) {
  for (uint64_t spread : {uint64_t(1), uint64_t(64), uint64_t(1) << 32}) {
    std::mt19937_64 rng(spread);
    HandleMap<uint64_t> m;
    std::unordered_map<uint64_t, uint64_t> ref;
    for (int step = 0; step < 20000; ++step) {
      const uint64_t key = 0xAC000000u + (rng() % 500) * spread;
      if (rng() % 3) {
        const uint64_t value = rng();
        auto [v, inserted] = m.tryEmplace(key);
        auto [it, refInserted] = ref.try_emplace(key, value);
        ASSERT_EQ(inserted, refInserted);
        if (inserted) *v = value;
        ASSERT_EQ(*v, it->second);
      } else {
        uint64_t out = 0;
        const bool erased = m.erase(key, &out);
        auto it = ref.find(key);
        ASSERT_EQ(erased, it != ref.end());
        if (erased) {
          ASSERT_EQ(out, it->second);
          ref.erase(it);
        }
      }
      ASSERT_EQ(m.size(), ref.size());
      if (step % 97 == 0)
        for (uint64_t k = 0; k < 500; ++k) {
          const uint64_t probe = 0xAC000000u + k * spread;
          const uint64_t *v = m.find(probe);
          auto it = ref.find(probe);
          ASSERT_EQ(v != nullptr, it != ref.end()) << "key " << probe;
          if (v) ASSERT_EQ(*v, it->second);
        }
    }
    size_t seen = 0;
    m.forEach([&](uint64_t k, uint64_t &v) {
      ++seen;
      ASSERT_EQ(ref.at(k), v);
    });
    EXPECT_EQ(seen, ref.size());
  }
}

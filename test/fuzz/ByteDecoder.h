/// \file
/// ByteDecoder: a fuzz input read as a stream of small decisions that build a TypeExpr of every
/// combiner with small arguments (fuzz_canonicalize, fuzz_decoder). Past the end every read
/// gives 0, so every input decodes to some tree.
#pragma once

#include "passes/TypeExpr.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tempi::fuzz {

/// Reads the fuzz input as a stream of small decisions; past the end every read gives 0.
class ByteDecoder {
public:
  ByteDecoder(const uint8_t *d, size_t n) : d_(d), n_(n) {}
  uint8_t byte() { return i_ < n_ ? d_[i_++] : 0; }
  /// An integer in [lo, hi] (hi - lo < 256).
  int64_t in(int64_t lo, int64_t hi) { return lo + int64_t(byte()) % (hi - lo + 1); }
  /// A small count, mostly 0..4, sometimes up to 9.
  int64_t count() { uint8_t b = byte(); return b < 200 ? b % 5 : b % 10; }
  /// A displacement or stride in elements/bytes, negative ones included.
  int64_t disp() { return in(-40, 40); }

  TypeExprPtr type(int depth) {
    uint8_t op = depth <= 0 ? 0 : byte() % 13;
    switch (op) {
    case 0: return leaf();
    case 1: return expr::dup(type(depth - 1));
    case 2: { int64_t c = count(); return expr::contiguous(c, type(depth - 1)); }
    case 3: { int64_t c = count(), b = count(), s = disp();
              return expr::vector(c, b, s, type(depth - 1)); }
    case 4: { int64_t c = count(), b = count(), s = disp() * 4;
              return expr::hvector(c, b, s, type(depth - 1)); }
    case 5: case 6: {
      int64_t n = count();
      std::vector<int64_t> bl, ds;
      for (int64_t i = 0; i < n; ++i) { bl.push_back(count()); ds.push_back(disp()); }
      return op == 5 ? expr::indexed(bl, ds, type(depth - 1))
                     : expr::hindexed(bl, ds, type(depth - 1));
    }
    case 7: case 8: {
      int64_t n = count(), b = count();
      std::vector<int64_t> ds;
      for (int64_t i = 0; i < n; ++i) ds.push_back(disp());
      return op == 7 ? expr::indexedBlock(b, ds, type(depth - 1))
                     : expr::hindexedBlock(b, ds, type(depth - 1));
    }
    case 9: {
      int64_t n = count();
      std::vector<int64_t> bl, ds;
      std::vector<TypeExprPtr> ts;
      for (int64_t i = 0; i < n; ++i) {
        bl.push_back(count()); ds.push_back(disp()); ts.push_back(type(depth - 1));
      }
      return expr::structType(bl, ds, ts);
    }
    case 10: {
      int64_t nd = in(1, 3);
      std::vector<int64_t> sz, sub, st;
      for (int64_t i = 0; i < nd; ++i) {
        int64_t s = in(1, 6), u = in(0, s), t = in(0, s - u);
        sz.push_back(s); sub.push_back(u); st.push_back(t);
      }
      Order o = byte() & 1 ? Order::Fortran : Order::C;
      return expr::subarray(sz, sub, st, o, type(depth - 1));
    }
    case 11: {
      int64_t nd = in(1, 3), size = 1;
      std::vector<int64_t> gs, dargs, ps;
      std::vector<Distrib> dist;
      for (int64_t i = 0; i < nd; ++i) {
        int64_t p = in(1, 3);
        ps.push_back(p); size *= p;
        gs.push_back(in(1, 9));
        Distrib d = Distrib(in(0, 2));
        dist.push_back(d);
        dargs.push_back(d == Distrib::None || byte() & 1 ? kDargDefault : in(1, 4));
      }
      int64_t rank = in(0, 255) % size;
      Order o = byte() & 1 ? Order::Fortran : Order::C;
      return expr::darray(size, rank, gs, dist, dargs, ps, o, type(depth - 1));
    }
    default: { int64_t lb = disp(), ext = in(0, 64);
               return expr::resized(lb, ext, type(depth - 1)); }
    }
  }

private:
  TypeExprPtr leaf() {
    const auto &all = allNamedTypes();
    return expr::named(all[byte() % all.size()].name);
  }
  const uint8_t *d_;
  size_t n_, i_ = 0;
};

} // namespace tempi::fuzz

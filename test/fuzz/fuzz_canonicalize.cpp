/// \file
/// libFuzzer target: the canonicalizer. The input bytes are decoded (ByteDecoder below) into a
/// constructor tree of every combiner with small arguments; a tree translate() accepts must then
/// canonicalize to a tree that
///  - denotes the same byte ranges in the same pack order (forEachBlock, count 1 and 2),
///  - keeps the root Layout,
///  - packs the same bytes with the host reference packer (packReference, count 2),
///  - unpacks packed bytes to the same places as the raw tree (unpackReference, count 2),
///  - is a fixed point (canonicalize(canonicalize(x)) == canonicalize(x)),
///  - prints to IR text that parses back to an equal tree.
/// Trees whose span or block count is too large for a quick check (over kMaxSpan bytes or
/// kMaxBlocks ranges) are skipped, not reported: the decoder keeps nearly all of them small.
#include "FuzzCheck.h"
#include "passes/PassRegistry.h"
#include "passes/ReferencePacker.h"
#include "passes/TextForm.h"
#include "passes/TypeIR.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

using namespace tempi;

namespace {

constexpr int64_t kMaxSpan = 1 << 20;
constexpr size_t kMaxBlocks = 1 << 16;

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

using Blocks = std::vector<std::pair<int64_t, int64_t>>;

/// The ranges of `count` elements, or false when there are more than kMaxBlocks.
bool blocksOf(const IRNode &n, int64_t count, Blocks &out) {
  bool tooMany = false;
  forEachBlock(n, count, [&](int64_t o, int64_t b) {
    if (out.size() >= kMaxBlocks) { tooMany = true; return; }
    out.push_back({o, b});
  });
  return !tooMany;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ByteDecoder dec(data, size);
  TypeExprPtr e = dec.type(int(dec.in(0, 5)));
  Result<IRPtr> translated = translate(*e);
  if (!translated) {
    FUZZ_CHECK(!translated.error().empty(), "a translate failure must say why");
    return 0;
  }
  const IRPtr &raw = *translated;
  const Layout &L = raw->layout;
  // Two elements span [trueLb + min(0, extent), trueLb + trueExtent + max(0, extent)).
  int64_t lo = L.trueLb + (L.extent < 0 ? L.extent : 0);
  int64_t hi = L.trueLb + L.trueExtent + (L.extent > 0 ? L.extent : 0);
  if (L.size < 0 || L.trueExtent < 0 || hi - lo > kMaxSpan || L.size > kMaxSpan ||
      lo < -kMaxSpan || hi > kMaxSpan)
    return 0;

  Blocks raw1, raw2;
  if (!blocksOf(*raw, 1, raw1) || !blocksOf(*raw, 2, raw2))
    return 0;

  IRPtr canon = canonicalize(raw);
  // The failure report, built only when a check fails (printing costs more than the checks).
  auto what = [&] {
    return "type " + printExpr(*e) + "\n  raw " + printIR(*raw) + "\n  canonical " + printIR(*canon);
  };
  FUZZ_CHECK(canon->layout == L, "canonicalize changed the root layout: " + what());
  Blocks c1, c2;
  FUZZ_CHECK(blocksOf(*canon, 1, c1) && c1 == raw1, "byte ranges (count 1) differ: " + what());
  FUZZ_CHECK(blocksOf(*canon, 2, c2) && c2 == raw2, "byte ranges (count 2) differ: " + what());

  IRPtr twice = canonicalize(canon);
  FUZZ_CHECK(equalIR(*twice, *canon), "canonicalize is not idempotent: " + what() +
                                          "\n  twice " + printIR(*twice));
  Result<IRPtr> reparsed = parseIR(printIR(*canon));
  FUZZ_CHECK(reparsed && equalIR(**reparsed, *canon), "canonical IR text does not round-trip: " + what());

  // Pack 2 elements from a patterned buffer with both trees; unpack the canonical packing.
  int64_t span = hi - lo;
  std::vector<unsigned char> src(size_t(span) + 1), pr(size_t(2 * L.size) + 1, 0xEE),
      pc(size_t(2 * L.size) + 1, 0xEE);
  for (size_t i = 0; i < src.size(); ++i) src[i] = (unsigned char)(i * 131 + 7);
  const unsigned char *base = src.data() - lo;
  FUZZ_CHECK(packReference(*raw, 2, base, pr.data()) == 2 * L.size, "raw pack size: " + what());
  FUZZ_CHECK(packReference(*canon, 2, base, pc.data()) == 2 * L.size, "canonical pack size: " + what());
  FUZZ_CHECK(pr == pc, "packed bytes differ: " + what());
  // Unpacking the same packed bytes through either tree writes the same bytes in the same order
  // (overlapping ranges included), so the two destination buffers must end up equal.
  std::vector<unsigned char> dr(src.size(), 0x5A), dc(src.size(), 0x5A);
  FUZZ_CHECK(unpackReference(*raw, 2, pr.data(), dr.data() - lo) == 2 * L.size, "raw unpack size: " + what());
  FUZZ_CHECK(unpackReference(*canon, 2, pr.data(), dc.data() - lo) == 2 * L.size,
             "canonical unpack size: " + what());
  FUZZ_CHECK(dr == dc, "unpacked bytes differ: " + what());
  return 0;
}

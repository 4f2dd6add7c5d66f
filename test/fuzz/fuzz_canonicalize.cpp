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
#include "ByteDecoder.h"
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
using tempi::fuzz::ByteDecoder;

namespace {

constexpr int64_t kMaxSpan = 1 << 20;
constexpr size_t kMaxBlocks = 1 << 16;

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

/// \file
/// The host reference packer, from TypeIR and from StridedBlock, against packed bytes worked out
/// by hand: pack order, negative offsets and strides, count > 1 stepping by the extent, unpack.
#include "passes/ReferencePacker.h"
#include "passes/TextForm.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

using namespace tempi;

namespace {

/// A buffer holding 0, 1, 2, ... with the user's pointer in the middle (offsets may be negative).
struct Buffer {
  std::vector<unsigned char> bytes = std::vector<unsigned char>(256);
  Buffer() { std::iota(bytes.begin(), bytes.end(), 0); }
  unsigned char *base() { return bytes.data() + 128; } // base[k] == 128 + k
};

IRPtr ir(const std::string &text) {
  Result<IRPtr> r = parseIR(text);
  EXPECT_TRUE(bool(r)) << r.error();
  return *r;
}

using Bytes = std::vector<unsigned char>;

TEST(ReferencePacker, PacksInPackOrderFromIR) {
  Buffer buf;
  // Column-built 2x2 block of a 4x4 array of 1-byte cells: cells (0,0), (1,0), (0,1), (1,1).
  IRPtr t = ir("stream(off=0, count=2, stride=1, stream(off=0, count=2, stride=4, "
               "dense(off=0, bytes=1)))");
  Bytes out(4);
  EXPECT_EQ(packReference(*t, 1, buf.base(), out.data()), 4);
  EXPECT_EQ(out, (Bytes{128, 132, 129, 133}));
}

TEST(ReferencePacker, NegativeOffsetsStridesAndCount) {
  Buffer buf;
  IRPtr t = ir("stream(off=-2, count=2, stride=-3, dense(off=0, bytes=2)) @ lb=-5 extent=10 "
               "true_lb=-5 true_extent=5 size=4");
  Bytes out(8);
  EXPECT_EQ(packReference(*t, 2, buf.base(), out.data()), 8);
  // Element 0: [-2, -1], [-5, -4]; element 1 shifted by the extent 10: [8, 9], [5, 6].
  EXPECT_EQ(out, (Bytes{126, 127, 123, 124, 136, 137, 133, 134}));
}

TEST(ReferencePacker, StridedBlockPacksTheSame) {
  Buffer buf;
  StridedBlock b;
  b.start = -2;
  b.bytes = 2;
  b.dims = {{2, -3}};
  b.extent = 10;
  b.lb = -5;
  Bytes out(8);
  EXPECT_EQ(packStrided(b, 2, buf.base(), out.data()), 8);
  EXPECT_EQ(out, (Bytes{126, 127, 123, 124, 136, 137, 133, 134}));
}

TEST(ReferencePacker, StridedDimsZeroVariesFastest) {
  Buffer buf;
  StridedBlock b;
  b.bytes = 1;
  b.dims = {{2, 4}, {2, 1}}; // dims[0] (stride 4) inside dims[1] (stride 1)
  b.extent = 8;
  Bytes out(4);
  EXPECT_EQ(packStrided(b, 1, buf.base(), out.data()), 4);
  EXPECT_EQ(out, (Bytes{128, 132, 129, 133}));
}

TEST(ReferencePacker, UnpackWritesWherePackRead) {
  Buffer buf;
  IRPtr t = ir("seq(off=0, [dense(off=10, bytes=2), dense(off=-3, bytes=1)])");
  Bytes packed{1, 2, 3};
  std::vector<unsigned char> dst(256, 0);
  EXPECT_EQ(unpackReference(*t, 1, packed.data(), dst.data() + 128), 3);
  EXPECT_EQ(dst[138], 1);
  EXPECT_EQ(dst[139], 2);
  EXPECT_EQ(dst[125], 3);
  EXPECT_EQ(std::count(dst.begin(), dst.end(), 0), 253);
  StridedBlock b{4, 2, {{2, 8}}, 16, 0};
  std::vector<unsigned char> dst2(256, 0);
  Bytes p2{9, 8, 7, 6};
  EXPECT_EQ(unpackStrided(b, 1, p2.data(), dst2.data() + 128), 4);
  EXPECT_EQ((Bytes{dst2[132], dst2[133], dst2[140], dst2[141]}), (Bytes{9, 8, 7, 6}));
}

TEST(ReferencePacker, RefusesNegativeCountsAndHandlesEmpty) {
  Buffer buf;
  IRPtr t = ir("dense(off=0, bytes=4)");
  Bytes out(4, 0xEE);
  EXPECT_EQ(packReference(*t, -1, buf.base(), out.data()), -1);
  EXPECT_EQ(out, Bytes(4, 0xEE));
  EXPECT_EQ(packReference(*t, 0, buf.base(), out.data()), 0);
  StridedBlock empty;
  EXPECT_EQ(packStrided(empty, 3, buf.base(), out.data()), 0);
  EXPECT_EQ(packStrided(empty, -1, buf.base(), out.data()), -1);
}

} // namespace

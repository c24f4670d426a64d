#include "quiver/core/bit_util.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace quiver {
namespace {

TEST(BitUtil, GetSetCount) {
  uint8_t bits[16] = {};
  bit_util::SetBit(bits, 0);
  bit_util::SetBit(bits, 9);
  bit_util::SetBitTo(bits, 127, true);
  EXPECT_TRUE(bit_util::GetBit(bits, 9));
  EXPECT_FALSE(bit_util::GetBit(bits, 8));
  EXPECT_EQ(bits[1], 0x02);
  EXPECT_EQ(bit_util::CountSetBits(bits, 0, 128), 3);
  EXPECT_EQ(bit_util::CountSetBits(bits, 1, 126), 1);
  bit_util::ClearBit(bits, 9);
  EXPECT_EQ(bit_util::CountSetBits(bits, 0, 128), 2);
  bit_util::SetBitsTo(bits, 3, 100, true);
  EXPECT_EQ(bit_util::CountSetBits(bits, 0, 128), 102);
  EXPECT_FALSE(bit_util::GetBit(bits, 2));
  EXPECT_TRUE(bit_util::GetBit(bits, 102));
  EXPECT_FALSE(bit_util::GetBit(bits, 103));
}

TEST(BitUtil, CopyBitmapAtAnyOffsets) {
  std::mt19937_64 rng(1);
  std::vector<uint8_t> src(64);
  for (auto& b : src) b = static_cast<uint8_t>(rng());
  for (int so : {0, 3, 8, 13}) {
    for (int dof : {0, 5, 16}) {
      std::vector<uint8_t> dst(64, 0xff);
      bit_util::CopyBitmap(src.data(), so, 300, dst.data(), dof);
      EXPECT_TRUE(bit_util::BitmapEquals(src.data(), so, dst.data(), dof, 300)) << so << " " << dof;
      EXPECT_TRUE(bit_util::GetBit(dst.data(), dof + 300));  // untouched past the end
    }
  }
}

TEST(BitUtil, PackUnpackEveryWidth) {
  std::mt19937_64 rng(2);
  for (int w = 0; w <= 64; ++w) {
    const int64_t n = 77;
    std::vector<uint64_t> in(n);
    uint64_t mask = w == 64 ? ~0ull : ((1ull << w) - 1);
    for (auto& v : in) v = rng() & mask;
    std::vector<uint8_t> packed(static_cast<size_t>(bit_util::BytesForBits(n * w)));
    bit_util::PackBits(in.data(), w, n, packed.data());
    std::vector<uint64_t> out(n, 12345);
    bit_util::UnpackBits(packed.data(), w, n, out.data());
    EXPECT_EQ(in, out) << "width " << w;
    if (w <= 32) {
      std::vector<uint32_t> out32(n);
      bit_util::UnpackBits32(packed.data(), w, n, out32.data());
      for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out32[i], in[i]) << "width " << w;
    }
  }
}

TEST(BitUtil, UnpackKnownBytes) {
  // Parquet's spec example: values 0..7 at width 3 pack to 0x88 0xC6 0xFA.
  const uint8_t packed[] = {0x88, 0xC6, 0xFA};
  uint64_t out[8];
  bit_util::UnpackBits(packed, 3, 8, out);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], static_cast<uint64_t>(i));
}

}  // namespace
}  // namespace quiver

#include "quiver/parquet/encoding/bit_unpack_internal.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "encoding_test_util.h"
#include "quiver/core/bit_util.h"

namespace quiver::parquet::encoding {
namespace {

class BitUnpackTest : public ::testing::TestWithParam<SimdLevel> {};

// Packs with the straightforward reference in core/bit_util and checks every kernel against the
// values themselves, with the input sized exactly (ASan catches any over-read).
TEST_P(BitUnpackTest, Unpack32EveryWidthAndCount) {
  const BitUnpackKernels& k = BitUnpackKernelsFor(GetParam());
  EXPECT_EQ(k.level, GetParam());
  std::mt19937_64 rng(42);
  for (int w = 0; w <= 32; ++w) {
    for (int64_t n : {0, 1, 7, 8, 9, 31, 32, 33, 100, 257, 1000, 4099}) {
      std::vector<uint64_t> values(n);
      const uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
      for (auto& v : values) v = rng() & mask;
      std::vector<uint8_t> packed(bit_util::BytesForBits(n * w));
      bit_util::PackBits(values.data(), w, n, packed.data());
      std::vector<uint32_t> out(n + 1, 0xdeadbeef);
      k.unpack32(packed.data(), static_cast<int64_t>(packed.size()), w, n, out.data());
      for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out[i], values[i]) << "w=" << w << " n=" << n << " i=" << i;
      EXPECT_EQ(out[n], 0xdeadbeefu) << "wrote past count, w=" << w;
      // With generous readable bytes the fast loop runs to the end: same answer.
      std::vector<uint8_t> padded(packed);
      padded.resize(packed.size() + 64, 0xff);
      std::vector<uint32_t> out2(n);
      k.unpack32(padded.data(), static_cast<int64_t>(padded.size()), w, n, out2.data());
      for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out2[i], values[i]) << "padded w=" << w << " i=" << i;
    }
  }
}

TEST_P(BitUnpackTest, Unpack64EveryWidth) {
  const BitUnpackKernels& k = BitUnpackKernelsFor(GetParam());
  std::mt19937_64 rng(7);
  for (int w = 0; w <= 64; ++w) {
    for (int64_t n : {1, 8, 15, 32, 65, 1024, 1031}) {
      std::vector<uint64_t> values(n);
      const uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
      for (auto& v : values) v = rng() & mask;
      // Extremes: all bits set and zero at the ends.
      values[0] = mask;
      values[n - 1] = 0;
      std::vector<uint8_t> packed(bit_util::BytesForBits(n * w));
      bit_util::PackBits(values.data(), w, n, packed.data());
      std::vector<uint64_t> out(n);
      k.unpack64(packed.data(), static_cast<int64_t>(packed.size()), w, n, out.data());
      for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out[i], values[i]) << "w=" << w << " n=" << n << " i=" << i;
    }
  }
}

TEST_P(BitUnpackTest, SpecExampleWidth3) {
  // parquet-format Encodings.md: 0..7 at bit width 3, bit-packed LSB first.
  const uint8_t packed[] = {0x88, 0xc6, 0xfa};
  uint32_t out[8];
  BitUnpackKernelsFor(GetParam()).unpack32(packed, 3, 3, 8, out);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(out[i], i);
}

INSTANTIATE_TEST_SUITE_P(Levels, BitUnpackTest, ::testing::ValuesIn(SupportedSimdLevels()), testing::LevelName);

}  // namespace
}  // namespace quiver::parquet::encoding

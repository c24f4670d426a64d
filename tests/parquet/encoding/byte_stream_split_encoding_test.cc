#include "quiver/parquet/encoding/byte_stream_split_internal.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "encoding_test_util.h"

namespace quiver::parquet::encoding {
namespace {

using testing::Bytes;

class ByteStreamSplitTest : public ::testing::TestWithParam<SimdLevel> {};

TEST_P(ByteStreamSplitTest, HandBuiltFloats) {
  // Two FLOAT values 0x04030201, 0x08070605: stream k holds byte k of each.
  const uint8_t data[] = {0x01, 0x05, 0x02, 0x06, 0x03, 0x07, 0x04, 0x08};
  ByteStreamSplitDecoder dec(GetParam());
  ASSERT_TRUE(dec.Reset(data, 8, 4).ok());
  uint32_t out[2];
  ASSERT_TRUE(dec.Decode(out, 2).ok());
  EXPECT_EQ(out[0], 0x04030201u);
  EXPECT_EQ(out[1], 0x08070605u);
  EXPECT_TRUE(dec.Decode(out, 1).IsCorrupt());
  EXPECT_EQ(dec.Reset(data, 7, 4).message(),
            "BYTE_STREAM_SPLIT data of 7 bytes is not a multiple of the 4-byte value width");
}

TEST_P(ByteStreamSplitTest, RoundTripEveryWidth) {
  std::mt19937 rng(6);
  for (int width : {1, 2, 3, 4, 5, 8, 12, 16}) {
    for (int64_t n : {0, 1, 15, 16, 17, 31, 32, 33, 100, 1000}) {
      std::vector<uint8_t> values(n * width);
      for (auto& b : values) b = static_cast<uint8_t>(rng());
      BufferBuilder out;
      ASSERT_TRUE(ByteStreamSplitEncode(values.data(), n, width, &out, GetParam()).ok());
      // Check the layout directly: byte k of value i sits at k * n + i.
      auto enc = Bytes(out);
      for (int64_t i = 0; i < n; ++i) {
        for (int k = 0; k < width; ++k) ASSERT_EQ(enc[k * n + i], values[i * width + k]);
      }
      ByteStreamSplitDecoder dec(GetParam());
      ASSERT_TRUE(dec.Reset(enc.data(), static_cast<int64_t>(enc.size()), width).ok());
      std::vector<uint8_t> got(n * width);
      const int64_t first = n / 3;
      ASSERT_TRUE(dec.Decode(got.data(), first).ok());
      ASSERT_TRUE(dec.Decode(got.data() + first * width, n - first).ok());
      EXPECT_EQ(got, values) << "width " << width << " n " << n;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Levels, ByteStreamSplitTest, ::testing::ValuesIn(SupportedSimdLevels()),
                         testing::LevelName);

}  // namespace
}  // namespace quiver::parquet::encoding

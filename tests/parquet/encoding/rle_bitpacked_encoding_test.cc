#include "quiver/parquet/encoding/rle_bitpacked_internal.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "encoding_test_util.h"

namespace quiver::parquet::encoding {
namespace {

using testing::Bytes;

class RleTest : public ::testing::TestWithParam<SimdLevel> {
 protected:
  RleBitPackedDecoder Decoder() { return RleBitPackedDecoder(GetParam()); }
};

TEST_P(RleTest, SpecBitPackedRun) {
  // One bit-packed run of one group: header (1 << 1) | 1 = 3, then 0..7 at width 3.
  const uint8_t data[] = {0x03, 0x88, 0xc6, 0xfa};
  auto dec = Decoder();
  ASSERT_TRUE(dec.Reset(data, sizeof(data), 3).ok());
  uint32_t out[8];
  ASSERT_TRUE(dec.Decode(out, 8).ok());
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(out[i], i);
  EXPECT_EQ(dec.GetBatch(out, 1), 0);  // the data ends here
}

TEST_P(RleTest, RleRunsAndBatchesCrossingThem) {
  // RLE run: 300 x 5 (header 600 = varint 0xd8 0x04, value in 2 bytes at width 10), then 10 x 1000
  // then a bit-packed run of 2 groups: 16 values 0..15 at width 10.
  std::vector<uint8_t> data = {0xd8, 0x04, 0x05, 0x00, 0x14, 0xe8, 0x03, 0x05};
  std::vector<uint64_t> lits(16);
  for (int i = 0; i < 16; ++i) lits[i] = i;
  std::vector<uint8_t> packed(20);
  bit_util::PackBits(lits.data(), 10, 16, packed.data());
  data.insert(data.end(), packed.begin(), packed.end());
  std::vector<uint32_t> expect(300, 5);
  expect.insert(expect.end(), 10, 1000);
  for (int i = 0; i < 16; ++i) expect.push_back(i);
  for (int64_t batch : {1, 3, 7, 8, 13, 299, 301, 1000}) {
    auto dec = Decoder();
    ASSERT_TRUE(dec.Reset(data.data(), static_cast<int64_t>(data.size()), 10).ok());
    std::vector<uint32_t> got;
    std::vector<uint32_t> buf(batch);
    int64_t n;
    while ((n = dec.GetBatch(buf.data(), batch)) > 0) got.insert(got.end(), buf.begin(), buf.begin() + n);
    EXPECT_EQ(got, expect) << "batch " << batch;
  }
}

TEST_P(RleTest, NarrowOutputTypes) {
  const uint8_t data[] = {0x08, 0x02, 0x03, 0x88, 0xc6, 0xfa};  // 4 x 2, then 0..7 at width 3
  auto dec = Decoder();
  ASSERT_TRUE(dec.Reset(data, sizeof(data), 3).ok());
  int16_t out[12];
  ASSERT_TRUE(dec.Decode(out, 12).ok());
  const int16_t expect[] = {2, 2, 2, 2, 0, 1, 2, 3, 4, 5, 6, 7};
  for (int i = 0; i < 12; ++i) EXPECT_EQ(out[i], expect[i]);
}

TEST_P(RleTest, BitPackedHeaderLongerThanData) {
  // Header says 3 groups (24 values) at width 8 but only 10 bytes follow: 10 values readable.
  std::vector<uint8_t> data = {0x07};
  for (int i = 0; i < 10; ++i) data.push_back(static_cast<uint8_t>(100 + i));
  auto dec = Decoder();
  ASSERT_TRUE(dec.Reset(data.data(), static_cast<int64_t>(data.size()), 8).ok());
  uint32_t out[24];
  EXPECT_EQ(dec.GetBatch(out, 24), 10);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(out[i], 100u + i);
  auto dec2 = Decoder();
  ASSERT_TRUE(dec2.Reset(data.data(), static_cast<int64_t>(data.size()), 8).ok());
  Status st = dec2.Decode(out, 11);
  EXPECT_TRUE(st.IsCorrupt());
  EXPECT_EQ(st.message(), "RLE/bit-packed data ends after 10 of 11 values (bit width 8)");
}

TEST_P(RleTest, PageCountShorterThanLastGroup) {
  // 3 real values in a padded group: the reader asks for 3 and gets them.
  const uint8_t data[] = {0x03, 0x88, 0xc6, 0xfa};
  auto dec = Decoder();
  ASSERT_TRUE(dec.Reset(data, sizeof(data), 3).ok());
  uint32_t out[3];
  ASSERT_TRUE(dec.Decode(out, 3).ok());
  EXPECT_EQ(out[2], 2u);
}

TEST_P(RleTest, BitWidthZero) {
  // Width 0: an RLE run of 5 has no value bytes; a bit-packed group has no bytes.
  const uint8_t data[] = {0x0a, 0x03};
  auto dec = Decoder();
  ASSERT_TRUE(dec.Reset(data, sizeof(data), 0).ok());
  uint32_t out[20];
  std::fill(out, out + 20, 9);
  ASSERT_TRUE(dec.Decode(out, 20).ok());  // 5 + 8, then zeros without runs
  for (uint32_t v : out) EXPECT_EQ(v, 0u);
  auto empty = Decoder();
  ASSERT_TRUE(empty.Reset(nullptr, 0, 0).ok());
  EXPECT_TRUE(empty.Decode(out, 4).ok());
}

TEST_P(RleTest, Errors) {
  auto dec = Decoder();
  EXPECT_TRUE(dec.Reset(nullptr, 0, 33).IsCorrupt());
  EXPECT_TRUE(dec.Reset(nullptr, 0, -1).IsCorrupt());
  uint32_t out[4];
  // Empty data at width 1 holds nothing.
  ASSERT_TRUE(dec.Reset(nullptr, 0, 1).ok());
  EXPECT_EQ(dec.Decode(out, 1).message(), "RLE/bit-packed data ends after 0 of 1 values (bit width 1)");
  // Header varint that never ends.
  const uint8_t bad_header[] = {0xff, 0xff};
  ASSERT_TRUE(dec.Reset(bad_header, 2, 8).ok());
  EXPECT_EQ(dec.Decode(out, 1).message(), "RLE/bit-packed run header is malformed at byte 0 of 2");
  // RLE run whose 2-byte value is cut short.
  const uint8_t short_value[] = {0x04, 0x01};
  ASSERT_TRUE(dec.Reset(short_value, 2, 12).ok());
  EXPECT_EQ(dec.Decode(out, 2).message(), "RLE run value is truncated at byte 0 of 2");
}

TEST_P(RleTest, SkipAndVisit) {
  const uint8_t data[] = {0x08, 0x02, 0x03, 0x88, 0xc6, 0xfa};  // 4 x 2, then 0..7
  auto dec = Decoder();
  ASSERT_TRUE(dec.Reset(data, sizeof(data), 3).ok());
  EXPECT_EQ(dec.Skip(6), 6);
  uint32_t out[6];
  ASSERT_TRUE(dec.Decode(out, 6).ok());
  EXPECT_EQ(out[0], 2u);
  EXPECT_EQ(out[5], 7u);
}

TEST_P(RleTest, BooleanBitmap) {
  // 10 x true (RLE), then a group 1,0,1,1,0,0,0,1.
  const uint8_t data[] = {0x14, 0x01, 0x03, 0x8d};
  auto dec = Decoder();
  ASSERT_TRUE(dec.Reset(data, sizeof(data), 1).ok());
  uint8_t bitmap[4] = {0, 0, 0, 0};
  ASSERT_TRUE(DecodeBooleanBitmap(&dec, 18, bitmap, 3).ok());
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(bit_util::GetBit(bitmap, 3 + i));
  const bool tail[] = {1, 0, 1, 1, 0, 0, 0, 1};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(bit_util::GetBit(bitmap, 13 + i), tail[i]) << i;
}

TEST_P(RleTest, RoundTripRandomEveryWidth) {
  std::mt19937 rng(11);
  for (int w = 0; w <= 32; ++w) {
    for (int shape = 0; shape < 3; ++shape) {
      const int64_t n = 1 + rng() % 5000;
      std::vector<uint32_t> values(n);
      const uint32_t mask = w == 32 ? ~0u : (1u << w) - 1;
      uint32_t cur = 0;
      for (auto& v : values) {
        // shape 0: noise; 1: long runs; 2: short runs of 1..12 (mixing RLE and bit-packing).
        if (shape == 0 || rng() % (shape == 1 ? 200 : 6) == 0) cur = rng() & mask;
        v = shape == 0 ? (rng() & mask) : cur;
      }
      RleBitPackedEncoder enc(w);
      ASSERT_TRUE(enc.Put(values.data(), n).ok());
      BufferBuilder out;
      ASSERT_TRUE(enc.Finish(&out).ok());
      EXPECT_LE(out.size(), RleBitPackedEncoder::MaxEncodedSize(w, n));
      auto bytes = Bytes(out);
      auto dec = Decoder();
      ASSERT_TRUE(dec.Reset(bytes.data(), static_cast<int64_t>(bytes.size()), w).ok());
      std::vector<uint32_t> got(n);
      int64_t pos = 0;
      while (pos < n) {  // odd batch sizes cross run boundaries
        const int64_t k = std::min<int64_t>(n - pos, 1 + rng() % 100);
        ASSERT_TRUE(dec.Decode(got.data() + pos, k).ok()) << "w=" << w;
        pos += k;
      }
      ASSERT_EQ(got, values) << "w=" << w << " shape=" << shape;
    }
  }
}

TEST_P(RleTest, EncoderChoosesRunsAndRepeated) {
  RleBitPackedEncoder enc(1);
  ASSERT_TRUE(enc.PutRepeated(1, 1000).ok());
  BufferBuilder out;
  ASSERT_TRUE(enc.Finish(&out).ok());
  // 1000 << 1 = 2000 = varint d0 0f, then the value byte.
  EXPECT_EQ(Bytes(out), (std::vector<uint8_t>{0xd0, 0x0f, 0x01}));
  // Eight distinct values: one bit-packed group, header 0x03.
  RleBitPackedEncoder enc3(3);
  const uint32_t v[] = {0, 1, 2, 3, 4, 5, 6, 7};
  ASSERT_TRUE(enc3.Put(v, 8).ok());
  BufferBuilder out3;
  ASSERT_TRUE(enc3.Finish(&out3).ok());
  EXPECT_EQ(Bytes(out3), (std::vector<uint8_t>{0x03, 0x88, 0xc6, 0xfa}));
  // PutRepeated mixed with Put round-trips.
  RleBitPackedEncoder mix(4);
  std::vector<uint32_t> expect;
  for (int r = 0; r < 50; ++r) {
    ASSERT_TRUE(mix.PutRepeated(r % 16, r).ok());
    expect.insert(expect.end(), r, r % 16);
    const uint32_t one = (r * 7) % 16;
    ASSERT_TRUE(mix.Put(&one, 1).ok());
    expect.push_back(one);
  }
  BufferBuilder mout;
  ASSERT_TRUE(mix.Finish(&mout).ok());
  auto dec = Decoder();
  ASSERT_TRUE(dec.Reset(mout.data(), mout.size(), 4).ok());
  std::vector<uint32_t> got(expect.size());
  ASSERT_TRUE(dec.Decode(got.data(), static_cast<int64_t>(got.size())).ok());
  EXPECT_EQ(got, expect);
}

TEST(LegacyBitPacked, SpecExampleAndRoundTrip) {
  // parquet-format Encodings.md: 0..7 at width 3, MSB first: 00000101 00111001 01110111.
  const uint8_t data[] = {0x05, 0x39, 0x77};
  int16_t out[8];
  ASSERT_TRUE(DecodeLegacyBitPacked(data, 3, 3, 8, out).ok());
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], i);
  EXPECT_TRUE(DecodeLegacyBitPacked(data, 2, 3, 8, out).IsCorrupt());
  BufferBuilder enc;
  ASSERT_TRUE(EncodeLegacyBitPacked(out, 8, 3, &enc).ok());
  EXPECT_EQ(Bytes(enc), (std::vector<uint8_t>{0x05, 0x39, 0x77}));
}

INSTANTIATE_TEST_SUITE_P(Levels, RleTest, ::testing::ValuesIn(SupportedSimdLevels()), testing::LevelName);

}  // namespace
}  // namespace quiver::parquet::encoding

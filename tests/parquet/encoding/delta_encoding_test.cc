#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <vector>

#include "encoding_test_util.h"
#include "quiver/parquet/encoding/delta_binary_packed_internal.h"
#include "quiver/parquet/encoding/delta_byte_array_internal.h"
#include "quiver/parquet/encoding/delta_length_byte_array_internal.h"

namespace quiver::parquet::encoding {
namespace {

using testing::Bytes;
using testing::Strings;
using testing::StringInput;

class DeltaTest : public ::testing::TestWithParam<SimdLevel> {};

// parquet-format Encodings.md, example 1: 1 2 3 4 5 -> deltas all 1, min delta 1, width 0.
const std::vector<uint8_t> kSpecExample1 = {0x80, 0x01, 0x04, 0x05, 0x02,  // header, first = 1
                                            0x02, 0x00, 0x00, 0x00, 0x00};  // min delta 1, widths
// Example 2: 7 5 3 1 2 3 4 5 -> deltas -2 -2 -2 1 1 1 1, min -2, relative 0 0 0 3 3 3 3 at
// width 2, one miniblock of 32 values padded (8 bytes), the other three unused.
const std::vector<uint8_t> kSpecExample2 = {0x80, 0x01, 0x04, 0x08, 0x0e, 0x03, 0x02, 0x00, 0x00, 0x00,
                                            0xc0, 0x3f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};

TEST_P(DeltaTest, SpecExamples) {
  DeltaBinaryPackedDecoder<int32_t> dec(GetParam());
  ASSERT_TRUE(dec.Reset(kSpecExample1.data(), static_cast<int64_t>(kSpecExample1.size())).ok());
  EXPECT_EQ(dec.total_values(), 5);
  int32_t out[8];
  ASSERT_TRUE(dec.Decode(out, 5).ok());
  for (int i = 0; i < 5; ++i) EXPECT_EQ(out[i], i + 1);
  int64_t used = 0;
  ASSERT_TRUE(dec.ConsumeAll(&used).ok());
  EXPECT_EQ(used, 10);

  ASSERT_TRUE(dec.Reset(kSpecExample2.data(), static_cast<int64_t>(kSpecExample2.size())).ok());
  ASSERT_TRUE(dec.Decode(out, 3).ok());  // batches inside one miniblock
  ASSERT_TRUE(dec.Decode(out + 3, 5).ok());
  const int32_t expect[] = {7, 5, 3, 1, 2, 3, 4, 5};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], expect[i]);
  EXPECT_TRUE(dec.Decode(out, 1).IsCorrupt());
  ASSERT_TRUE(dec.ConsumeAll(&used).ok());
  EXPECT_EQ(used, 18);

  // Our encoder writes exactly these bytes.
  BufferBuilder enc;
  ASSERT_TRUE(DeltaBinaryPackedEncode(expect, 8, &enc).ok());
  EXPECT_EQ(Bytes(enc), kSpecExample2);
}

TEST_P(DeltaTest, UnusedMiniblockWidthsAreIgnored) {
  // Same as example 2 but the unused miniblocks claim widths 33, 200, 7: readers must ignore
  // them and expect no bytes for them.
  auto data = kSpecExample2;
  data[7] = 33;
  data[8] = 200;
  data[9] = 7;
  DeltaBinaryPackedDecoder<int32_t> dec(GetParam());
  ASSERT_TRUE(dec.Reset(data.data(), static_cast<int64_t>(data.size())).ok());
  int32_t out[8];
  ASSERT_TRUE(dec.Decode(out, 8).ok());
  EXPECT_EQ(out[7], 5);
  // But a used miniblock wider than 32 bits for INT32 is corrupt.
  data[6] = 33;
  ASSERT_TRUE(dec.Reset(data.data(), static_cast<int64_t>(data.size())).ok());
  Status st = dec.Decode(out, 8);
  EXPECT_EQ(st.message(), "DELTA_BINARY_PACKED miniblock bit width 33 exceeds 32");
}

TEST_P(DeltaTest, HeaderErrors) {
  DeltaBinaryPackedDecoder<int64_t> dec(GetParam());
  const uint8_t bad_block[] = {0x40, 0x04, 0x01, 0x00};  // block size 64
  EXPECT_TRUE(dec.Reset(bad_block, 4).IsCorrupt());
  const uint8_t bad_mini[] = {0x80, 0x01, 0x03, 0x01, 0x00};  // 128 / 3
  EXPECT_TRUE(dec.Reset(bad_mini, 5).IsCorrupt());
  const uint8_t mini_not_32[] = {0x80, 0x01, 0x08, 0x01, 0x00};  // 16 per miniblock
  EXPECT_TRUE(dec.Reset(mini_not_32, 5).IsCorrupt());
  const uint8_t truncated[] = {0x80, 0x01, 0x04};
  EXPECT_EQ(dec.Reset(truncated, 3).message(), "DELTA_BINARY_PACKED header is truncated or malformed");
  const uint8_t huge_count[] = {0x80, 0x01, 0x04, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00};
  EXPECT_TRUE(dec.Reset(huge_count, sizeof(huge_count)).IsCorrupt());
  // Count 3 but no block follows the header: caught up front.
  const uint8_t no_block[] = {0x80, 0x01, 0x04, 0x03, 0x00};
  EXPECT_EQ(dec.Reset(no_block, 5).message(), "DELTA_BINARY_PACKED value count 3 cannot fit in 0 bytes");
  // A block header (min delta 1, widths 5 0 0 0) without its miniblock bytes.
  const uint8_t no_miniblock[] = {0x80, 0x01, 0x04, 0x03, 0x00, 0x02, 0x05, 0x00, 0x00, 0x00};
  ASSERT_TRUE(dec.Reset(no_miniblock, sizeof(no_miniblock)).ok());
  int64_t out[3];
  Status st = dec.Decode(out, 3);
  EXPECT_EQ(st.message(), "DELTA_BINARY_PACKED data truncated in a miniblock at byte 10 of 10 (2 of 3 values left)");
  // INT32 first value out of range.
  const uint8_t wide_first[] = {0x80, 0x01, 0x04, 0x01, 0x80, 0x80, 0x80, 0x80, 0x20};
  DeltaBinaryPackedDecoder<int32_t> dec32(GetParam());
  EXPECT_TRUE(dec32.Reset(wide_first, sizeof(wide_first)).IsCorrupt());
}

TEST_P(DeltaTest, EmptyAndSingle) {
  for (int n : {0, 1}) {
    const int64_t v[] = {std::numeric_limits<int64_t>::min()};
    BufferBuilder enc;
    ASSERT_TRUE(DeltaBinaryPackedEncode(v, n, &enc).ok());
    DeltaBinaryPackedDecoder<int64_t> dec(GetParam());
    ASSERT_TRUE(dec.Reset(enc.data(), enc.size()).ok());
    EXPECT_EQ(dec.total_values(), n);
    int64_t out[1] = {0};
    ASSERT_TRUE(dec.Decode(out, n).ok());
    if (n == 1) {
      EXPECT_EQ(out[0], v[0]);
    }
    int64_t used;
    ASSERT_TRUE(dec.ConsumeAll(&used).ok());
    EXPECT_EQ(used, enc.size());
  }
}

template <typename T>
void RoundTrip(SimdLevel level, const std::vector<T>& values, std::mt19937& rng) {
  BufferBuilder enc;
  ASSERT_TRUE(DeltaBinaryPackedEncode(values.data(), static_cast<int64_t>(values.size()), &enc).ok());
  DeltaBinaryPackedDecoder<T> dec(level);
  ASSERT_TRUE(dec.Reset(enc.data(), enc.size()).ok());
  ASSERT_EQ(dec.total_values(), static_cast<int64_t>(values.size()));
  std::vector<T> got(values.size());
  size_t pos = 0;
  while (pos < values.size()) {
    const size_t k = std::min<size_t>(values.size() - pos, 1 + rng() % 300);
    ASSERT_TRUE(dec.Decode(got.data() + pos, static_cast<int64_t>(k)).ok());
    pos += k;
  }
  ASSERT_EQ(got, values);
  int64_t used;
  ASSERT_TRUE(dec.ConsumeAll(&used).ok());
  EXPECT_EQ(used, enc.size());
}

TEST_P(DeltaTest, RoundTripExtremes) {
  std::mt19937 rng(17);
  const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  // Deltas that overflow int64: max -> min -> max; they must wrap, and need bit width 64.
  std::vector<int64_t> v64 = {hi, lo, hi, 0, lo, lo, hi, -1, 1};
  RoundTrip(GetParam(), v64, rng);
  const int32_t lo32 = std::numeric_limits<int32_t>::min(), hi32 = std::numeric_limits<int32_t>::max();
  std::vector<int32_t> v32 = {hi32, lo32, hi32, 0, lo32, -1};
  RoundTrip(GetParam(), v32, rng);
  // All the same (width 0), and exact block multiples.
  RoundTrip(GetParam(), std::vector<int64_t>(128 * 3 + 1, 42), rng);
  RoundTrip(GetParam(), std::vector<int32_t>(128 * 2, -5), rng);
}

TEST_P(DeltaTest, RoundTripRandomWidths) {
  std::mt19937 rng(23);
  for (int bits = 0; bits <= 64; bits += 3) {
    const int64_t n = 1 + rng() % 2000;
    std::vector<int64_t> v64(n);
    std::vector<int32_t> v32(n);
    std::mt19937_64 r64(bits);
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
      v64[i] = static_cast<int64_t>(r64() & mask);
      v32[i] = static_cast<int32_t>(r64() & mask);
    }
    RoundTrip(GetParam(), v64, rng);
    RoundTrip(GetParam(), v32, rng);
  }
}

TEST_P(DeltaTest, WriterBlockSize1024IsRead) {
  // Another writer's layout: blocks of 1024 in 8 miniblocks of 128, values 0, 3, 6, ...
  // Deltas are all 3: min delta 3, every width 0. 2000 values = 2 blocks.
  std::vector<uint8_t> data = {0x80, 0x08, 0x08, 0xd0, 0x0f, 0x00};
  for (int b = 0; b < 2; ++b) {
    data.push_back(0x06);
    for (int m = 0; m < 8; ++m) data.push_back(0x00);
  }
  DeltaBinaryPackedDecoder<int32_t> dec(GetParam());
  ASSERT_TRUE(dec.Reset(data.data(), static_cast<int64_t>(data.size())).ok());
  std::vector<int32_t> out(2000);
  ASSERT_TRUE(dec.Decode(out.data(), 2000).ok());
  for (int i = 0; i < 2000; ++i) ASSERT_EQ(out[i], 3 * i);
}

// parquet-format Encodings.md: "Hello", "World", "Foobar", "ABCDEF" -> lengths 5 5 6 6 as
// DELTA_BINARY_PACKED (first 5, deltas 0 1 0, min 0, width 1: bits 0 1 0 = 0x02), then bytes.
std::vector<uint8_t> SpecDlba() {
  std::vector<uint8_t> d = {0x80, 0x01, 0x04, 0x04, 0x0a, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00};
  const std::string bytes = "HelloWorldFoobarABCDEF";
  d.insert(d.end(), bytes.begin(), bytes.end());
  return d;
}

TEST_P(DeltaTest, DeltaLengthByteArraySpecExample) {
  auto data = SpecDlba();
  DeltaLengthByteArrayDecoder dec(GetParam());
  ASSERT_TRUE(dec.Reset(data.data(), static_cast<int64_t>(data.size())).ok());
  Strings s;
  ASSERT_TRUE(dec.Decode(1, &s.offsets, &s.data).ok());
  ASSERT_TRUE(dec.Decode(3, &s.offsets, &s.data).ok());
  EXPECT_EQ(s.all(), (std::vector<std::string>{"Hello", "World", "Foobar", "ABCDEF"}));
  EXPECT_TRUE(dec.Decode(1, &s.offsets, &s.data).IsCorrupt());
  // Encoder produces the same bytes.
  StringInput in({"Hello", "World", "Foobar", "ABCDEF"});
  DeltaLengthByteArrayEncoder enc;
  ASSERT_TRUE(enc.Put(in.offsets.data(), in.bytes(), 4).ok());
  BufferBuilder out;
  ASSERT_TRUE(enc.Finish(&out).ok());
  EXPECT_EQ(Bytes(out), data);
}

TEST_P(DeltaTest, DeltaLengthByteArrayErrors) {
  auto data = SpecDlba();
  DeltaLengthByteArrayDecoder dec(GetParam());
  // One byte of values missing.
  EXPECT_EQ(dec.Reset(data.data(), static_cast<int64_t>(data.size()) - 1).message(),
            "DELTA_LENGTH_BYTE_ARRAY lengths add up to 22 bytes but 21 follow them");
  // Negative length: first value -1 (zigzag 1), deltas as before.
  auto neg = data;
  neg[4] = 0x01;
  EXPECT_EQ(dec.Reset(neg.data(), static_cast<int64_t>(neg.size())).message(),
            "DELTA_LENGTH_BYTE_ARRAY value 0 has negative length -1");
}

TEST_P(DeltaTest, DeltaByteArraySpecExample) {
  // "axis", "axle", "babble", "babyhood": prefixes 0 2 0 3, suffixes axis le babble yhood.
  StringInput in({"axis", "axle", "babble", "babyhood"});
  DeltaByteArrayEncoder enc;
  ASSERT_TRUE(enc.Put(in.offsets.data(), in.bytes(), 4).ok());
  BufferBuilder out;
  ASSERT_TRUE(enc.Finish(&out).ok());
  // Prefix lengths 0 2 0 3: first 0, deltas 2 -2 3, min -2 (zigzag 3), relative 4 0 5 at width 3.
  // Relative values LSB first: 4 at bits 0-2 (bit 2), 0, 5 at bits 6-8 (bits 6 and 8) -> 0x44 0x01;
  // the miniblock is padded to 32 x 3 bits = 12 bytes.
  std::vector<uint8_t> expect = {0x80, 0x01, 0x04, 0x04, 0x00, 0x03, 0x03, 0x00, 0x00, 0x00, 0x44, 0x01};
  expect.insert(expect.end(), 10, 0x00);
  // Suffix lengths 4 2 6 5: first 4 (zigzag 8), deltas -2 4 -1, min -2, relative 0 6 1 at width 3:
  // 6 at bits 3-5 (bits 4 and 5), 1 at bit 6 -> 0x70.
  std::vector<uint8_t> suffix = {0x80, 0x01, 0x04, 0x04, 0x08, 0x03, 0x03, 0x00, 0x00, 0x00, 0x70, 0x00};
  suffix.insert(suffix.end(), 10, 0x00);
  const std::string bytes = "axislebabbleyhood";
  expect.insert(expect.end(), suffix.begin(), suffix.end());
  expect.insert(expect.end(), bytes.begin(), bytes.end());
  EXPECT_EQ(Bytes(out), expect);

  DeltaByteArrayDecoder dec(GetParam());
  ASSERT_TRUE(dec.Reset(expect.data(), static_cast<int64_t>(expect.size())).ok());
  Strings s;
  ASSERT_TRUE(dec.Decode(2, &s.offsets, &s.data).ok());  // batch boundary carries "axle"
  ASSERT_TRUE(dec.Decode(2, &s.offsets, &s.data).ok());
  EXPECT_EQ(s.all(), (std::vector<std::string>{"axis", "axle", "babble", "babyhood"}));
}

TEST_P(DeltaTest, DeltaByteArrayPrefixLongerThanPrevious) {
  // Prefixes 0 5: the second value claims 5 shared bytes of a 2-byte value.
  const int32_t prefixes[] = {0, 5};
  BufferBuilder data;
  ASSERT_TRUE(DeltaBinaryPackedEncode(prefixes, 2, &data).ok());
  StringInput suffixes({"ab", "c"});
  DeltaLengthByteArrayEncoder s;
  ASSERT_TRUE(s.Put(suffixes.offsets.data(), suffixes.bytes(), 2).ok());
  ASSERT_TRUE(s.Finish(&data).ok());
  DeltaByteArrayDecoder dec(GetParam());
  ASSERT_TRUE(dec.Reset(data.data(), data.size()).ok());
  Strings out;
  Status st = dec.Decode(2, &out.offsets, &out.data);
  EXPECT_EQ(st.message(), "DELTA_BYTE_ARRAY value 1 shares a prefix of 5 bytes with a previous value of 2 bytes");
  // Counts that disagree.
  BufferBuilder mismatch;
  ASSERT_TRUE(DeltaBinaryPackedEncode(prefixes, 1, &mismatch).ok());
  DeltaLengthByteArrayEncoder s2;
  ASSERT_TRUE(s2.Put(suffixes.offsets.data(), suffixes.bytes(), 2).ok());
  ASSERT_TRUE(s2.Finish(&mismatch).ok());
  EXPECT_EQ(dec.Reset(mismatch.data(), mismatch.size()).message(), "DELTA_BYTE_ARRAY has 1 prefix lengths but 2 suffixes");
}

TEST_P(DeltaTest, ByteArrayRoundTrips) {
  std::mt19937 rng(5);
  auto values = testing::RandomStrings(5000, 3, 25, 300);
  std::sort(values.begin(), values.begin() + 2500);  // sorted half: long shared prefixes
  values[10] = "";
  StringInput in(values);
  for (int which = 0; which < 2; ++which) {
    BufferBuilder out;
    if (which == 0) {
      DeltaLengthByteArrayEncoder enc;
      ASSERT_TRUE(enc.Put(in.offsets.data(), in.bytes(), 5000).ok());
      ASSERT_TRUE(enc.Finish(&out).ok());
    } else {
      DeltaByteArrayEncoder enc;
      ASSERT_TRUE(enc.Put(in.offsets.data(), in.bytes(), 5000).ok());
      ASSERT_TRUE(enc.Finish(&out).ok());
    }
    Strings s;
    DeltaLengthByteArrayDecoder dlba(GetParam());
    DeltaByteArrayDecoder dba(GetParam());
    if (which == 0) {
      ASSERT_TRUE(dlba.Reset(out.data(), out.size()).ok());
    } else {
      ASSERT_TRUE(dba.Reset(out.data(), out.size()).ok());
    }
    int64_t pos = 0;
    while (pos < 5000) {
      const int64_t k = std::min<int64_t>(5000 - pos, 1 + rng() % 700);
      ASSERT_TRUE((which == 0 ? dlba.Decode(k, &s.offsets, &s.data) : dba.Decode(k, &s.offsets, &s.data)).ok());
      pos += k;
    }
    EXPECT_EQ(s.all(), values) << which;
  }
}

TEST_P(DeltaTest, DeltaByteArrayFixedLen) {
  std::vector<uint8_t> fixed(16 * 300);
  std::mt19937 rng(1);
  for (size_t i = 0; i < fixed.size(); ++i) fixed[i] = i % 16 < 10 ? 7 : static_cast<uint8_t>(rng());
  DeltaByteArrayEncoder enc;
  ASSERT_TRUE(enc.PutFixed(fixed.data(), 16, 300).ok());
  BufferBuilder out;
  ASSERT_TRUE(enc.Finish(&out).ok());
  DeltaByteArrayDecoder dec(GetParam());
  ASSERT_TRUE(dec.Reset(out.data(), out.size()).ok());
  std::vector<uint8_t> got(fixed.size());
  ASSERT_TRUE(dec.DecodeFixed(100, 16, got.data()).ok());
  ASSERT_TRUE(dec.DecodeFixed(200, 16, got.data() + 1600).ok());
  EXPECT_EQ(got, fixed);
  ASSERT_TRUE(dec.Reset(out.data(), out.size()).ok());
  EXPECT_EQ(dec.DecodeFixed(1, 15, got.data()).message(),
            "DELTA_BYTE_ARRAY value 0 has 16 bytes, FIXED_LEN_BYTE_ARRAY(15) expected");
}

INSTANTIATE_TEST_SUITE_P(Levels, DeltaTest, ::testing::ValuesIn(SupportedSimdLevels()), testing::LevelName);

}  // namespace
}  // namespace quiver::parquet::encoding

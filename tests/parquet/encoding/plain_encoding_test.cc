#include "quiver/parquet/encoding/plain_internal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "encoding_test_util.h"

namespace quiver::parquet::encoding {
namespace {

using testing::Bytes;
using testing::Strings;
using testing::StringInput;

TEST(PlainEncoding, FixedWidthHandBuilt) {
  // INT32 1, -2 little-endian; then a short tail that is not a whole value.
  const uint8_t data[] = {0x01, 0x00, 0x00, 0x00, 0xfe, 0xff, 0xff, 0xff, 0x07};
  PlainFixedDecoder dec;
  ASSERT_TRUE(dec.Reset(data, sizeof(data), 4).ok());
  EXPECT_EQ(dec.values_left(), 2);
  int32_t out[3];
  ASSERT_TRUE(dec.Decode(out, 2).ok());
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], -2);
  Status st = dec.Decode(out, 1);
  EXPECT_TRUE(st.IsCorrupt());
  EXPECT_EQ(st.message(), "PLAIN page holds 0 more values of 4 bytes, 1 requested");
}

TEST(PlainEncoding, ZeroCopyTakeAndInt96) {
  std::vector<uint8_t> data(36);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i);
  PlainFixedDecoder dec;
  ASSERT_TRUE(dec.Reset(data.data(), 36, 12).ok());
  const uint8_t* p;
  ASSERT_TRUE(dec.Take(2, &p).ok());
  EXPECT_EQ(p, data.data());
  uint8_t last[12];
  ASSERT_TRUE(dec.Decode(last, 1).ok());
  EXPECT_EQ(last[0], 24);
  EXPECT_TRUE(dec.Skip(1).IsCorrupt());
  EXPECT_TRUE(dec.Reset(data.data(), 36, 0).IsCorrupt());
}

TEST(PlainEncoding, RoundTripNumbers) {
  std::mt19937_64 rng(3);
  std::vector<double> d = {0.0, -0.0, std::numeric_limits<double>::quiet_NaN(),
                           std::numeric_limits<double>::infinity(), -1e308, 5e-324};
  for (int i = 0; i < 1000; ++i) d.push_back(static_cast<double>(rng()) / 3.0);
  BufferBuilder out;
  ASSERT_TRUE(PlainEncodeFixed(d.data(), static_cast<int64_t>(d.size()), 8, &out).ok());
  PlainFixedDecoder dec;
  ASSERT_TRUE(dec.Reset(out.data(), out.size(), 8).ok());
  std::vector<double> got(d.size());
  ASSERT_TRUE(dec.Decode(got.data(), static_cast<int64_t>(got.size())).ok());
  EXPECT_EQ(std::memcmp(got.data(), d.data(), d.size() * 8), 0);

  // Nulls take no room: only valid values are written.
  std::vector<int64_t> v = {10, 20, 30, 40, 50};
  uint8_t validity = 0b10101;
  BufferBuilder sparse;
  ASSERT_TRUE(PlainEncodeFixed(v.data(), 5, 8, &sparse, &validity, 0).ok());
  ASSERT_EQ(sparse.size(), 24);
  const int64_t* w = reinterpret_cast<const int64_t*>(sparse.data());
  EXPECT_EQ(w[0], 10);
  EXPECT_EQ(w[1], 30);
  EXPECT_EQ(w[2], 50);
}

TEST(PlainEncoding, Booleans) {
  // true, false, true, true, false, false, false, true | true  (LSB first)
  const uint8_t data[] = {0x8d, 0x01};
  PlainBooleanDecoder dec;
  dec.Reset(data, 2);
  uint8_t bytes[9];
  ASSERT_TRUE(dec.Decode(bytes, 9).ok());
  const uint8_t expect[] = {1, 0, 1, 1, 0, 0, 0, 1, 1};
  for (int i = 0; i < 9; ++i) EXPECT_EQ(bytes[i], expect[i]);
  EXPECT_EQ(dec.values_left(), 7);  // padding bits of the last byte
  dec.Reset(data, 2);
  uint8_t bitmap[3] = {0xff, 0xff, 0xff};
  ASSERT_TRUE(dec.DecodeBitmap(bitmap, 5, 9).ok());
  for (int i = 0; i < 9; ++i) EXPECT_EQ(bit_util::GetBit(bitmap, 5 + i), expect[i] != 0);
  EXPECT_TRUE(dec.DecodeBitmap(bitmap, 0, 8).IsCorrupt());

  PlainBooleanEncoder enc;
  ASSERT_TRUE(enc.Put(expect, 5).ok());
  ASSERT_TRUE(enc.PutBitmap(data, 5, 4).ok());
  BufferBuilder out;
  ASSERT_TRUE(enc.Finish(&out).ok());
  EXPECT_EQ(Bytes(out), (std::vector<uint8_t>{0x8d, 0x01}));
}

TEST(PlainEncoding, ByteArrayHandBuilt) {
  const uint8_t data[] = {3, 0, 0, 0, 'a', 'b', 'c', 0, 0, 0, 0, 2, 0, 0, 0, 'x', 'y'};
  PlainByteArrayDecoder dec;
  dec.Reset(data, sizeof(data));
  Strings s;
  ASSERT_TRUE(dec.Decode(2, &s.offsets, &s.data).ok());
  ASSERT_TRUE(dec.Decode(1, &s.offsets, &s.data).ok());
  EXPECT_EQ(s.all(), (std::vector<std::string>{"abc", "", "xy"}));
  EXPECT_TRUE(dec.Decode(1, &s.offsets, &s.data).IsCorrupt());
}

TEST(PlainEncoding, ByteArrayErrors) {
  const uint8_t negative[] = {0xff, 0xff, 0xff, 0xff};
  PlainByteArrayDecoder dec;
  dec.Reset(negative, 4);
  Strings s;
  Status st = dec.Decode(1, &s.offsets, &s.data);
  EXPECT_EQ(st.message(), "PLAIN BYTE_ARRAY value 0 at byte 0: negative length (-1)");
  const uint8_t too_long[] = {9, 0, 0, 0, 'a'};
  dec.Reset(too_long, 5);
  EXPECT_EQ(dec.Decode(1, &s.offsets, &s.data).message(),
            "PLAIN BYTE_ARRAY value 0 at byte 0: length runs past the page end (9)");
  const uint8_t cut_prefix[] = {1, 0, 0, 0, 'a', 1, 0};
  dec.Reset(cut_prefix, 7);
  EXPECT_EQ(dec.Decode(2, &s.offsets, &s.data).message(),
            "PLAIN BYTE_ARRAY value 1 at byte 5: length prefix runs past the page end (2)");
}

// Lengths on both sides of the fixed 48-byte copies (0..70), long values before short ones, and
// the last values with fewer than 48 page bytes after them: exact values after bytes already in
// the output.
TEST(PlainEncoding, ByteArrayEveryShortLength) {
  std::vector<std::string> values;
  for (int round = 0; round < 3; ++round) {
    for (int len = 0; len <= 70; ++len) {
      std::string v(static_cast<size_t>(len), ' ');
      for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<char>('!' + (len * 5 + round + static_cast<int>(i)) % 90);
      values.push_back(v);
    }
  }
  std::reverse(values.begin() + 71, values.begin() + 142);  // long values before short ones too
  StringInput in(values);
  BufferBuilder out;
  const auto n = static_cast<int64_t>(values.size());
  ASSERT_TRUE(PlainEncodeByteArrays(in.offsets.data(), in.bytes(), n, &out).ok());
  PlainByteArrayDecoder dec;
  dec.Reset(out.data(), out.size());
  Strings s;
  ASSERT_TRUE(s.data.Append("head", 4).ok());
  ASSERT_TRUE(s.offsets.AppendValue<int32_t>(0).ok());
  ASSERT_TRUE(s.offsets.AppendValue<int32_t>(4).ok());
  ASSERT_TRUE(dec.Decode(n, &s.offsets, &s.data).ok());
  auto expect = values;
  expect.insert(expect.begin(), "head");
  EXPECT_EQ(s.all(), expect);
  EXPECT_EQ(dec.bytes_left(), 0);
}

TEST(PlainEncoding, ByteArrayRoundTrip) {
  auto values = testing::RandomStrings(3000, 5, 40);
  StringInput in(values);
  BufferBuilder out;
  ASSERT_TRUE(PlainEncodeByteArrays(in.offsets.data(), in.bytes(), 3000, &out).ok());
  PlainByteArrayDecoder dec;
  dec.Reset(out.data(), out.size());
  Strings s;
  ASSERT_TRUE(dec.Decode(1000, &s.offsets, &s.data).ok());
  ASSERT_TRUE(dec.Skip(1).ok());
  ASSERT_TRUE(dec.Decode(1999, &s.offsets, &s.data).ok());
  auto expect = values;
  expect.erase(expect.begin() + 1000);
  EXPECT_EQ(s.all(), expect);
  EXPECT_EQ(dec.bytes_left(), 0);
}

// Values of every length from 0 to 72 (up to 64 bytes they take four fixed 16-byte moves,
// longer ones and those in the last 64 bytes of the input a copy by length), with nulls skipped
// and a validity offset, from input bytes that end exactly where the last value does (an ASan
// build catches a read past them): each value behind its length, in order.
TEST(PlainEncoding, ByteArraysOfEveryLengthAndNulls) {
  std::mt19937 rng(41);
  const int64_t n = 2000;
  std::vector<int32_t> offsets{0};
  std::string text;
  for (int64_t i = 0; i < n; ++i) {
    const int len = i < 73 ? static_cast<int>(i) : static_cast<int>(rng() % 73);
    for (int k = 0; k < len; ++k) text.push_back(static_cast<char>('a' + rng() % 26));
    offsets.push_back(static_cast<int32_t>(text.size()));
  }
  const std::vector<uint8_t> bytes(text.begin(), text.end());  // exactly the values' bytes
  const int64_t voff = 5;
  std::vector<uint8_t> validity(static_cast<size_t>((n + voff) / 8 + 1), 0);
  std::string want;
  for (int64_t i = 0; i < n; ++i) {
    if (i % 7 == 3) continue;
    validity[static_cast<size_t>((i + voff) / 8)] |= static_cast<uint8_t>(1u << ((i + voff) % 8));
    const int32_t len = offsets[i + 1] - offsets[i];
    want.append(reinterpret_cast<const char*>(&len), 4);
    want.append(text, static_cast<size_t>(offsets[i]), static_cast<size_t>(len));
  }
  BufferBuilder out;
  ASSERT_TRUE(out.Append(std::string("xyz")).ok());
  ASSERT_TRUE(PlainEncodeByteArrays(offsets.data(), bytes.data(), n, &out, validity.data(), voff).ok());
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(out.data()), static_cast<size_t>(out.size())), "xyz" + want);
  // A slice from the middle: offsets need not start at zero.
  BufferBuilder part;
  ASSERT_TRUE(PlainEncodeByteArrays(offsets.data() + 1500, bytes.data(), 500, &part).ok());
  std::string tail;
  for (int64_t i = 1500; i < n; ++i) {
    const int32_t len = offsets[i + 1] - offsets[i];
    tail.append(reinterpret_cast<const char*>(&len), 4);
    tail.append(text, static_cast<size_t>(offsets[i]), static_cast<size_t>(len));
  }
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(part.data()), static_cast<size_t>(part.size())), tail);
}

}  // namespace
}  // namespace quiver::parquet::encoding

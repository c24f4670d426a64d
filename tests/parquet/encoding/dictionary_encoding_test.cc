#include "quiver/parquet/encoding/dictionary_internal.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "encoding_test_util.h"
#include "quiver/parquet/encoding/plain_internal.h"

namespace quiver::parquet::encoding {
namespace {

using testing::StringInput;

// Puts values [from, to) of `in` in slices of `slice` values (null where `validity`, indexed from
// value 0, has a 0), as the writer does, and appends each slice's indices, flushed after it.
void PutInSlices(ByteArrayDictionaryEncoder& enc, const StringInput& in, int64_t from, int64_t to, int64_t slice,
                 const uint8_t* validity, std::vector<int32_t>* indices) {
  for (int64_t at = from; at < to; at += slice) {
    const int64_t m = std::min<int64_t>(to - at, slice);
    int64_t consumed = 0;
    ASSERT_TRUE(enc.Put(in.offsets.data() + at, in.bytes(), m, &consumed, validity, at).ok());
    ASSERT_EQ(consumed, m);
    indices->insert(indices->end(), enc.indices().begin(), enc.indices().end());
    BufferBuilder sink;
    ASSERT_TRUE(enc.FlushIndices(&sink).ok());
  }
}

using testing::Strings;
class DictionaryTest : public ::testing::TestWithParam<SimdLevel> {};

TEST_P(DictionaryTest, HandBuiltPage) {
  // Bit width 2; RLE run 3 x index 2; bit-packed group 0,1,2,3,3,2,1,0.
  // Group bits (LSB first, 2 each): 0b11100100 = 0xe4, 0b00011011 = 0x1b.
  const uint8_t page[] = {0x02, 0x06, 0x02, 0x03, 0xe4, 0x1b};
  const int64_t dict[] = {100, 200, 300, 400};
  DictionaryDecoder dec(GetParam());
  ASSERT_TRUE(dec.Reset(page, sizeof(page), 4).ok());
  int64_t out[11];
  ASSERT_TRUE(dec.Decode(dict, out, 11).ok());
  const int64_t expect[] = {300, 300, 300, 100, 200, 300, 400, 400, 300, 200, 100};
  for (int i = 0; i < 11; ++i) EXPECT_EQ(out[i], expect[i]) << i;

  ASSERT_TRUE(dec.Reset(page, sizeof(page), 4).ok());
  int32_t idx[11];
  ASSERT_TRUE(dec.DecodeIndices(idx, 11).ok());
  EXPECT_EQ(idx[0], 2);
  EXPECT_EQ(idx[6], 3);
}

TEST_P(DictionaryTest, IndexOutOfRangeIsCorrupt) {
  const uint8_t page[] = {0x02, 0x06, 0x02, 0x03, 0xe4, 0x1b};
  const int32_t dict[] = {1, 2, 3};
  DictionaryDecoder dec(GetParam());
  // Index 3 appears in the bit-packed group; a dictionary of 3 entries does not have it.
  ASSERT_TRUE(dec.Reset(page, sizeof(page), 3).ok());
  int32_t out[11];
  Status st = dec.Decode(dict, out, 11);
  EXPECT_TRUE(st.IsCorrupt());
  EXPECT_EQ(st.message(), "dictionary index 3 out of range: the dictionary has 3 entries");
  // An RLE run of index 2 against a 2-entry dictionary.
  ASSERT_TRUE(dec.Reset(page, sizeof(page), 2).ok());
  EXPECT_EQ(dec.DecodeIndices(out, 2).message(), "dictionary index 2 out of range: the dictionary has 2 entries");
  // Empty dictionary: everything is out of range.
  ASSERT_TRUE(dec.Reset(page, sizeof(page), 0).ok());
  EXPECT_TRUE(dec.DecodeIndices(out, 1).IsCorrupt());
  // Bad bit width byte, missing byte, truncated runs.
  const uint8_t wide[] = {33};
  EXPECT_EQ(dec.Reset(wide, 1, 3).message(), "dictionary index bit width 33 is larger than 32");
  EXPECT_TRUE(dec.Reset(wide, 0, 3).IsCorrupt());
  ASSERT_TRUE(dec.Reset(page, 4, 4).ok());  // cut inside the bit-packed group
  EXPECT_EQ(dec.DecodeIndices(out, 11).message(),
            "dictionary indices: RLE/bit-packed data ends after 3 of 11 values (bit width 2)");
}

TEST_P(DictionaryTest, GatherEveryWidthRoundTrip) {
  std::mt19937 rng(9);
  for (int dict_size : {1, 2, 17, 1000, 70000}) {
    std::vector<double> dict(dict_size);
    std::vector<int32_t> dict32(dict_size);
    for (int i = 0; i < dict_size; ++i) {
      dict[i] = i * 1.5;
      dict32[i] = i * 3 - 7;
    }
    const int64_t n = 5000;
    std::vector<int32_t> idx(n);
    for (auto& v : idx) v = rng() % 4 == 0 ? 0 : static_cast<int32_t>(rng() % dict_size);
    BufferBuilder page;
    ASSERT_TRUE(EncodeDictionaryIndices(idx.data(), n, DictionaryIndexBitWidth(dict_size), &page).ok());
    DictionaryDecoder dec(GetParam());
    ASSERT_TRUE(dec.Reset(page.data(), page.size(), dict_size).ok());
    std::vector<double> out(n);
    ASSERT_TRUE(dec.Decode(dict.data(), out.data(), 1234).ok());
    ASSERT_TRUE(dec.Decode(dict.data(), out.data() + 1234, n - 1234).ok());
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out[i], dict[idx[i]]) << i;
    ASSERT_TRUE(dec.Reset(page.data(), page.size(), dict_size).ok());
    std::vector<int32_t> out32(n);
    ASSERT_TRUE(dec.Decode(dict32.data(), out32.data(), n).ok());
    for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out32[i], dict32[idx[i]]) << i;
  }
}

// One-byte entries: dictionaries within the 16 a register holds and past them (a stretch of 16
// rows with an index of 16 or more looked up one by one), a dictionary with fewer than 16
// readable bytes, and a tail of fewer than 16 rows, at every level.
TEST_P(DictionaryTest, GatherOneByteEntries) {
  const GatherKernels& k = GatherKernelsFor(GetParam());
  for (int dict_size : {3, 16, 17, 200}) {
    std::vector<uint8_t> dict(static_cast<size_t>(dict_size) + 32, 0);
    for (int e = 0; e < dict_size; ++e) dict[static_cast<size_t>(e)] = static_cast<uint8_t>('A' + e * 7 % 58);
    const int64_t n = 1003;
    std::vector<int32_t> idx(n);
    // Rows 480..495 name the last entry (past 16 when the dictionary is larger), the rest cycle.
    for (int64_t i = 0; i < n; ++i) idx[i] = i >= 480 && i < 496 ? dict_size - 1 : static_cast<int32_t>(i * 5 % std::min(dict_size, 16));
    for (int64_t readable : {static_cast<int64_t>(dict.size()), static_cast<int64_t>(dict_size)}) {
      std::vector<uint8_t> out(n, 0);
      k.gather8(dict.data(), readable, idx.data(), n, out.data());
      for (int64_t i = 0; i < n; ++i) {
        ASSERT_EQ(out[i], dict[static_cast<size_t>(idx[i])]) << "dict " << dict_size << " readable " << readable << " row " << i;
      }
    }
  }
}

// Short entries gathered at one fixed width: exact bytes and offsets after bytes already in the
// destination, every length 0..16 at width 16 and 0..32 at width 32, in no order.
TEST(DictionaryEncoding, GatherShortByteArrays) {
  for (int width : {16, 32}) {
    std::vector<std::string> entries;
    for (int len = 0; len <= width; ++len) {
      std::string e(static_cast<size_t>(len), ' ');
      for (size_t i = 0; i < e.size(); ++i) e[i] = static_cast<char>('A' + (e.size() * 7 + i) % 50);
      entries.push_back(e);
    }
    std::vector<int32_t> dict_offsets{0};
    std::string dict_data;
    for (const std::string& e : entries) {
      dict_data += e;
      dict_offsets.push_back(static_cast<int32_t>(dict_data.size()));
    }
    dict_data.append(32, '\xee');  // the 32 readable bytes past the entries
    const int64_t n = 777;
    std::vector<int32_t> idx(n);
    for (int64_t i = 0; i < n; ++i) idx[i] = static_cast<int32_t>((i * 13 + i / 7) % static_cast<int64_t>(entries.size()));
    std::string expect = "pre";
    std::vector<int32_t> expect_off;
    for (int64_t i = 0; i < n; ++i) {
      expect += entries[static_cast<size_t>(idx[i])];
      expect_off.push_back(static_cast<int32_t>(expect.size()));
    }
    std::vector<uint8_t> dst(expect.size() + 32, 0);
    std::memcpy(dst.data(), "pre", 3);
    std::vector<int32_t> off(n, -1);
    const int64_t end = DictionaryDecoder::GatherShortByteArrays(
        width, dict_offsets.data(), reinterpret_cast<const uint8_t*>(dict_data.data()), idx.data(), n, off.data(),
        dst.data(), 3);
    ASSERT_EQ(end, static_cast<int64_t>(expect.size())) << "width " << width;
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(dst.data()), expect.size()), expect) << "width " << width;
    EXPECT_EQ(off, expect_off) << "width " << width;
  }
}

TEST_P(DictionaryTest, ByteArraysAndFixed) {
  auto words = testing::RandomStrings(50, 1, 30);
  words[3] = "";
  words[4] = std::string(100, 'z');  // longer than the 16-byte fast copy
  StringInput dict(words);
  std::mt19937 rng(2);
  std::vector<int32_t> idx(3000);
  for (auto& v : idx) v = static_cast<int32_t>(rng() % 50);
  for (int i = 100; i < 200; ++i) idx[i] = 4;  // an RLE run of the long string
  BufferBuilder page;
  ASSERT_TRUE(EncodeDictionaryIndices(idx.data(), 3000, 6, &page).ok());
  DictionaryDecoder dec(GetParam());
  ASSERT_TRUE(dec.Reset(page.data(), page.size(), 50).ok());
  Strings out;
  ASSERT_TRUE(dec.DecodeByteArrays(dict.offsets.data(), dict.bytes(), 1000, &out.offsets, &out.data).ok());
  ASSERT_TRUE(dec.DecodeByteArrays(dict.offsets.data(), dict.bytes(), 2000, &out.offsets, &out.data).ok());
  ASSERT_EQ(out.size(), 3000);
  for (int i = 0; i < 3000; ++i) ASSERT_EQ(out.at(i), words[idx[i]]) << i;

  // FIXED_LEN_BYTE_ARRAY(3) dictionary.
  const uint8_t fixed[] = {'a', 'b', 'c', 'd', 'e', 'f'};
  ASSERT_TRUE(dec.Reset(page.data(), page.size(), 2).ok());
  std::vector<int32_t> two(16);
  for (int i = 0; i < 16; ++i) two[i] = i % 3 == 0;
  BufferBuilder page2;
  ASSERT_TRUE(EncodeDictionaryIndices(two.data(), 16, 1, &page2).ok());
  ASSERT_TRUE(dec.Reset(page2.data(), page2.size(), 2).ok());
  uint8_t fout[48];
  ASSERT_TRUE(dec.DecodeFixed(fixed, 3, fout, 16).ok());
  for (int i = 0; i < 16; ++i) EXPECT_EQ(fout[i * 3], two[i] ? 'd' : 'a');
}

TEST_P(DictionaryTest, EncoderRoundTripAndFallback) {
  std::mt19937_64 rng(4);
  std::vector<int64_t> values(10000);
  for (auto& v : values) v = static_cast<int64_t>(rng() % 300) * 1000003;
  DictionaryEncoder<int64_t> enc(1 << 20);
  int64_t consumed = 0;
  ASSERT_TRUE(enc.Put(values.data(), 6000, &consumed).ok());
  ASSERT_EQ(consumed, 6000);
  BufferBuilder page1, page2, dict_page;
  ASSERT_TRUE(enc.FlushIndices(&page1).ok());
  ASSERT_TRUE(enc.Put(values.data() + 6000, 4000, &consumed).ok());
  ASSERT_TRUE(enc.FlushIndices(&page2).ok());
  ASSERT_TRUE(enc.WriteDictionaryPage(&dict_page).ok());
  EXPECT_EQ(enc.dict_size(), 300);
  // Decode the dictionary page as PLAIN, then each data page.
  PlainFixedDecoder plain;
  ASSERT_TRUE(plain.Reset(dict_page.data(), dict_page.size(), 8).ok());
  std::vector<int64_t> dict(enc.dict_size());
  ASSERT_TRUE(plain.Decode(dict.data(), enc.dict_size()).ok());
  std::vector<int64_t> got(10000);
  DictionaryDecoder dec(GetParam());
  ASSERT_TRUE(dec.Reset(page1.data(), page1.size(), enc.dict_size()).ok());
  ASSERT_TRUE(dec.Decode(dict.data(), got.data(), 6000).ok());
  ASSERT_TRUE(dec.Reset(page2.data(), page2.size(), enc.dict_size()).ok());
  ASSERT_TRUE(dec.Decode(dict.data(), got.data() + 6000, 4000).ok());
  EXPECT_EQ(got, values);

  // An 800-byte limit holds 100 doubles: Put stops at the value that would be entry 101.
  DictionaryEncoder<double> small(800);
  std::vector<double> distinct(500);
  for (int i = 0; i < 500; ++i) distinct[i] = i;
  ASSERT_TRUE(small.Put(distinct.data(), 500, &consumed).ok());
  EXPECT_EQ(consumed, 100);
  EXPECT_TRUE(small.full());
  EXPECT_EQ(small.buffered_indices(), 100);

  // Bit patterns decide identity: one NaN entry, -0.0 apart from 0.0.
  DictionaryEncoder<double> bits;
  const double odd[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN(), 1.0,
                        -0.0, 0.0, 1.0};
  ASSERT_TRUE(bits.Put(odd, 6, &consumed).ok());
  EXPECT_EQ(bits.dict_size(), 4);
}

TEST_P(DictionaryTest, ByteArrayEncoderRoundTrip) {
  auto values = testing::RandomStrings(20000, 8, 12, 700);
  values[5] = "";
  StringInput in(values);
  ByteArrayDictionaryEncoder enc;
  int64_t consumed = 0;
  ASSERT_TRUE(enc.Put(in.offsets.data(), in.bytes(), 20000, &consumed).ok());
  ASSERT_EQ(consumed, 20000);
  BufferBuilder page, dict_page;
  ASSERT_TRUE(enc.FlushIndices(&page).ok());
  ASSERT_TRUE(enc.WriteDictionaryPage(&dict_page).ok());
  EXPECT_EQ(dict_page.size(), enc.dictionary_bytes());
  PlainByteArrayDecoder plain;
  plain.Reset(dict_page.data(), dict_page.size());
  Strings dict;
  ASSERT_TRUE(plain.Decode(enc.dict_size(), &dict.offsets, &dict.data).ok());
  DictionaryDecoder dec(GetParam());
  ASSERT_TRUE(dec.Reset(page.data(), page.size(), enc.dict_size()).ok());
  Strings out;
  ASSERT_TRUE(dec.DecodeByteArrays(reinterpret_cast<const int32_t*>(dict.offsets.data()), dict.data.data(), 20000,
                                   &out.offsets, &out.data)
                  .ok());
  EXPECT_EQ(out.all(), values);

  // Size limit and nulls: validity skips entries; the limit counts 4 bytes per entry.
  ByteArrayDictionaryEncoder limited(4 * 3 + 3);
  StringInput abc({"a", "b", "c", "d"});
  ASSERT_TRUE(limited.Put(abc.offsets.data(), abc.bytes(), 4, &consumed).ok());
  EXPECT_EQ(consumed, 3);
  EXPECT_TRUE(limited.full());
  ByteArrayDictionaryEncoder sparse;
  uint8_t validity = 0b1010;
  ASSERT_TRUE(sparse.Put(abc.offsets.data(), abc.bytes(), 4, &consumed, &validity, 0).ok());
  EXPECT_EQ(sparse.dict_size(), 2);
  EXPECT_EQ(sparse.entry(0), "b");
  EXPECT_EQ(sparse.buffered_indices(), 2);
  BufferBuilder fixed;
  EXPECT_TRUE(sparse.WriteDictionaryPageFixed(1, &fixed).ok());
  EXPECT_EQ(fixed.size(), 2);
  EXPECT_TRUE(sparse.WriteDictionaryPageFixed(2, &fixed).IsInvalid());
}

// The index stream byte by byte: three literals borrow five values of the run of thirteen 7s
// to fill a group of 8, the other eight 7s are an RLE run, the last index a zero-padded group.
TEST(DictionaryEncoding, IndexRunsExactBytes) {
  std::vector<int32_t> idx = {1, 2, 3};
  idx.insert(idx.end(), 13, 7);
  idx.push_back(0);
  BufferBuilder out;
  ASSERT_TRUE(EncodeDictionaryIndices(idx.data(), static_cast<int64_t>(idx.size()), 3, &out).ok());
  const std::vector<uint8_t> want = {3, 0x03, 0xD1, 0xFE, 0xFF, 0x10, 0x07, 0x03, 0x00, 0x00, 0x00};
  EXPECT_EQ(std::vector<uint8_t>(out.data(), out.data() + out.size()), want);
  // A run that is 8 long only with the borrowed values stays literal: 3 + 12 + 1 = 2 groups.
  idx = {1, 2, 3};
  idx.insert(idx.end(), 12, 7);
  idx.push_back(0);
  out.Clear();
  ASSERT_TRUE(EncodeDictionaryIndices(idx.data(), static_cast<int64_t>(idx.size()), 3, &out).ok());
  ASSERT_EQ(out.size(), 1 + 1 + 6);
  EXPECT_EQ(out.data()[1], (2 << 1) | 1);
}

// Runs of every length around the RLE threshold, after literal stretches of every length, at
// widths 0..20, decoded back by the reader's decoder.
TEST_P(DictionaryTest, IndexRunsRoundTrip) {
  std::mt19937 rng(21);
  for (int width : {0, 1, 2, 3, 5, 8, 11, 16, 17, 20}) {
    const uint32_t limit = width == 0 ? 1 : (1u << width);
    std::vector<int32_t> idx;
    for (int k = 0; k < 400; ++k) {
      const int lits = static_cast<int>(rng() % 12);
      for (int j = 0; j < lits; ++j) idx.push_back(static_cast<int32_t>(rng() % limit));
      const int run = static_cast<int>(rng() % 20);
      const int32_t v = static_cast<int32_t>(rng() % limit);
      idx.insert(idx.end(), static_cast<size_t>(run), v);
    }
    for (int64_t n : {int64_t{0}, int64_t{1}, int64_t{7}, int64_t{8}, static_cast<int64_t>(idx.size())}) {
      BufferBuilder out;
      ASSERT_TRUE(EncodeDictionaryIndices(idx.data(), n, width, &out, default_memory_pool(), GetParam()).ok());
      std::vector<int32_t> got(static_cast<size_t>(n) + 1, -1);
      DictionaryDecoder dec(GetParam());
      ASSERT_TRUE(dec.Reset(out.data(), out.size(), limit).ok());
      ASSERT_TRUE(dec.DecodeIndices(got.data(), n).ok()) << "width " << width << " n " << n;
      got.resize(static_cast<size_t>(n));
      EXPECT_EQ(got, std::vector<int32_t>(idx.begin(), idx.begin() + n)) << "width " << width << " n " << n;
    }
  }
}

// Literal stretches of 0 to 100 indices between runs (the packing's 16-index steps, the group
// of 8 after them and the zero-padded last group), at every width the packing's SIMD kernel
// takes and the ones around it: the level's bytes are the scalar's and decode back.
TEST_P(DictionaryTest, IndexPackingSameBytesAtEveryLevel) {
  std::mt19937 rng(24);
  for (int width = 0; width <= 17; ++width) {
    const uint32_t limit = width == 0 ? 1 : (1u << width);
    std::vector<int32_t> idx;
    for (int lits = 0; lits <= 100; ++lits) {
      for (int j = 0; j < lits; ++j) {
        // Mostly random; every 5th the largest index, so each bit of the width is used.
        const uint32_t v = j % 5 == 4 ? limit - 1 : rng() % limit;
        idx.push_back(static_cast<int32_t>(j > 0 && static_cast<int32_t>(v) == idx.back() ? (v + 1) % limit : v));
      }
      idx.insert(idx.end(), 9, static_cast<int32_t>(rng() % limit));
    }
    for (int64_t n : {static_cast<int64_t>(idx.size()), static_cast<int64_t>(idx.size()) - 12, int64_t{37}}) {
      SCOPED_TRACE(fmt::format("width {} n {}", width, n));
      BufferBuilder want, got;
      ASSERT_TRUE(EncodeDictionaryIndices(idx.data(), n, width, &want, default_memory_pool(), SimdLevel::kScalar).ok());
      ASSERT_TRUE(EncodeDictionaryIndices(idx.data(), n, width, &got, default_memory_pool(), GetParam()).ok());
      ASSERT_EQ(got.size(), want.size());
      EXPECT_EQ(std::memcmp(got.data(), want.data(), static_cast<size_t>(want.size())), 0);
      std::vector<int32_t> back(static_cast<size_t>(n));
      DictionaryDecoder dec(GetParam());
      ASSERT_TRUE(dec.Reset(got.data(), got.size(), limit).ok());
      ASSERT_TRUE(dec.DecodeIndices(back.data(), n).ok());
      EXPECT_EQ(back, std::vector<int32_t>(idx.begin(), idx.begin() + n));
    }
  }
}

// The run search's SIMD kernels write the scalar one's bytes: runs of 7 to 17 starting at every
// place of a 64-index window (where the kernels' blocks meet), in exact-size buffers (ASan
// catches a read past the last index).
TEST_P(DictionaryTest, IndexRunsSameBytesAtEveryLevel) {
  std::mt19937 rng(22);
  for (int start = 0; start < 80; ++start) {
    for (int run : {7, 8, 9, 15, 16, 17}) {
      std::vector<int32_t> idx(static_cast<size_t>(start));
      for (auto& v : idx) v = static_cast<int32_t>(rng() % 2 ? rng() % 4 : 5 + rng() % 20);
      idx.insert(idx.end(), static_cast<size_t>(run), 3);
      for (int k = 0; k < 70; ++k) idx.push_back(static_cast<int32_t>(rng() % 30));
      for (int64_t n : {static_cast<int64_t>(idx.size()), int64_t{64}, static_cast<int64_t>(start + run)}) {
        std::vector<int32_t> exact(idx.begin(), idx.begin() + n);
        BufferBuilder want, got;
        ASSERT_TRUE(EncodeDictionaryIndices(exact.data(), n, 5, &want, default_memory_pool(), SimdLevel::kScalar).ok());
        ASSERT_TRUE(EncodeDictionaryIndices(exact.data(), n, 5, &got, default_memory_pool(), GetParam()).ok());
        ASSERT_EQ(std::vector<uint8_t>(got.data(), got.data() + got.size()),
                  std::vector<uint8_t>(want.data(), want.data() + want.size()))
            << "start " << start << " run " << run << " n " << n;
      }
    }
  }
}

// Many Put calls over nulls at an unaligned validity offset, enough entries to rehash many
// times, then a limit reached in the middle of a hashed batch: indices name the right entries,
// entries keep first-appearance order, and `consumed` stops at the value that did not fit.
TEST(DictionaryEncoding, ByteArrayEncoderBatchesNullsAndLimit) {
  const int64_t n = 300000;
  std::vector<std::string> values(static_cast<size_t>(n));
  std::mt19937 rng(22);
  for (auto& v : values) v = "k" + std::to_string(rng() % 100000);
  StringInput in(values);
  std::vector<uint8_t> validity(static_cast<size_t>(n / 8 + 2), 0);
  const int64_t voff = 3;
  std::vector<bool> valid(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    valid[i] = rng() % 10 != 0;
    if (valid[i]) validity[static_cast<size_t>((voff + i) / 8)] |= static_cast<uint8_t>(1u << ((voff + i) % 8));
  }
  ByteArrayDictionaryEncoder enc(int64_t{1} << 30);
  std::vector<int32_t> indices;
  for (int64_t at = 0; at < n;) {
    const int64_t m = std::min<int64_t>(n - at, 1000 + static_cast<int64_t>(rng() % 5000));
    int64_t consumed = 0;
    ASSERT_TRUE(enc.Put(in.offsets.data() + at, in.bytes(), m, &consumed, validity.data(), voff + at).ok());
    ASSERT_EQ(consumed, m);
    indices.insert(indices.end(), enc.indices().begin(), enc.indices().end());
    BufferBuilder sink;
    ASSERT_TRUE(enc.FlushIndices(&sink).ok());
    at += m;
  }
  std::vector<std::string> order;
  std::unordered_map<std::string, int32_t> first;
  size_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!valid[i]) continue;
    auto [it, added] = first.emplace(values[i], static_cast<int32_t>(order.size()));
    if (added) order.push_back(values[i]);
    ASSERT_LT(k, indices.size());
    ASSERT_EQ(indices[k++], it->second) << "row " << i;
  }
  EXPECT_EQ(k, indices.size());
  ASSERT_EQ(enc.dict_size(), static_cast<int64_t>(order.size()));
  for (size_t e = 0; e < order.size(); e += 997) EXPECT_EQ(enc.entry(static_cast<int64_t>(e)), order[e]);

  // 100 distinct 3-byte values after a null: 7 bytes each, so a 700-byte limit holds exactly
  // 100; the 101st distinct value, at input position 150, stops the Put there.
  std::vector<std::string> small;
  small.push_back("");  // a null
  for (int i = 0; i < 100; ++i) small.push_back(fmt::format("{:03}", i));
  for (int i = 0; i < 49; ++i) small.push_back(fmt::format("{:03}", i));
  small.push_back("new");
  for (int i = 0; i < 20; ++i) small.push_back(fmt::format("{:03}", i));
  StringInput sin(small);
  std::vector<uint8_t> sv(small.size() / 8 + 1, 0xFF);
  sv[0] &= 0xFE;
  ByteArrayDictionaryEncoder limited(700);
  int64_t consumed = 0;
  ASSERT_TRUE(limited.Put(sin.offsets.data(), sin.bytes(), static_cast<int64_t>(small.size()), &consumed, sv.data(), 0).ok());
  EXPECT_TRUE(limited.full());
  EXPECT_EQ(consumed, 150);
  EXPECT_EQ(limited.dict_size(), 100);
  ASSERT_EQ(limited.buffered_indices(), 149);
  EXPECT_EQ(limited.indices()[148], 48);
}

// A small table's short values are first looked up in a memo of 256 places: values that share
// a place and their first 8 bytes, and values that differ only in trailing zero bytes (equal
// words, other lengths), each keep their own index, whether they lie mid-buffer or in its last 16 bytes, with longer values
// mixed in and the memo carried over from one Put to the next.
TEST(DictionaryEncoding, ByteArrayEncoderMemoKeepsValuesApart) {
  std::vector<std::string> distinct;
  for (int i = 0; i < 300; ++i) distinct.push_back(fmt::format("v{}", i));
  // 300 values of one first word: only the second tells them apart.
  for (int i = 0; i < 300; ++i) distinct.push_back(fmt::format("TAKE BAC{}", i));
  for (int z = 0; z <= 16; ++z) distinct.push_back(std::string(static_cast<size_t>(z), '\0'));
  // 30 prefixes, each zero-padded to every length up to 16: values of equal words, some
  // landing on one memo place.
  for (int p = 0; p < 30; ++p) {
    const std::string prefix = fmt::format("p{}", p);
    for (size_t len = prefix.size() + 1; len <= 16; ++len) distinct.push_back(prefix + std::string(len - prefix.size(), '\0'));
  }
  for (int i = 0; i < 40; ++i) distinct.push_back(fmt::format("DELIVER IN PERSON {}", i));
  std::mt19937 rng(31);
  std::vector<std::string> values;
  for (int i = 0; i < 60000; ++i) values.push_back(distinct[rng() % distinct.size()]);
  for (int z = 16; z >= 0; --z) values.push_back(std::string(static_cast<size_t>(z), '\0'));  // the buffer's end
  StringInput in(values);
  const int64_t n = static_cast<int64_t>(values.size());
  ByteArrayDictionaryEncoder enc(int64_t{1} << 30);
  std::vector<int32_t> indices;
  ASSERT_NO_FATAL_FAILURE(PutInSlices(enc, in, 0, n, 7000, nullptr, &indices));
  ASSERT_EQ(static_cast<int64_t>(indices.size()), n);
  std::unordered_map<std::string, int32_t> first;
  for (int64_t i = 0; i < n; ++i) {
    auto [it, added] = first.emplace(values[static_cast<size_t>(i)], static_cast<int32_t>(first.size()));
    ASSERT_EQ(indices[static_cast<size_t>(i)], it->second) << "value " << i << " of " << values[static_cast<size_t>(i)].size() << " bytes";
    ASSERT_EQ(enc.entry(it->second), values[static_cast<size_t>(i)]);
  }
  EXPECT_EQ(enc.dict_size(), static_cast<int64_t>(distinct.size()));
}

// Values of 17 to 32 bytes are memoized by their bytes (four words, zero-padded) and length: values
// that share their first 16 bytes (and differ only in their last), that share their last 16,
// that differ in one byte of a 24- or 32-byte value, one string cut at every length from 15 to
// 34 (the memo's 32-byte edge and the 33-byte values it leaves to the table), and trailing zero
// bytes each keep their own index, with and without nulls (each value put on its own, or the
// loop without a bitmap), mid-buffer and in the buffer's last 32 bytes.
TEST(DictionaryEncoding, ByteArrayEncoderMemoKeepsLongValuesApart) {
  std::vector<std::string> distinct;
  for (char c = 'A'; c <= 'H'; ++c) distinct.push_back(std::string("DELIVER IN PERSO") + c);  // 17 bytes
  for (char c = 'A'; c <= 'H'; ++c) distinct.push_back(c + std::string("ELIVER IN PERSON"));  // last 16 shared
  // 24 and 32 bytes, two bytes of one word changed, 200 ways each, so that many of a kind share
  // a memo place: in the 32-byte values bytes 10-11 lie in the first 16 bytes only, bytes 20-21
  // and 28-29 in the last 16 only (in their first and second word).
  for (int m = 0; m < 200; ++m) {
    auto vary = [&](std::string v, size_t at) {
      v[at] = static_cast<char>('a' + m % 26);
      v[at + 1] = static_cast<char>('a' + m / 26);
      distinct.push_back(v);
    };
    for (const size_t at : {size_t{12}, size_t{18}}) vary(std::string(24, 'x'), at);
    for (const size_t at : {size_t{10}, size_t{20}, size_t{28}}) vary(std::string(32, 'y'), at);
  }
  const std::string text = "final pending pinto theodolites haggle";
  for (size_t len = 15; len <= 34; ++len) distinct.push_back(text.substr(0, len));
  distinct.push_back(text.substr(0, 20) + std::string(1, '\0'));  // 21 bytes, one zero past a value of 20
  distinct.push_back(text.substr(0, 20) + std::string(3, '\0'));
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  std::mt19937 rng(41);
  std::vector<std::string> values;
  for (int i = 0; i < 40000; ++i) values.push_back(distinct[rng() % distinct.size()]);
  for (size_t len = 17; len <= 32; ++len) values.push_back(text.substr(0, len));  // the buffer's end
  StringInput in(values);
  const int64_t n = static_cast<int64_t>(values.size());
  for (const bool nulls : {false, true}) {
    SCOPED_TRACE(nulls ? "with nulls" : "no nulls");
    std::vector<uint8_t> validity(static_cast<size_t>(n / 8 + 1), 0xFF);
    std::vector<bool> valid(static_cast<size_t>(n), true);
    if (nulls) {
      for (int64_t i = 0; i < n; i += 7) {
        valid[static_cast<size_t>(i)] = false;
        validity[static_cast<size_t>(i / 8)] &= static_cast<uint8_t>(~(1u << (i % 8)));
      }
    }
    ByteArrayDictionaryEncoder enc(int64_t{1} << 30);
    std::vector<int32_t> indices;
    ASSERT_NO_FATAL_FAILURE(PutInSlices(enc, in, 0, n, 4096, nulls ? validity.data() : nullptr, &indices));
    std::unordered_map<std::string, int32_t> first;
    size_t k = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (!valid[static_cast<size_t>(i)]) continue;
      const std::string& v = values[static_cast<size_t>(i)];
      auto [it, added] = first.emplace(v, static_cast<int32_t>(first.size()));
      ASSERT_LT(k, indices.size());
      ASSERT_EQ(indices[k++], it->second) << "value " << i << " of " << v.size() << " bytes";
      ASSERT_EQ(enc.entry(it->second), v);
    }
    EXPECT_EQ(k, indices.size());
    EXPECT_EQ(enc.dict_size(), static_cast<int64_t>(distinct.size()));
  }
}

// The memo's loop reads only the words its longest value can have (8, 16 or 32 bytes), and a
// longer value widens it: values of up to 8 bytes (zero-padded ones of equal words among them,
// and empty ones), then up to 16 (sharing their first 8 bytes with others), then up
// to 33, each keep their own index; after Restart the narrow loop is back and the indices start
// again from 0.
TEST(DictionaryEncoding, ByteArrayEncoderMemoWidensWithItsValues) {
  std::vector<std::string> upto8{""};
  for (int p = 0; p < 40; ++p) {
    const std::string prefix = fmt::format("{}", p);
    for (size_t len = prefix.size(); len <= 8; ++len) upto8.push_back(prefix + std::string(len - prefix.size(), '\0'));
  }
  for (int p = 0; p < 40; ++p) upto8.push_back(fmt::format("abcd{:04}", p));
  std::vector<std::string> upto16 = upto8;
  for (int p = 0; p < 40; ++p) {
    upto16.push_back(fmt::format("abcd{:04}", p) + std::string(1, '\0'));
    upto16.push_back(fmt::format("abcd{:04}{}", p, p));
    upto16.push_back(fmt::format("abcd{:04}{:08}", p, p));  // 16 bytes
  }
  // 200 of one first word and length, so that many share a memo place: only the second word
  // tells them apart.
  for (int m = 0; m < 200; ++m) upto16.push_back(fmt::format("abcdefgh{:c}{:c}", 'a' + m % 26, 'a' + m / 26));
  std::vector<std::string> upto33 = upto16;
  for (int p = 0; p < 40; ++p) {
    upto33.push_back(fmt::format("abcd{:04}{:08}", p, p) + "x");  // 17 bytes
    upto33.push_back(fmt::format("abcd{:04}{:08}{:016}", p, p, p));  // 32 bytes
    upto33.push_back(fmt::format("abcd{:04}{:08}{:016}", p, p, p) + "y");  // 33 bytes
  }
  std::mt19937 rng(43);
  std::vector<std::string> values;
  for (const auto* pool : {&upto8, &upto16, &upto33, &upto8}) {
    for (int i = 0; i < 20000; ++i) values.push_back((*pool)[rng() % pool->size()]);
  }
  StringInput in(values);
  ByteArrayDictionaryEncoder enc(int64_t{1} << 30);
  std::unordered_map<std::string, int32_t> first;
  for (int64_t at = 0; at < static_cast<int64_t>(values.size()); at += 20000) {
    if (at == 60000) {
      enc.Restart(0, 0);
      first.clear();
    }
    std::vector<int32_t> indices;
    ASSERT_NO_FATAL_FAILURE(PutInSlices(enc, in, at, at + 20000, 4096, nullptr, &indices));
    for (int64_t i = at; i < at + 20000; ++i) {
      const std::string& v = values[static_cast<size_t>(i)];
      auto [it, added] = first.emplace(v, static_cast<int32_t>(first.size()));
      ASSERT_EQ(indices[static_cast<size_t>(i - at)], it->second) << "value " << i << " of " << v.size() << " bytes";
      ASSERT_EQ(enc.entry(it->second), v);
    }
    EXPECT_EQ(enc.dict_size(), static_cast<int64_t>(first.size()));
  }
}

// One-byte values (flags) are looked up by their byte: each of the 256 bytes keeps its own
// index, next to empty and two-byte values (a one-byte value that is a prefix of them, a value
// of one zero byte), new bytes appear mid-slice, and an encoder restarted for the next chunk
// forgets the last chunk's bytes (the same bytes come back there in another order, so other
// indices). At every SIMD level (AVX-512 takes 16 values a step, and stops at a step holding
// another length or a new byte).
TEST_P(DictionaryTest, ByteArrayEncoderOneByteValues) {
  std::mt19937 rng(57);
  ByteArrayDictionaryEncoder enc(int64_t{1} << 30, default_memory_pool(), GetParam());
  for (int chunk = 0; chunk < 3; ++chunk) {
    std::vector<std::string> values;
    // Long stretches of one-byte values from a few bytes, the others appearing later.
    for (int i = 0; i < 20000; ++i) {
      const uint32_t r = rng();
      const uint32_t span = i < 5000 ? 3 : 256;
      std::string v(1, static_cast<char>((r % span + 97 * static_cast<uint32_t>(chunk)) % 256));
      if (r % 97 == 0) v.clear();                        // empty
      if (r % 89 == 0) v.push_back(static_cast<char>(r >> 24));  // two bytes, the first a flag
      values.push_back(v);
    }
    values.push_back(std::string(1, '\0'));
    values.push_back(std::string(2, '\0'));
    StringInput in(values);
    const int64_t n = static_cast<int64_t>(values.size());
    if (chunk > 0) enc.Restart(0, 0);
    std::vector<int32_t> indices;
    ASSERT_NO_FATAL_FAILURE(PutInSlices(enc, in, 0, n, 4096, nullptr, &indices));
    ASSERT_EQ(static_cast<int64_t>(indices.size()), n);
    std::unordered_map<std::string, int32_t> first;
    for (int64_t i = 0; i < n; ++i) {
      const std::string& v = values[static_cast<size_t>(i)];
      auto [it, added] = first.emplace(v, static_cast<int32_t>(first.size()));
      ASSERT_EQ(indices[static_cast<size_t>(i)], it->second) << "chunk " << chunk << " value " << i;
      ASSERT_EQ(enc.entry(it->second), v);
    }
    EXPECT_EQ(enc.dict_size(), static_cast<int64_t>(first.size()));
    EXPECT_GT(first.size(), 256u);
  }
}

// Reserve sizes the tables up front (no rehash as entries arrive): the same input gives the
// same indices and dictionary page as an encoder that grew, and the size limit still holds.
TEST(DictionaryEncoding, ReservedEncodersEncodeAsGrownOnes) {
  std::mt19937 rng(5);
  std::vector<int64_t> ints(50000);
  for (auto& v : ints) v = static_cast<int64_t>(rng() % 20000) - 10000;
  std::vector<std::string> strs(50000);
  for (auto& v : strs) v = "value-" + std::to_string(rng() % 20000) + (rng() % 2 ? "-with-a-longer-tail" : "");
  StringInput in(strs);
  for (int64_t reserve : {0, 100, 30000, 1000000}) {
    DictionaryEncoder<int64_t> grown, reserved;
    reserved.Reserve(reserve);
    int64_t c1 = 0, c2 = 0;
    ASSERT_TRUE(grown.Put(ints.data(), 50000, &c1).ok());
    ASSERT_TRUE(reserved.Put(ints.data(), 50000, &c2).ok());
    ASSERT_EQ(c1, 50000);
    ASSERT_EQ(c2, 50000);
    EXPECT_TRUE(std::ranges::equal(grown.indices(), reserved.indices())) << reserve;
    EXPECT_EQ(grown.dictionary(), reserved.dictionary()) << reserve;

    ByteArrayDictionaryEncoder bgrown, breserved;
    breserved.Reserve(reserve, reserve * 20);
    ASSERT_TRUE(bgrown.Put(in.offsets.data(), in.bytes(), 50000, &c1).ok());
    ASSERT_TRUE(breserved.Put(in.offsets.data(), in.bytes(), 50000, &c2).ok());
    EXPECT_TRUE(std::ranges::equal(bgrown.indices(), breserved.indices())) << reserve;
    BufferBuilder p1, p2;
    ASSERT_TRUE(bgrown.WriteDictionaryPage(&p1).ok());
    ASSERT_TRUE(breserved.WriteDictionaryPage(&p2).ok());
    ASSERT_EQ(p1.size(), p2.size());
    EXPECT_EQ(std::memcmp(p1.data(), p2.data(), static_cast<size_t>(p1.size())), 0);
  }
  // A reservation past the limit: the encoder still stops at 100 entries of 8 bytes.
  DictionaryEncoder<int64_t> limited(800);
  limited.Reserve(1000000);
  int64_t consumed = 0;
  ASSERT_TRUE(limited.Put(ints.data(), 50000, &consumed).ok());
  EXPECT_TRUE(limited.full());
  EXPECT_EQ(limited.dict_size(), 100);
}

// An encoder restarted for chunk after chunk (the Parquet writer keeps each column's) writes
// what a new encoder writes for each: chunks whose values partly repeat the previous chunk's
// (entries there but not here must not be found), much larger and much smaller ones (the
// table grown, kept, replaced past 4x), and a chunk that fills the size limit followed by one
// that does not (full() cleared).
TEST(DictionaryEncoding, RestartedEncodersEncodeAsNewOnes) {
  std::mt19937 rng(11);
  struct Chunk {
    int64_t n, distinct, base;
  };
  const std::vector<Chunk> chunks = {{30000, 20000, 0},    {30000, 20000, 10000}, {500, 7, 5},
                                     {40000, 40000, 500},  {3000, 1000, 39000},  {20, 3, 0},
                                     {60000, 60000, 0}};  // the last passes the 200000-byte limit
  constexpr int64_t kLimit = 200000;
  DictionaryEncoder<int64_t> kept(kLimit);
  ByteArrayDictionaryEncoder bkept(kLimit);
  int64_t last = 0;
  for (size_t c = 0; c < chunks.size(); ++c) {
    std::vector<int64_t> ints(static_cast<size_t>(chunks[c].n));
    std::vector<std::string> strs(ints.size());
    for (size_t i = 0; i < ints.size(); ++i) {
      ints[i] = chunks[c].base + static_cast<int64_t>(rng() % static_cast<uint64_t>(chunks[c].distinct));
      strs[i] = (i % 5 == 0 ? "long-string-value-" : "s") + std::to_string(ints[i]);
    }
    StringInput in(strs);
    const int64_t n = chunks[c].n;
    kept.Restart(last);
    DictionaryEncoder<int64_t> fresh(kLimit);
    int64_t c1 = 0, c2 = 0;
    ASSERT_TRUE(kept.Put(ints.data(), n, &c1).ok());
    ASSERT_TRUE(fresh.Put(ints.data(), n, &c2).ok());
    ASSERT_EQ(c1, c2) << c;
    EXPECT_EQ(kept.full(), fresh.full()) << c;
    EXPECT_EQ(kept.dictionary(), fresh.dictionary()) << c;
    BufferBuilder k1, f1;
    ASSERT_TRUE(kept.FlushIndices(&k1).ok());
    ASSERT_TRUE(fresh.FlushIndices(&f1).ok());
    ASSERT_EQ(k1.size(), f1.size()) << c;
    EXPECT_EQ(std::memcmp(k1.data(), f1.data(), static_cast<size_t>(k1.size())), 0) << c;

    bkept.Restart(last, last * 8);
    ByteArrayDictionaryEncoder bfresh(kLimit);
    ASSERT_TRUE(bkept.Put(in.offsets.data(), in.bytes(), n, &c1).ok());
    ASSERT_TRUE(bfresh.Put(in.offsets.data(), in.bytes(), n, &c2).ok());
    ASSERT_EQ(c1, c2) << c;
    EXPECT_EQ(bkept.full(), bfresh.full()) << c;
    EXPECT_EQ(bkept.dict_size(), bfresh.dict_size()) << c;
    BufferBuilder k2, f2, k3, f3;
    ASSERT_TRUE(bkept.WriteDictionaryPage(&k2).ok());
    ASSERT_TRUE(bfresh.WriteDictionaryPage(&f2).ok());
    ASSERT_EQ(k2.size(), f2.size()) << c;
    EXPECT_EQ(std::memcmp(k2.data(), f2.data(), static_cast<size_t>(k2.size())), 0) << c;
    ASSERT_TRUE(bkept.FlushIndices(&k3).ok());
    ASSERT_TRUE(bfresh.FlushIndices(&f3).ok());
    ASSERT_EQ(k3.size(), f3.size()) << c;
    EXPECT_EQ(std::memcmp(k3.data(), f3.data(), static_cast<size_t>(k3.size())), 0) << c;
    last = fresh.dict_size();
  }
  EXPECT_TRUE(kept.full());  // the last chunk reached the limit, as the fresh encoder did
}

// What the fixed-width encoders must produce: entries in order of first occurrence, identity
// by bit pattern, and a stop at the first value that would take the dictionary past its limit.
template <typename T>
struct ReferenceDictionary {
  std::vector<T> dict;
  std::vector<int32_t> indices;
  bool full = false;
};
template <typename T>
ReferenceDictionary<T> EncodeByReference(const std::vector<T>& values, int64_t max_bytes) {
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  ReferenceDictionary<T> ref;
  std::unordered_map<Bits, int32_t> seen;
  for (const T& v : values) {
    auto [it, added] = seen.try_emplace(std::bit_cast<Bits>(v), static_cast<int32_t>(ref.dict.size()));
    if (added) {
      if (static_cast<int64_t>(ref.dict.size() + 1) * static_cast<int64_t>(sizeof(T)) > max_bytes) {
        ref.full = true;
        break;
      }
      ref.dict.push_back(v);
    }
    ref.indices.push_back(it->second);
  }
  return ref;
}

// Values of one shape as T: 0 empty, 1 all equal, 2 all distinct, 3 ascending runs of 1 to 7
// (the run-skipping path), 4 random among 10,000 (a table past L1: the prefetching path), 5
// random among 7, 6 NaNs (two payloads), -0.0 and 0.0 among others, in runs.
template <typename T>
std::vector<T> DictionaryShape(int shape, int64_t n, std::mt19937_64& rng) {
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  std::vector<T> v;
  if (shape == 0) return v;
  auto of = [](uint64_t k) { return static_cast<T>(static_cast<int64_t>(k) - 5000); };
  uint64_t key = 0;
  while (static_cast<int64_t>(v.size()) < n) {
    switch (shape) {
      case 1: v.push_back(of(42)); break;
      case 2: v.push_back(of(key++ * 3)); break;
      case 3: {
        const uint64_t run = 1 + rng() % 7;
        for (uint64_t k = 0; k < run; ++k) v.push_back(of(key));
        key += 1 + rng() % 3;
        break;
      }
      case 4: v.push_back(of(rng() % 10000)); break;
      case 5: v.push_back(of(rng() % 7)); break;
      default: {
        T x = of(rng() % 5);
        if constexpr (std::is_floating_point_v<T>) {
          const Bits nan1 = std::bit_cast<Bits>(std::numeric_limits<T>::quiet_NaN());
          const T odd[] = {std::bit_cast<T>(nan1), std::bit_cast<T>(static_cast<Bits>(nan1 | 1)), T(-0.0), T(0.0)};
          if (rng() % 2) x = odd[rng() % 4];
        }
        const uint64_t run = 1 + rng() % 4;
        for (uint64_t k = 0; k < run; ++k) v.push_back(x);
      }
    }
  }
  v.resize(static_cast<size_t>(n));
  return v;
}

template <typename T>
void ExpectEncodesAsReference(const std::vector<T>& values, int64_t max_bytes, int64_t reserve, int64_t slice,
                              const std::string& what) {
  SCOPED_TRACE(what);
  const ReferenceDictionary<T> ref = EncodeByReference(values, max_bytes);
  DictionaryEncoder<T> enc(max_bytes);
  if (reserve > 0) enc.Reserve(reserve);
  int64_t at = 0;
  while (at < static_cast<int64_t>(values.size()) && !enc.full()) {
    const int64_t n = std::min<int64_t>(slice, static_cast<int64_t>(values.size()) - at);
    int64_t consumed = -1;
    ASSERT_TRUE(enc.Put(values.data() + at, n, &consumed).ok());
    ASSERT_TRUE(consumed == n || enc.full()) << consumed << " of " << n;
    at += consumed;
  }
  EXPECT_EQ(enc.full(), ref.full);
  EXPECT_EQ(at, static_cast<int64_t>(ref.indices.size()));
  EXPECT_TRUE(std::ranges::equal(enc.indices(), ref.indices));
  ASSERT_EQ(enc.dictionary().size(), ref.dict.size());
  // Bit patterns (NaN payloads, -0.0); an empty dictionary's data may be null, which memcmp may not get.
  if (!ref.dict.empty()) {
    EXPECT_EQ(std::memcmp(enc.dictionary().data(), ref.dict.data(), ref.dict.size() * sizeof(T)), 0);
  }
  // The written page holds the same entries.
  BufferBuilder page;
  ASSERT_TRUE(enc.WriteDictionaryPage(&page).ok());
  ASSERT_EQ(page.size(), static_cast<int64_t>(ref.dict.size() * sizeof(T)));
}

template <typename T>
void CheckFixedEncoderShapes() {
  std::mt19937_64 rng(23);
  for (int shape = 0; shape <= 6; ++shape) {
    const std::vector<T> values = DictionaryShape<T>(shape, 30000, rng);
    const int64_t distinct = static_cast<int64_t>(EncodeByReference(values, int64_t{1} << 40).dict.size());
    for (int64_t slice : {int64_t{1}, int64_t{5}, int64_t{4096}, int64_t{30000}}) {
      if (slice == 1 && shape != 3 && shape != 6) continue;  // slices of one: runs across Put calls
      for (int64_t reserve : {int64_t{0}, distinct + distinct / 8}) {
        const std::string what = fmt::format("shape {} slice {} reserve {}", shape, slice, reserve);
        ExpectEncodesAsReference(values, int64_t{1} << 20, reserve, slice, what);
        // The limit at the exact boundary: every entry fits; one entry less: the last new
        // value stops the encoder.
        const int64_t exact = distinct * static_cast<int64_t>(sizeof(T));
        ExpectEncodesAsReference(values, exact, reserve, slice, what + " exact limit");
        if (distinct > 0) ExpectEncodesAsReference(values, exact - 1, reserve, slice, what + " limit one short");
      }
    }
  }
}

TEST(DictionaryEncoding, FixedWidthEncodersMatchReference) {
  CheckFixedEncoderShapes<int32_t>();
  CheckFixedEncoderShapes<int64_t>();
  CheckFixedEncoderShapes<float>();
  CheckFixedEncoderShapes<double>();
}

// Integer keys spanning a short range are looked up in a table indexed by key - base, widened
// as keys fall outside it and given up for the hash table (for the rest of the chunk) once the
// span is too wide. Each chunk is a list of Put slices through one encoder restarted between
// chunks, and must encode as the reference does, at the full limit and one entry short of it.
template <typename T>
void ExpectChunksEncodeAsReference(const std::vector<std::vector<std::vector<T>>>& chunks, const std::string& what) {
  for (const bool short_limit : {false, true}) {
    DictionaryEncoder<T> kept(int64_t{1} << 20);
    std::unique_ptr<DictionaryEncoder<T>> limited;
    int64_t last = 0;
    for (size_t c = 0; c < chunks.size(); ++c) {
      SCOPED_TRACE(fmt::format("{} chunk {}{}", what, c, short_limit ? " limit one short" : ""));
      std::vector<T> all;
      for (const auto& slice : chunks[c]) all.insert(all.end(), slice.begin(), slice.end());
      const int64_t distinct = static_cast<int64_t>(EncodeByReference(all, int64_t{1} << 40).dict.size());
      const int64_t limit = short_limit ? (distinct - 1) * static_cast<int64_t>(sizeof(T)) : int64_t{1} << 20;
      const ReferenceDictionary<T> ref = EncodeByReference(all, limit);
      DictionaryEncoder<T>* enc = &kept;
      if (short_limit) {
        limited = std::make_unique<DictionaryEncoder<T>>(limit);
        enc = limited.get();
      }
      enc->Restart(last);
      int64_t at = 0;
      for (const auto& slice : chunks[c]) {
        int64_t consumed = -1;
        ASSERT_TRUE(enc->Put(slice.data(), static_cast<int64_t>(slice.size()), &consumed).ok());
        at += consumed;
        if (enc->full()) break;
        ASSERT_EQ(consumed, static_cast<int64_t>(slice.size()));
      }
      EXPECT_EQ(enc->full(), ref.full);
      EXPECT_EQ(at, static_cast<int64_t>(ref.indices.size()));
      EXPECT_TRUE(std::ranges::equal(enc->indices(), ref.indices));
      EXPECT_EQ(enc->dictionary(), ref.dict);
      BufferBuilder page;
      ASSERT_TRUE(enc->FlushIndices(&page).ok());
      last = enc->dict_size();
    }
  }
}

template <typename T>
void CheckDirectTableEdges() {
  constexpr T kMin = std::numeric_limits<T>::min(), kMax = std::numeric_limits<T>::max();
  std::vector<T> spread;  // 0..69999 in steps of 7: a span past the 65,536 places a first chunk gets
  for (T v = 0; v < 70000; v += 7) spread.push_back(v);
  std::vector<T> ramp;  // ascending, past the table at every doubling
  for (T v = 0; v < 20000; ++v) ramp.push_back(v / 3);
  const std::vector<std::vector<std::vector<T>>> chunks = {
      // The first slice sets base 1000 and 4,096 places: 5095 is the last, 5096 past it, 999 below.
      {{1000, 1001, 1099, 1000}, {5095, 5096, 999, 1000, 5095, 5096, 999}, {-5, 5, -5, 1001}},
      // Restarted: the last chunk's keys are gone from the table (5095 is new here).
      {{5095, 5095, 1000, 7}},
      // Keys past the widest direct table in the middle of a slice: the rest go to the hash table.
      {{1, 2, 3}, spread, {3, 2, 1, 69999, 70000}},
      // Restarted after hashing: direct again; then the type's extremes (a span that overflows).
      {{10, 11, 10}, {kMin, kMax, 10, kMin, 11, kMax, 0}},
      {{kMax, kMax - 1, kMax}, {kMin, kMin + 1}},
      {ramp, {0, 1, 19999 / 3, 70000, 70000 + 4096}},
      {{kMin + 5, kMin + 4, kMin + 5}},
  };
  ExpectChunksEncodeAsReference<T>(chunks, sizeof(T) == 4 ? "int32" : "int64");
}

TEST(DictionaryEncoding, DirectTableEdgesEncodeAsReference) {
  CheckDirectTableEdges<int32_t>();
  CheckDirectTableEdges<int64_t>();
}

TEST(DictionaryEncoding, IndexBitWidth) {
  EXPECT_EQ(DictionaryIndexBitWidth(0), 0);
  EXPECT_EQ(DictionaryIndexBitWidth(1), 0);
  EXPECT_EQ(DictionaryIndexBitWidth(2), 1);
  EXPECT_EQ(DictionaryIndexBitWidth(256), 8);
  EXPECT_EQ(DictionaryIndexBitWidth(257), 9);
}

INSTANTIATE_TEST_SUITE_P(Levels, DictionaryTest, ::testing::ValuesIn(SupportedSimdLevels()), testing::LevelName);

}  // namespace
}  // namespace quiver::parquet::encoding

// Column chunks built by hand (page headers through the Thrift encoder, bodies through the
// encoders) decoded by ReadFlatColumnChunk: levels, dictionaries, V2 pages, CRCs, edge cases.
#include <gtest/gtest.h>
#include <libdeflate.h>

#include <cstring>
#include <string>
#include <vector>

#include "quiver/columnar/pretty_print.h"
#include "quiver/parquet/encoding/dictionary_internal.h"
#include "quiver/parquet/encoding/plain_internal.h"
#include "quiver/parquet/encoding/rle_bitpacked_internal.h"
#include "quiver/parquet/metadata_codec.h"
#include "quiver/parquet/reader/column_reader_internal.h"

namespace quiver::parquet::reader {
namespace {

namespace enc = quiver::parquet::encoding;

std::string Bytes(BufferBuilder& b) { return std::string(reinterpret_cast<const char*>(b.data()), b.size()); }

ColumnDescriptor Column(Type t, int16_t max_def, int32_t type_length = 0) {
  ColumnDescriptor c;
  c.path = {"c"};
  c.physical_type = t;
  c.type_length = type_length;
  c.max_definition_level = max_def;
  return c;
}

// Appends header + body to `chunk`. `crc` adds the page CRC (optionally a wrong one).
void AddPage(std::string* chunk, PageHeader h, const std::string& body, bool crc = false, bool bad_crc = false) {
  h.compressed_page_size = static_cast<int32_t>(body.size());
  if (h.uncompressed_page_size == 0) h.uncompressed_page_size = static_cast<int32_t>(body.size());
  if (crc) {
    uint32_t v = libdeflate_crc32(0, body.data(), body.size());
    if (bad_crc) v ^= 1;
    h.crc = static_cast<int32_t>(v);
  }
  BufferBuilder out;
  ASSERT_TRUE(EncodePageHeader(h, &out).ok());
  *chunk += Bytes(out);
  *chunk += body;
}

PageHeader DataV1(int32_t n, Encoding e) {
  PageHeader h;
  h.type = PageType::DATA_PAGE;
  DataPageHeader d;
  d.num_values = n;
  d.encoding = e;
  d.definition_level_encoding = Encoding::RLE;
  d.repetition_level_encoding = Encoding::RLE;
  h.data_page_header = d;
  return h;
}

// RLE definition levels with their 4-byte length prefix (V1 layout).
std::string V1Levels(const std::vector<int16_t>& levels, int bit_width) {
  enc::RleBitPackedEncoder e(bit_width);
  EXPECT_TRUE(e.Put(levels.data(), static_cast<int64_t>(levels.size())).ok());
  BufferBuilder b;
  EXPECT_TRUE(e.Finish(&b).ok());
  std::string s = Bytes(b);
  uint32_t len = static_cast<uint32_t>(s.size());
  return std::string(reinterpret_cast<const char*>(&len), 4) + s;
}

std::string PlainInt32(const std::vector<int32_t>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * 4);
}

Result<Array> Read(const ColumnDescriptor& col, TypePtr type, const std::string& chunk, int64_t num_values,
                   bool verify_crc = true, compress::Codec codec = compress::Codec::kUncompressed) {
  auto buf = Buffer::CopyOf({reinterpret_cast<const uint8_t*>(chunk.data()), chunk.size()});
  if (!buf.ok()) return buf.status();
  PageReaderOptions o;
  o.verify_crc = verify_crc;
  return ReadFlatColumnChunk(col, type, *buf, codec, num_values, o);
}

TEST(FlatColumnReader, RequiredPlainAcrossPages) {
  std::string chunk;
  AddPage(&chunk, DataV1(3, Encoding::PLAIN), PlainInt32({1, -2, 3}));
  AddPage(&chunk, DataV1(2, Encoding::PLAIN), PlainInt32({40, 50}));
  auto a = Read(Column(Type::INT32, 0), int32(), chunk, 5);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(ArrayToString(*a), "[1, -2, 3, 40, 50]");
  EXPECT_EQ(a->null_count(), 0);
}

TEST(FlatColumnReader, NullsFromDefinitionLevelsNarrowedToInt8) {
  std::string chunk;
  AddPage(&chunk, DataV1(4, Encoding::PLAIN), V1Levels({1, 0, 0, 1}, 1) + PlainInt32({7, -8}));
  AddPage(&chunk, DataV1(3, Encoding::PLAIN), V1Levels({0, 1, 0}, 1) + PlainInt32({9}));
  auto a = Read(Column(Type::INT32, 1), int8(), chunk, 7);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(ArrayToString(*a), "[7, null, null, -8, null, 9, null]");
  EXPECT_EQ(a->null_count(), 4);
}

TEST(FlatColumnReader, AllNullPageThenValues) {
  std::string chunk;
  AddPage(&chunk, DataV1(3, Encoding::PLAIN), V1Levels({0, 0, 0}, 1));
  AddPage(&chunk, DataV1(0, Encoding::PLAIN), V1Levels({}, 1));
  AddPage(&chunk, DataV1(1, Encoding::PLAIN), V1Levels({1}, 1) + PlainInt32({5}));
  auto a = Read(Column(Type::INT32, 1), int32(), chunk, 4);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(ArrayToString(*a), "[null, null, null, 5]");
}

// One INT96 value: nanoseconds in the day, then the Julian day (2440588 = 1970-01-01).
std::string Int96(int64_t nanos, int32_t julian) {
  return std::string(reinterpret_cast<const char*>(&nanos), 8) + std::string(reinterpret_cast<const char*>(&julian), 4);
}

TEST(FlatColumnReader, Int96AsMicrosecondsBeyondTheNanosecondRange) {
  // 9999-12-31 03:00 is Julian day 5373484; +290000-12-30 23:00 is day 107641749. As nanoseconds
  // since 1970 both overflow 64 bits (which printed 1816-03-29 before). Spark writes the second
  // as its int64 Julian microseconds, wrapped: day -105862232, -32509551616000 ns
  // (int96_from_spark.parquet), read as Spark and DuckDB read it.
  std::string chunk;
  AddPage(&chunk, DataV1(4, Encoding::PLAIN),
          Int96(3ll * 3600 * 1000000000 + 123456789, 5373484) + Int96(23ll * 3600 * 1000000000, 107641749) +
              Int96(-32509551616000, -105862232) + Int96(1, 2440587));
  auto a = Read(Column(Type::INT96, 0), timestamp(quiver::TimeUnit::kMicro), chunk, 4);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(ArrayToString(*a),
            "[9999-12-31 03:00:00.123456, 290000-12-30 23:00:00, 290000-12-30 23:00:00, 1969-12-31 00:00:00]");
}

TEST(FlatColumnReader, Int96OutsideTheMicrosecondRangeIsAnError) {
  std::string chunk;
  // Day 2^31-1 is about 5.8 million years from now; day -2^31 as far back.
  AddPage(&chunk, DataV1(3, Encoding::PLAIN), Int96(0, 2440588) + Int96(5, 2147483647) + Int96(0, INT32_MIN));
  auto a = Read(Column(Type::INT96, 0), timestamp(quiver::TimeUnit::kMicro), chunk, 3);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().message(),
            "INT96 value 1 (Julian day 2147483647, 5 ns in the day) is outside the range of timestamp[us]");
}

std::string DictPage(std::string* chunk, const std::vector<std::string>& entries) {
  PageHeader h;
  h.type = PageType::DICTIONARY_PAGE;
  DictionaryPageHeader d;
  d.num_values = static_cast<int32_t>(entries.size());
  d.encoding = Encoding::PLAIN_DICTIONARY;
  h.dictionary_page_header = d;
  std::string body;
  for (const auto& e : entries) {
    uint32_t len = static_cast<uint32_t>(e.size());
    body += std::string(reinterpret_cast<const char*>(&len), 4) + e;
  }
  AddPage(chunk, h, body);
  return body;
}

std::string Indices(const std::vector<int32_t>& idx, int bit_width) {
  BufferBuilder b;
  EXPECT_TRUE(enc::EncodeDictionaryIndices(idx.data(), static_cast<int64_t>(idx.size()), bit_width, &b).ok());
  return Bytes(b);
}

TEST(FlatColumnReader, DictionaryStringsWithNulls) {
  std::string chunk;
  DictPage(&chunk, {"apple", "", "pear"});
  AddPage(&chunk, DataV1(5, Encoding::RLE_DICTIONARY), V1Levels({1, 1, 0, 1, 1}, 1) + Indices({2, 0, 1, 2}, 2));
  auto a = Read(Column(Type::BYTE_ARRAY, 1), utf8(), chunk, 5);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(ArrayToString(*a), R"(["pear", "apple", null, "", "pear"])");
}

// A dictionary of strings 0-40 bytes long (the gather's one-copy, two-copy and memcpy paths).
std::vector<std::string> VariedEntries(int n) {
  std::vector<std::string> e;
  for (int i = 0; i < n; ++i) e.push_back(std::string(static_cast<size_t>(i % 41), static_cast<char>('a' + i % 26)));
  return e;
}

// Deterministic indices below `dict_size`, with runs (RLE) and scattered stretches (bit-packed).
std::vector<int32_t> PageIndices(int page, int n, int dict_size) {
  std::vector<int32_t> idx;
  uint32_t x = 2463534242u + static_cast<uint32_t>(page);
  for (int i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    idx.push_back(i % 97 < 20 ? page % dict_size : static_cast<int32_t>(x % static_cast<uint32_t>(dict_size)));
  }
  return idx;
}

// Strings of a chunk's dictionary pages are gathered once at its end, into a values buffer
// reserved for exactly their bytes (plus the 32 bytes of copy slack): its capacity shows that
// it did not grow page by page (a second growth step would at least double it).
TEST(FlatColumnReader, DictionaryStringsOfManyPagesSizedOnce) {
  const auto entries = VariedEntries(300);
  for (int16_t max_def : {0, 1}) {
    std::string chunk;
    DictPage(&chunk, entries);
    std::vector<std::string> expected;
    int64_t total = 0;
    constexpr int kPages = 25, kPerPage = 1000;
    for (int p = 0; p < kPages; ++p) {
      const auto idx = PageIndices(p, kPerPage, static_cast<int>(entries.size()));
      std::vector<int16_t> levels;
      std::vector<int32_t> present;
      for (int i = 0; i < kPerPage; ++i) {
        const bool null = max_def == 1 && i % 7 == 3;
        levels.push_back(null ? 0 : 1);
        if (null) {
          expected.push_back("<null>");
          continue;
        }
        present.push_back(idx[static_cast<size_t>(i)]);
        expected.push_back(entries[static_cast<size_t>(idx[static_cast<size_t>(i)])]);
        total += static_cast<int64_t>(expected.back().size());
      }
      AddPage(&chunk, DataV1(kPerPage, Encoding::RLE_DICTIONARY),
              (max_def ? V1Levels(levels, 1) : "") + Indices(present, 9));
    }
    auto a = Read(Column(Type::BYTE_ARRAY, max_def), utf8(), chunk, kPages * kPerPage);
    ASSERT_TRUE(a.ok()) << a.status().ToString();
    ASSERT_EQ(a->length(), kPages * kPerPage);
    BinaryArray s(*a);
    for (int64_t i = 0; i < a->length(); ++i) {
      const std::string got = a->IsNull(i) ? "<null>" : std::string(s.GetView(i));
      ASSERT_EQ(got, expected[static_cast<size_t>(i)]) << "max_def " << max_def << " row " << i;
    }
    const auto& bytes = a->data()->buffers[2];
    EXPECT_EQ(bytes->size(), total);
    EXPECT_EQ(bytes->capacity(), (total + 32 + 63) / 64 * 64) << "max_def " << max_def;
  }
}

// A chunk of more dictionary indices than wait at once (4M; 4.5M here, 45 pages of 100,000) is
// gathered in two steps, in order.
TEST(FlatColumnReader, DictionaryStringsPastThePendingLimitKeepOrder) {
  std::string chunk;
  DictPage(&chunk, {"a", "bc", "def"});
  constexpr int kPages = 45, kPerPage = 100000;
  for (int p = 0; p < kPages; ++p) {
    std::vector<int32_t> idx(kPerPage);
    for (int i = 0; i < kPerPage; ++i) idx[static_cast<size_t>(i)] = (p * kPerPage + i) % 3;
    AddPage(&chunk, DataV1(kPerPage, Encoding::RLE_DICTIONARY), Indices(idx, 2));
  }
  const int64_t n = int64_t{kPages} * kPerPage;
  auto a = Read(Column(Type::BYTE_ARRAY, 0), utf8(), chunk, n);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_EQ(a->length(), n);
  const int32_t* off = a->data()->buffers[1]->data_as<int32_t>();
  const char* bytes = reinterpret_cast<const char*>(a->data()->buffers[2]->data());
  ASSERT_EQ(off[n], n / 3 * 6);
  for (int64_t i = 0; i < n; ++i) {
    const int32_t len = off[i + 1] - off[i];
    ASSERT_EQ(len, i % 3 + 1) << "row " << i;
    const std::string_view want("abcdef" + len * (len - 1) / 2, static_cast<size_t>(len));  // a, bc, def
    ASSERT_EQ(std::string_view(bytes + off[i], static_cast<size_t>(len)), want) << "row " << i;
  }
}

// Dictionaries whose entries all have one length are gathered without their offsets: one-byte
// entries (l_returnflag) a byte each, three-byte ones in fixed copies, whole and with only some
// rows kept, across two pages.
TEST(FlatColumnReader, DictionaryStringsOfOneLength) {
  for (const std::vector<std::string>& dict : {std::vector<std::string>{"A", "N", "R"},
                                               std::vector<std::string>{"AIR", "SEA", "RAI"}}) {
    std::string chunk;
    DictPage(&chunk, dict);
    AddPage(&chunk, DataV1(4, Encoding::RLE_DICTIONARY), Indices({2, 0, 1, 2}, 2));
    AddPage(&chunk, DataV1(3, Encoding::PLAIN_DICTIONARY), Indices({1, 1, 0}, 2));
    auto a = Read(Column(Type::BYTE_ARRAY, 0), utf8(), chunk, 7);
    ASSERT_TRUE(a.ok()) << a.status().ToString();
    const std::string& x = dict[0];
    const std::string& y = dict[1];
    const std::string& z = dict[2];
    EXPECT_EQ(ArrayToString(*a), "[\"" + z + "\", \"" + x + "\", \"" + y + "\", \"" + z + "\", \"" + y + "\", \"" + y +
                                     "\", \"" + x + "\"]");
    // Rows 0, 2, 3 and 6 kept (bits 0b1001101).
    auto buf = Buffer::CopyOf({reinterpret_cast<const uint8_t*>(chunk.data()), chunk.size()});
    ASSERT_TRUE(buf.ok());
    const uint8_t keep[1] = {0x4D};
    auto k = ReadFlatColumnChunk(Column(Type::BYTE_ARRAY, 0), utf8(), *buf, compress::Codec::kUncompressed, 7, {}, keep);
    ASSERT_TRUE(k.ok()) << k.status().ToString();
    EXPECT_EQ(ArrayToString(*k), "[\"" + z + "\", \"" + y + "\", \"" + z + "\", \"" + x + "\"]");
  }
}

// A keep bitmap whose 64-row steps are, in turn, every row kept, most rows, a few and none.
std::vector<uint8_t> EveryKindOfStep(int rows) {
  std::vector<uint8_t> keep(static_cast<size_t>((rows + 7) / 8), 0);
  for (int i = 0; i < rows; ++i) {
    const int step = i / 64;
    const bool kept = step % 4 == 0 ? true : step % 4 == 1 ? i % 9 != 0 : step % 4 == 2 ? i % 13 == 0 : false;
    if (kept) keep[static_cast<size_t>(i / 8)] |= static_cast<uint8_t>(1u << (i % 8));
  }
  return keep;
}

// Appends `idx` as three RLE_DICTIONARY data pages of rows [0, 301), [301, 700) and [700, end):
// pages that start mid-word of the keep bitmap.
void AddIndexPagesAcrossWords(std::string* chunk, const std::vector<int32_t>& idx, int bit_width) {
  const int rows = static_cast<int>(idx.size());
  for (int start : {0, 301, 700}) {
    const int end = start == 0 ? 301 : start == 301 ? 700 : rows;
    AddPage(chunk, DataV1(end - start, Encoding::RLE_DICTIONARY),
            Indices(std::vector<int32_t>(idx.begin() + start, idx.begin() + end), bit_width));
  }
}

// Kept rows of dictionary strings over pages longer than a 64-row step: every kind of step
// (every row kept, most rows, a few, none, the page's partial last one) leaves the kept rows'
// strings in order, across pages that start mid-word of the keep bitmap.
TEST(FlatColumnReader, DictionaryStringsKeptByEveryKindOfStep) {
  const std::vector<std::string> dict{"A", "N", "R", "F", "O"};
  constexpr int kRows = 1000;
  std::vector<int32_t> idx(kRows);
  for (int i = 0; i < kRows; ++i) idx[static_cast<size_t>(i)] = (i * 7 + i / 5) % 5;
  const std::vector<uint8_t> keep = EveryKindOfStep(kRows);
  std::string chunk;
  DictPage(&chunk, dict);
  AddIndexPagesAcrossWords(&chunk, idx, 3);
  auto buf = Buffer::CopyOf({reinterpret_cast<const uint8_t*>(chunk.data()), chunk.size()});
  ASSERT_TRUE(buf.ok());
  auto k = ReadFlatColumnChunk(Column(Type::BYTE_ARRAY, 0), utf8(), *buf, compress::Codec::kUncompressed, kRows, {},
                               keep.data());
  ASSERT_TRUE(k.ok()) << k.status().ToString();
  std::vector<std::string> want;
  for (int i = 0; i < kRows; ++i) {
    if ((keep[static_cast<size_t>(i / 8)] >> (i % 8)) & 1) want.push_back(dict[static_cast<size_t>(idx[static_cast<size_t>(i)])]);
  }
  ASSERT_EQ(k->length(), static_cast<int64_t>(want.size()));
  const BinaryArray s(*k);
  for (int64_t r = 0; r < k->length(); ++r) ASSERT_EQ(s.GetView(r), want[static_cast<size_t>(r)]) << "kept row " << r;
}

// Kept rows of dictionary-coded doubles, from dictionaries of at most 16 and 64 entries (looked
// up from registers at AVX-512: l_discount, l_tax, l_quantity) and a larger one (gathered), by
// every kind of step across pages that start mid-word of the keep bitmap.
TEST(FlatColumnReader, DictionaryDoublesKeptBySmallAndLargeDictionaries) {
  constexpr int kRows = 1000;
  const std::vector<uint8_t> keep = EveryKindOfStep(kRows);
  for (int dict_size : {11, 16, 40, 64, 65}) {
    std::vector<double> dict(static_cast<size_t>(dict_size));
    for (int e = 0; e < dict_size; ++e) dict[static_cast<size_t>(e)] = e * 0.01 + 1000 * dict_size;
    std::vector<int32_t> idx(kRows);
    for (int i = 0; i < kRows; ++i) idx[static_cast<size_t>(i)] = (i * 7 + i / 5) % dict_size;
    PageHeader h;
    h.type = PageType::DICTIONARY_PAGE;
    DictionaryPageHeader d;
    d.num_values = dict_size;
    d.encoding = Encoding::PLAIN_DICTIONARY;
    h.dictionary_page_header = d;
    std::string chunk;
    AddPage(&chunk, h, std::string(reinterpret_cast<const char*>(dict.data()), dict.size() * 8));
    AddIndexPagesAcrossWords(&chunk, idx, 7);
    auto buf = Buffer::CopyOf({reinterpret_cast<const uint8_t*>(chunk.data()), chunk.size()});
    ASSERT_TRUE(buf.ok());
    auto k = ReadFlatColumnChunk(Column(Type::DOUBLE, 0), float64(), *buf, compress::Codec::kUncompressed, kRows, {},
                                 keep.data());
    ASSERT_TRUE(k.ok()) << k.status().ToString();
    std::vector<double> want;
    for (int i = 0; i < kRows; ++i) {
      if ((keep[static_cast<size_t>(i / 8)] >> (i % 8)) & 1) want.push_back(dict[static_cast<size_t>(idx[static_cast<size_t>(i)])]);
    }
    ASSERT_EQ(k->length(), static_cast<int64_t>(want.size()));
    const double* got = PrimitiveArray<double>(*k).raw_values();
    for (int64_t r = 0; r < k->length(); ++r) {
      ASSERT_EQ(got[r], want[static_cast<size_t>(r)]) << "dictionary of " << dict_size << ", kept row " << r;
    }
  }
}

// A writer that gives up on the dictionary mid-chunk follows its dictionary pages with PLAIN
// ones: the waiting dictionary strings come first, in order.
TEST(FlatColumnReader, DictionaryStringsThenPlainFallbackKeepOrder) {
  std::string chunk;
  DictPage(&chunk, {"x", "a string longer than thirty-two bytes", ""});
  AddPage(&chunk, DataV1(3, Encoding::RLE_DICTIONARY), Indices({0, 1, 2}, 2));
  AddPage(&chunk, DataV1(2, Encoding::PLAIN_DICTIONARY), Indices({1, 0}, 2));
  std::string plain;
  for (std::string v : {"plain1", "p2"}) {
    uint32_t len = static_cast<uint32_t>(v.size());
    plain += std::string(reinterpret_cast<const char*>(&len), 4) + v;
  }
  AddPage(&chunk, DataV1(2, Encoding::PLAIN), plain);
  auto a = Read(Column(Type::BYTE_ARRAY, 0), utf8(), chunk, 7);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(ArrayToString(*a), R"(["x", "a string longer than thirty-two bytes", "", )"
                               R"("a string longer than thirty-two bytes", "x", "plain1", "p2"])");
}

// An index out of range in a later page is still caught (indices are checked as each page's
// are decoded, not when the chunk's strings are gathered) and named with its page.
TEST(FlatColumnReader, DictionaryIndexOutOfRangeInALaterPageIsCorrupt) {
  std::string chunk;
  DictPage(&chunk, {"a", "b"});
  AddPage(&chunk, DataV1(2, Encoding::RLE_DICTIONARY), Indices({0, 1}, 2));
  AddPage(&chunk, DataV1(2, Encoding::RLE_DICTIONARY), Indices({1, 2}, 2));
  auto a = Read(Column(Type::BYTE_ARRAY, 0), utf8(), chunk, 4);
  ASSERT_FALSE(a.ok());
  EXPECT_TRUE(a.status().IsCorrupt()) << a.status().ToString();
  EXPECT_NE(a.status().ToString().find("page 2"), std::string::npos) << a.status().ToString();
  EXPECT_NE(a.status().ToString().find("dictionary index 2 out of range"), std::string::npos)
      << a.status().ToString();
}

TEST(FlatColumnReader, DictionaryIndexOutOfRangeIsCorrupt) {
  std::string chunk;
  DictPage(&chunk, {"a", "b"});
  AddPage(&chunk, DataV1(2, Encoding::RLE_DICTIONARY), Indices({0, 3}, 2));
  auto a = Read(Column(Type::BYTE_ARRAY, 0), utf8(), chunk, 2);
  ASSERT_FALSE(a.ok());
  EXPECT_TRUE(a.status().IsCorrupt()) << a.status().ToString();
  EXPECT_NE(a.status().ToString().find("page 1"), std::string::npos) << a.status().ToString();
}

TEST(FlatColumnReader, DictionaryPageMissingIsCorrupt) {
  std::string chunk;
  AddPage(&chunk, DataV1(1, Encoding::RLE_DICTIONARY), Indices({0}, 1));
  auto a = Read(Column(Type::INT32, 0), int32(), chunk, 1);
  ASSERT_FALSE(a.ok());
  EXPECT_TRUE(a.status().IsCorrupt());
}

TEST(FlatColumnReader, CrcCheckedWhenPresent) {
  std::string good, bad;
  AddPage(&good, DataV1(2, Encoding::PLAIN), PlainInt32({1, 2}), /*crc=*/true);
  AddPage(&bad, DataV1(2, Encoding::PLAIN), PlainInt32({1, 2}), /*crc=*/true, /*bad_crc=*/true);
  EXPECT_TRUE(Read(Column(Type::INT32, 0), int32(), good, 2).ok());
  auto a = Read(Column(Type::INT32, 0), int32(), bad, 2);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().ToString().find("CRC mismatch"), std::string::npos) << a.status().ToString();
  auto unchecked = Read(Column(Type::INT32, 0), int32(), bad, 2, /*verify_crc=*/false);
  ASSERT_TRUE(unchecked.ok());
  EXPECT_EQ(ArrayToString(*unchecked), "[1, 2]");
}

TEST(FlatColumnReader, DataPageV2UncompressedValuesUnderACodec) {
  // is_compressed = false: the values are stored raw although the chunk's codec is snappy.
  std::string levels_full = V1Levels({1, 0, 1}, 1);
  std::string levels = levels_full.substr(4);  // V2 levels carry no length prefix
  PageHeader h;
  h.type = PageType::DATA_PAGE_V2;
  DataPageHeaderV2 d;
  d.num_values = 3;
  d.num_nulls = 1;
  d.num_rows = 3;
  d.encoding = Encoding::PLAIN;
  d.definition_levels_byte_length = static_cast<int32_t>(levels.size());
  d.repetition_levels_byte_length = 0;
  d.is_compressed = false;
  h.data_page_header_v2 = d;
  std::string chunk;
  AddPage(&chunk, h, levels + PlainInt32({11, 33}));
  auto a = Read(Column(Type::INT32, 1), int32(), chunk, 3, true, compress::Codec::kSnappy);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(ArrayToString(*a), "[11, null, 33]");
}

TEST(FlatColumnReader, RleBooleansWithNulls) {
  enc::RleBitPackedEncoder e(1);
  std::vector<uint8_t> bits = {1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0};
  ASSERT_TRUE(e.Put(bits.data(), static_cast<int64_t>(bits.size())).ok());
  BufferBuilder b;
  ASSERT_TRUE(e.Finish(&b).ok());
  std::string runs = Bytes(b);
  uint32_t len = static_cast<uint32_t>(runs.size());
  std::vector<int16_t> levels(12, 1);
  levels[5] = 0;
  std::string chunk;
  AddPage(&chunk, DataV1(12, Encoding::RLE),
          V1Levels(levels, 1) + std::string(reinterpret_cast<const char*>(&len), 4) + runs);
  auto a = Read(Column(Type::BOOLEAN, 1), boolean(), chunk, 12);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(ArrayToString(*a), "[true, false, false, true, true, null, true, true, true, true, true, false]");
}

TEST(FlatColumnReader, DecimalFromBigEndianFixedBytes) {
  // 3-byte big-endian two's complement: 1234, -1, -8388608.
  const unsigned char raw[] = {0x00, 0x04, 0xd2, 0xff, 0xff, 0xff, 0x80, 0x00, 0x00};
  std::string chunk;
  AddPage(&chunk, DataV1(3, Encoding::PLAIN), std::string(reinterpret_cast<const char*>(raw), sizeof raw));
  auto a = Read(Column(Type::FIXED_LEN_BYTE_ARRAY, 0, 3), decimal128(7, 2), chunk, 3);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(ArrayToString(*a), "[12.34, -0.01, -83886.08]");
}

TEST(FlatColumnReader, TruncatedPagesAndBadCountsFailCleanly) {
  std::string chunk;
  AddPage(&chunk, DataV1(3, Encoding::PLAIN), PlainInt32({1, 2, 3}));
  // Every prefix of the chunk is an error, never a crash.
  for (size_t cut = 0; cut < chunk.size(); ++cut) {
    auto a = Read(Column(Type::INT32, 0), int32(), chunk.substr(0, cut), 3);
    EXPECT_FALSE(a.ok()) << cut;
  }
  // More values promised by the metadata than the pages hold.
  auto a = Read(Column(Type::INT32, 0), int32(), chunk, 4);
  EXPECT_FALSE(a.ok());
  // A definition level above the maximum (2, so levels take 2 bits and 3 is encodable).
  std::string bad;
  AddPage(&bad, DataV1(2, Encoding::PLAIN), V1Levels({2, 3}, 2) + PlainInt32({1}));
  auto b = Read(Column(Type::INT32, 2), int32(), bad, 2);
  ASSERT_FALSE(b.ok());
  EXPECT_TRUE(b.status().IsCorrupt()) << b.status().ToString();
}

}  // namespace
}  // namespace quiver::parquet::reader

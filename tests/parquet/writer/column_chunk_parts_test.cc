// The column writer's two halves on their own: a value writer of one physical type (its
// dictionary, its value encoder, its bounds) and the page assembler (levels, page headers,
// page-index entries), without a file around them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <span>
#include <vector>

#include "quiver/columnar/builder.h"
#include "quiver/core/arena.h"
#include "quiver/parquet/metadata_codec.h"
#include "quiver/parquet/writer/page_assembler_internal.h"
#include "quiver/parquet/writer/value_writer_internal.h"

namespace quiver::parquet::writer {
namespace {

template <typename T>
Array Numbers(TypePtr type, const std::vector<std::optional<T>>& values) {
  NumericBuilder<T> b(std::move(type));
  for (const auto& v : values) EXPECT_TRUE((v ? b.Append(*v) : b.AppendNull()).ok());
  return *b.Finish();
}

template <typename T>
std::string Plain(T v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof(T));
}

// A writer of `f`'s type over its own bounds and chunk.
struct Parts {
  explicit Parts(Field field, ColumnWriterOptions options = {})
      : f(std::move(field)), leaf(*LeafTypeFor(*f.type)), o(options), bounds(SortOrderFor(*f.type), leaf.physical),
        values(MakeValueWriter(f, leaf, o, &bounds, &chunk)) {}
  Field f;
  LeafType leaf;
  ColumnWriterOptions o;
  EncodedColumnChunk chunk;
  PageBounds bounds;
  std::unique_ptr<ValueWriter> values;
};

// A union has no Parquet leaf type: asked for one, the mapping says so rather than handing back
// an unset physical type (the file writer rejects unions before it gets here).
TEST(LeafTypeFor, UnionHasNoParquetType) {
  const TypePtr u = dense_union({Field{"a", int32()}, Field{"b", utf8()}});
  const Result<LeafType> l = LeafTypeFor(*u);
  ASSERT_FALSE(l.ok());
  EXPECT_EQ(l.status().message(), "Parquet has no union type, so " + u->ToString() + " cannot be written");
}

TEST(ValueWriter, DictionaryHoldsEachValueOnceInFirstSeenOrder) {
  Parts p(field("x", int64()));
  ASSERT_TRUE(p.values->Start(/*dictionary=*/true, 4, 0, 0).ok());
  Array a = Numbers<int64_t>(int64(), {5, -3, 5, 7});
  ASSERT_TRUE(p.values->Put(*a.data(), 0, 4, 0).ok());
  EXPECT_TRUE(p.values->dictionary());
  EXPECT_EQ(p.values->encoding(), Encoding::RLE_DICTIONARY);
  EXPECT_EQ(p.values->dictionary_entries(), 3);
  EXPECT_EQ(p.values->page_plain_bytes(), 32);

  BufferBuilder indices;
  std::span<const uint8_t> page;
  ASSERT_TRUE(p.values->FlushValues(&indices, &page).ok());
  // A page's bounds are complete once its values are flushed (the first page's are its
  // dictionary entries').
  ASSERT_TRUE(p.bounds.min() && p.bounds.max());
  EXPECT_EQ(*p.bounds.min(), Plain<int64_t>(-3));
  EXPECT_EQ(*p.bounds.max(), Plain<int64_t>(7));
  ASSERT_GT(indices.size(), 0);
  EXPECT_EQ(indices.data()[0], 2);  // the indices' bit width: 3 entries
  EXPECT_EQ(page.data(), indices.data());  // the page is the body
  EXPECT_EQ(static_cast<int64_t>(page.size()), indices.size());
  EXPECT_EQ(p.values->page_plain_bytes(), 0);

  BufferBuilder dictionary;
  int64_t entries = 0;
  ASSERT_TRUE(p.values->WriteDictionaryPage(&dictionary, &entries).ok());
  EXPECT_EQ(entries, 3);
  ASSERT_EQ(dictionary.size(), 24);
  int64_t v[3];
  std::memcpy(v, dictionary.data(), sizeof(v));
  EXPECT_EQ(v[0], 5);
  EXPECT_EQ(v[1], -3);
  EXPECT_EQ(v[2], 7);
}

// A dictionary chunk's first page is bounded by the dictionary's entries: NaN is no bound,
// nulls are no entries, and both zeros are entries of their own.
TEST(ValueWriter, DictionaryFirstPageIsBoundedByItsEntriesWithoutNaN) {
  Parts p(field("x", float64()));
  ASSERT_TRUE(p.values->Start(/*dictionary=*/true, 7, 0, 0).ok());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Array a = Numbers<double>(float64(), {nan, 0.0, std::nullopt, 4.5, -0.0, nan, -2.25, 4.5});
  ASSERT_TRUE(p.values->Put(*a.data(), 0, 8, 1).ok());
  EXPECT_EQ(p.values->dictionary_entries(), 5);  // NaN, 0.0, 4.5, -0.0, -2.25
  BufferBuilder indices;
  std::span<const uint8_t> page;
  ASSERT_TRUE(p.values->FlushValues(&indices, &page).ok());
  ASSERT_TRUE(p.bounds.min() && p.bounds.max());
  EXPECT_EQ(*p.bounds.min(), Plain<double>(-2.25));
  EXPECT_EQ(*p.bounds.max(), Plain<double>(4.5));
}

// Only zeros and NaN: the bounds are the zero seen first, as a pass over the values gives
// (the assembler widens a zero bound to -0.0 / +0.0 either way).
TEST(ValueWriter, DictionaryFirstPageOfZerosIsBoundedByTheFirstZero) {
  Parts p(field("x", float64()));
  ASSERT_TRUE(p.values->Start(/*dictionary=*/true, 4, 0, 0).ok());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Array a = Numbers<double>(float64(), {nan, -0.0, 0.0, -0.0});
  ASSERT_TRUE(p.values->Put(*a.data(), 0, 4, 0).ok());
  BufferBuilder indices;
  std::span<const uint8_t> page;
  ASSERT_TRUE(p.values->FlushValues(&indices, &page).ok());
  ASSERT_TRUE(p.bounds.min() && p.bounds.max());
  EXPECT_EQ(*p.bounds.min(), Plain<double>(-0.0));
  EXPECT_EQ(*p.bounds.max(), Plain<double>(-0.0));
}

// Pages after the first are bounded by their own values, not by the entries earlier pages
// added to the dictionary.
TEST(ValueWriter, DictionaryLaterPagesAreBoundedByTheirOwnValues) {
  Parts p(field("x", int32()));
  ASSERT_TRUE(p.values->Start(/*dictionary=*/true, 6, 0, 0).ok());
  Array a = Numbers<int32_t>(int32(), {1, 5, 100, 5, std::nullopt, 7});
  ASSERT_TRUE(p.values->Put(*a.data(), 0, 3, 0).ok());
  BufferBuilder body;
  std::span<const uint8_t> page;
  ASSERT_TRUE(p.values->FlushValues(&body, &page).ok());
  ASSERT_TRUE(p.bounds.min() && p.bounds.max());
  EXPECT_EQ(*p.bounds.min(), Plain<int32_t>(1));
  EXPECT_EQ(*p.bounds.max(), Plain<int32_t>(100));
  PageBounds second(p.bounds.order(), Type::INT32);
  p.bounds = second;  // the assembler's bounds start over for each page
  ASSERT_TRUE(p.values->Put(*a.data(), 3, 3, 1).ok());  // 5, null, 7
  BufferBuilder next;
  ASSERT_TRUE(p.values->FlushValues(&next, &page).ok());
  ASSERT_TRUE(p.bounds.min() && p.bounds.max());
  EXPECT_EQ(*p.bounds.min(), Plain<int32_t>(5));
  EXPECT_EQ(*p.bounds.max(), Plain<int32_t>(7));
  EXPECT_EQ(p.values->dictionary_entries(), 4);
}

TEST(ValueWriter, PlainDoublesAreBoundedWithoutTheirNaNs) {
  Parts p(field("x", float64()));
  ASSERT_TRUE(p.values->Start(/*dictionary=*/false, 4, 0, 0).ok());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Array a = Numbers<double>(float64(), {nan, 2.5, std::nullopt, -1.0});
  ASSERT_TRUE(p.values->Put(*a.data(), 0, 4, 1).ok());
  EXPECT_FALSE(p.values->dictionary());
  EXPECT_EQ(p.values->encoding(), Encoding::PLAIN);
  ASSERT_TRUE(p.bounds.min() && p.bounds.max());
  EXPECT_EQ(*p.bounds.min(), Plain<double>(-1.0));
  EXPECT_EQ(*p.bounds.max(), Plain<double>(2.5));
  BufferBuilder body;
  std::span<const uint8_t> page;
  ASSERT_TRUE(p.values->FlushValues(&body, &page).ok());
  ASSERT_EQ(page.size(), 24u);  // the three non-null values, NaN included
  double v[3];
  std::memcpy(v, page.data(), sizeof(v));
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], 2.5);
  EXPECT_EQ(v[2], -1.0);
}

// PLAIN values stay in the value writer's buffer: a page's few bytes of levels are copied in
// front of them there, and the body is left as it was.
TEST(ValueWriter, PlainPageIsItsLevelsInFrontOfTheValuesInPlace) {
  Parts p(field("x", int64()));
  ASSERT_TRUE(p.values->Start(/*dictionary=*/false, 3, 0, 0).ok());
  Array a = Numbers<int64_t>(int64(), {4, 5, 6});
  ASSERT_TRUE(p.values->Put(*a.data(), 0, 3, 0).ok());
  BufferBuilder body;
  const uint8_t levels[5] = {1, 0, 0, 0, 9};
  ASSERT_TRUE(body.Append(levels, 5).ok());
  std::span<const uint8_t> page;
  ASSERT_TRUE(p.values->FlushValues(&body, &page).ok());
  EXPECT_EQ(body.size(), 5);  // the values were not appended to the body
  ASSERT_EQ(page.size(), 5u + 24u);
  EXPECT_NE(page.data(), body.data());
  EXPECT_EQ(std::memcmp(page.data(), levels, 5), 0);
  int64_t v[3];
  std::memcpy(v, page.data() + 5, sizeof(v));
  EXPECT_EQ(v[0], 4);
  EXPECT_EQ(v[1], 5);
  EXPECT_EQ(v[2], 6);
  // The next page starts empty.
  ASSERT_TRUE(p.values->Put(*a.data(), 2, 1, 0).ok());
  BufferBuilder next;
  ASSERT_TRUE(p.values->FlushValues(&next, &page).ok());
  ASSERT_EQ(page.size(), 8u);
  std::memcpy(v, page.data(), 8);
  EXPECT_EQ(v[0], 6);
}

// Levels longer than the room in front of the values (a page with many nulls): the values are
// appended to the body, which is the page.
TEST(ValueWriter, PlainPageWithLongLevelsIsTheBody) {
  Parts p(field("x", int64()));
  ASSERT_TRUE(p.values->Start(/*dictionary=*/false, 2, 0, 0).ok());
  Array a = Numbers<int64_t>(int64(), {7, 8});
  ASSERT_TRUE(p.values->Put(*a.data(), 0, 2, 0).ok());
  BufferBuilder body;
  std::vector<uint8_t> levels(65, 3);
  ASSERT_TRUE(body.Append(levels.data(), 65).ok());
  std::span<const uint8_t> page;
  ASSERT_TRUE(p.values->FlushValues(&body, &page).ok());
  ASSERT_EQ(body.size(), 65 + 16);
  EXPECT_EQ(page.data(), body.data());
  ASSERT_EQ(page.size(), 81u);
  int64_t v[2];
  std::memcpy(v, page.data() + 65, sizeof(v));
  EXPECT_EQ(v[0], 7);
  EXPECT_EQ(v[1], 8);
}

// PLAIN strings take their page's bounds as they are copied: the least and greatest of every
// non-null value in byte order, whatever slice or place holds them (the first and last value of
// a slice, values shorter than 8 bytes or sharing their first 8, values past 64 bytes and in the
// values' last 64 bytes, which are copied by length), nulls left out; the page is each value
// behind its length. DELTA_LENGTH_BYTE_ARRAY pages are bounded alike.
TEST(ValueWriter, PlainStringsAreBoundedByEveryNonNullValue) {
  std::mt19937 rng(61);
  std::vector<std::optional<std::string>> values;
  for (int i = 0; i < 3000; ++i) {
    const uint32_t r = rng();
    if (r % 13 == 0) {
      values.push_back(std::nullopt);
      continue;
    }
    std::string v = r % 7 == 0 ? "prefix08" : "";
    const size_t len = r % 11 == 0 ? 65 + r % 30 : 1 + r % 20;
    for (size_t k = 0; k < len; ++k) v.push_back(static_cast<char>('b' + rng() % 24));
    values.push_back(v);
  }
  // The extremes: at a slice's first and last place, and among the nulls (which do not count).
  values[1000] = std::string("a");
  values[1999] = std::string("\xff\xfe");
  values[2500] = std::nullopt;
  values.back() = std::string(70, 'z');
  for (const std::optional<Encoding> encoding : {std::optional<Encoding>{}, std::optional<Encoding>{Encoding::DELTA_LENGTH_BYTE_ARRAY}}) {
    ColumnWriterOptions o;
    o.encoding = encoding;
    Parts p(field("s", binary()), o);
    BinaryBuilder b(binary());
    std::string plain;
    std::optional<std::string> lo, hi;
    int64_t nulls = 0;
    for (const auto& v : values) {
      ASSERT_TRUE((v ? b.Append(*v) : b.AppendNull()).ok());
      if (!v) {
        ++nulls;
        continue;
      }
      const auto len = static_cast<int32_t>(v->size());
      plain.append(reinterpret_cast<const char*>(&len), 4).append(*v);
      if (!lo || *v < *lo) lo = *v;
      if (!hi || *hi < *v) hi = *v;
    }
    const Array a = *b.Finish();
    ASSERT_TRUE(p.values->Start(/*dictionary=*/false, static_cast<int64_t>(values.size()) - nulls, 0, 0).ok());
    const uint8_t* validity = a.data()->validity();
    for (int64_t r = 0; r < a.length(); r += 1000) {
      const int64_t n = std::min<int64_t>(1000, a.length() - r);
      const int64_t slice_nulls = n - bit_util::CountSetBits(validity, a.data()->offset + r, n);
      ASSERT_TRUE(p.values->Put(*a.data(), r, n, slice_nulls).ok());
    }
    ASSERT_TRUE(p.bounds.min() && p.bounds.max());
    EXPECT_EQ(*p.bounds.min(), "a");
    EXPECT_EQ(*p.bounds.max(), "\xff\xfe");
    EXPECT_EQ(*p.bounds.min(), *lo);
    EXPECT_EQ(*p.bounds.max(), *hi);
    if (!encoding) {
      BufferBuilder body;
      std::span<const uint8_t> page;
      ASSERT_TRUE(p.values->FlushValues(&body, &page).ok());
      ASSERT_EQ(page.size(), plain.size());
      EXPECT_EQ(std::memcmp(page.data(), plain.data(), plain.size()), 0);
    }
  }
}

TEST(ValueWriter, RefusesAnEncodingItsPhysicalTypeDoesNotTake) {
  ColumnWriterOptions o;
  o.encoding = Encoding::DELTA_LENGTH_BYTE_ARRAY;
  Parts p(field("x", int32()), o);
  Status st = p.values->Start(/*dictionary=*/true, 1, 0, 0);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "column 'x': encoding DELTA_LENGTH_BYTE_ARRAY does not apply to INT32 values");
}

// A nullable flat column's page: its definition levels in the body (V1: with their length in
// front), the header's counts and statistics, and the page-index entry.
TEST(PageAssembler, DataPageCountsLevelsNullsAndRows) {
  ColumnWriterOptions o;
  o.codec = compress::Codec::kUncompressed;
  Field f = field("x", int64());
  const LeafType leaf = *LeafTypeFor(*f.type);
  EncodedColumnChunk chunk;
  PageAssembler pages(f, leaf, o, o.codec, /*max_def=*/1, /*max_rep=*/0, &chunk);
  Array a = Numbers<int64_t>(int64(), {1, std::nullopt, 3, std::nullopt, std::nullopt});
  ASSERT_TRUE(pages.PutFlatLevels(*a.data(), 0, 5, 3).ok());
  EXPECT_EQ(pages.non_null_values(), 2);
  pages.bounds()->Add(Plain<int64_t>(3));
  pages.bounds()->Add(Plain<int64_t>(1));
  ASSERT_TRUE(pages.page_open());
  auto body = pages.StartPage();
  ASSERT_TRUE(body.ok());
  const int64_t levels = (*body)->size();
  uint32_t levels_length = 0;
  std::memcpy(&levels_length, (*body)->data(), 4);
  EXPECT_EQ(levels_length, levels - 4);
  ASSERT_TRUE((*body)->Append(Plain<int64_t>(1).data(), 8).ok());
  ASSERT_TRUE((*body)->Append(Plain<int64_t>(3).data(), 8).ok());
  ASSERT_TRUE(pages.FinishPage(Encoding::PLAIN, std::span<const uint8_t>((*body)->data(), static_cast<size_t>((*body)->size()))).ok());
  EXPECT_FALSE(pages.page_open());
  pages.Finish(Encoding::PLAIN);

  Arena arena;
  PageHeader h;
  size_t header_size = 0;
  ASSERT_TRUE(DecodePageHeader(std::span<const uint8_t>(chunk.bytes.data(), static_cast<size_t>(chunk.bytes.size())),
                               &arena, &h, &header_size)
                  .ok());
  EXPECT_EQ(h.type, PageType::DATA_PAGE);
  EXPECT_EQ(h.uncompressed_page_size, levels + 16);
  EXPECT_EQ(h.compressed_page_size, levels + 16);
  EXPECT_EQ(static_cast<int64_t>(header_size) + levels + 16, chunk.bytes.size());
  ASSERT_TRUE(h.data_page_header);
  EXPECT_EQ(h.data_page_header->num_values, 5);
  ASSERT_TRUE(h.data_page_header->statistics);
  EXPECT_EQ(*h.data_page_header->statistics->null_count, 3);
  EXPECT_EQ(*h.data_page_header->statistics->min_value, Plain<int64_t>(1));
  EXPECT_EQ(*h.data_page_header->statistics->max_value, Plain<int64_t>(3));

  const ColumnChunkMeta& m = chunk.meta;
  EXPECT_EQ(m.num_values, 5);
  EXPECT_EQ(m.null_count, 3);
  EXPECT_EQ(m.data_pages, 1);
  EXPECT_EQ(m.total_compressed_size, chunk.bytes.size());
  EXPECT_EQ(m.total_uncompressed_size, chunk.bytes.size());
  EXPECT_EQ(*m.min, Plain<int64_t>(1));
  EXPECT_EQ(*m.max, Plain<int64_t>(3));
  ASSERT_EQ(m.pages.size(), 1u);
  EXPECT_EQ(m.pages[0].offset, 0);
  EXPECT_EQ(m.pages[0].compressed_size, chunk.bytes.size());
  EXPECT_EQ(m.pages[0].null_count, 3);
  EXPECT_FALSE(m.pages[0].null_page);
  EXPECT_EQ(m.boundary_order, BoundaryOrder::ASCENDING);
}

TEST(PageAssembler, RefusesNullsInARequiredColumn) {
  ColumnWriterOptions o;
  Field f = field("x", int64(), /*nullable=*/false);
  const LeafType leaf = *LeafTypeFor(*f.type);
  EncodedColumnChunk chunk;
  PageAssembler pages(f, leaf, o, o.codec, /*max_def=*/0, /*max_rep=*/0, &chunk);
  Array a = Numbers<int64_t>(int64(), {1, std::nullopt});
  Status st = pages.PutFlatLevels(*a.data(), 0, 2, 1);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "column 'x' is not nullable but holds nulls");
}

}  // namespace
}  // namespace quiver::parquet::writer

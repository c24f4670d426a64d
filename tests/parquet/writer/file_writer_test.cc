// ParquetFileWriter: random flat tables (every type, nulls, extremes, NaN, unicode) written under
// every codec, with and without dictionaries, read back by ParquetFileReader and compared.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <random>

#include "quiver/columnar/builder.h"
#include "quiver/columnar/concatenate.h"
#include "quiver/columnar/pretty_print.h"
#include "quiver/core/recycling_pool.h"
#include "quiver/core/utf8.h"
#include "quiver/io/file.h"
#include "quiver/io/output_stream.h"
#include "quiver/parquet/metadata_codec.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/schema.h"
#include "quiver/parquet/statistics.h"
#include "quiver/parquet/writer/file_writer.h"
#include "testing/corpus.h"
#include "testing/parquet_bytes.h"
#include "testing/random_array.h"

namespace quiver::parquet {
namespace {

SchemaPtr AllTypes() {
  return std::make_shared<const Schema>(std::vector<Field>{
      field("b", boolean()), field("i8", int8()), field("i16", int16()), field("i32", int32()), field("i64", int64()),
      field("u8", uint8()), field("u16", uint16()), field("u32", uint32()), field("u64", uint64()),
      field("f16", float16()), field("f32", float32()), field("f64", float64()), field("d38", decimal128(38, 4)),
      field("date", date32()), field("t_ms", time32(quiver::TimeUnit::kMilli)), field("t_us", time64(quiver::TimeUnit::kMicro)),
      field("t_ns", time64(quiver::TimeUnit::kNano)), field("ts_ms", timestamp(quiver::TimeUnit::kMilli)),
      field("ts_us_utc", timestamp(quiver::TimeUnit::kMicro, "UTC")), field("ts_ns", timestamp(quiver::TimeUnit::kNano)),
      field("s", utf8()), field("bin", binary()), field("fsb", fixed_size_binary(5)),
      field("req", int64(), /*nullable=*/false)});
}

std::shared_ptr<RecordBatch> RandomBatch(const SchemaPtr& schema, int64_t rows, uint64_t seed, double nulls) {
  testing::RandomArrays gen(seed);
  std::vector<Array> cols;
  for (const Field& f : schema->fields()) cols.push_back(gen.Make(f.type, rows, f.nullable ? nulls : 0.0));
  return std::make_shared<RecordBatch>(schema, rows, std::move(cols));
}

using testing::WriteParquetBytes;

Result<std::shared_ptr<RecordBatch>> ReadAll(std::shared_ptr<Buffer> bytes, std::unique_ptr<ParquetFileReader>* keep = nullptr) {
  QUIVER_ASSIGN_OR_RETURN(auto r, ParquetFileReader::Open(io::MemorySource(std::move(bytes))));
  std::vector<std::shared_ptr<RecordBatch>> groups;
  for (int g = 0; g < r->num_row_groups(); ++g) {
    QUIVER_ASSIGN_OR_RETURN(auto b, r->ReadRowGroup(g));
    groups.push_back(b);
  }
  auto schema = r->schema();
  if (keep) *keep = std::move(r);
  return ConcatenateBatches(schema, groups);
}

constexpr int64_t kAll = std::numeric_limits<int64_t>::max();  // ArrayToString: every value

void ExpectSameRows(const RecordBatch& want, const RecordBatch& got) {
  ASSERT_EQ(want.num_columns(), got.num_columns());
  ASSERT_EQ(want.num_rows(), got.num_rows());
  for (int i = 0; i < want.num_columns(); ++i) {
    const Field& f = want.schema()->field(i);
    EXPECT_TRUE(want.column(i).type()->Equals(*got.column(i).type()))
        << f.name << ": " << want.column(i).type()->ToString() << " vs " << got.column(i).type()->ToString();
    EXPECT_EQ(got.schema()->field(i).name, f.name);
    // Text comparison: NaN equals NaN, which Array::Equals may not promise.
    EXPECT_EQ(ArrayToString(want.column(i), kAll), ArrayToString(got.column(i), kAll)) << "column " << f.name;
  }
}

// Writes `batch` with `opts`, checks that it reads back equal, and spells each column's chunks
// in row-group order, one letter per chunk from `letter` (so the strings' lengths are the row
// group count). Empty when the write or the read fails.
// Writes one batch with `opts` and reads the file back (its rows must equal the batch's),
// keeping the file and its reader for the metadata.
void WriteAndReadBack(const SchemaPtr& schema, const std::shared_ptr<RecordBatch>& batch, const ParquetWriterOptions& opts,
                      std::shared_ptr<Buffer>* file, std::unique_ptr<ParquetFileReader>* reader) {
  auto bytes = WriteParquetBytes(schema, {batch}, opts);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  *file = *bytes;
  auto got = ReadAll(*file, reader);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ExpectSameRows(*batch, **got);
}

std::vector<std::string> ChunkLetters(const SchemaPtr& schema, const std::shared_ptr<RecordBatch>& batch,
                                      const ParquetWriterOptions& opts,
                                      const std::function<char(const ColumnMetaData&)>& letter) {
  std::vector<std::string> out;
  auto bytes = WriteParquetBytes(schema, {batch}, opts);
  if (!bytes.ok()) {
    ADD_FAILURE() << bytes.status().ToString();
    return out;
  }
  std::unique_ptr<ParquetFileReader> reader;
  auto got = ReadAll(*bytes, &reader);
  if (!got.ok()) {
    ADD_FAILURE() << got.status().ToString();
    return out;
  }
  ExpectSameRows(*batch, **got);
  out.resize(static_cast<size_t>(batch->num_columns()));
  for (const auto& rg : reader->metadata().row_groups) {
    for (size_t c = 0; c < out.size(); ++c) out[c] += letter(*rg.columns[c].meta_data);
  }
  return out;
}

struct Case {
  compress::Codec codec;
  bool dictionary;
  int page_version = 1;
};

std::string CaseName(const Case& c) {
  return std::string(compress::CodecName(c.codec)) + (c.dictionary ? "_dict" : "_plain") + (c.page_version == 2 ? "_v2" : "");
}

// Every data page of every chunk is of the case's version.
void ExpectPageVersion(const FileMetaData& md, int version) {
  for (const auto& rg : md.row_groups) {
    for (const auto& cc : rg.columns) {
      for (const auto& es : *cc.meta_data->encoding_stats) {
        if (es.page_type != PageType::DICTIONARY_PAGE) {
          EXPECT_EQ(es.page_type, version == 2 ? PageType::DATA_PAGE_V2 : PageType::DATA_PAGE);
        }
      }
    }
  }
}

class RoundTrip : public ::testing::TestWithParam<Case> {};

TEST_P(RoundTrip, RandomTablesReadBackEqual) {
  const SchemaPtr schema = AllTypes();
  std::vector<std::shared_ptr<RecordBatch>> batches;
  // Batches of uneven sizes, one all-null-ish, one empty, across several row groups and pages.
  const int64_t sizes[] = {1000, 0, 4321, 7, 2500};
  uint64_t seed = 7;
  for (int64_t n : sizes) batches.push_back(RandomBatch(schema, n, seed++, n == 7 ? 0.95 : 0.2));
  ParquetWriterOptions opts;
  opts.codec = GetParam().codec;
  opts.dictionary = GetParam().dictionary;
  opts.page_version = GetParam().page_version;
  opts.row_group_rows = 3000;
  opts.page_size = 4096;
  auto bytes = WriteParquetBytes(schema, batches, opts);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  std::unique_ptr<ParquetFileReader> reader;
  auto got = ReadAll(*bytes, &reader);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  auto want = ConcatenateBatches(schema, batches);
  ASSERT_TRUE(want.ok());
  ExpectSameRows(**want, **got);
  EXPECT_EQ(reader->num_row_groups(), 3);
  EXPECT_EQ(reader->num_rows(), 1000 + 4321 + 7 + 2500);
  EXPECT_EQ(*reader->metadata().created_by, "quiver version 0.1.0");
  const auto& chunk = *reader->metadata().row_groups[0].columns[3].meta_data;
  EXPECT_EQ(static_cast<int>(chunk.codec), static_cast<int>(GetParam().codec));
  EXPECT_EQ(chunk.dictionary_page_offset.has_value(), GetParam().dictionary);
  ExpectPageVersion(reader->metadata(), GetParam().page_version);
}

INSTANTIATE_TEST_SUITE_P(
    Codecs, RoundTrip,
    ::testing::Values(Case{compress::Codec::kSnappy, true}, Case{compress::Codec::kSnappy, false},
                      Case{compress::Codec::kUncompressed, true}, Case{compress::Codec::kZstd, true},
                      Case{compress::Codec::kLz4Raw, false}, Case{compress::Codec::kGzip, true},
                      Case{compress::Codec::kBrotli, false}, Case{compress::Codec::kSnappy, true, 2},
                      Case{compress::Codec::kUncompressed, false, 2}, Case{compress::Codec::kZstd, false, 2}),
    [](const auto& info) { return CaseName(info.param); });

// Column values chosen by hand: extremes, NaN, signed zeros, empty and non-ASCII strings.
std::shared_ptr<RecordBatch> Extremes() {
  NumericBuilder<int64_t> i64(int64());
  for (int64_t v : {std::numeric_limits<int64_t>::min(), int64_t{-1}, int64_t{0}, std::numeric_limits<int64_t>::max()}) {
    EXPECT_TRUE(i64.Append(v).ok());
  }
  NumericBuilder<uint64_t> u64(uint64());
  for (uint64_t v : {uint64_t{0}, uint64_t{1}, std::numeric_limits<uint64_t>::max(), uint64_t{1} << 63}) {
    EXPECT_TRUE(u64.Append(v).ok());
  }
  NumericBuilder<double> f64(float64());
  for (double v : {std::nan(""), -0.0, 0.0, std::numeric_limits<double>::infinity()}) EXPECT_TRUE(f64.Append(v).ok());
  BinaryBuilder s(utf8());
  for (const char* v : {"", "日本語", "\xF0\x9F\x98\x80", "zz"}) EXPECT_TRUE(s.Append(v).ok());
  auto d9 = MakeBuilder(decimal128(9, 2));
  auto d18 = MakeBuilder(decimal128(18, 0));
  auto d38 = MakeBuilder(decimal128(38, 10));
  const __int128 big = static_cast<__int128>(999999999999999999LL) * 100000000000000000LL + 99999999999999999LL;
  for (__int128 v : {__int128{-999999999}, __int128{0}, __int128{1}, __int128{999999999}}) {
    EXPECT_TRUE(static_cast<FixedSizeBinaryBuilder*>(d9->get())->AppendDecimal(v).ok());
  }
  for (__int128 v : {__int128{-999999999999999999LL}, __int128{5}, __int128{-5}, __int128{999999999999999999LL}}) {
    EXPECT_TRUE(static_cast<FixedSizeBinaryBuilder*>(d18->get())->AppendDecimal(v).ok());
  }
  for (__int128 v : {-big, __int128{-1}, __int128{1}, big}) {
    EXPECT_TRUE(static_cast<FixedSizeBinaryBuilder*>(d38->get())->AppendDecimal(v).ok());
  }
  auto schema = std::make_shared<const Schema>(std::vector<Field>{
      field("i64", int64()), field("u64", uint64()), field("f64", float64()), field("s", utf8()),
      field("d9", decimal128(9, 2)), field("d18", decimal128(18, 0)), field("d38", decimal128(38, 10))});
  return std::make_shared<RecordBatch>(
      schema, 4,
      std::vector<Array>{*i64.Finish(), *u64.Finish(), *f64.Finish(), *s.Finish(), *(*d9)->Finish(),
                         *(*d18)->Finish(), *(*d38)->Finish()});
}

TEST(ParquetFileWriter, ExtremesRoundTripWithTypeOrderStatistics) {
  auto batch = Extremes();
  std::shared_ptr<Buffer> bytes;
  std::unique_ptr<ParquetFileReader> reader;
  ASSERT_NO_FATAL_FAILURE(WriteAndReadBack(batch->schema(), batch, {}, &bytes, &reader));
  const auto& md = reader->metadata();
  auto stat = [&](int col, bool max) {
    const auto& st = *md.row_groups[0].columns[static_cast<size_t>(col)].meta_data->statistics;
    return FormatStatisticsValue(reader->schema_tree().columns()[static_cast<size_t>(col)], max ? *st.max_value : *st.min_value);
  };
  EXPECT_EQ(stat(0, false), "-9223372036854775808");
  EXPECT_EQ(stat(0, true), "9223372036854775807");
  EXPECT_EQ(stat(1, false), "0");  // unsigned order: 2^63 is not negative
  EXPECT_EQ(stat(1, true), "18446744073709551615");
  EXPECT_EQ(stat(2, false), "-0");  // NaN ignored; a zero minimum is -0.0
  EXPECT_EQ(stat(2, true), "inf");
  EXPECT_EQ(stat(3, false), "");
  EXPECT_EQ(stat(3, true), "\xF0\x9F\x98\x80");  // byte order, not code point order of "zz"
  EXPECT_EQ(stat(4, false), "-9999999.99");
  EXPECT_EQ(stat(6, true), "9999999999999999999999999.9999999999");
  EXPECT_EQ(stat(6, false), "-9999999999999999999999999.9999999999");
  EXPECT_EQ(reader->schema_tree().columns()[4].physical_type, Type::INT32);
  EXPECT_EQ(reader->schema_tree().columns()[5].physical_type, Type::INT64);
  EXPECT_EQ(reader->schema_tree().columns()[6].physical_type, Type::FIXED_LEN_BYTE_ARRAY);
  EXPECT_EQ(reader->schema_tree().columns()[6].type_length, 16);
}

TEST(ParquetFileWriter, NullsInANonNullableColumnAreAnError) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("x", int32(), false)});
  NumericBuilder<int32_t> b(int32());
  ASSERT_TRUE(b.Append(1).ok());
  ASSERT_TRUE(b.AppendNull().ok());
  auto batch = std::make_shared<RecordBatch>(schema, 2, std::vector<Array>{*b.Finish()});
  auto bytes = WriteParquetBytes(schema, {batch}, {});
  ASSERT_FALSE(bytes.ok());
  EXPECT_NE(bytes.status().ToString().find("not nullable"), std::string::npos) << bytes.status().ToString();
}

// Row groups encode while the next rows are written: the counts include the group in flight,
// an error in a later group names it and surfaces by Close at the latest, and a writer
// abandoned with a group in flight waits for it.
TEST(ParquetFileWriter, RowGroupsInFlight) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("x", int32(), false)});
  auto make = [&](int32_t from, bool with_null) {
    NumericBuilder<int32_t> b(int32());
    for (int32_t i = 0; i < 1000; ++i) EXPECT_TRUE((with_null && i == 500 ? b.AppendNull() : b.Append(from + i)).ok());
    return std::make_shared<RecordBatch>(schema, 1000, std::vector<Array>{*b.Finish()});
  };
  ParquetWriterOptions opts;
  opts.row_group_rows = 1000;
  {
    io::BufferOutputStream out;
    auto w = ParquetFileWriter::Open(&out, schema, opts);
    ASSERT_TRUE(w.ok());
    Status st;
    for (int g = 0; g < 4 && st.ok(); ++g) st = (*w)->Write(make(g * 1000, g == 2));
    if (st.ok()) st = (*w)->Close();
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.ToString().find("row group 2, column 'x'"), std::string::npos) << st.ToString();
    EXPECT_NE(st.ToString().find("not nullable"), std::string::npos) << st.ToString();
  }
  {
    io::BufferOutputStream out;
    auto w = ParquetFileWriter::Open(&out, schema, opts);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE((*w)->Write(make(0, false)).ok());
    ASSERT_TRUE((*w)->Write(make(1000, false)).ok());
    EXPECT_EQ((*w)->num_rows(), 2000);
    EXPECT_EQ((*w)->num_row_groups(), 2);
    // Destroyed here without Close, a group still encoding.
  }
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (int g = 0; g < 5; ++g) batches.push_back(make(g * 1000, false));
  auto bytes = WriteParquetBytes(schema, batches, opts);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  std::unique_ptr<ParquetFileReader> reader;
  auto got = ReadAll(*bytes, &reader);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_EQ(reader->num_row_groups(), 5);
  auto want = ConcatenateBatches(schema, batches);
  ASSERT_TRUE(want.ok());
  ExpectSameRows(**want, **got);
}

// Column chunks are encoded on the pool in whatever order the writer picks (the costliest
// first, once a row group has timed them), but each row group's chunks land in column order:
// the file equals the one encoded on the calling thread, byte for byte.
TEST(ParquetFileWriter, ChunksLandInColumnOrderWhicheverEncodesFirst) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{
      field("cheap", int32(), false), field("costly", utf8()), field("middle", float64())});
  testing::RandomArrays gen(20);
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (int g = 0; g < 6; ++g) {
    // Long distinct strings: the costliest chunk, behind a cheap one in column order.
    BinaryBuilder s(utf8());
    for (int i = 0; i < 3000; ++i) {
      const std::string v = std::string(static_cast<size_t>(200 + (i * 7919 + g) % 300), static_cast<char>('a' + (i + g) % 26)) +
                            std::to_string(i * 31 + g);
      ASSERT_TRUE(s.Append(v).ok());
    }
    batches.push_back(std::make_shared<RecordBatch>(
        schema, 3000,
        std::vector<Array>{gen.Make(int32(), 3000, 0.0), *s.Finish(), gen.Make(float64(), 3000, 0.1)}));
  }
  ParquetWriterOptions opts;
  opts.row_group_rows = 3000;
  opts.thread_pool = nullptr;
  auto serial = WriteParquetBytes(schema, batches, opts);
  ASSERT_TRUE(serial.ok()) << serial.status().ToString();
  ThreadPool pool(2);
  opts.thread_pool = &pool;
  auto parallel = WriteParquetBytes(schema, batches, opts);
  ASSERT_TRUE(parallel.ok()) << parallel.status().ToString();
  EXPECT_TRUE((*parallel)->view() == (*serial)->view());
  std::unique_ptr<ParquetFileReader> reader;
  auto got = ReadAll(*parallel, &reader);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(reader->num_row_groups(), 6);
  int64_t last = 0;
  for (const auto& rg : reader->metadata().row_groups) {
    for (const auto& cc : rg.columns) {
      EXPECT_GT(cc.file_offset, last);
      last = cc.file_offset;
    }
  }
  auto want = ConcatenateBatches(schema, batches);
  ASSERT_TRUE(want.ok());
  ExpectSameRows(**want, **got);
}

SchemaPtr NestedTypes() {
  return std::make_shared<const Schema>(std::vector<Field>{
      field("id", int64(), false),
      field("l", list(int32())),
      field("ll", list(list(utf8()))),
      field("s", struct_({field("a", int64()), field("b", list(float64())), field("c", struct_({field("d", utf8())}))})),
      field("m", map(utf8(), int32())),
      field("ml", map(int32(), list(utf8()))),
      field("ls", list(struct_({field("x", boolean()), field("y", decimal128(30, 3)), field("z", fixed_size_binary(3))}))),
      field("lm", list(map(int64(), struct_({field("q", date32())})))),
      field("deep", list(list(list(list(timestamp(quiver::TimeUnit::kMicro, "UTC")))))),
      field("f", float64())});
}

// The same rows give the same file however they arrive: pages, dictionary fallbacks and
// statistics are decided every 4,096 rows of a chunk, not of each batch a reader hands over (a
// CSV reader's batches follow its thread count).
TEST(ParquetFileWriter, SameRowsInOtherBatchesGiveTheSameBytes) {
  for (const SchemaPtr& schema : {AllTypes(), NestedTypes()}) {
    const auto whole = RandomBatch(schema, 30000, 7, 0.1);
    ParquetWriterOptions opts;
    opts.row_group_rows = 12000;
    opts.page_size = 16 << 10;  // several pages per chunk, so their ends show
    auto one = WriteParquetBytes(schema, {whole}, opts);
    ASSERT_TRUE(one.ok()) << one.status().ToString();
    for (int64_t step : {int64_t{1000}, int64_t{4095}, int64_t{7777}}) {
      std::vector<std::shared_ptr<RecordBatch>> pieces;
      for (int64_t r = 0, k = 0; r < whole->num_rows(); ++k) {
        const int64_t n = std::min(whole->num_rows() - r, step + 13 * (k % 5));  // uneven sizes
        pieces.push_back(whole->Slice(r, n));
        r += n;
      }
      auto many = WriteParquetBytes(schema, pieces, opts);
      ASSERT_TRUE(many.ok()) << many.status().ToString();
      EXPECT_TRUE((*one)->view() == (*many)->view())
          << schema->field(0).name << "...: batches of about " << step << " rows give other bytes ("
          << (*one)->size() << " against " << (*many)->size() << ")";
    }
  }
}

class NestedRoundTrip : public ::testing::TestWithParam<Case> {};

TEST_P(NestedRoundTrip, RandomNestedTablesReadBackEqual) {
  const SchemaPtr schema = NestedTypes();
  std::vector<std::shared_ptr<RecordBatch>> batches;
  const int64_t sizes[] = {1000, 0, 4321, 7, 2500};
  uint64_t seed = 11;
  for (int64_t n : sizes) batches.push_back(RandomBatch(schema, n, seed++, n == 7 ? 0.95 : 0.2));
  ParquetWriterOptions opts;
  opts.codec = GetParam().codec;
  opts.dictionary = GetParam().dictionary;
  opts.page_version = GetParam().page_version;
  opts.row_group_rows = 3000;
  opts.page_size = 2048;
  auto bytes = WriteParquetBytes(schema, batches, opts);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  std::unique_ptr<ParquetFileReader> reader;
  auto got = ReadAll(*bytes, &reader);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  auto want = ConcatenateBatches(schema, batches);
  ASSERT_TRUE(want.ok());
  ExpectSameRows(**want, **got);
  EXPECT_EQ(reader->num_row_groups(), 3);
  // Leaves: id, l, ll, s.a, s.b, s.c.d, m.key, m.value, ml.key, ml.value, ls.x, ls.y, ls.z,
  // lm.key, lm.value.q, deep, f.
  const auto& md = reader->metadata();
  ASSERT_EQ(md.row_groups[0].columns.size(), 17u);
  const auto& tree = reader->schema_tree();
  auto levels = [&](size_t c) { return std::pair<int, int>(tree.columns()[c].max_definition_level, tree.columns()[c].max_repetition_level); };
  EXPECT_EQ(levels(0), std::make_pair(0, 0));
  EXPECT_EQ(levels(1), std::make_pair(3, 1));   // optional l, repeated list, optional item
  EXPECT_EQ(levels(2), std::make_pair(5, 2));
  EXPECT_EQ(levels(4), std::make_pair(4, 1));   // optional s, optional b, repeated, optional item
  EXPECT_EQ(levels(6), std::make_pair(2, 1));   // m.key: optional m, repeated key_value, required key
  EXPECT_EQ(levels(15), std::make_pair(9, 4));
  std::vector<std::string> path;
  for (const auto& part : md.row_groups[0].columns[9].meta_data->path_in_schema) path.emplace_back(part);
  EXPECT_EQ(path, (std::vector<std::string>{"ml", "key_value", "value", "list", "item"}));
  // Every row group's chunk of `l` counts its levels and the nulls among them.
  int64_t rows = 0;
  for (const auto& rg : md.row_groups) {
    const auto& m = *rg.columns[1].meta_data;
    EXPECT_GE(m.num_values, rg.num_rows);
    EXPECT_GT(*m.statistics->null_count, 0);
    rows += rg.num_rows;
  }
  EXPECT_EQ(rows, 1000 + 4321 + 7 + 2500);
  ExpectPageVersion(md, GetParam().page_version);
}

INSTANTIATE_TEST_SUITE_P(
    Codecs, NestedRoundTrip,
    ::testing::Values(Case{compress::Codec::kSnappy, true}, Case{compress::Codec::kUncompressed, false},
                      Case{compress::Codec::kZstd, true}, Case{compress::Codec::kLz4Raw, false},
                      Case{compress::Codec::kSnappy, true, 2}, Case{compress::Codec::kUncompressed, false, 2},
                      Case{compress::Codec::kGzip, false, 2}),
    [](const auto& info) { return CaseName(info.param); });

// Values chosen by hand: empty lists, null lists, null elements, list values under a null list
// slot (Arrow allows a null list to cover a non-empty range), sliced input.
TEST(ParquetFileWriter, NestedEdgeCasesRoundTrip) {
  auto type = list(int32());
  auto b = MakeBuilder(type);
  ASSERT_TRUE(b.ok());
  auto* lb = static_cast<ListBuilder*>(b->get());
  auto* ib = static_cast<NumericBuilder<int32_t>*>(lb->value_builder());
  // [1, null, 3], [], null, [4], [null], [], [5, 6]
  ASSERT_TRUE(lb->Append().ok());
  ASSERT_TRUE(ib->Append(1).ok());
  ASSERT_TRUE(ib->AppendNull().ok());
  ASSERT_TRUE(ib->Append(3).ok());
  ASSERT_TRUE(lb->Append().ok());
  ASSERT_TRUE(lb->AppendNull().ok());
  ASSERT_TRUE(lb->Append().ok());
  ASSERT_TRUE(ib->Append(4).ok());
  ASSERT_TRUE(lb->Append().ok());
  ASSERT_TRUE(ib->AppendNull().ok());
  ASSERT_TRUE(lb->Append().ok());
  ASSERT_TRUE(lb->Append().ok());
  ASSERT_TRUE(ib->Append(5).ok());
  ASSERT_TRUE(ib->Append(6).ok());
  auto arr = (*b)->Finish();
  ASSERT_TRUE(arr.ok());
  // A hand-made null list slot over values [4]: only the validity bit of row 3 is cleared.
  auto data = std::make_shared<ArrayData>(*arr->data());
  auto validity = Buffer::CopyOf(data->buffers[0]->span());
  ASSERT_TRUE(validity.ok());
  bit_util::ClearBit((*validity)->mutable_data(), 3);
  data->buffers[0] = *validity;
  data->null_count = ArrayData::kUnknownNullCount;
  Array full(data);
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("l", type)});
  for (int64_t off : {0, 1, 3}) {
    Array piece = full.Slice(off, full.length() - off);
    auto batch = std::make_shared<RecordBatch>(schema, piece.length(), std::vector<Array>{piece});
    for (bool dict : {true, false}) {
      ParquetWriterOptions opts;
      opts.dictionary = dict;
      auto bytes = WriteParquetBytes(schema, {batch}, opts);
      ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
      auto got = ReadAll(*bytes);
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      ExpectSameRows(*batch, **got);
    }
  }
  EXPECT_EQ(ArrayToString(full, kAll), "[[1, null, 3], [], null, null, [null], [], [5, 6]]");
}

TEST(ParquetFileWriter, NullsUnderANonNullableNestedFieldAreAnError) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("l", list(int32(), /*value_nullable=*/false))});
  testing::RandomArrays gen(3);
  auto batch = std::make_shared<RecordBatch>(schema, 200, std::vector<Array>{gen.Make(schema->field(0).type, 200, 0.3)});
  auto bytes = WriteParquetBytes(schema, {batch}, {});
  ASSERT_FALSE(bytes.ok());
  EXPECT_NE(bytes.status().ToString().find("l.item' is not nullable"), std::string::npos) << bytes.status().ToString();
}

TEST(ParquetFileWriter, EmptyStructsAreNotImplemented) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("s", struct_({}))});
  io::BufferOutputStream out;
  auto w = ParquetFileWriter::Open(&out, schema, {});
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().code(), StatusCode::kNotImplemented);
}

// Parquet has no union type: refused when the writer opens, at any depth, naming the column.
TEST(ParquetFileWriter, UnionsAreRefusedClearly) {
  const TypePtr u = dense_union({field("a", int32()), field("b", utf8())});
  io::BufferOutputStream out;
  auto w = ParquetFileWriter::Open(&out, std::make_shared<const Schema>(std::vector<Field>{field("x", int8()), field("u", u)}), {});
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().ToString(),
            "NotImplemented: column 'u': Parquet has no union type, so dense_union<a: int32=0, b: string=1> cannot be "
            "written; write ORC or Arrow IPC instead");
  w = ParquetFileWriter::Open(&out, std::make_shared<const Schema>(std::vector<Field>{field("s", struct_({field("v", u)}))}), {});
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().ToString(),
            "NotImplemented: column 's': Parquet has no union type, so dense_union<a: int32=0, b: string=1> cannot be "
            "written; write ORC or Arrow IPC instead");
}

TEST(ParquetFileWriter, HighCardinalityFallsBackToPlainAndLowKeepsDictionary) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("many", int64()), field("few", utf8())});
  NumericBuilder<int64_t> many(int64());
  BinaryBuilder few(utf8());
  for (int64_t i = 0; i < 50000; ++i) {
    ASSERT_TRUE(many.Append(i * 7919).ok());
    ASSERT_TRUE(few.Append(i % 3 == 0 ? "AIR" : "RAIL").ok());
  }
  auto batch = std::make_shared<RecordBatch>(schema, 50000, std::vector<Array>{*many.Finish(), *few.Finish()});
  ParquetWriterOptions opts;
  opts.dictionary_size_limit = 64 * 1024;  // 8192 int64 entries
  std::shared_ptr<Buffer> bytes;
  std::unique_ptr<ParquetFileReader> reader;
  ASSERT_NO_FATAL_FAILURE(WriteAndReadBack(schema, batch, opts, &bytes, &reader));
  const auto& cols = reader->metadata().row_groups[0].columns;
  EXPECT_FALSE(cols[0].meta_data->dictionary_page_offset.has_value());
  EXPECT_TRUE(cols[1].meta_data->dictionary_page_offset.has_value());
  EXPECT_EQ(cols[1].meta_data->total_compressed_size < 2000, true) << cols[1].meta_data->total_compressed_size;
}

TEST(ParquetFileWriter, ByteArrayStatisticsUseUnsignedByteOrder) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("wide", binary()), field("prefix", utf8())});
  BinaryBuilder wide(binary());
  BinaryBuilder prefix(utf8());
  const char* w[] = {"abcdefghZ", "\xFF" "bcdefgh1", "Abcdefgh", "abcdefgh", "\x01"};
  const char* p[] = {"abcdefghA", "abcdefghZ", "abcdefgh", "abcdefghAA", "abcdefghB"};
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(wide.Append(w[i]).ok());
    ASSERT_TRUE(prefix.Append(p[i]).ok());
  }
  auto batch = std::make_shared<RecordBatch>(schema, 5, std::vector<Array>{*wide.Finish(), *prefix.Finish()});
  for (bool dict : {true, false}) {
    ParquetWriterOptions opts;
    opts.dictionary = dict;
    std::shared_ptr<Buffer> bytes;
    std::unique_ptr<ParquetFileReader> reader;
    ASSERT_NO_FATAL_FAILURE(WriteAndReadBack(schema, batch, opts, &bytes, &reader));
    const auto& cols = reader->metadata().row_groups[0].columns;
    EXPECT_EQ(*cols[0].meta_data->statistics->min_value, "\x01");
    EXPECT_EQ(*cols[0].meta_data->statistics->max_value, "\xFF" "bcdefgh1");
    EXPECT_EQ(*cols[1].meta_data->statistics->min_value, "abcdefgh");
    EXPECT_EQ(*cols[1].meta_data->statistics->max_value, "abcdefghZ");
  }
}

// The entry count in the header of a column chunk's dictionary page.
int64_t DictionaryEntries(const std::shared_ptr<Buffer>& bytes, const ColumnMetaData& m) {
  Arena arena;
  PageHeader h;
  const int64_t at = *m.dictionary_page_offset;
  if (!DecodePageHeader({bytes->data() + at, static_cast<size_t>(bytes->size() - at)}, &arena, &h).ok()) return -1;
  return h.dictionary_page_header ? h.dictionary_page_header->num_values : -2;
}

// PLAIN byte arrays' bounds come from comparing 8-byte prefixes as words first: values that
// share their first 8 bytes, are shorter than 8 bytes (zero padding must not tie a value with
// its extension by 0x00), empty, or hold bytes of 0x80 and above (unsigned order) must give
// the bounds a full comparison gives, in every row group and every page.
TEST(ParquetFileWriter, PlainByteArrayBoundsMatchAFullComparison) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("b", binary())});
  std::mt19937 rng(3);
  const char alphabet[] = {'\x00', 'a', 'b', '\x7f', '\x80', '\xff'};
  constexpr int64_t kGroup = 3000, kGroups = 6;
  BinaryBuilder b(binary());
  std::vector<std::string> values;
  for (int64_t i = 0; i < kGroup * kGroups; ++i) {
    // Group g draws from a narrow set of leading bytes, so that bounds often tie on 8 bytes.
    const int64_t g = i / kGroup;
    std::string v(static_cast<size_t>(rng() % 13), 'a');
    for (size_t k = 0; k < v.size(); ++k) v[k] = alphabet[(k < 6 ? g + rng() % 2 : rng()) % 6];
    if (rng() % 97 == 0) v.clear();
    values.push_back(v);
    ASSERT_TRUE(b.Append(v).ok());
  }
  auto batch = std::make_shared<RecordBatch>(schema, kGroup * kGroups, std::vector<Array>{*b.Finish()});
  ParquetWriterOptions opts;
  opts.dictionary = false;
  opts.row_group_rows = kGroup;
  opts.page_size = 4096;
  std::shared_ptr<Buffer> bytes;
  std::unique_ptr<ParquetFileReader> reader;
  ASSERT_NO_FATAL_FAILURE(WriteAndReadBack(schema, batch, opts, &bytes, &reader));
  ASSERT_EQ(reader->metadata().row_groups.size(), static_cast<size_t>(kGroups));
  for (int64_t g = 0; g < kGroups; ++g) {
    // std::string compares as unsigned char.
    const auto first = values.begin() + g * kGroup;
    const auto [lo, hi] = std::minmax_element(first, first + kGroup);
    const auto& st = reader->metadata().row_groups[static_cast<size_t>(g)].columns[0].meta_data->statistics;
    EXPECT_EQ(*st->min_value, *lo) << g;
    EXPECT_EQ(*st->max_value, *hi) << g;
  }
}

// The writer keeps each column's dictionary encoder from row group to row group: row groups
// whose dictionaries differ (entries of the one before missing, new ones, far fewer, far more)
// read back equal, each with its own dictionary of exactly its distinct values.
TEST(ParquetFileWriter, DictionariesKeptBetweenRowGroupsHoldOnlyTheirGroupsValues) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("i", int64()), field("s", utf8())});
  constexpr int64_t kGroup = 5000;
  const std::vector<std::pair<int64_t, int64_t>> groups = {{0, 3000}, {1500, 3000}, {7, 5}, {10000, 4000}, {2, 2}};
  NumericBuilder<int64_t> iv(int64());
  BinaryBuilder sv(utf8());
  std::mt19937 rng(7);
  std::vector<int64_t> distinct;
  for (const auto& [base, n] : groups) {
    std::vector<bool> seen(static_cast<size_t>(n));
    int64_t count = 0;
    for (int64_t r = 0; r < kGroup; ++r) {
      const int64_t k = static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
      count += seen[static_cast<size_t>(k)] ? 0 : 1;
      seen[static_cast<size_t>(k)] = true;
      ASSERT_TRUE(iv.Append(base + k).ok());
      ASSERT_TRUE(sv.Append("v" + std::to_string(base + k)).ok());
    }
    distinct.push_back(count);
  }
  const int64_t rows = kGroup * static_cast<int64_t>(groups.size());
  auto batch = std::make_shared<RecordBatch>(schema, rows, std::vector<Array>{*iv.Finish(), *sv.Finish()});
  ParquetWriterOptions opts;
  opts.row_group_rows = kGroup;
  std::shared_ptr<Buffer> bytes;
  std::unique_ptr<ParquetFileReader> reader;
  ASSERT_NO_FATAL_FAILURE(WriteAndReadBack(schema, batch, opts, &bytes, &reader));
  const auto& rgs = reader->metadata().row_groups;
  ASSERT_EQ(rgs.size(), groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    for (size_t c = 0; c < 2; ++c) {
      const auto& m = *rgs[g].columns[c].meta_data;
      ASSERT_TRUE(m.dictionary_page_offset.has_value()) << g << " " << c;
      // The dictionary page's header says how many entries it holds.
      EXPECT_EQ(DictionaryEntries(bytes, m), distinct[g]) << g << " " << c;
    }
  }
}

TEST(ParquetFileWriter, MostlyDistinctColumnsGoPlainBeforeTheDictionaryFills) {
  // 100000 distinct int64 fit the default 1 MiB dictionary (131072 entries), yet a dictionary
  // would only add an index per value: the first 65536 values show it.
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("id", int64()), field("mod", int64())});
  NumericBuilder<int64_t> id(int64());
  NumericBuilder<int64_t> mod(int64());
  for (int64_t i = 0; i < 100000; ++i) {
    ASSERT_TRUE(id.Append(i * 31).ok());
    ASSERT_TRUE(mod.Append(i % 20000).ok());  // 20000 distinct in the first 65536: kept as a dictionary
  }
  auto batch = std::make_shared<RecordBatch>(schema, 100000, std::vector<Array>{*id.Finish(), *mod.Finish()});
  std::shared_ptr<Buffer> bytes;
  std::unique_ptr<ParquetFileReader> reader;
  ASSERT_NO_FATAL_FAILURE(WriteAndReadBack(schema, batch, {}, &bytes, &reader));
  const auto& cols = reader->metadata().row_groups[0].columns;
  EXPECT_FALSE(cols[0].meta_data->dictionary_page_offset.has_value());
  EXPECT_TRUE(cols[1].meta_data->dictionary_page_offset.has_value());
}

// A column whose dictionary gave up in one row group is written PLAIN in the next ones without
// trying (ColumnChunkHistory), and tried again every 8th: once its values turn low-cardinality
// (from row group 2 on), row group 8 has a dictionary again, and every later one. A string
// column that always fits keeps its dictionary throughout; every value reads back.
TEST(ParquetFileWriter, DictionaryRetriedEveryEighthRowGroupAfterGivingUp) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("v", int64()), field("s", utf8())});
  NumericBuilder<int64_t> v(int64());
  BinaryBuilder s(utf8());
  constexpr int64_t kGroup = 1000, kGroups = 11;
  for (int64_t i = 0; i < kGroup * kGroups; ++i) {
    ASSERT_TRUE(v.Append(i < 2 * kGroup ? i * 13 : i % 10).ok());
    ASSERT_TRUE(s.Append(i % 3 == 0 ? "AIR" : "RAIL").ok());
  }
  auto batch = std::make_shared<RecordBatch>(schema, kGroup * kGroups, std::vector<Array>{*v.Finish(), *s.Finish()});
  ParquetWriterOptions opts;
  opts.row_group_rows = kGroup;
  opts.dictionary_size_limit = 800;  // 100 int64 entries: 1000 distinct give up
  const auto dict = ChunkLetters(schema, batch, opts, [](const ColumnMetaData& m) {
    return m.dictionary_page_offset.has_value() ? 'D' : 'P';
  });
  EXPECT_EQ(dict, (std::vector<std::string>{"PPPPPPPPDDD", "DDDDDDDDDDD"}));
}

// Every encoding on every physical type it suits (flat and nested leaves, V1 and V2 pages),
// read back equal, with the encoding in the chunk metadata.
TEST(ParquetFileWriter, ColumnEncodingsByOption) {
  struct Col {
    Field f;
    Encoding e;
  };
  const std::vector<Col> cols = {
      {field("i32", int32()), Encoding::DELTA_BINARY_PACKED},
      {field("i64", int64()), Encoding::DELTA_BINARY_PACKED},
      {field("u64", uint64()), Encoding::DELTA_BINARY_PACKED},
      {field("ts", timestamp(quiver::TimeUnit::kMicro)), Encoding::DELTA_BINARY_PACKED},
      {field("date", date32()), Encoding::DELTA_BINARY_PACKED},
      {field("s_dlba", utf8()), Encoding::DELTA_LENGTH_BYTE_ARRAY},
      {field("b_dlba", binary()), Encoding::DELTA_LENGTH_BYTE_ARRAY},
      {field("s_dba", utf8()), Encoding::DELTA_BYTE_ARRAY},
      {field("b_dba", binary()), Encoding::DELTA_BYTE_ARRAY},
      {field("f32", float32()), Encoding::BYTE_STREAM_SPLIT},
      {field("f64", float64()), Encoding::BYTE_STREAM_SPLIT},
      {field("f16_plain", float16()), Encoding::PLAIN},
      {field("l", list(int64())), Encoding::DELTA_BINARY_PACKED},
      {field("ls", list(utf8())), Encoding::DELTA_BYTE_ARRAY},
      {field("b", boolean()), Encoding::PLAIN},
  };
  std::vector<Field> fields;
  for (const auto& c : cols) fields.push_back(c.f);
  auto schema = std::make_shared<const Schema>(fields);
  for (int version : {1, 2}) {
    SCOPED_TRACE(version);
    ParquetWriterOptions opts;
    opts.page_size = 2048;
    opts.row_group_rows = 2500;
    opts.page_version = version;
    for (const auto& c : cols) opts.column_encodings.emplace_back(c.f.name, c.e);
    std::vector<std::shared_ptr<RecordBatch>> batches = {RandomBatch(schema, 3000, 5, 0.2), RandomBatch(schema, 1111, 6, 0.5)};
    auto bytes = WriteParquetBytes(schema, batches, opts);
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    std::unique_ptr<ParquetFileReader> reader;
    auto got = ReadAll(*bytes, &reader);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    auto want = ConcatenateBatches(schema, batches);
    ASSERT_TRUE(want.ok());
    ExpectSameRows(**want, **got);
    for (const auto& rg : reader->metadata().row_groups) {
      for (size_t i = 0; i < cols.size(); ++i) {
        const auto& m = *rg.columns[i].meta_data;
        EXPECT_FALSE(m.dictionary_page_offset.has_value()) << cols[i].f.name;
        EXPECT_EQ(m.encodings[0], cols[i].e) << cols[i].f.name;
        EXPECT_EQ((*m.encoding_stats)[0].encoding, cols[i].e) << cols[i].f.name;
      }
    }
  }
  // A dotted leaf path names one leaf; unknown columns and unsuitable encodings are errors.
  auto nested = std::make_shared<const Schema>(std::vector<Field>{field("s", struct_({field("a", int64()), field("b", utf8())}))});
  ParquetWriterOptions opts;
  opts.column_encodings = {{"s.a", Encoding::DELTA_BINARY_PACKED}};
  auto ok = WriteParquetBytes(nested, {RandomBatch(nested, 100, 1, 0.1)}, opts);
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  auto r = ParquetFileReader::Open(io::MemorySource(*ok));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->metadata().row_groups[0].columns[0].meta_data->encodings[0], Encoding::DELTA_BINARY_PACKED);
  EXPECT_TRUE((*r)->metadata().row_groups[0].columns[1].meta_data->dictionary_page_offset.has_value());
  io::BufferOutputStream out;
  opts.column_encodings = {{"nope", Encoding::PLAIN}};
  auto w = ParquetFileWriter::Open(&out, nested, opts);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().ToString().find("unknown column 'nope'"), std::string::npos) << w.status().ToString();
  opts.column_encodings = {{"s", Encoding::DELTA_BINARY_PACKED}};
  w = ParquetFileWriter::Open(&out, nested, opts);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().ToString().find("DELTA_BINARY_PACKED does not apply to BYTE_ARRAY"), std::string::npos)
      << w.status().ToString();
  EXPECT_EQ(*EncodingFromName("Byte_Stream_Split"), Encoding::BYTE_STREAM_SPLIT);
  EXPECT_FALSE(CheckEncoding(Encoding::BYTE_STREAM_SPLIT, Type::INT32).ok());
  EXPECT_FALSE(CheckEncoding(Encoding::DELTA_BYTE_ARRAY, Type::FIXED_LEN_BYTE_ARRAY).ok());
  EXPECT_FALSE(EncodingFromName("rle").ok());
}

// Row groups end at the byte limit (16 bytes a row here: int64 + double) as well as the row one.
TEST(ParquetFileWriter, RowGroupsByBytes) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("a", int64(), false), field("b", float64(), false)});
  NumericBuilder<int64_t> a(int64());
  NumericBuilder<double> b(float64());
  for (int64_t i = 0; i < 10000; ++i) {
    ASSERT_TRUE(a.Append(i).ok());
    ASSERT_TRUE(b.Append(static_cast<double>(i) / 2).ok());
  }
  auto batch = std::make_shared<RecordBatch>(schema, 10000, std::vector<Array>{*a.Finish(), *b.Finish()});
  ParquetWriterOptions opts;
  opts.row_group_bytes = 16 * 3000;
  // Batches of 10000, then 1000 rows: groups of 3000 rows, the last one partial.
  auto bytes = WriteParquetBytes(schema, {batch, batch->Slice(0, 1000)}, opts);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  std::unique_ptr<ParquetFileReader> reader;
  auto got = ReadAll(*bytes, &reader);
  ASSERT_TRUE(got.ok());
  std::vector<int64_t> rows;
  for (const auto& rg : reader->metadata().row_groups) rows.push_back(rg.num_rows);
  EXPECT_EQ(rows, (std::vector<int64_t>{3000, 3000, 3000, 2000}));
  // The row limit still applies when it is the smaller.
  opts.row_group_rows = 2500;
  bytes = WriteParquetBytes(schema, {batch}, opts);
  ASSERT_TRUE(bytes.ok());
  auto r = ParquetFileReader::Open(io::MemorySource(*bytes));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)->num_row_groups(), 4);
}

TEST(ParquetFileWriter, TruncateBounds) {
  auto run = [](int32_t limit, bool utf8, std::string mn, std::string mx) {
    bool me = true, xe = true;
    TruncateBounds(limit, utf8, &mn, &mx, &me, &xe);
    return std::make_tuple(mn, mx, me, xe);
  };
  EXPECT_EQ(run(4, false, "abcdef", "abcdef"), std::make_tuple("abcd", "abce", false, false));
  EXPECT_EQ(run(4, false, "abc", "abcd"), std::make_tuple("abc", "abcd", true, true));  // short enough
  EXPECT_EQ(run(4, false, "a", "ab\xFF\xFFzz"), std::make_tuple("a", "ac", true, false));
  EXPECT_EQ(run(4, false, "a", "\xFF\xFF\xFF\xFF\xFF"), std::make_tuple("a", "\xFF\xFF\xFF\xFF\xFF", true, true));
  // UTF-8: cut on code points, the last one incremented: é (C3 A9) becomes ê (C3 AA).
  EXPECT_EQ(run(5, true, "\xC3\xA9\xC3\xA9\xC3\xA9", "\xC3\xA9\xC3\xA9\xC3\xA9"),
            std::make_tuple("\xC3\xA9\xC3\xA9", "\xC3\xA9\xC3\xAA", false, false));
  // U+D7FF + 1 skips the surrogates; U+10FFFF cannot grow, so the code point before it does.
  EXPECT_EQ(std::get<1>(run(3, true, "a", "\xED\x9F\xBFxyz")), "\xEE\x80\x80");
  EXPECT_EQ(std::get<1>(run(5, true, "a", "a\xF4\x8F\xBF\xBFxyz")), "b");
  EXPECT_EQ(run(0, false, std::string(100, 'a'), std::string(100, 'b')),
            std::make_tuple(std::string(100, 'a'), std::string(100, 'b'), true, true));
}

// A one-column file written with `opts`, read back (its rows must equal the batch's): whether
// it has a dictionary page, each page's rows and ColumnIndex bounds, and the chunk statistics.
struct WrittenBounds {
  bool dictionary_page = false;
  std::vector<std::pair<int64_t, int64_t>> rows;  // each page's [first, last + 1)
  std::vector<std::string> page_min, page_max;
  std::string chunk_min, chunk_max;
};
void ReadBackBounds(const std::shared_ptr<const Schema>& schema, const std::shared_ptr<RecordBatch>& batch,
                    const ParquetWriterOptions& opts, WrittenBounds* out) {
  std::shared_ptr<Buffer> bytes;
  std::unique_ptr<ParquetFileReader> reader;
  ASSERT_NO_FATAL_FAILURE(WriteAndReadBack(schema, batch, opts, &bytes, &reader));
  const ColumnChunk& cc = reader->metadata().row_groups[0].columns[0];
  out->dictionary_page = cc.meta_data->dictionary_page_offset.has_value();
  const uint8_t* file = bytes->data();
  auto span = [&](int64_t off, int64_t len) { return std::span<const uint8_t>(file + off, static_cast<size_t>(len)); };
  Arena arena;
  OffsetIndex oi;
  ASSERT_TRUE(DecodeOffsetIndex(span(*cc.offset_index_offset, *cc.offset_index_length), &arena, &oi).ok());
  ColumnIndex ci;
  ASSERT_TRUE(DecodeColumnIndex(span(*cc.column_index_offset, *cc.column_index_length), &arena, &ci).ok());
  ASSERT_GT(oi.page_locations.size(), 4u);
  for (size_t p = 0; p < oi.page_locations.size(); ++p) {
    const int64_t to = p + 1 < oi.page_locations.size() ? oi.page_locations[p + 1].first_row_index : batch->num_rows();
    out->rows.emplace_back(oi.page_locations[p].first_row_index, to);
    out->page_min.emplace_back(ci.min_values[p]);
    out->page_max.emplace_back(ci.max_values[p]);
  }
  out->chunk_min = std::string(*cc.meta_data->statistics->min_value);
  out->chunk_max = std::string(*cc.meta_data->statistics->max_value);
}

// String bounds per page and per chunk against std::string's order (unsigned bytes): values of
// every length 0..19 over bytes that include 0x00 and 0xFF, with nulls, many pages, through
// the dictionary (bounds from the entries each page uses) and PLAIN (from every value).
TEST(ParquetFileWriter, StringBoundsPerPageMatchByteOrder) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("s", binary())});
  std::mt19937 rng(31);
  const int64_t n = 30000;
  const uint8_t alphabet[] = {0x00, 0x01, 'a', 'b', 0x7F, 0x80, 0xFE, 0xFF};
  std::vector<std::optional<std::string>> values;
  BinaryBuilder b(binary());
  for (int64_t i = 0; i < n; ++i) {
    if (rng() % 13 == 0) {
      values.emplace_back();
      ASSERT_TRUE(b.AppendNull().ok());
      continue;
    }
    std::string v(rng() % 20, '\0');
    // Shared prefixes make the comparisons reach past the first eight bytes.
    for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<char>(k < 9 && rng() % 2 ? 'a' : alphabet[rng() % 8]);
    values.emplace_back(v);
    ASSERT_TRUE(b.Append(v).ok());
  }
  auto batch = std::make_shared<RecordBatch>(schema, n, std::vector<Array>{*b.Finish()});
  for (bool dict : {true, false}) {
    SCOPED_TRACE(dict ? "dictionary" : "plain");
    ParquetWriterOptions opts;
    opts.dictionary = dict;
    opts.page_size = 16 << 10;
    opts.statistics_truncate_length = 0;
    WrittenBounds wb;
    ASSERT_NO_FATAL_FAILURE(ReadBackBounds(schema, batch, opts, &wb));
    EXPECT_EQ(wb.dictionary_page, dict);
    std::string chunk_min, chunk_max;
    bool any = false;
    for (size_t p = 0; p < wb.rows.size(); ++p) {
      std::string mn, mx;
      bool page_any = false;
      for (int64_t i = wb.rows[p].first; i < wb.rows[p].second; ++i) {
        if (!values[i]) continue;
        if (!page_any || *values[i] < mn) mn = *values[i];
        if (!page_any || *values[i] > mx) mx = *values[i];
        page_any = true;
      }
      ASSERT_TRUE(page_any);
      EXPECT_EQ(wb.page_min[p], mn) << "page " << p;
      EXPECT_EQ(wb.page_max[p], mx) << "page " << p;
      if (!any || mn < chunk_min) chunk_min = mn;
      if (!any || mx > chunk_max) chunk_max = mx;
      any = true;
    }
    EXPECT_EQ(wb.chunk_min, chunk_min);
    EXPECT_EQ(wb.chunk_max, chunk_max);
  }
}

// Double bounds per page and per chunk against a full comparison: NaN is no bound, a zero
// bound is widened (-0.0 as min, +0.0 as max), nulls are skipped; through a dictionary (whose
// first page is bounded by its entries), a dictionary that fills and falls back to PLAIN, and
// PLAIN.
TEST(ParquetFileWriter, DoubleBoundsPerPageMatchAFullComparison) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("d", float64())});
  std::mt19937 rng(47);
  const int64_t n = 30000;
  std::vector<std::optional<double>> values;
  NumericBuilder<double> b(float64());
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t r = rng() % 400;
    std::optional<double> v;
    if (r < 20) {
      v = std::nullopt;
    } else if (r < 30) {
      v = std::nan("");
    } else if (r < 60) {
      v = r % 2 ? 0.0 : -0.0;
    } else {
      // The first rows reach furthest, so a later page bounded by every entry would be too wide.
      v = (static_cast<double>(r) - 230) * static_cast<double>(3 - i / 10000);
    }
    values.push_back(v);
    ASSERT_TRUE((v ? b.Append(*v) : b.AppendNull()).ok());
  }
  auto batch = std::make_shared<RecordBatch>(schema, n, std::vector<Array>{*b.Finish()});
  auto bits = [](double d) { return std::string(reinterpret_cast<const char*>(&d), 8); };
  struct Mode {
    const char* name;
    bool dictionary;
    int64_t limit;
    bool dictionary_page;
  };
  for (const Mode& mode : {Mode{"dictionary", true, 1 << 20, true}, Mode{"fallback", true, 4096, false},
                           Mode{"plain", false, 1 << 20, false}}) {
    SCOPED_TRACE(mode.name);
    ParquetWriterOptions opts;
    opts.dictionary = mode.dictionary;
    opts.dictionary_size_limit = mode.limit;
    opts.page_size = 16 << 10;
    WrittenBounds wb;
    ASSERT_NO_FATAL_FAILURE(ReadBackBounds(schema, batch, opts, &wb));
    EXPECT_EQ(wb.dictionary_page, mode.dictionary_page);
    double chunk_min = 0, chunk_max = 0;
    bool any = false;
    for (size_t p = 0; p < wb.rows.size(); ++p) {
      double mn = 0, mx = 0;
      bool page_any = false;
      for (int64_t i = wb.rows[p].first; i < wb.rows[p].second; ++i) {
        if (!values[i] || std::isnan(*values[i])) continue;
        if (!page_any || *values[i] < mn) mn = *values[i];
        if (!page_any || *values[i] > mx) mx = *values[i];
        page_any = true;
      }
      ASSERT_TRUE(page_any);
      if (!any || mn < chunk_min) chunk_min = mn;
      if (!any || mx > chunk_max) chunk_max = mx;
      any = true;
      EXPECT_EQ(wb.page_min[p], bits(mn == 0 ? -0.0 : mn)) << "page " << p;
      EXPECT_EQ(wb.page_max[p], bits(mx == 0 ? 0.0 : mx)) << "page " << p;
    }
    EXPECT_EQ(wb.chunk_min, bits(chunk_min == 0 ? -0.0 : chunk_min));
    EXPECT_EQ(wb.chunk_max, bits(chunk_max == 0 ? 0.0 : chunk_max));
  }
}

// Page statistics in the headers, the page index after the row groups, and truncated
// long strings; read back through the footer decoders.
TEST(ParquetFileWriter, PageIndexAndTruncatedStatistics) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{
      field("seq", int64()), field("long", utf8()), field("nulls", int32()), field("l", list(int32())),
      field("nan", float64())});
  NumericBuilder<int64_t> seq(int64());
  BinaryBuilder lng(utf8());
  NumericBuilder<int32_t> nulls(int32());
  auto lb = MakeBuilder(schema->field(3).type);
  auto* list_b = static_cast<ListBuilder*>(lb->get());
  NumericBuilder<double> nan(float64());
  const int64_t n = 20000;
  for (int64_t i = 0; i < n; ++i) {
    ASSERT_TRUE(seq.Append(i).ok());
    ASSERT_TRUE(lng.Append(std::string(100, static_cast<char>('a' + i / 1000)) + std::to_string(i)).ok());
    ASSERT_TRUE((i < 12000 ? nulls.AppendNull() : nulls.Append(static_cast<int32_t>(-i))).ok());
    ASSERT_TRUE(list_b->Append().ok());
    for (int64_t k = 0; k < i % 5; ++k) {
      ASSERT_TRUE(static_cast<NumericBuilder<int32_t>*>(list_b->value_builder())->Append(static_cast<int32_t>(i)).ok());
    }
    ASSERT_TRUE(nan.Append(i == 5 ? 1.0 : std::nan("")).ok());
  }
  auto batch = std::make_shared<RecordBatch>(
      schema, n, std::vector<Array>{*seq.Finish(), *lng.Finish(), *nulls.Finish(), *(*lb)->Finish(), *nan.Finish()});
  ParquetWriterOptions opts;
  opts.dictionary = false;
  opts.page_size = 8192;
  opts.row_group_rows = 12000;
  std::shared_ptr<Buffer> bytes;
  std::unique_ptr<ParquetFileReader> reader;
  ASSERT_NO_FATAL_FAILURE(WriteAndReadBack(schema, batch, opts, &bytes, &reader));
  const auto& md = reader->metadata();
  ASSERT_EQ(md.row_groups.size(), 2u);
  const uint8_t* file = bytes->data();
  auto span = [&](int64_t off, int64_t len) { return std::span<const uint8_t>(file + off, static_cast<size_t>(len)); };
  for (size_t g = 0; g < 2; ++g) {
    const auto& rg = md.row_groups[g];
    const int64_t first_row = g == 0 ? 0 : 12000;
    for (size_t c = 0; c < 5; ++c) {
      SCOPED_TRACE(::testing::Message() << "row group " << g << " column " << c);
      const ColumnChunk& cc = rg.columns[c];
      const ColumnMetaData& m = *cc.meta_data;
      ASSERT_TRUE(cc.offset_index_offset.has_value());
      Arena arena;
      OffsetIndex oi;
      ASSERT_TRUE(DecodeOffsetIndex(span(*cc.offset_index_offset, *cc.offset_index_length), &arena, &oi).ok());
      ASSERT_GT(oi.page_locations.size(), c == 2 && g == 0 ? 0u : 1u);
      EXPECT_EQ(oi.page_locations[0].offset, m.data_page_offset);
      EXPECT_EQ(oi.page_locations[0].first_row_index, 0);
      int64_t total = 0;
      for (size_t p = 0; p < oi.page_locations.size(); ++p) {
        const PageLocation& loc = oi.page_locations[p];
        total += loc.compressed_page_size;
        if (p > 0) {
          EXPECT_EQ(loc.offset, oi.page_locations[p - 1].offset + oi.page_locations[p - 1].compressed_page_size);
          EXPECT_GT(loc.first_row_index, oi.page_locations[p - 1].first_row_index);
        }
        EXPECT_LT(loc.first_row_index, rg.num_rows);
        PageHeader h;
        ASSERT_TRUE(DecodePageHeader(span(loc.offset, loc.compressed_page_size), &arena, &h).ok());
        EXPECT_EQ(h.type, PageType::DATA_PAGE);
        ASSERT_TRUE(h.data_page_header->statistics);
      }
      EXPECT_EQ(total, m.total_compressed_size);  // no dictionary pages
      if (c == 4) {
        // Pages of NaN only have values but no bounds: no ColumnIndex.
        EXPECT_FALSE(cc.column_index_offset.has_value());
        continue;
      }
      ASSERT_TRUE(cc.column_index_offset.has_value());
      ColumnIndex ci;
      ASSERT_TRUE(DecodeColumnIndex(span(*cc.column_index_offset, *cc.column_index_length), &arena, &ci).ok());
      ASSERT_EQ(ci.null_pages.size(), oi.page_locations.size());
      int64_t null_sum = 0;
      for (int64_t x : *ci.null_counts) null_sum += x;
      EXPECT_EQ(null_sum, *m.statistics->null_count);
      auto i64 = [](std::string_view v) { int64_t x; std::memcpy(&x, v.data(), 8); return x; };
      if (c == 0) {
        EXPECT_EQ(ci.boundary_order, BoundaryOrder::ASCENDING);
        for (size_t p = 0; p < ci.null_pages.size(); ++p) {
          EXPECT_FALSE(ci.null_pages[p]);
          // Page p of seq starts at its first row: its min is that row's value.
          EXPECT_EQ(i64(ci.min_values[p]), first_row + oi.page_locations[p].first_row_index);
          const int64_t next = p + 1 < ci.null_pages.size() ? oi.page_locations[p + 1].first_row_index : rg.num_rows;
          EXPECT_EQ(i64(ci.max_values[p]), first_row + next - 1);
        }
      }
      if (c == 1) {
        // 100 copies of one letter per 1000 rows, then the row number: bounds cut to 64 bytes,
        // the max's last byte incremented.
        for (size_t p = 0; p < ci.null_pages.size(); ++p) {
          const std::string_view mn = ci.min_values[p], mx = ci.max_values[p];
          ASSERT_EQ(mn.size(), 64u);
          ASSERT_EQ(mx.size(), 64u);
          EXPECT_EQ(mn, std::string(64, mn[0]));
          EXPECT_EQ(mx, std::string(63, mx[0]) + static_cast<char>(mx[0] + 1));
          PageHeader h;
          ASSERT_TRUE(DecodePageHeader(span(oi.page_locations[p].offset, oi.page_locations[p].compressed_page_size), &arena, &h).ok());
          EXPECT_EQ(*h.data_page_header->statistics->min_value, mn);
          EXPECT_EQ(*h.data_page_header->statistics->max_value, mx);
          EXPECT_EQ(*h.data_page_header->statistics->is_max_value_exact, false);
        }
        EXPECT_EQ(ci.boundary_order, BoundaryOrder::ASCENDING);
        const Statistics& st = *m.statistics;
        EXPECT_EQ(*st.min_value, std::string(64, g == 0 ? 'a' : 'm'));
        EXPECT_EQ(*st.max_value, g == 0 ? std::string(63, 'l') + "m" : std::string(63, 't') + "u");
        EXPECT_EQ(*st.is_min_value_exact, false);
        EXPECT_EQ(*st.is_max_value_exact, false);
      }
      if (c == 2) {
        // Rows below 12000 are null: the first row group is one null page with empty bounds.
        if (g == 0) {
          EXPECT_EQ(ci.null_pages.size(), 1u);
          EXPECT_TRUE(ci.null_pages[0]);
          EXPECT_EQ(ci.min_values[0].size(), 0u);
          EXPECT_EQ((*ci.null_counts)[0], 12000);
        } else {
          EXPECT_EQ(ci.boundary_order, BoundaryOrder::DESCENDING);
          EXPECT_EQ(*m.statistics->is_min_value_exact, true);
          int32_t mn;
          std::memcpy(&mn, ci.min_values[ci.min_values.size() - 1].data(), 4);
          EXPECT_EQ(mn, -19999);
        }
      }
      if (c == 3) {
        EXPECT_EQ(ci.boundary_order, BoundaryOrder::ASCENDING);
      }
    }
  }
  // Without the page index: no offsets in the chunks, nothing between the last chunk and the footer.
  opts.page_index = false;
  auto plain = WriteParquetBytes(schema, {batch}, opts);
  ASSERT_TRUE(plain.ok());
  auto r2 = ParquetFileReader::Open(io::MemorySource(*plain));
  ASSERT_TRUE(r2.ok());
  EXPECT_FALSE((*r2)->metadata().row_groups[0].columns[0].offset_index_offset.has_value());
  EXPECT_FALSE((*r2)->metadata().row_groups[0].columns[0].column_index_offset.has_value());
}

// Every corpus file quiver reads (nested ones included) is written again by quiver and read
// back with the same schema and values.
TEST(ParquetFileWriter, CorpusFilesRewriteEqual) {
  QUIVER_CORPUS_OR_SKIP(dir);
  int rewritten = 0, nested = 0;
  std::vector<std::string> failed;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir / "parquet-testing" / "data")) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || !name.ends_with(".parquet")) continue;
    auto file = io::OpenFile(entry.path().string());
    if (!file.ok()) continue;
    auto bytes = (*file)->ReadAt(0, (*file)->size());
    if (!bytes.ok()) continue;
    {
      // large_string_map holds two 1 GiB strings: too slow to write for a unit test.
      auto r = ParquetFileReader::Open(io::MemorySource(*bytes));
      if (!r.ok()) continue;
      int64_t size = 0;
      for (const auto& rg : (*r)->metadata().row_groups) size += rg.total_byte_size;
      if (size > (int64_t{64} << 20)) continue;
    }
    auto want = ReadAll(*bytes);
    if (!want.ok()) continue;  // the reader refuses it (encrypted, unsupported, corrupt)
    SCOPED_TRACE(name);
    auto again = WriteParquetBytes((*want)->schema(), {*want}, {});
    if (!again.ok()) {
      failed.push_back(name + ": " + again.status().ToString());
      continue;
    }
    auto got = ReadAll(*again);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ExpectSameRows(**want, **got);
    ++rewritten;
    for (const Field& f : (*want)->schema()->fields()) {
      if (f.type->is_nested()) {
        ++nested;
        break;
      }
    }
  }
  EXPECT_EQ(failed, std::vector<std::string>{});
  EXPECT_GE(rewritten, 50);
  EXPECT_GE(nested, 10);
  std::printf("%d corpus files rewritten and read back equal, %d of them nested\n", rewritten, nested);
}

// A column whose chunk does not shrink under the codec by 1/32 (random 64-bit values) is written
// uncompressed in the next 7 chunks (the codec is per column chunk), the codec tried again in
// the 8th; a compressible column keeps it throughout. Both read back equal, with V1 and with V2
// pages (whose headers then say is_compressed false).
TEST(ParquetFileWriter, IncompressibleColumnsSkipTheCodecAndRetryEveryEighthChunk) {
  for (const auto& [codec, version] : {std::pair{compress::Codec::kSnappy, 1}, std::pair{compress::Codec::kZstd, 2}}) {
    auto schema = std::make_shared<const Schema>(std::vector<Field>{field("r", int64()), field("c", int64())});
    NumericBuilder<int64_t> r(int64());
    NumericBuilder<int64_t> c(int64());
    std::mt19937_64 rng(42);
    constexpr int64_t kGroup = 1000, kGroups = 11;
    for (int64_t i = 0; i < kGroup * kGroups; ++i) {
      ASSERT_TRUE(r.Append(static_cast<int64_t>(rng())).ok());
      ASSERT_TRUE(c.Append(i % 10).ok());
    }
    auto batch = std::make_shared<RecordBatch>(schema, kGroup * kGroups, std::vector<Array>{*r.Finish(), *c.Finish()});
    ParquetWriterOptions opts;
    opts.codec = codec;
    opts.page_version = version;
    opts.dictionary = false;
    opts.row_group_rows = kGroup;
    const auto codecs = ChunkLetters(schema, batch, opts, [codec = codec](const ColumnMetaData& m) {
      if (m.codec == CompressionCodec::UNCOMPRESSED) return 'U';
      return m.codec == static_cast<CompressionCodec>(codec) ? 'C' : '?';
    });
    EXPECT_EQ(codecs, (std::vector<std::string>{"CUUUUUUUCUU", "CCCCCCCCCCC"})) << compress::CodecName(codec);
  }
}

}  // namespace
}  // namespace quiver::parquet

namespace quiver::parquet {
namespace {

// A one-column table of strings.
std::shared_ptr<RecordBatch> Strings(const std::string& name, const std::vector<std::string>& values,
                                     TypePtr type = utf8()) {
  BinaryBuilder b(type);
  for (const auto& v : values) EXPECT_TRUE(b.Append(v).ok());
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field(name, type)});
  return std::make_shared<RecordBatch>(schema, static_cast<int64_t>(values.size()), std::vector<Array>{*b.Finish()});
}

// Every string of a Parquet footer is UTF-8, or DuckDB refuses the file ("Invalid unicode"):
// the writer refuses names, key-value metadata and STRING values that are not, whoever built
// the schema, before the file is finished.
TEST(ParquetFileWriter, RefusesTextThatIsNotUtf8) {
  io::BufferOutputStream out;
  auto batch = Strings("Qu\xe9stion", {"a"});
  auto w = ParquetFileWriter::Open(&out, batch->schema(), {});
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().message(), "column name \"Qu\\xe9stion\" is not valid UTF-8 (Parquet names are UTF-8 text)");
  auto nested = std::make_shared<const Schema>(
      std::vector<Field>{field("s", struct_({field("ok", int64()), field("bad\xff", list(utf8()))}))});
  w = ParquetFileWriter::Open(&out, nested, {});
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().message(), "column name \"s.bad\\xff\" is not valid UTF-8 (Parquet names are UTF-8 text)");
  ParquetWriterOptions kv;
  kv.key_value_metadata = {{"origin", "caf\xe9"}};
  w = ParquetFileWriter::Open(&out, Strings("s", {"a"})->schema(), kv);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().message(), "key-value metadata value of \"origin\" is not valid UTF-8: \"caf\\xe9\"");
  kv.key_value_metadata = {{"\xc3", "x"}};
  w = ParquetFileWriter::Open(&out, Strings("s", {"a"})->schema(), kv);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().message(), "key-value metadata key \"\\xc3\" is not valid UTF-8");

  // STRING values, PLAIN or through the dictionary; also a value cut inside a character whose
  // other half starts the next value (the bytes together are valid UTF-8).
  for (bool dictionary : {true, false}) {
    ParquetWriterOptions o;
    o.dictionary = dictionary;
    auto bad = WriteParquetBytes(Strings("s", {"fine", "also fine", "caf\xe9", "x"})->schema(),
                                 {Strings("s", {"fine", "also fine", "caf\xe9", "x"})}, o);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.status().message(),
              "row group 0, column 's': a string value is not valid UTF-8: \"caf\\xe9\" (Parquet STRING holds UTF-8; "
              "store other bytes as binary)");
    bad = WriteParquetBytes(Strings("s", {"caf\xc3", "\xa9"})->schema(), {Strings("s", {"caf\xc3", "\xa9"})}, o);
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.status().message(),
              "row group 0, column 's': a string value is not valid UTF-8: \"caf\\xc3\" (Parquet STRING holds UTF-8; "
              "store other bytes as binary)");
  }
  // The same bytes as binary are fine.
  auto fine = WriteParquetBytes(Strings("b", {"caf\xe9"}, binary())->schema(), {Strings("b", {"caf\xe9"}, binary())}, {});
  EXPECT_TRUE(fine.ok()) << fine.status().ToString();
}

// Strings whose producer checked them (ArrayData::utf8_checked, the CSV reader's) are not
// checked again: the writer takes the producer's word, so it must be given only when true.
TEST(ParquetFileWriter, StringsMarkedUtf8CheckedAreNotCheckedAgain) {
  auto batch = Strings("s", {"fine", "caf\xe9"});
  auto marked = std::make_shared<ArrayData>(*batch->column(0).data());
  marked->utf8_checked = true;
  auto taken = std::make_shared<RecordBatch>(batch->schema(), 2, std::vector<Array>{Array(marked)});
  // Not through WriteParquetBytes: the file is not one to keep for DuckDB to read.
  io::BufferOutputStream out;
  auto w = parquet::ParquetFileWriter::Open(&out, batch->schema(), {});
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->Write(taken).ok());
  EXPECT_TRUE((*w)->Close().ok());
  auto unmarked = WriteParquetBytes(batch->schema(), {batch}, {});
  ASSERT_FALSE(unmarked.ok());
  EXPECT_EQ(unmarked.status().message(),
            "row group 0, column 's': a string value is not valid UTF-8: \"caf\\xe9\" (Parquet STRING holds UTF-8; "
            "store other bytes as binary)");
}

// A row group's column chunks are encoded in memory the previous groups freed: after the first
// groups, no block is taken fresh.
TEST(ParquetFileWriter, RowGroupsReuseTheChunksMemory) {
  const int64_t rows = 122880;  // a row group
  NumericBuilder<int64_t> b(int64());
  for (int64_t i = 0; i < rows; ++i) ASSERT_TRUE(b.Append(i * 7919 % 1000003).ok());
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("v", int64())});
  auto batch = std::make_shared<RecordBatch>(schema, rows, std::vector<Array>{*b.Finish()});
  io::BufferOutputStream out;
  ParquetWriterOptions o;
  o.dictionary = false;
  auto w = ParquetFileWriter::Open(&out, schema, o);
  ASSERT_TRUE(w.ok());
  std::vector<int64_t> fresh;
  for (int g = 0; g < 6; ++g) {
    ASSERT_TRUE((*w)->Write(batch).ok());
    ASSERT_TRUE((*w)->FlushRowGroup().ok());
    fresh.push_back((*w)->chunk_pool().fresh());
  }
  ASSERT_TRUE((*w)->Close().ok());
  EXPECT_GT(fresh[0], 0);
  EXPECT_EQ(fresh, std::vector<int64_t>(6, fresh[0]));
  EXPECT_GE((*w)->chunk_pool().reused(), 5);
}

// Timestamps in seconds are written as milliseconds: one that does not fit is an error naming
// it, never a wrapped instant.
TEST(ParquetFileWriter, SecondsThatOverflowMillisecondsAreAnError) {
  NumericBuilder<int64_t> b(timestamp(quiver::TimeUnit::kSecond));
  for (int64_t v : {int64_t{0}, int64_t{-1}, INT64_MAX / 100, int64_t{5}}) ASSERT_TRUE(b.Append(v).ok());
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("t", timestamp(quiver::TimeUnit::kSecond))});
  auto batch = std::make_shared<RecordBatch>(schema, 4, std::vector<Array>{*b.Finish()});
  auto bytes = WriteParquetBytes(schema, {batch}, {});
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.status().message(),
            "row group 0, column 't': 92233720368547758 seconds do not fit in 64-bit milliseconds (Parquet has no "
            "seconds unit)");
}

// Truncated bounds of STRING columns end on a character boundary, in the footer, the page
// headers and the column index, so they stay UTF-8.
TEST(ParquetFileWriter, TruncatedStringStatisticsStayUtf8) {
  // The minimum "aaa😀😀..." and the maximum "z😀😀..." both have a 4-byte character across
  // byte 64 (the default truncation length).
  std::vector<std::string> values;
  for (int i = 0; i < 200; ++i) {
    std::string v = i % 4 == 3 ? "z" : std::string(static_cast<size_t>(i % 4 + 1), 'a');
    for (int k = 0; k < 20; ++k) v += "\xF0\x9F\x98\x80";
    values.push_back(v);
  }
  auto batch = Strings("s", values);
  for (bool dictionary : {true, false}) {
    ParquetWriterOptions o;
    o.dictionary = dictionary;
    o.page_size = 1024;
    auto bytes = WriteParquetBytes(batch->schema(), {batch}, o);
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    auto r = ParquetFileReader::Open(io::MemorySource(*bytes));
    ASSERT_TRUE(r.ok());
    const auto& st = *(*r)->metadata().row_groups[0].columns[0].meta_data->statistics;
    ASSERT_TRUE(st.min_value && st.max_value);
    EXPECT_FALSE(*st.is_min_value_exact);
    EXPECT_LE((*st.min_value).size(), 64u);
    std::string smiles;
    for (int k = 0; k < 14; ++k) smiles += "\xF0\x9F\x98\x80";
    // Cut back to the last whole character; the maximum's last one incremented (U+1F601).
    EXPECT_EQ(*st.min_value, "aaa" + smiles + "\xF0\x9F\x98\x80");
    EXPECT_EQ(*st.max_value, "z" + smiles + "\xF0\x9F\x98\x81");
    EXPECT_TRUE(IsValidUtf8(*st.min_value)) << EscapeForMessage(std::string(*st.min_value));
    EXPECT_TRUE(IsValidUtf8(*st.max_value)) << EscapeForMessage(std::string(*st.max_value));
    EXPECT_FALSE(*st.is_max_value_exact);
  }
}

}  // namespace
}  // namespace quiver::parquet

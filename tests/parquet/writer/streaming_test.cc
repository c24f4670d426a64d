// ParquetFileWriter encoding rows as they arrive: many small batches across row groups, in the
// background on the pool, and a dictionary that overflows after pages were already compressed
// (those pages re-encoded as PLAIN), for every physical kind of dictionary and several codecs.
#include <gtest/gtest.h>

#include "quiver/columnar/builder.h"
#include "quiver/columnar/concatenate.h"
#include "quiver/columnar/pretty_print.h"
#include "quiver/io/file.h"
#include "quiver/io/output_stream.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/writer/file_writer.h"
#include "testing/random_array.h"

namespace quiver::parquet {
namespace {

Result<std::shared_ptr<Buffer>> Write(const SchemaPtr& schema, const std::vector<std::shared_ptr<RecordBatch>>& batches,
                                      const ParquetWriterOptions& opts) {
  io::BufferOutputStream out;
  QUIVER_ASSIGN_OR_RETURN(auto w, ParquetFileWriter::Open(&out, schema, opts));
  for (const auto& b : batches) QUIVER_RETURN_NOT_OK(w->Write(b));
  QUIVER_RETURN_NOT_OK(w->Close());
  return out.Finish();
}

Result<std::shared_ptr<RecordBatch>> Read(std::shared_ptr<Buffer> bytes, std::unique_ptr<ParquetFileReader>* keep) {
  QUIVER_ASSIGN_OR_RETURN(auto r, ParquetFileReader::Open(io::MemorySource(std::move(bytes))));
  std::vector<std::shared_ptr<RecordBatch>> groups;
  for (int g = 0; g < r->num_row_groups(); ++g) {
    QUIVER_ASSIGN_OR_RETURN(auto b, r->ReadRowGroup(g));
    groups.push_back(b);
  }
  auto schema = r->schema();
  *keep = std::move(r);
  return ConcatenateBatches(schema, groups);
}

void ExpectSame(const RecordBatch& want, const RecordBatch& got) {
  ASSERT_EQ(want.num_columns(), got.num_columns());
  ASSERT_EQ(want.num_rows(), got.num_rows());
  for (int i = 0; i < want.num_columns(); ++i) {
    EXPECT_EQ(ArrayToString(want.column(i), -1), ArrayToString(got.column(i), -1)) << want.schema()->field(i).name;
  }
}

// Column `distinct` values are all different; `few` repeats 5 values; both have nulls.
std::vector<std::shared_ptr<RecordBatch>> Batches(const SchemaPtr& schema, int nbatches, int rows) {
  std::vector<std::shared_ptr<RecordBatch>> out;
  int64_t k = 0;
  for (int b = 0; b < nbatches; ++b) {
    NumericBuilder<int64_t> i64(int64());
    NumericBuilder<double> f64(float64());
    BinaryBuilder str(utf8());
    FixedSizeBinaryBuilder fsb(fixed_size_binary(5));
    BinaryBuilder few(utf8());
    for (int r = 0; r < rows; ++r, ++k) {
      EXPECT_TRUE(i64.Append(k * 7919 - 5).ok());
      EXPECT_TRUE((k % 11 == 3 ? f64.AppendNull() : f64.Append(static_cast<double>(k) / 8)).ok());
      EXPECT_TRUE((k % 13 == 1 ? str.AppendNull() : str.Append("value number " + std::to_string(k))).ok());
      const std::string five = std::to_string(10000 + k % 90000);
      EXPECT_TRUE(fsb.Append(std::string_view(five).substr(0, 5)).ok());
      EXPECT_TRUE((k % 7 == 0 ? few.AppendNull() : few.Append(std::string(1 + k % 5, 'x'))).ok());
    }
    out.push_back(std::make_shared<RecordBatch>(
        schema, rows, std::vector<Array>{*i64.Finish(), *f64.Finish(), *str.Finish(), *fsb.Finish(), *few.Finish()}));
  }
  return out;
}

SchemaPtr FiveColumns() {
  return std::make_shared<const Schema>(std::vector<Field>{field("i64", int64(), false), field("f64", float64()),
                                                           field("str", utf8()), field("fsb", fixed_size_binary(5)),
                                                           field("few", utf8())});
}

TEST(StreamingWriter, DictionaryOverflowAfterCompressedPagesFallsBackToPlainForTheWholeChunk) {
  const SchemaPtr schema = FiveColumns();
  auto batches = Batches(schema, 12, 1000);  // 12000 rows, all in one row group
  auto want = ConcatenateBatches(schema, batches);
  ASSERT_TRUE(want.ok());
  for (compress::Codec codec : {compress::Codec::kSnappy, compress::Codec::kZstd, compress::Codec::kUncompressed}) {
    ParquetWriterOptions opts;
    opts.codec = codec;
    opts.page_size = 2048;                 // a few hundred values per page: many pages before the overflow
    opts.dictionary_size_limit = 16 << 10;  // ~2000 int64 entries, fewer strings
    opts.encode_batch_rows = 1000;
    auto bytes = Write(schema, batches, opts);
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    std::unique_ptr<ParquetFileReader> reader;
    auto got = Read(*bytes, &reader);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ExpectSame(**want, **got);
    ASSERT_EQ(reader->num_row_groups(), 1);
    const auto& cols = reader->metadata().row_groups[0].columns;
    for (int c = 0; c < 4; ++c) {
      EXPECT_FALSE(cols[c].meta_data->dictionary_page_offset.has_value()) << c;
      EXPECT_GT((*cols[c].meta_data->encoding_stats)[0].count, 5) << "data pages of column " << c;
      EXPECT_EQ((*cols[c].meta_data->encoding_stats)[0].encoding, Encoding::PLAIN) << c;
    }
    EXPECT_TRUE(cols[4].meta_data->dictionary_page_offset.has_value());
    EXPECT_EQ(*cols[4].meta_data->statistics->null_count, 12000 / 7 + 1);
  }
}

TEST(StreamingWriter, SmallBatchesAcrossRowGroupsOnThePoolAndInline) {
  const SchemaPtr schema = FiveColumns();
  auto batches = Batches(schema, 40, 777);  // 31080 rows
  auto want = ConcatenateBatches(schema, batches);
  ASSERT_TRUE(want.ok());
  for (ThreadPool* pool : {ThreadPool::Default(), static_cast<ThreadPool*>(nullptr)}) {
    ParquetWriterOptions opts;
    opts.row_group_rows = 10000;
    opts.encode_batch_rows = 3000;
    opts.thread_pool = pool;
    auto bytes = Write(schema, batches, opts);
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    std::unique_ptr<ParquetFileReader> reader;
    auto got = Read(*bytes, &reader);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ExpectSame(**want, **got);
    ASSERT_EQ(reader->num_row_groups(), 4);
    EXPECT_EQ(reader->metadata().row_groups[0].num_rows, 10000);
    EXPECT_EQ(reader->metadata().row_groups[3].num_rows, 1080);
  }
}

TEST(StreamingWriter, AfterAFallbackTheNextEightChunksArePlainThenTheDictionaryIsTriedAgain) {
  // Row group 0 is all distinct (falls back); every later one holds a single value.
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("v", int64())});
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (int g = 0; g < 11; ++g) {
    NumericBuilder<int64_t> b(int64());
    for (int i = 0; i < 1000; ++i) ASSERT_TRUE(b.Append(g == 0 ? i : 42).ok());
    batches.push_back(std::make_shared<RecordBatch>(schema, 1000, std::vector<Array>{*b.Finish()}));
  }
  ParquetWriterOptions opts;
  opts.row_group_rows = 1000;
  opts.dictionary_size_limit = 800;  // 100 entries
  auto bytes = Write(schema, batches, opts);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  std::unique_ptr<ParquetFileReader> reader;
  auto got = Read(*bytes, &reader);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  auto want = ConcatenateBatches(schema, batches);
  ExpectSame(**want, **got);
  const auto& groups = reader->metadata().row_groups;
  ASSERT_EQ(groups.size(), 11u);
  for (size_t g = 0; g < 11; ++g) {
    EXPECT_EQ(groups[g].columns[0].meta_data->dictionary_page_offset.has_value(), g >= 9) << "row group " << g;
  }
}

TEST(StreamingWriter, AnErrorInABackgroundEncodeIsReported) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("req", int64(), false)});
  NumericBuilder<int64_t> b(int64());
  for (int i = 0; i < 100; ++i) ASSERT_TRUE((i == 50 ? b.AppendNull() : b.Append(i)).ok());
  auto batch = std::make_shared<RecordBatch>(schema, 100, std::vector<Array>{*b.Finish()});
  ParquetWriterOptions opts;
  opts.encode_batch_rows = 10;
  auto bytes = Write(schema, {batch, batch}, opts);
  ASSERT_FALSE(bytes.ok());
  EXPECT_NE(bytes.status().ToString().find("column 'req' is not nullable but holds nulls"), std::string::npos)
      << bytes.status().ToString();
}

}  // namespace
}  // namespace quiver::parquet

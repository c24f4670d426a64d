// Batch streams: readers and writers opened by format, Copy (rows, progress, abort on error),
// ReadAhead (same batches and stats, errors passed on), Parquet column choice.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "quiver/columnar/builder.h"
#include "quiver/columnar/pretty_print.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/stream/copy.h"
#include "quiver/stream/open.h"
#include "quiver/stream/read_ahead.h"
#include "testing/scratch_dir.h"

namespace quiver::stream {
namespace {

namespace fs = std::filesystem;

class Stream : public testing::ScratchDirTest {
 protected:
  std::string WriteCsv(const std::string& name, int rows) const {
    std::ofstream o(Path(name));
    o << "id,name\n";
    for (int i = 0; i < rows; ++i) o << i << ",n" << i * 7 << "\n";
    return Path(name);
  }
};

// A reader of `batches` batches of one int64 column (values 0, 1, ...), then `error` if not OK.
class CountingReader final : public BatchReader {
 public:
  CountingReader(int batches, int64_t rows_each, Status error = Status::OK())
      : batches_(batches), rows_each_(rows_each), error_(std::move(error)),
        schema_(std::make_shared<const Schema>(std::vector<Field>{{"v", int64()}})) {}
  const SchemaPtr& schema() const override { return schema_; }
  Result<std::shared_ptr<RecordBatch>> Next() override {
    if (made_ == batches_) {
      if (!error_.ok()) return error_;
      return std::shared_ptr<RecordBatch>();
    }
    NumericBuilder<int64_t> b(int64());
    for (int64_t i = 0; i < rows_each_; ++i) QUIVER_RETURN_NOT_OK(b.Append(made_ * rows_each_ + i));
    QUIVER_ASSIGN_OR_RETURN(Array a, b.Finish());
    ++made_;
    return std::make_shared<RecordBatch>(schema_, rows_each_, std::vector<Array>{a});
  }
  ReadStats stats() const override { return ReadStats{made_ * rows_each_, made_ * 100, made_ * 10, batches_ * 10}; }

 private:
  int batches_;
  int64_t rows_each_;
  Status error_;
  SchemaPtr schema_;
  int made_ = 0;
};

TEST_F(Stream, CsvToParquetByExtensionCopiesEveryRowWithProgress) {
  const std::string in = WriteCsv("in.csv", 300000);
  ReadOptions ro;
  ro.csv.block_size = 1 << 20;  // several batches
  auto reader = OpenReader(in, ro);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->schema()->ToString(), "id: int64\nname: string\n");
  auto writer = OpenWriter(Path("out.parquet"), (*reader)->schema());
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  std::vector<ReadStats> seen;
  CopyOptions co;
  co.progress = [&](const ReadStats& s) { seen.push_back(s); };
  auto rows = Copy(**reader, **writer, co);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(*rows, 300000);
  ASSERT_GT(seen.size(), 1u);
  EXPECT_EQ(seen.back().rows_read, 300000);
  EXPECT_EQ(seen.back().input_position, static_cast<int64_t>(fs::file_size(in)));
  EXPECT_EQ((*writer)->bytes_written(), static_cast<int64_t>(fs::file_size(Path("out.parquet"))));
  EXPECT_EQ(Entries(), (std::vector<std::string>{"in.csv", "out.parquet"}));

  auto back = parquet::ParquetFileReader::Open(Path("out.parquet"));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  auto batch = (*back)->ReadRowGroup(0);
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ((*back)->num_rows(), 300000);
  std::string v;
  FormatValue((*batch)->column(1), 999, &v);
  EXPECT_EQ(v, "n6993");
}

TEST_F(Stream, ParquetReaderChoosesColumnsByNameInTheOrderGiven) {
  const std::string in = WriteCsv("in.csv", 10);
  {
    auto r = OpenReader(in);
    ASSERT_TRUE(r.ok());
    auto w = OpenWriter(Path("t.parquet"), (*r)->schema());
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(Copy(**r, **w).ok());
  }
  ReadOptions ro;
  ro.columns = {"name", "id"};
  auto r = OpenReader(Path("t.parquet"), ro);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)->schema()->ToString(), "name: string\nid: int64\n");
  auto b = (*r)->Next();
  ASSERT_TRUE(b.ok());
  ASSERT_NE(*b, nullptr);
  EXPECT_EQ((*b)->column(0).ToString().substr(0, 10), "[\"n0\", \"n7");
  EXPECT_EQ((*r)->stats().rows_read, 10);
  EXPECT_EQ((*r)->stats().input_position, static_cast<int64_t>(fs::file_size(Path("t.parquet"))));
  auto end = (*r)->Next();
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(*end, nullptr);

  ro.columns = {"nope"};
  r = OpenReader(Path("t.parquet"), ro);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), Path("t.parquet") + ": no column named 'nope'");
}

TEST_F(Stream, OpenWriterNamesWhatItCannotWrite) {
  const SchemaPtr schema = std::make_shared<const Schema>(std::vector<Field>{{"v", int64()}});
  auto w = OpenWriter(Path("out.xyz"), schema);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().message(), "cannot tell the output format of '" + Path("out.xyz") +
                                      "' (use .parquet, .orc, .csv, .tsv, .jsonl, .arrow or .arrows, or name it)");
  WriteOptions wo;
  wo.format = "avro";
  w = OpenWriter(Path("out.avro"), schema, wo);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().message(),
            Path("out.avro") + ": cannot write the format 'avro' (parquet, orc, csv, tsv, jsonl, arrow or arrows)");
  EXPECT_TRUE(Entries().empty());
}

TEST_F(Stream, CopyAbortsTheWriterOnAReadErrorAndLeavesNothing) {
  CountingReader reader(3, 5, Status::IOError("disk gone"));
  auto w = OpenWriter(Path("out.jsonl"), reader.schema());
  ASSERT_TRUE(w.ok());
  auto rows = Copy(reader, **w);
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().message(), "disk gone");
  EXPECT_TRUE(Entries().empty());  // neither the target nor its temporary file
}

// Materialized, the kept batches go to the caller (who frees them when its clock has stopped);
// streamed, nothing is kept; a read error leaves the caller's vector alone.
TEST_F(Stream, DrainHandsAMaterializedTableToTheCaller) {
  CountingReader reader(3, 5);
  std::vector<std::shared_ptr<RecordBatch>> kept;
  auto n = Drain(reader, /*materialize=*/true, &kept);
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ(n->rows, 15);
  ASSERT_EQ(kept.size(), 3u);
  EXPECT_EQ(n->bytes, kept[0]->buffer_bytes() * 3);
  const PrimitiveArray<int64_t> last(kept[2]->column(0));
  EXPECT_EQ(last.Value(0), 10);
  EXPECT_EQ(last.Value(4), 14);
  CountingReader streamed(2, 5);
  std::vector<std::shared_ptr<RecordBatch>> none;
  n = Drain(streamed, /*materialize=*/false, &none);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->rows, 10);
  EXPECT_TRUE(none.empty());
  CountingReader failing(2, 5, Status::IOError("disk gone"));
  n = Drain(failing, /*materialize=*/true, &kept);
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.status().message(), "disk gone");
  EXPECT_EQ(kept.size(), 3u);
}

TEST_F(Stream, ReadAheadHandsOutTheSameBatchesAndStatsThenTheError) {
  auto source = std::make_unique<CountingReader>(4, 3, Status::Invalid("bad row"));
  ReadAhead ahead(std::move(source), 2);
  EXPECT_EQ(ahead.schema()->ToString(), "v: int64\n");
  for (int i = 0; i < 4; ++i) {
    auto b = ahead.Next();
    ASSERT_TRUE(b.ok());
    ASSERT_NE(*b, nullptr);
    EXPECT_EQ((*b)->column(0).ToString(),
              "[" + std::to_string(3 * i) + ", " + std::to_string(3 * i + 1) + ", " + std::to_string(3 * i + 2) + "]");
    // The stats as they were right after this batch was read, not as the thread now has them.
    EXPECT_EQ(ahead.stats().rows_read, 3 * (i + 1));
    EXPECT_EQ(ahead.stats().input_position, 10 * (i + 1));
    EXPECT_EQ(ahead.stats().input_size, 40);
  }
  auto e = ahead.Next();
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().message(), "bad row");
}

TEST_F(Stream, ReadAheadStopsEarlyWithoutReadingToTheEnd) {
  auto source = std::make_unique<CountingReader>(1000, 10);
  {
    ReadAhead ahead(std::move(source));  // 2 batches ahead: the source's own suggestion
    EXPECT_EQ(ahead.read_ahead_batches(), 2u);
    auto b = ahead.Next();
    ASSERT_TRUE(b.ok());
  }  // joins its thread without waiting for 1000 batches
}

}  // namespace
}  // namespace quiver::stream

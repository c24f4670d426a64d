// ParquetFileReader API: projection and order of columns, row group bounds, memory limits and
// the tracked peak of a whole-file read.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "quiver/columnar/builder.h"
#include "quiver/columnar/pretty_print.h"
#include "quiver/core/thread_pool.h"
#include "quiver/io/file.h"
#include "quiver/parquet/writer/file_writer.h"
#include "quiver/core/memory_pool.h"
#include "quiver/core/memory_tracker.h"
#include "quiver/parquet/reader/file_reader.h"
#include "testing/corpus.h"
#include "testing/parquet_bytes.h"

namespace quiver::parquet {
namespace {

TEST(ParquetFileReader, ProjectsColumnsInTheOrderAsked) {
  QUIVER_CORPUS_OR_SKIP(root);
  auto r = ParquetFileReader::Open((root / "parquet-testing/data/alltypes_plain.parquet").string());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const int id = (*r)->schema()->GetFieldIndex("id");
  const int dbl = (*r)->schema()->GetFieldIndex("double_col");
  auto b = (*r)->ReadRowGroup(0, {dbl, id});
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  ASSERT_EQ((*b)->num_columns(), 2);
  EXPECT_EQ((*b)->schema()->field(0).name, "double_col");
  EXPECT_EQ(ArrayToString((*b)->column(1)), "[4, 5, 6, 7, 2, 3, 0, 1]");
  EXPECT_FALSE((*r)->ReadRowGroup(1).ok());
  EXPECT_FALSE((*r)->ReadRowGroup(0, {99}).ok());
}

TEST(ParquetFileReader, StreamsBatchesOfTheChosenSize) {
  QUIVER_CORPUS_OR_SKIP(root);
  auto r = ParquetFileReader::Open((root / "parquet-testing/data/alltypes_tiny_pages.parquet").string());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto cols = (*r)->ResolveFields({"int_col", "id"});
  ASSERT_TRUE(cols.ok()) << cols.status().ToString();
  EXPECT_FALSE((*r)->ResolveFields({"nope"}).ok());
  auto whole = (*r)->ReadRowGroup(0, *cols);
  ASSERT_TRUE(whole.ok());
  auto stream = (*r)->GetBatchReader({}, *cols, 1000);
  ASSERT_TRUE(stream.ok()) << stream.status().ToString();
  int64_t rows = 0;
  int batches = 0;
  int64_t id_sum = 0, expected_sum = 0;
  for (;;) {
    auto b = (*stream)->Next();
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    if (!*b) break;
    EXPECT_LE((*b)->num_rows(), 1000);
    EXPECT_EQ((*b)->schema()->field(1).name, "id");
    PrimitiveArray<int32_t> ids((*b)->column(1));
    for (int64_t i = 0; i < ids.length(); ++i) id_sum += ids.Value(i);
    rows += (*b)->num_rows();
    ++batches;
  }
  EXPECT_EQ(rows, (*r)->num_rows());
  EXPECT_GE(batches, 8);
  for (int64_t i = 0; i < rows; ++i) expected_sum += i;  // ids are 0..n-1 in some order
  EXPECT_EQ(id_sum, expected_sum);
}

TEST(ParquetFileReader, MemoryLimitGivesOutOfMemory) {
  QUIVER_CORPUS_OR_SKIP(root);
  MemoryTracker tracker("parquet-read", MemoryTracker::Process(), {.limit = 64 * 1024, .quantum = 0});
  TrackedMemoryPool pool(&tracker);
  ParquetReaderOptions opts;
  opts.pool = &pool;
  auto r = ParquetFileReader::Open((root / "parquet-testing/data/alltypes_tiny_pages.parquet").string(), opts);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  Status st;
  for (int g = 0; g < (*r)->num_row_groups() && st.ok(); ++g) {
    auto b = (*r)->ReadRowGroup(g);
    if (!b.ok()) st = b.status();
  }
  EXPECT_TRUE(st.IsOutOfMemory()) << st.ToString();
}

// `rows` rows of (k int64 hard to compress, mode string by dictionary with nulls, comment
// long PLAIN strings) in row groups of `group_rows`, written to a file (the reader then uses
// pread, whose input buffers must come from its pool).
std::string WriteTestFile(const std::string& name, int64_t rows, int64_t group_rows) {
  auto schema = std::make_shared<const Schema>(
      std::vector<Field>{field("k", int64()), field("mode", utf8()), field("comment", utf8())});
  NumericBuilder<int64_t> k(int64());
  BinaryBuilder mode(utf8()), comment(utf8());
  const char* modes[] = {"AIR", "RAIL", "SHIP", "DELIVER IN PERSON"};
  uint64_t x = 88172645463325252ULL;
  for (int64_t i = 0; i < rows; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    EXPECT_TRUE(k.Append(static_cast<int64_t>(x)).ok());
    EXPECT_TRUE((i % 9 == 4 ? mode.AppendNull() : mode.Append(modes[x % 4])).ok());
    EXPECT_TRUE(comment.Append(std::string(static_cast<size_t>(x % 40), static_cast<char>('a' + x % 26)) +
                               std::to_string(i)).ok());
  }
  auto batch = std::make_shared<RecordBatch>(schema, rows,
                                             std::vector<Array>{*k.Finish(), *mode.Finish(), *comment.Finish()});
  ParquetWriterOptions wopts;
  wopts.row_group_rows = group_rows;
  auto bytes = testing::WriteParquetBytes(schema, {batch}, wopts);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  const std::string path = "/tmp/quiver-reader-test-" + std::to_string(getpid()) + "-" + name + ".parquet";
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>((*bytes)->data()), (*bytes)->size());
  return path;
}

// A limit below one column chunk's compressed bytes: the pread of the chunk itself is refused
// (it comes from the reader's pool), with the file, row group and column in the message, and
// nothing stays charged.
TEST(ParquetFileReader, LimitBelowOneChunkIsOutOfMemoryNamingTheChunk) {
  const std::string path = WriteTestFile("oom", 100000, 100000);
  MemoryTracker tracker("parquet-read", MemoryTracker::Process(), {.limit = 256 * 1024, .quantum = 0});
  TrackedMemoryPool pool(&tracker);
  ParquetReaderOptions opts;
  opts.pool = &pool;
  opts.thread_pool = nullptr;
  auto r = ParquetFileReader::Open(path, opts);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const int64_t k_bytes = (*r)->metadata().row_groups[0].columns[0].meta_data->total_compressed_size;
  ASSERT_GT(k_bytes, 256 * 1024);  // 100,000 random int64: the chunk alone is over the limit
  auto b = (*r)->ReadRowGroup(0, {0});
  ASSERT_FALSE(b.ok());
  EXPECT_TRUE(b.status().IsOutOfMemory()) << b.status().ToString();
  const std::string msg = b.status().message();
  EXPECT_TRUE(msg.starts_with(path + ": row group 0, column 'k': allocating ")) << msg;
  EXPECT_NE(msg.find(" bytes would exceed the limit of 262144 bytes of 'parquet-read' (0 in use)"), std::string::npos)
      << msg;
  EXPECT_EQ(tracker.current_bytes(), 0);
  // With room for the chunk but not for its decoded values, the failure comes later, still clean.
  tracker.set_limit(k_bytes + 64 * 1024);
  b = (*r)->ReadRowGroup(0, {0});
  ASSERT_FALSE(b.ok());
  EXPECT_TRUE(b.status().IsOutOfMemory()) << b.status().ToString();
  EXPECT_EQ(tracker.current_bytes(), 0);
  tracker.set_limit(MemoryTracker::kNoLimit);
  b = (*r)->ReadRowGroup(0, {0});
  EXPECT_TRUE(b.ok()) << b.status().ToString();
  std::filesystem::remove(path);
}

// The tracked peak of a whole-file read (every allocation: chunk bytes, decompression, output)
// exceeds what the result holds by no more than, per decoding thread: the largest chunk's
// compressed bytes (its pread buffer), its uncompressed bytes (the decompression buffer, kept
// by the thread until the read ends) and its uncompressed bytes again (values decoded densely
// before they are spread over null slots, offsets rewritten, a growing buffer's old block).
TEST(ParquetFileReader, WholeFileReadPeakIsOutputPlusPerThreadChunkBuffers) {
  const std::string path = WriteTestFile("peak", 60000, 6000);
  for (int threads : {1, 2}) {
    MemoryTracker tracker("parquet-read", MemoryTracker::Process(), {.quantum = 0});
    TrackedMemoryPool pool(&tracker);
    ThreadPool tp(threads);
    ParquetReaderOptions opts;
    opts.pool = &pool;
    opts.thread_pool = threads > 1 ? &tp : nullptr;
    auto r = ParquetFileReader::Open(path, opts);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    ASSERT_EQ((*r)->num_row_groups(), 10);
    int64_t max_compressed = 0, max_uncompressed = 0;
    for (const auto& rg : (*r)->metadata().row_groups) {
      for (const auto& c : rg.columns) {
        max_compressed = std::max(max_compressed, c.meta_data->total_compressed_size);
        max_uncompressed = std::max(max_uncompressed, c.meta_data->total_uncompressed_size);
      }
    }
    auto all = (*r)->ReadRowGroups();
    ASSERT_TRUE(all.ok()) << all.status().ToString();
    const int64_t held = tracker.current_bytes();
    const int64_t peak = tracker.peak_bytes();
    EXPECT_GT(held, 60000 * 8);
    EXPECT_LE(peak - held, threads * (max_compressed + 2 * max_uncompressed) + 64 * 1024)
        << "threads " << threads << ": peak " << peak << ", held " << held << ", largest chunk " << max_compressed
        << " compressed, " << max_uncompressed << " uncompressed";
    all->clear();
    EXPECT_EQ(tracker.current_bytes(), 0);
  }
  std::filesystem::remove(path);
}

// A file of several row groups (int64 PLAIN, strings by dictionary with nulls, long PLAIN
// strings) read whole by ReadRowGroups on 1, 2 and 3 threads, and group by group.
TEST(ParquetFileReader, ReadRowGroupsMatchesGroupByGroupOnAnyThreadCount) {
  auto schema = std::make_shared<const Schema>(
      std::vector<Field>{field("k", int64()), field("mode", utf8()), field("comment", utf8())});
  NumericBuilder<int64_t> k(int64());
  BinaryBuilder mode(utf8()), comment(utf8());
  const char* modes[] = {"AIR", "RAIL", "SHIP", "DELIVER IN PERSON", "A rather long mode name over 32 bytes"};
  const int64_t rows = 10000;
  for (int64_t i = 0; i < rows; ++i) {
    ASSERT_TRUE(k.Append(i * 7919 % 100003).ok());
    if (i % 7 == 3) {
      ASSERT_TRUE(mode.AppendNull().ok());
    } else {
      ASSERT_TRUE(mode.Append(modes[i % 5]).ok());
    }
    ASSERT_TRUE(comment.Append(std::string(static_cast<size_t>(i % 50), static_cast<char>('a' + i % 26)) +
                               std::to_string(i)).ok());
  }
  auto batch = std::make_shared<RecordBatch>(schema, rows,
                                             std::vector<Array>{*k.Finish(), *mode.Finish(), *comment.Finish()});
  ParquetWriterOptions wopts;
  wopts.row_group_rows = 1500;
  auto bytes = testing::WriteParquetBytes(schema, {batch}, wopts);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();

  ParquetReaderOptions serial;
  serial.thread_pool = nullptr;
  auto ref = ParquetFileReader::Open(io::MemorySource(*bytes), serial);
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  ASSERT_EQ((*ref)->num_row_groups(), 7);
  for (int threads : {1, 2, 3}) {
    ThreadPool pool(threads);
    ParquetReaderOptions opts;
    opts.thread_pool = &pool;
    auto r = ParquetFileReader::Open(io::MemorySource(*bytes), opts);
    ASSERT_TRUE(r.ok());
    auto all = (*r)->ReadRowGroups();
    ASSERT_TRUE(all.ok()) << all.status().ToString();
    ASSERT_EQ(all->size(), 7u);
    int64_t offset = 0;
    for (int g = 0; g < 7; ++g) {
      auto one = (*ref)->ReadRowGroup(g);
      ASSERT_TRUE(one.ok()) << one.status().ToString();
      const auto& b = (*all)[static_cast<size_t>(g)];
      ASSERT_EQ(b->num_rows(), (*one)->num_rows());
      for (int c = 0; c < 3; ++c) {
        EXPECT_TRUE(b->column(c).Equals((*one)->column(c))) << "threads " << threads << " group " << g;
        EXPECT_TRUE(b->column(c).Equals(batch->column(c).Slice(offset, b->num_rows())))
            << "threads " << threads << " group " << g << " column " << c;
      }
      offset += b->num_rows();
    }
    EXPECT_EQ(offset, rows);
    // Chosen groups and columns, in the order asked.
    auto some = (*r)->ReadRowGroups({5, 1}, {2, 0});
    ASSERT_TRUE(some.ok()) << some.status().ToString();
    ASSERT_EQ(some->size(), 2u);
    EXPECT_EQ((*some)[0]->schema()->field(0).name, "comment");
    EXPECT_TRUE((*some)[1]->column(1).Equals(batch->column(0).Slice(1500, 1500)));
    EXPECT_FALSE((*r)->ReadRowGroups({7}).ok());
  }
}

}  // namespace
}  // namespace quiver::parquet

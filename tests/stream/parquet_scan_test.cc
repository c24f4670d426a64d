// ParquetScan: row groups skipped by statistics and bloom filters, pages by the page index, rows
// kept exactly, columns chosen, counters; ParseLiteral's values and errors.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <tuple>

#include "quiver/columnar/builder.h"
#include "quiver/core/thread_pool.h"
#include "quiver/io/file.h"
#include "quiver/io/output_target.h"
#include "quiver/parquet/footer.h"
#include "quiver/parquet/schema.h"
#include "quiver/parquet/writer/file_writer.h"
#include "quiver/stream/parquet_scan.h"
#include "quiver/stream/scan_literal.h"
#include "testing/parquet_bytes.h"

namespace quiver::stream {
namespace {

namespace fs = std::filesystem;

// Writes `batch` to `path` with `o` and opens the file for reading: how each fixture makes its file.
void WriteAndOpen(const std::string& path, const std::shared_ptr<RecordBatch>& batch,
                  const parquet::ParquetWriterOptions& o, std::shared_ptr<parquet::ParquetFileReader>* file) {
  auto out = io::OutputTarget::Open(path);
  ASSERT_TRUE(out.ok());
  auto w = parquet::ParquetFileWriter::Open((*out)->stream(), batch->schema(), o);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  ASSERT_TRUE((*w)->Write(batch).ok());
  ASSERT_TRUE((*w)->Close().ok());
  ASSERT_TRUE((*out)->Commit().ok());
  auto r = parquet::ParquetFileReader::Open(path);
  ASSERT_TRUE(r.ok());
  *file = std::move(*r);
}

class Scan : public ::testing::Test {
 protected:
  // Four row groups of 10,000 rows: k = 0..39,999 in order, s = "v" + k % 100; pages of about
  // 4,096 rows, a bloom filter on s.
  void SetUp() override {
    path_ = (fs::path("/tmp") / ("quiver-scan-" + std::to_string(getpid()) + ".parquet")).string();
    auto schema = std::make_shared<const Schema>(std::vector<Field>{{"k", int64()}, {"s", utf8()}});
    parquet::ParquetWriterOptions o;
    o.row_group_rows = 10000;
    o.page_size = 8 * 4096;
    o.bloom_filters.emplace_back("s", parquet::BloomFilterOptions{});
    NumericBuilder<int64_t> k(int64());
    BinaryBuilder s(utf8());
    for (int64_t i = 0; i < 40000; ++i) {
      ASSERT_TRUE(k.Append(i).ok());
      ASSERT_TRUE(s.Append("v" + std::to_string(i % 100)).ok());
    }
    auto batch = std::make_shared<RecordBatch>(schema, 40000, std::vector<Array>{*k.Finish(), *s.Finish()});
    ASSERT_NO_FATAL_FAILURE(WriteAndOpen(path_, batch, o, &file_));
  }
  void TearDown() override { fs::remove(path_); }
  std::string path_;
  std::shared_ptr<parquet::ParquetFileReader> file_;
};

// Batches released before the next Next() are decoded into again; batches held are not
// touched (their values stay), and either way every row comes back. (The decode loops' scratch
// is recycled from group to group either way.) Without a thread pool no group decodes ahead,
// so each one can reuse the blocks of the one before.
TEST_F(Scan, NextRecyclesTheBuffersOfReleasedBatches) {
  parquet::ParquetReaderOptions ro;
  ro.thread_pool = nullptr;
  auto file = parquet::ParquetFileReader::Open(path_, ro);
  ASSERT_TRUE(file.ok());
  std::shared_ptr<parquet::ParquetFileReader> sync = std::move(*file);
  int64_t reused[2] = {0, 0};
  for (bool hold : {false, true}) {
    auto scan = ParquetScan::Make(sync, ScanOptions{});
    ASSERT_TRUE(scan.ok()) << scan.status().ToString();
    std::vector<std::shared_ptr<RecordBatch>> held;
    int64_t group = 0;
    for (;; ++group) {
      auto b = (*scan)->Next();
      ASSERT_TRUE(b.ok()) << b.status().ToString();
      if (!*b) break;
      // k's 10,000 int64 values (80 KB) are a recycled block.
      const std::string head = "[" + std::to_string(group * 10000) + ", " + std::to_string(group * 10000 + 1) + ",";
      EXPECT_EQ((*b)->column(0).ToString().substr(0, head.size()), head) << hold;
      if (hold) held.push_back(*b);
    }
    EXPECT_EQ(group, 4);
    reused[hold] = (*scan)->buffers_reused();
    if (hold) {
      for (size_t g = 0; g < held.size(); ++g) {
        const std::string head = "[" + std::to_string(g * 10000) + ", ";
        EXPECT_EQ(held[g]->column(0).ToString().substr(0, head.size()), head) << g;
      }
    }
  }
  // Every group after the first decodes its k into the block the one before released.
  EXPECT_GE(reused[0], reused[1] + 3);
}

// Groups decode ahead on the pool (a window of them): every row comes back in order; a batch
// released is decoded into again by a later group; a scan dropped with groups in flight waits
// for them; ReadAll after Next returns the groups ahead, then the rest.
TEST_F(Scan, GroupsDecodeAheadOnThePoolInOrder) {
  ThreadPool pool(2);
  parquet::ParquetReaderOptions ro;
  ro.thread_pool = &pool;
  auto file = parquet::ParquetFileReader::Open(path_, ro);
  ASSERT_TRUE(file.ok());
  std::shared_ptr<parquet::ParquetFileReader> f = std::move(*file);
  {
    auto scan = ParquetScan::Make(f, ScanOptions{});
    ASSERT_TRUE(scan.ok());
    for (int64_t group = 0; group < 4; ++group) {
      auto b = (*scan)->Next();
      ASSERT_TRUE(b.ok() && *b) << b.status().ToString();
      const std::string head = "[" + std::to_string(group * 10000) + ", ";
      EXPECT_EQ((*b)->column(0).ToString().substr(0, head.size()), head);
    }
    auto end = (*scan)->Next();
    ASSERT_TRUE(end.ok());
    EXPECT_EQ(end->get(), nullptr);
    EXPECT_EQ((*scan)->stats().rows_read, 40000);
    EXPECT_GE((*scan)->buffers_reused(), 1);  // the last group into the first one's blocks
  }
  {
    auto scan = ParquetScan::Make(f, ScanOptions{});
    ASSERT_TRUE(scan.ok());
    ASSERT_TRUE((*scan)->Next().ok());  // three more groups queued or decoding; dropped now
  }
  auto scan = ParquetScan::Make(f, ScanOptions{});
  ASSERT_TRUE(scan.ok());
  auto first = (*scan)->Next();
  ASSERT_TRUE(first.ok() && *first);
  auto rest = (*scan)->ReadAll();
  ASSERT_TRUE(rest.ok()) << rest.status().ToString();
  ASSERT_EQ(rest->size(), 3u);
  for (size_t g = 0; g < 3; ++g) {
    const std::string head = "[" + std::to_string((g + 1) * 10000) + ", ";
    EXPECT_EQ((*rest)[g]->column(0).ToString().substr(0, head.size()), head) << g;
  }
  EXPECT_EQ((*scan)->stats().rows_read, 40000);
}

// Late materialization: the predicates' columns decide the rows, and the other columns decode
// only those (fixed width, dictionary and PLAIN strings compacted page by page; a column with
// nulls or booleans decoded whole and filtered). Three row groups of 10,000 rows, pages of
// about 1,000 values (u and e PLAIN, the others dictionary-coded); k, s, d serve as predicates,
// e, t, m, u, n, b only as chosen columns, unless a test says otherwise.
class LateScan : public ::testing::Test {
 protected:
  static constexpr int64_t kRows = 30000;
  void SetUp() override {
    path_ = (fs::path("/tmp") / ("quiver-late-scan-" + std::to_string(getpid()) + ".parquet")).string();
    auto schema = std::make_shared<const Schema>(std::vector<Field>{{"k", int64()}, {"s", utf8()}, {"u", utf8()},
                                                                    {"d", float64()}, {"n", int32()}, {"b", boolean()},
                                                                    {"e", float64()}, {"t", utf8()}, {"m", int32()}});
    parquet::ParquetWriterOptions o;
    o.row_group_rows = 10000;
    o.page_size = 8 * 1000;
    o.column_encodings.emplace_back("u", parquet::Encoding::PLAIN);
    o.column_encodings.emplace_back("e", parquet::Encoding::PLAIN);
    NumericBuilder<int64_t> k(int64());
    BinaryBuilder s(utf8()), u(utf8());
    NumericBuilder<double> d(float64());
    NumericBuilder<int32_t> n(int32()), m(int32());
    BooleanBuilder b;
    NumericBuilder<double> e(float64());
    BinaryBuilder t(utf8());
    for (int64_t i = 0; i < kRows; ++i) {
      ASSERT_TRUE(k.Append(i).ok());
      ASSERT_TRUE(s.Append(S(i)).ok());
      ASSERT_TRUE(u.Append(U(i)).ok());
      ASSERT_TRUE(d.Append(D(i)).ok());
      ASSERT_TRUE((i % 5 == 0 ? n.AppendNull() : n.Append(static_cast<int32_t>(i))).ok());
      ASSERT_TRUE(b.Append(i % 3 == 0).ok());
      ASSERT_TRUE(e.Append(static_cast<double>(i) * 0.5).ok());
      ASSERT_TRUE(t.Append("t" + std::to_string(i % 7)).ok());
      ASSERT_TRUE(m.Append(static_cast<int32_t>(i % 100)).ok());
    }
    auto batch = std::make_shared<RecordBatch>(
        schema, kRows, std::vector<Array>{*k.Finish(), *s.Finish(), *u.Finish(), *d.Finish(), *n.Finish(), *b.Finish(),
                                          *e.Finish(), *t.Finish(), *m.Finish()});
    ASSERT_NO_FATAL_FAILURE(WriteAndOpen(path_, batch, o, &file_));
  }
  void TearDown() override { fs::remove(path_); }
  static std::string S(int64_t i) { return "s" + std::to_string(i * 7 % 13); }
  static std::string U(int64_t i) { return "u" + std::to_string(i * 31) + std::string(static_cast<size_t>(i % 4), 'x'); }
  static double D(int64_t i) { return static_cast<double>(i % 10) / 10; }
  // Every row of the batches (columns u, s, d, n, b, k, e, t, m) as "k|s|u|d|n|b|e|t|m", n "-"
  // when null.
  static std::vector<std::string> Rows(const std::vector<std::shared_ptr<RecordBatch>>& batches) {
    std::vector<std::string> rows;
    for (const auto& b : batches) {
      const PrimitiveArray<int64_t> k(b->column(5));
      const BinaryArray s(b->column(1)), u(b->column(0));
      const PrimitiveArray<double> d(b->column(2));
      const PrimitiveArray<int32_t> n(b->column(3));
      const BooleanArray f(b->column(4));
      const PrimitiveArray<double> e(b->column(6));
      const BinaryArray t(b->column(7));
      const PrimitiveArray<int32_t> m(b->column(8));
      for (int64_t i = 0; i < b->num_rows(); ++i) {
        rows.push_back(std::to_string(k.Value(i)) + "|" + std::string(s.GetView(i)) + "|" + std::string(u.GetView(i)) +
                       "|" + std::to_string(d.Value(i)) + "|" + (n.IsNull(i) ? "-" : std::to_string(n.Value(i))) +
                       "|" + (f.Value(i) ? "t" : "f") + "|" + std::to_string(e.Value(i)) + "|" +
                       std::string(t.GetView(i)) + "|" + std::to_string(m.Value(i)));
      }
    }
    return rows;
  }
  std::string path_;
  std::shared_ptr<parquet::ParquetFileReader> file_;
};

TEST_F(LateScan, TheOtherColumnsDecodeOnlyTheRowsEveryPredicateKeeps) {
  ScanOptions o;
  o.columns = {"u", "s", "d", "n", "b", "k", "e", "t", "m"};
  o.where = ScanPredicate{"k", parquet::CompareOp::kGe, parquet::Literal::Int(5000)};
  o.and_where = {ScanPredicate{"d", parquet::CompareOp::kLt, parquet::Literal::Float(0.35)},
                 ScanPredicate{"s", parquet::CompareOp::kNe, parquet::Literal::Bytes("s3")},
                 ScanPredicate{"k", parquet::CompareOp::kLt, parquet::Literal::Int(25000)}};
  std::vector<std::string> want;
  for (int64_t i = 5000; i < 25000; ++i) {
    if (D(i) < 0.35 && S(i) != "s3") {
      want.push_back(std::to_string(i) + "|" + S(i) + "|" + U(i) + "|" + std::to_string(D(i)) + "|" +
                     (i % 5 == 0 ? "-" : std::to_string(i)) + "|" + (i % 3 == 0 ? "t" : "f") + "|" +
                     std::to_string(static_cast<double>(i) * 0.5) + "|t" + std::to_string(i % 7) + "|" +
                     std::to_string(i % 100));
    }
  }
  auto scan = ParquetScan::Make(file_, o);
  ASSERT_TRUE(scan.ok()) << scan.status().ToString();
  EXPECT_EQ((*scan)->schema()->ToString(), "u: string\ns: string\nd: double\nn: int32\nb: bool\nk: int64\ne: double\nt: string\nm: int32\n");
  EXPECT_EQ((*scan)->row_groups(), (std::vector<int>{0, 1, 2}));
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (;;) {
    auto b = (*scan)->Next();
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    if (!*b) break;
    batches.push_back(*b);
  }
  EXPECT_EQ(Rows(batches), want);
  EXPECT_EQ((*scan)->stats().rows_read, static_cast<int64_t>(want.size()));
  // ReadAll reads every column at once and filters them: the same rows.
  auto again = ParquetScan::Make(file_, o);
  ASSERT_TRUE(again.ok());
  auto all = (*again)->ReadAll();
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ(Rows(*all), want);
}

// Groups the page index leaves whole evaluate their predicates over the pages (m and s
// dictionary-coded: once per entry; e PLAIN: in place; n has nulls: decoded and evaluated),
// then decode the chosen columns' kept rows only: mostly kept (each row copied, advancing by
// its bit), few kept (set bits visited) and nearly all kept (whole 64-row steps copied) give the
// rows the predicates say.
TEST_F(LateScan, PredicatesOverDictionaryPlainAndNullablePagesKeepTheirRowsDenseOrSparse) {
  auto scan_rows = [&](std::vector<ScanPredicate> where) {
    ScanOptions o;
    o.columns = {"u", "s", "d", "n", "b", "k", "e", "t", "m"};
    o.where = where[0];
    o.and_where.assign(where.begin() + 1, where.end());
    auto scan = ParquetScan::Make(file_, o);
    EXPECT_TRUE(scan.ok()) << scan.status().ToString();
    std::vector<std::shared_ptr<RecordBatch>> batches;
    for (;;) {
      auto b = (*scan)->Next();
      EXPECT_TRUE(b.ok()) << b.status().ToString();
      if (!b.ok() || !*b) break;
      batches.push_back(*b);
    }
    EXPECT_EQ((*scan)->data_pages_skipped(), 0);  // no page ruled out: every group whole
    return Rows(batches);
  };
  auto row = [](int64_t i) {
    return std::to_string(i) + "|" + S(i) + "|" + U(i) + "|" + std::to_string(D(i)) + "|" +
           (i % 5 == 0 ? "-" : std::to_string(i)) + "|" + (i % 3 == 0 ? "t" : "f") + "|" +
           std::to_string(static_cast<double>(i) * 0.5) + "|t" + std::to_string(i % 7) + "|" + std::to_string(i % 100);
  };
  using Op = parquet::CompareOp;
  std::vector<std::string> dense, sparse;
  for (int64_t i = 0; i < kRows; ++i) {
    if (i % 100 < 90 && static_cast<double>(i) * 0.5 >= 100 && i % 5 != 0 && i != 7 && S(i) != "s4") {
      dense.push_back(row(i));
    }
    if (i % 100 == 3 && i % 5 != 0 && i > 100) sparse.push_back(row(i));
  }
  EXPECT_EQ(scan_rows({{"m", Op::kLt, parquet::Literal::Int(90)},
                       {"e", Op::kGe, parquet::Literal::Float(100)},
                       {"n", Op::kNe, parquet::Literal::Int(7)},
                       {"s", Op::kNe, parquet::Literal::Bytes("s4")}}),
            dense);
  EXPECT_EQ(dense.size(), 19805u);
  EXPECT_EQ(scan_rows({{"m", Op::kEq, parquet::Literal::Int(3)}, {"n", Op::kGt, parquet::Literal::Int(100)}}), sparse);
  EXPECT_EQ(sparse.size(), 299u);
  // Every row but one in a hundred: most 64-row steps kept whole.
  std::vector<std::string> most;
  for (int64_t i = 0; i < kRows; ++i) {
    if (i % 100 != 5) most.push_back(row(i));
  }
  EXPECT_EQ(scan_rows({{"m", Op::kNe, parquet::Literal::Int(5)}}), most);
}

// A column both filtered and read: the pages its predicate decompressed are kept and the read
// of its kept rows replays them (m dictionary-coded, e PLAIN); n has nulls, so its predicate
// decodes it whole, nothing is kept and its read decodes the chunk again. Either way the rows
// are the predicates'.
TEST_F(LateScan, AColumnBothFilteredAndReadReplaysThePagesItsPredicateDecompressed) {
  using Op = parquet::CompareOp;
  std::vector<parquet::BoundPredicate> preds;
  for (auto [c, op, v] : {std::tuple{"m", Op::kLt, parquet::Literal::Int(90)},
                          std::tuple{"e", Op::kGe, parquet::Literal::Float(100)},
                          std::tuple{"n", Op::kNe, parquet::Literal::Int(7)}}) {
    auto p = file_->BindPredicate(c, op, v);
    ASSERT_TRUE(p.ok()) << p.status().ToString();
    preds.push_back(*p);
  }
  parquet::KeptPages pages;
  pages.set_leaves({preds[0].leaf, preds[1].leaf, preds[2].leaf});
  auto fields = file_->ResolveFields({"m", "e", "n", "k"});
  ASSERT_TRUE(fields.ok());
  std::vector<std::string> got, want;
  for (int g = 0; g < 3; ++g) {
    int64_t selected = 0;
    auto bits = file_->SelectRowGroupHere(g, preds, default_memory_pool(), &selected, &pages);
    ASSERT_TRUE(bits.ok()) << bits.status().ToString();
    EXPECT_NE(pages.Find(g, preds[0].leaf), nullptr);
    EXPECT_NE(pages.Find(g, preds[1].leaf), nullptr);
    EXPECT_EQ(pages.Find(g, preds[2].leaf), nullptr);
    EXPECT_EQ(pages.Find(g + 1, preds[0].leaf), nullptr);
    auto read = file_->ReadRowGroupHere(g, *fields, nullptr, default_memory_pool(), (*bits)->data(), selected, &pages);
    ASSERT_TRUE(read.ok()) << read.status().ToString();
    ASSERT_EQ((*read)->num_rows(), selected);
    const PrimitiveArray<int32_t> m((*read)->column(0)), n((*read)->column(2));
    const PrimitiveArray<double> e((*read)->column(1));
    const PrimitiveArray<int64_t> k((*read)->column(3));
    for (int64_t i = 0; i < selected; ++i) {
      got.push_back(std::to_string(k.Value(i)) + "|" + std::to_string(m.Value(i)) + "|" + std::to_string(e.Value(i)) +
                    "|" + std::to_string(n.Value(i)));
    }
  }
  for (int64_t i = 0; i < kRows; ++i) {
    if (i % 100 < 90 && static_cast<double>(i) * 0.5 >= 100 && i % 5 != 0 && i != 7) {
      want.push_back(std::to_string(i) + "|" + std::to_string(i % 100) + "|" +
                     std::to_string(static_cast<double>(i) * 0.5) + "|" + std::to_string(i));
    }
  }
  EXPECT_EQ(want.size(), 21456u);
  EXPECT_EQ(got, want);
}

TEST_F(LateScan, APredicateNoRowHoldsGivesEmptyBatchesOfTheChosenColumns) {
  ScanOptions o;
  o.columns = {"u", "s", "d", "n", "b", "k", "e", "t", "m"};
  o.where = ScanPredicate{"d", parquet::CompareOp::kLt, parquet::Literal::Float(0.0)};  // below every group's minimum
  o.and_where = {ScanPredicate{"s", parquet::CompareOp::kEq, parquet::Literal::Bytes("s3")}};
  auto scan = ParquetScan::Make(file_, o);
  ASSERT_TRUE(scan.ok());
  EXPECT_EQ((*scan)->counters().skipped_by_statistics, 3);
  o.where = ScanPredicate{"d", parquet::CompareOp::kGt, parquet::Literal::Float(0.85)};  // 0.9 rows only
  o.and_where = {ScanPredicate{"u", parquet::CompareOp::kEq, parquet::Literal::Bytes("u0")}};  // row 0 only
  scan = ParquetScan::Make(file_, o);
  ASSERT_TRUE(scan.ok());
  EXPECT_EQ((*scan)->counters().skipped_by_statistics, 2);  // u's bounds: "u0" lies in group 0's only
  int64_t rows = 0, batches = 0;
  for (;;) {
    auto b = (*scan)->Next();
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    if (!*b) break;
    ++batches;
    rows += (*b)->num_rows();
    EXPECT_EQ((*b)->num_columns(), 9);
  }
  EXPECT_EQ(rows, 0);
  EXPECT_EQ(batches, 1);
  EXPECT_GE((*scan)->data_pages_skipped(), 1);  // u's page index: only its first page may hold "u0"
}

TEST_F(Scan, StatisticsAndPageIndexSkipAndRowsAreKeptExactly) {
  ScanOptions o;
  o.columns = {"s"};
  o.where = ScanPredicate{"k", parquet::CompareOp::kGe, parquet::Literal::Int(25000)};
  auto scan = ParquetScan::Make(file_, o);
  ASSERT_TRUE(scan.ok()) << scan.status().ToString();
  EXPECT_EQ((*scan)->schema()->ToString(), "s: string\n");
  EXPECT_EQ((*scan)->row_groups(), (std::vector<int>{2, 3}));
  EXPECT_EQ((*scan)->counters().row_groups, 4);
  EXPECT_EQ((*scan)->counters().skipped_by_statistics, 2);
  EXPECT_EQ((*scan)->counters().skipped_by_bloom_filter, 0);
  EXPECT_EQ((*scan)->counters().skipped_by_page_index, 0);
  int64_t rows = 0;
  std::vector<int64_t> per_batch;
  for (;;) {
    auto b = (*scan)->Next();
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    if (!*b) break;
    EXPECT_EQ((*b)->num_columns(), 1);
    if (rows == 0) {
      EXPECT_EQ((*b)->column(0).ToString().substr(0, 13), "[\"v0\", \"v1\", ");  // k = 25000, 25001
    }
    rows += (*b)->num_rows();
    per_batch.push_back((*b)->num_rows());
  }
  EXPECT_EQ(per_batch, (std::vector<int64_t>{5000, 10000}));
  EXPECT_EQ((*scan)->stats().rows_read, 15000);
  EXPECT_GE((*scan)->data_pages_skipped(), 1);  // group 2's pages below 25,000 were not read
}

TEST_F(Scan, BloomFilterSkipsGroupsTheStatisticsCannot) {
  ScanOptions o;
  o.where = ScanPredicate{"s", parquet::CompareOp::kEq, parquet::Literal::Bytes("v5x")};  // within min/max, absent
  auto scan = ParquetScan::Make(file_, o);
  ASSERT_TRUE(scan.ok()) << scan.status().ToString();
  EXPECT_EQ((*scan)->counters().skipped_by_statistics, 0);
  EXPECT_EQ((*scan)->counters().skipped_by_bloom_filter, 4);
  EXPECT_TRUE((*scan)->row_groups().empty());
  auto all = (*scan)->ReadAll();
  ASSERT_TRUE(all.ok());
  EXPECT_TRUE(all->empty());
}

TEST_F(Scan, ReadAllGivesWhatNextGives) {
  ScanOptions o;
  o.columns = {"s", "k"};
  o.where = ScanPredicate{"s", parquet::CompareOp::kEq, parquet::Literal::Bytes("v7")};
  o.row_groups = {3, 0};
  auto a = ParquetScan::Make(file_, o);
  auto b = ParquetScan::Make(file_, o);
  ASSERT_TRUE(a.ok() && b.ok());
  auto all = (*a)->ReadAll();
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  for (const auto& batch : *all) {
    auto one = (*b)->Next();
    ASSERT_TRUE(one.ok() && *one);
    EXPECT_EQ(batch->num_rows(), 100);
    EXPECT_EQ(batch->column(1).ToString(), (*one)->column(1).ToString());
  }
  EXPECT_EQ((*all)[0]->column(1).ToString().substr(0, 14), "[30007, 30107,");  // group 3 first, as asked
  EXPECT_EQ((*a)->stats().rows_read, 200);
}

TEST_F(Scan, UnknownColumnsAreNamed) {
  ScanOptions o;
  o.columns = {"nope"};
  EXPECT_EQ(ParquetScan::Make(file_, o).status().message(), path_ + ": no column named 'nope'");
  o.columns = {};
  o.where = ScanPredicate{"nope", parquet::CompareOp::kEq, parquet::Literal::Int(1)};
  EXPECT_EQ(ParquetScan::Make(file_, o).status().message(), path_ + ": no column named 'nope'");
}

TEST(ScanLiteral, ValuesOfTheColumnsTypeOrANamedError) {
  auto i = ParseLiteral(*int64(), "-42", "k");
  ASSERT_TRUE(i.ok());
  EXPECT_TRUE(i->i == -42);
  auto d = ParseLiteral(*date32(), "1970-01-11", "d");
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->i == 10);
  auto ts = ParseLiteral(*timestamp(TimeUnit::kMilli), "1970-01-01 00:00:01.5", "t");
  ASSERT_TRUE(ts.ok());
  EXPECT_TRUE(ts->i == 1500);
  auto f = ParseLiteral(*float32(), "0.1", "f");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->f, static_cast<double>(0.1f));
  EXPECT_EQ(ParseLiteral(*int64(), "x1", "k").status().message(), "'x1' is not an integer (column 'k' is int64)");
  EXPECT_EQ(ParseLiteral(*timestamp(TimeUnit::kSecond), "1970-01-01 00:00:01.5", "t").status().message(),
            "'1970-01-01 00:00:01.5' is not a timestamp in whole seconds (column 't' is timestamp[s])");
  EXPECT_EQ(ParseLiteral(*list(int64()), "1", "l").status().message(),
            "comparisons on column 'l' (list<item: int64>) are not supported");
}

// A bloom probe's bytes come from ParseLiteral: PLAIN bytes of the parsed value, with the
// literal errors, and an integer outside an INT32 column refused.
TEST(ScanLiteral, BloomProbeBytesParseAsLiterals) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{
      field("i", int32()), field("l", int64()), field("d", float64()), field("s", utf8()), field("day", date32()),
      field("f", float32()), field("ts", timestamp(TimeUnit::kMicro))});
  auto bytes = testing::WriteParquetBytes(schema, {}, {});
  ASSERT_TRUE(bytes.ok());
  auto footer = parquet::ReadFooter(*io::MemorySource(*bytes));
  ASSERT_TRUE(footer.ok());
  auto tree = parquet::SchemaTree::Make((*footer)->metadata().schema);
  ASSERT_TRUE(tree.ok());
  auto as = [](auto v) { return std::string(reinterpret_cast<const char*>(&v), sizeof(v)); };
  auto probe = [&](int c, const std::string& text) {
    auto b = BloomProbeBytes(*tree, c, text);
    return b.ok() ? *b : b.status().message();
  };
  EXPECT_EQ(probe(0, "-17"), as(int32_t{-17}));
  EXPECT_EQ(probe(0, "+17"), as(int32_t{17}));
  EXPECT_EQ(probe(1, "9000000000"), as(int64_t{9000000000}));
  EXPECT_EQ(probe(2, "2.5"), as(2.5));
  EXPECT_EQ(probe(3, "text"), "text");
  EXPECT_EQ(probe(4, "1970-01-02"), as(int32_t{1}));
  EXPECT_EQ(probe(4, "2024-03-01"), as(int32_t{19783}));
  EXPECT_EQ(probe(5, "0.5"), as(0.5f));
  EXPECT_EQ(probe(6, "1970-01-01 00:00:01.5"), as(int64_t{1500000}));
  EXPECT_EQ(probe(0, "5000000000"), "'5000000000' is out of range for column 'i' (int32)");
  EXPECT_EQ(probe(4, "2024-02-30"), "'2024-02-30' is not a date (YYYY-MM-DD) (column 'day' is date32)");
  EXPECT_EQ(probe(2, "x"), "'x' is not a number (column 'd' is double)");
}

}  // namespace
}  // namespace quiver::stream

// Row selections and page-index skipping in ParquetFileReader: which rows PageRowsMayMatch keeps
// (checked against the OffsetIndex and the data), that reading only the pages of a selection gives
// exactly the selected rows of a whole read, how many pages it leaves unread, and bloom filters
// ruling out row groups for `=`.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "quiver/columnar/builder.h"
#include "quiver/columnar/concatenate.h"
#include "quiver/core/thread_pool.h"
#include "quiver/io/file.h"
#include "quiver/io/output_stream.h"
#include "quiver/parquet/metadata_codec.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/writer/file_writer.h"
#include "testing/keep_parquet.h"

namespace quiver::parquet {
namespace {

constexpr int64_t kRows = 20000;
constexpr int64_t kGroupRows = 5000;

// id = 2*i (sorted, only even, PLAIN), v = i*37 % 1000 as int32 with a null every 17th row, s = "s" and
// i/100 zero-padded (sorted, by dictionary), comment = a string of varying length. Pages of about
// 2 KB of PLAIN-equivalent values, so every chunk has several and each column its own boundaries.
std::shared_ptr<Buffer> WriteFile(std::shared_ptr<RecordBatch>* batch_out) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{
      field("id", int64()), field("v", int32()), field("s", utf8()), field("comment", utf8())});
  NumericBuilder<int64_t> id(int64());
  NumericBuilder<int32_t> v(int32());
  BinaryBuilder s(utf8()), comment(utf8());
  for (int64_t i = 0; i < kRows; ++i) {
    EXPECT_TRUE(id.Append(2 * i).ok());
    EXPECT_TRUE((i % 17 == 5 ? v.AppendNull() : v.Append(static_cast<int32_t>(i * 37 % 1000))).ok());
    char buf[24];
    std::snprintf(buf, sizeof buf, "s%04lld", static_cast<long long>(i / 100));
    EXPECT_TRUE(s.Append(buf).ok());
    EXPECT_TRUE(comment.Append(std::string(static_cast<size_t>(i * 7919 % 61), static_cast<char>('a' + i % 26)) +
                               std::to_string(i)).ok());
  }
  *batch_out = std::make_shared<RecordBatch>(
      schema, kRows, std::vector<Array>{*id.Finish(), *v.Finish(), *s.Finish(), *comment.Finish()});
  io::BufferOutputStream out;
  ParquetWriterOptions wopts;
  wopts.row_group_rows = kGroupRows;
  wopts.page_size = 2048;
  wopts.page_check_rows = 173;
  wopts.column_encodings = {{"id", Encoding::PLAIN}};
  wopts.bloom_filters = {{"id", BloomFilterOptions{.fpp = 0.01}}, {"s", BloomFilterOptions{.fpp = 0.01}}};
  auto w = ParquetFileWriter::Open(&out, schema, wopts);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  // The writer checks page sizes every page_check_rows rows of a chunk (whatever the pieces it is
  // given), so 173 gives pages of a few hundred rows, with other boundaries in each column.
  for (int64_t r = 0; r < kRows; r += 173) {
    EXPECT_TRUE((*w)->Write((*batch_out)->Slice(r, std::min<int64_t>(173, kRows - r))).ok());
  }
  EXPECT_TRUE((*w)->Close().ok());
  auto bytes = out.Finish();
  EXPECT_TRUE(bytes.ok());
  quiver::testing::KeepParquet((*bytes)->view());
  return *bytes;
}

// The first row of each page of a chunk, from its OffsetIndex (decoded here, not by the reader).
std::vector<int64_t> PageStarts(const std::shared_ptr<Buffer>& file, const ColumnChunk& c) {
  EXPECT_TRUE(c.offset_index_offset.has_value());
  Arena arena;
  OffsetIndex oi;
  EXPECT_TRUE(DecodeOffsetIndex({file->data() + *c.offset_index_offset, static_cast<size_t>(*c.offset_index_length)},
                                &arena, &oi).ok());
  std::vector<int64_t> out;
  for (const PageLocation& l : oi.page_locations) out.push_back(l.first_row_index);
  return out;
}

// Pages of a chunk (starting at `starts`, in a group of kGroupRows) that hold none of `ranges`.
int64_t PagesOutside(const std::vector<int64_t>& starts, const std::vector<RowRange>& ranges) {
  int64_t n = 0;
  for (size_t k = 0; k < starts.size(); ++k) {
    const int64_t e = k + 1 < starts.size() ? starts[k + 1] : kGroupRows;
    bool hit = false;
    for (const RowRange& r : ranges) hit = hit || (r.begin < e && r.end > starts[k]);
    n += !hit;
  }
  return n;
}

class PageIndex : public ::testing::Test {
 protected:
  void SetUp() override {
    file_ = WriteFile(&batch_);
    ParquetReaderOptions opts;
    opts.thread_pool = nullptr;
    auto r = ParquetFileReader::Open(io::MemorySource(file_, "pi.parquet"), opts);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    reader_ = std::move(*r);
    ASSERT_EQ(reader_->num_row_groups(), 4);
  }
  BoundPredicate Bind(const char* column, CompareOp op, Literal v) {
    auto p = reader_->BindPredicate(column, op, std::move(v));
    EXPECT_TRUE(p.ok()) << p.status().ToString();
    return *p;
  }
  std::vector<int64_t> Starts(int g, int leaf) {
    return PageStarts(file_, reader_->metadata().row_groups[static_cast<size_t>(g)].columns[static_cast<size_t>(leaf)]);
  }
  // Rows `ranges` of group `g` cut from the batch that was written.
  Array Expected(int column, int g, const std::vector<RowRange>& ranges) {
    std::vector<Array> parts;
    for (const RowRange& r : ranges) parts.push_back(batch_->column(column).Slice(g * kGroupRows + r.begin, r.end - r.begin));
    if (parts.empty()) return batch_->column(column).Slice(0, 0);
    return *Concatenate(parts);
  }

  std::shared_ptr<Buffer> file_;
  std::shared_ptr<RecordBatch> batch_;
  std::unique_ptr<ParquetFileReader> reader_;
};

TEST_F(PageIndex, RangesFollowThePagesWhoseBoundsMayMatch) {
  const std::vector<int64_t> starts = Starts(0, 0);
  ASSERT_GT(starts.size(), 5u) << "id should span several pages per row group";
  // id < 1400: rows 0..699 of group 0; pages starting at or past row 700 are ruled out.
  const BoundPredicate lt = Bind("id", CompareOp::kLt, Literal::Int(1400));
  int64_t pages = 0, out = 0;
  auto sel = reader_->PageRowsMayMatch(lt, 0, &pages, &out);
  ASSERT_TRUE(sel.ok()) << sel.status().ToString();
  const int64_t end = *std::find_if(starts.begin(), starts.end(), [](int64_t f) { return f >= 700; });
  EXPECT_FALSE(sel->all);
  EXPECT_EQ(sel->ranges, (std::vector<RowRange>{{0, end}}));
  EXPECT_EQ(pages, static_cast<int64_t>(starts.size()));
  EXPECT_EQ(out, static_cast<int64_t>(std::count_if(starts.begin(), starts.end(), [](int64_t f) { return f >= 700; })));
  // Group 1 holds ids 10000..19998: no page may match; its statistics alone already say so.
  sel = reader_->PageRowsMayMatch(lt, 1, &pages, &out);
  ASSERT_TRUE(sel.ok());
  EXPECT_FALSE(sel->all);
  EXPECT_TRUE(sel->ranges.empty());
  EXPECT_EQ(out, pages);
  // = picks the one page holding the value; != rules out no page (every page has two values).
  const BoundPredicate eq = Bind("id", CompareOp::kEq, Literal::Int(2 * 2345));
  sel = reader_->PageRowsMayMatch(eq, 0);
  ASSERT_TRUE(sel.ok());
  ASSERT_EQ(sel->ranges.size(), 1u);
  EXPECT_LE(sel->ranges[0].begin, 2345);
  EXPECT_GT(sel->ranges[0].end, 2345);
  EXPECT_NE(std::find(starts.begin(), starts.end(), sel->ranges[0].begin), starts.end());
  EXPECT_TRUE(reader_->PageRowsMayMatch(Bind("id", CompareOp::kNe, Literal::Int(0)), 0)->all);
  // v is not sorted: every page holds values near 0 and 999, so nothing is ruled out.
  EXPECT_TRUE(reader_->PageRowsMayMatch(Bind("v", CompareOp::kGt, Literal::Int(10)), 0)->all);
  // Strings: s = 's0123' is rows 12300..12399, in group 2.
  const BoundPredicate s = Bind("s", CompareOp::kEq, Literal::Bytes("s0123"));
  sel = reader_->PageRowsMayMatch(s, 2);
  ASSERT_TRUE(sel.ok());
  ASSERT_FALSE(sel->all);
  ASSERT_FALSE(sel->ranges.empty());
  EXPECT_LE(sel->ranges.front().begin, 12300 - 2 * kGroupRows);
  EXPECT_GE(sel->ranges.back().end, 12400 - 2 * kGroupRows);
  EXPECT_LT(sel->num_rows(kGroupRows), kGroupRows);
}

TEST_F(PageIndex, SelectedPagesGiveExactlyTheSelectedRows) {
  for (int threads : {1, 2}) {
    ThreadPool tp(threads);
    ParquetReaderOptions opts;
    opts.thread_pool = threads > 1 ? &tp : nullptr;
    auto r = ParquetFileReader::Open(io::MemorySource(file_, "pi.parquet"), opts);
    ASSERT_TRUE(r.ok());
    // Ranges inside one page, across page boundaries of every column, at both ends, and none.
    const std::vector<std::vector<RowRange>> cases = {
        {{10, 20}}, {{0, 1}, {511, 1700}, {1701, 1702}, {4990, 5000}}, {{0, 5000}}, {}, {{2500, 2501}}};
    std::vector<int> groups;
    std::vector<RowSelection> sels;
    for (size_t c = 0; c < cases.size(); ++c) {
      groups.push_back(static_cast<int>(c % 4));
      sels.push_back(RowSelection::Ranges(cases[c]));
    }
    const int64_t before = (*r)->data_pages_skipped();
    auto got = (*r)->ReadRowGroups(groups, {3, 0, 1, 2}, sels);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    int64_t skipped = 0;
    for (size_t c = 0; c < cases.size(); ++c) {
      const auto& b = (*got)[c];
      ASSERT_EQ(b->num_rows(), sels[c].num_rows(kGroupRows));
      const int col_of[] = {3, 0, 1, 2};
      for (int k = 0; k < 4; ++k) {
        EXPECT_TRUE(b->column(k).Equals(Expected(col_of[k], groups[c], cases[c])))
            << "threads " << threads << " case " << c << " column " << col_of[k];
        skipped += PagesOutside(Starts(groups[c], col_of[k]), cases[c]);
      }
    }
    EXPECT_EQ((*r)->data_pages_skipped() - before, skipped);
    EXPECT_GT(skipped, 0);
  }
  auto bad = reader_->ReadRowGroups({0}, {}, {RowSelection::Ranges({{10, 5}})});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "pi.parquet: row group 0: row range [10, 5) is empty, out of order or outside its 5000 rows");
  bad = reader_->ReadRowGroups({0, 1}, {}, {RowSelection::All()});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "pi.parquet: 1 row selections for 2 row groups");
}

TEST_F(PageIndex, BloomFiltersRuleOutAbsentValuesOnly) {
  // Odd ids are absent but inside every group's [min, max]: only the filter can rule them out.
  const int64_t lo = 2 * kGroupRows;  // group 1's ids are 10000..19998
  int maybe = 0;
  for (int64_t x = lo + 1; x < lo + 2000; x += 20) {
    auto m = reader_->BloomMayMatch(Bind("id", CompareOp::kEq, Literal::Int(x)), 1);
    ASSERT_TRUE(m.ok()) << m.status().ToString();
    maybe += *m;
  }
  EXPECT_LE(maybe, 5) << "of 100 absent values at fpp 0.01";
  for (int64_t x = lo; x < lo + 2000; x += 22) {
    EXPECT_TRUE(*reader_->BloomMayMatch(Bind("id", CompareOp::kEq, Literal::Int(x)), 1)) << x;
  }
  EXPECT_TRUE(*reader_->BloomMayMatch(Bind("s", CompareOp::kEq, Literal::Bytes("s0123")), 2));
  EXPECT_FALSE(*reader_->BloomMayMatch(Bind("s", CompareOp::kEq, Literal::Bytes("s0123")), 0));
  // Other operators and columns without a filter are never ruled out.
  EXPECT_TRUE(*reader_->BloomMayMatch(Bind("id", CompareOp::kLt, Literal::Int(lo + 1)), 1));
  EXPECT_TRUE(*reader_->BloomMayMatch(Bind("v", CompareOp::kEq, Literal::Int(-3)), 1));
}

}  // namespace
}  // namespace quiver::parquet

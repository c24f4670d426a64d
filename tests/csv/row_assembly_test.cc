// Row assembly alone: positions from the splitter become column-major field spans, at every
// SIMD level the CPU has (the AVX-512 scatter kernel against the scalar loop).
#include "quiver/csv/row_assembly_internal.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace quiver::csv {
namespace {

struct Assembled {
  AssembledRows out;
  RowCursor rc;
  bool past = false;
};

// Splits `text` whole and assembles its rows (all of them: `limit` past the end unless given).
Assembled Assemble(SimdLevel level, const std::string& text, RowShape shape, bool at_end = true,
                   uint32_t limit = UINT32_MAX) {
  const SplitKernels& k = GetSplitKernels(level);
  const auto* data = reinterpret_cast<const uint8_t*>(text.data());
  std::vector<uint32_t> pos(text.size() + kSplitOutputSlack);
  SplitCarry carry;
  SplitConfig cfg{',', '"', 0};
  SplitResult r = k.split(data, text.size(), at_end ? -1 : '\n', cfg, &carry, pos.data());
  Assembled a;
  a.rc.started = true;
  a.past = TakeRows(shape, k, data, a.out, a.rc, pos.data(), r.count, 0, limit);
  if (!a.past) EndOfBlock(shape, data, a.out, a.rc, static_cast<uint32_t>(text.size()), at_end);
  return a;
}

// Row r's fields as text ("<missing>" for padding).
std::vector<std::string> Row(const std::string& text, AssembledRows& out, size_t r) {
  std::vector<std::string> cells;
  for (size_t j = 0; j < out.fields.ncols; ++j) {
    const FieldSpan& f = out.fields.at(r, j);
    cells.push_back(f.start == FieldSpan::kMissing ? "<missing>" : text.substr(f.start, f.end - f.start));
  }
  return cells;
}

class RowAssembly : public ::testing::TestWithParam<SimdLevel> {};

TEST_P(RowAssembly, FullRowsGoColumnMajorWithTheirSpans) {
  const std::string text = "a,bb,c\r\n1,22,333\nx,,z";
  Assembled a = Assemble(GetParam(), text, RowShape{3});
  ASSERT_EQ(a.out.rows.size(), 3u);
  ASSERT_EQ(a.out.fields.rows, 3u);
  EXPECT_EQ(Row(text, a.out, 0), (std::vector<std::string>{"a", "bb", "c"}));  // CR cut off
  EXPECT_EQ(Row(text, a.out, 1), (std::vector<std::string>{"1", "22", "333"}));
  EXPECT_EQ(Row(text, a.out, 2), (std::vector<std::string>{"x", "", "z"}));
  EXPECT_EQ(a.out.rows[1].start, 8u);
  EXPECT_EQ(a.out.rows[1].end, 16u);
  EXPECT_EQ(a.out.rows_seen, 3);
  // Each column's spans lie together.
  EXPECT_EQ(a.out.fields.column(1)[1].start, 10u);
  EXPECT_EQ(a.out.fields.column(1)[2].start, a.out.fields.column(1)[2].end);
}

TEST_P(RowAssembly, AWrongFieldCountFailsIsRejectedOrIsRepaired) {
  const std::string text = "1,2,3\n4,5\n6,7,8,9\n";
  Assembled fail = Assemble(GetParam(), text, RowShape{3, '\0', OnError::kFail, false});
  ASSERT_TRUE(fail.out.problem.has_value());
  EXPECT_EQ(fail.out.problem->message, "expected 3 fields, got 2");
  EXPECT_EQ(fail.out.problem->kind, ProblemKind::kFieldCount);
  EXPECT_EQ(fail.out.problem->pos, 6u);

  Assembled skip = Assemble(GetParam(), text, RowShape{3, '\0', OnError::kSkip, false});
  EXPECT_FALSE(skip.out.problem.has_value());
  ASSERT_EQ(skip.out.rows.size(), 1u);
  ASSERT_EQ(skip.out.rejected.size(), 2u);
  EXPECT_EQ(skip.out.rejected[1].reason, "expected 3 fields, got 4");
  EXPECT_EQ(skip.out.rejected[1].row.start, 10u);

  Assembled lenient = Assemble(GetParam(), text, RowShape{3, '\0', OnError::kFail, true});
  ASSERT_EQ(lenient.out.rows.size(), 3u);
  EXPECT_EQ(Row(text, lenient.out, 1), (std::vector<std::string>{"4", "5", "<missing>"}));
  EXPECT_EQ(Row(text, lenient.out, 2), (std::vector<std::string>{"6", "7", "8"}));
  EXPECT_EQ(lenient.out.repaired, 2);
  EXPECT_EQ(lenient.out.dropped, 1);
}

TEST_P(RowAssembly, BlankAndCommentLinesAreDropped) {
  const std::string text = "1,2\n\n#c,d\n3,4\n";
  Assembled a = Assemble(GetParam(), text, RowShape{2, '#'});
  ASSERT_EQ(a.out.rows.size(), 2u);
  EXPECT_EQ(Row(text, a.out, 1), (std::vector<std::string>{"3", "4"}));
  EXPECT_EQ(a.out.blank, 1);
  EXPECT_EQ(a.out.rows_seen, 2);
}

TEST_P(RowAssembly, StopsAtTheLimitAndLeavesTheLastRowUnfinished) {
  const std::string text = "1,2\n3,4\n5,6\n7,";
  Assembled limited = Assemble(GetParam(), text, RowShape{2}, false, 5);
  EXPECT_TRUE(limited.past);
  EXPECT_EQ(limited.out.rows.size(), 2u);  // the row starting before the limit is finished
  EXPECT_EQ(limited.rc.row_start, 8u);

  Assembled open = Assemble(GetParam(), text, RowShape{2}, false);
  EXPECT_EQ(open.out.rows.size(), 3u);
  EXPECT_EQ(open.out.unfinished, 12);
  Assembled closed = Assemble(GetParam(), text, RowShape{2}, true);
  ASSERT_EQ(closed.out.rows.size(), 4u);
  EXPECT_EQ(closed.out.unfinished, -1);
  EXPECT_EQ(Row(text, closed.out, 3), (std::vector<std::string>{"7", ""}));
}

TEST_P(RowAssembly, AChunkStartingMidRowSkipsToTheNextRow) {
  const std::string text = "tail,of,row\n1,2\n";
  const SplitKernels& k = GetSplitKernels(GetParam());
  const auto* data = reinterpret_cast<const uint8_t*>(text.data());
  std::vector<uint32_t> pos(text.size() + kSplitOutputSlack);
  SplitCarry carry;
  SplitResult r = k.split(data, text.size(), -1, SplitConfig{',', '"', 0}, &carry, pos.data());
  AssembledRows out;
  RowCursor rc;  // not started: the first row belongs to the chunk before
  EXPECT_FALSE(TakeRows(RowShape{2}, k, data, out, rc, pos.data(), r.count, 0, UINT32_MAX));
  ASSERT_EQ(out.rows.size(), 1u);
  EXPECT_EQ(out.rows[0].start, 12u);
}

// Short rows kept with --on-error null take one position each but a whole row's room: the full
// rows after them must still find room (they once wrote past their column into the next
// column's spans, and past the buffer).
TEST_P(RowAssembly, ManyRepairedShortRowsBeforeFullRowsKeepEveryColumnApart) {
  std::string text;
  for (int i = 0; i < 40; ++i) text += "x\n";
  for (int i = 0; i < 60; ++i) text += "1,2\n";
  RowShape shape{2};
  shape.on_error = OnError::kNull;
  Assembled a = Assemble(GetParam(), text, shape);
  ASSERT_EQ(a.out.fields.rows, 100u);
  ASSERT_GE(a.out.fields.stride, 100u);
  for (size_t r = 0; r < 40; ++r) EXPECT_EQ(Row(text, a.out, r), (std::vector<std::string>{"x", "<missing>"})) << r;
  for (size_t r = 40; r < 100; ++r) EXPECT_EQ(Row(text, a.out, r), (std::vector<std::string>{"1", "2"})) << r;
}

// The scatter kernel's widths: rows of every field count from 2 to 16 (16 is the most one
// load holds; each count is a loop of its own), every cell a different length, an empty
// first and last cell, CR LF and LF row ends; each field must land in its own column at its row.
TEST_P(RowAssembly, RowsOfUpToSixteenFieldsLandInTheirColumns) {
  for (size_t nc = 2; nc <= 16; ++nc) {
    std::string text;
    std::vector<std::vector<std::string>> want;
    for (size_t r = 0; r < 5; ++r) {
      std::vector<std::string> cells;
      for (size_t j = 0; j < nc; ++j) {
        const bool empty = (r == 1 && j == 0) || (r == 3 && j == nc - 1);
        const std::string cell = empty ? "" : std::to_string(r * 100 + j) + std::string(j % 3, 'x');
        if (j > 0) text += ',';
        text += cell;
        cells.push_back(cell);
      }
      text += r % 2 == 0 ? "\r\n" : "\n";
      want.push_back(cells);
    }
    Assembled a = Assemble(GetParam(), text, RowShape{static_cast<int>(nc)});
    ASSERT_EQ(a.out.rows.size(), 5u) << nc;
    for (size_t r = 0; r < 5; ++r) EXPECT_EQ(Row(text, a.out, r), want[r]) << nc << " fields, row " << r;
    EXPECT_EQ(a.out.rows[4].end, text.size() - 1) << nc;
  }
}

// Every row's spans are stored to all columns at once: columns whose starts lie a multiple of
// 4 KiB apart share an L1 set. Each growth keeps the columns an odd number of 64-byte lines
// apart (so 64 columns in 64 sets), and the rows held.
TEST(FieldColumns, GrowthKeepsColumnsInDifferentCacheSetsAndTheRows) {
  FieldColumns f;
  f.Init(16);
  size_t want_rows = 0;
  for (size_t more : {size_t{1}, size_t{100}, size_t{1000}, size_t{5000}, size_t{70000}}) {
    f.Reserve(more);
    ASSERT_GE(f.stride, f.rows + more);
    EXPECT_EQ(f.stride * sizeof(FieldSpan) % 128, 64u) << f.stride;
    EXPECT_LT(f.stride, std::max(f.rows + more, f.rows * 2) + 16) << f.stride;
    for (size_t r = 0; r < want_rows; ++r) {
      for (size_t j = 0; j < 16; ++j) {
        ASSERT_EQ(f.at(r, j).start, static_cast<uint32_t>(r * 16 + j)) << r << " " << j;
        ASSERT_EQ(f.at(r, j).end, static_cast<uint32_t>(r)) << r << " " << j;
      }
    }
    // Fill the room made, for the next growth to move.
    for (; f.rows < f.stride; ++f.rows) {
      for (size_t j = 0; j < 16; ++j) f.at(f.rows, j) = FieldSpan{static_cast<uint32_t>(f.rows * 16 + j), static_cast<uint32_t>(f.rows)};
    }
    want_rows = f.rows;
  }
}

INSTANTIATE_TEST_SUITE_P(Levels, RowAssembly, ::testing::ValuesIn(SupportedSimdLevels()),
                         [](const auto& info) { return std::string(SimdLevelName(info.param)); });

}  // namespace
}  // namespace quiver::csv

// Schema detection alone: sample splitting, column count, header decision, name clean-up,
// joined header lines and column types, each from bytes without a reader.
#include "quiver/csv/schema_detect_internal.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "quiver/columnar/type.h"
#include "quiver/core/simd_dispatch.h"
#include "quiver/core/thread_pool.h"
#include "quiver/csv/splitter_internal.h"

namespace quiver::csv {
namespace {

const uint8_t* Bytes(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

MachineConfig Machine(char comment = '\0') {
  MachineConfig mc;
  mc.split = SplitConfig{',', '"', '"'};
  mc.comment = comment;
  return mc;
}

FieldSyntax Syntax() {
  CsvOptions o;
  Dialect d;
  d.quote = '"';
  d.escape = '"';
  return FieldSyntax::From(o, d);
}

SampleRows Sample(const std::string& text, int64_t max_rows = 100, char comment = '\0') {
  return SplitSample(Bytes(text), text.size(), true, Machine(comment), max_rows, ActiveSplitKernels());
}

std::vector<std::string> RowText(const std::string& text, const std::vector<FieldSpan>& row) {
  std::vector<std::string> out;
  for (const FieldSpan& f : row) out.push_back(text.substr(f.start, f.end - f.start));
  return out;
}

TEST(SchemaDetect, SampleLeavesOutBlankAndCommentLinesAndCutsCr) {
  const std::string text = "a,b\r\n\r\n#x,y\n1,2\n3,4";
  SampleRows s = Sample(text, 100, '#');
  ASSERT_EQ(s.rows.size(), 3u);
  EXPECT_EQ(RowText(text, s.rows[0]), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(RowText(text, s.rows[1]), (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(RowText(text, s.rows[2]), (std::vector<std::string>{"3", "4"}));
  EXPECT_EQ(s.row_ends, (std::vector<uint32_t>{4, 15, 19}));
  // At most max_rows + 1 rows.
  EXPECT_EQ(Sample(text, 1, '#').rows.size(), 2u);
}

// The sample is split by the fast split at every SIMD level where it reads as the lenient
// machine does, and by the machine where it would not: a stray quote, text after a closing
// quote, a quote left open at the end (read again as text from after it). Rows are "|"-joined
// fields, each row followed by its end offset.
TEST(SchemaDetect, SampleSplitReadsAsTheLenientMachineAtEveryLevel) {
  auto rows = [](const std::string& text, const SplitKernels& k, bool all = true) {
    SampleRows s = SplitSample(Bytes(text), text.size(), all, Machine(), 100, k);
    std::string out;
    for (size_t r = 0; r < s.rows.size(); ++r) {
      for (const std::string& f : RowText(text, s.rows[r])) out += f + "|";
      out += std::to_string(s.row_ends[r]) + "\n";
    }
    return out;
  };
  for (SimdLevel level : SupportedSimdLevels()) {
    const SplitKernels& k = GetSplitKernels(level);
    const std::string name(SimdLevelName(level));
    EXPECT_EQ(rows("a,\"b,\n\"\"c\"\"\"\r\n\r1,2\r3,\"\"\n4,5", k),
              "a|\"b,\n\"\"c\"\"\"|13\n1|2|18\n3|\"\"|23\n4|5|27\n") << name;
    // Not the whole input: the row cut at the sample's end is left out, quoted or not.
    EXPECT_EQ(rows("a,b\nc,\"d\ne", k, false), "a|b|3\n") << name;
    EXPECT_EQ(rows("a,b\nc,d", k, false), "a|b|3\n") << name;
    EXPECT_EQ(rows("a\"b,c\nd,e\n", k), "a\"b|c|5\nd|e|9\n") << name;
    EXPECT_EQ(rows("\"a\"b,c\nd,e\n", k), "\"a\"b|c|6\nd|e|10\n") << name;
    EXPECT_EQ(rows("x,\"abc\ny,z\n", k), "x|\"abc|6\ny|z|10\n") << name;
  }
}

TEST(SchemaDetect, ColumnCountIsTheCommonWidthUnlessTheFirstRowSaysOtherwise) {
  CsvOptions o;
  EXPECT_EQ(CountColumns(Sample("a,b,c\n1,2\n3,4\n5,6\n"), o), 3);  // strict: the first row's width
  o.lenient = true;
  EXPECT_EQ(CountColumns(Sample("a,b,c\n1,2\n3,4\n5,6\n"), o), 2);
  o.lenient = false;
  EXPECT_EQ(CountColumns(Sample("a,b,\n1,2\n3,4\n"), o), 2);  // a trailing delimiter after the header
  o.column_names = {"x", "y", "z", "w"};
  EXPECT_EQ(CountColumns(Sample("1,2\n"), o), 4);
  EXPECT_EQ(CountColumns(Sample(""), CsvOptions{}), 1);
}

TEST(SchemaDetect, HeaderWhenTheFirstRowContradictsTheTypesBelowIt) {
  CsvOptions o;
  const FieldSyntax syntax = Syntax();
  auto header = [&](const std::string& text) {
    SampleRows s = Sample(text);
    return DecideHeader(Bytes(text), s, CountColumns(s, o), syntax, o);
  };
  EXPECT_TRUE(header("id,price\n1,2.5\n2,3.5\n"));
  EXPECT_FALSE(header("1,2.5\n2,3.5\n"));
  EXPECT_TRUE(header("name,city\nann,oslo\nbob,rome\n"));    // distinct text over text columns
  EXPECT_FALSE(header("ann,ann\nbob,rome\ncid,bern\n"));     // a repeated value
  EXPECT_TRUE(header("name,city\n"));                        // one row: no typed value
  EXPECT_FALSE(header("name,1\n"));
  EXPECT_TRUE(header("q1,,q3\nyes,no,maybe\nno,yes,maybe\n"));  // empty header cells, two texts
  o.header = false;
  EXPECT_FALSE(header("id,price\n1,2.5\n"));
}

TEST(SchemaDetect, OneNameCleanUpForHeaderCells) {
  const FieldSyntax syntax = Syntax();
  const std::string text = " \tid \t,\" a \"\"b\"\" \",,\"\"";
  SampleRows s = Sample(text);
  ASSERT_EQ(s.rows.size(), 1u);
  ASSERT_EQ(s.rows[0].size(), 4u);
  EXPECT_EQ(CleanName(Bytes(text), s.rows[0][0], syntax), "id");
  EXPECT_EQ(CleanName(Bytes(text), s.rows[0][1], syntax), "a \"b\"");
  EXPECT_EQ(CleanName(Bytes(text), s.rows[0][2], syntax), "");
  EXPECT_EQ(CleanName(Bytes(text), FieldSpan{FieldSpan::kMissing, FieldSpan::kMissing}, syntax), "");
  EXPECT_EQ(HeaderNames(Bytes(text), s.rows[0], 5, syntax),
            (std::vector<std::string>{"id", "a \"b\"", "column2", "column3", "column4"}));
}

TEST(SchemaDetect, GeneratedAndDistinctNames) {
  EXPECT_EQ(DefaultName(3, 4), "column3");
  EXPECT_EQ(DefaultName(3, 12), "column03");
  EXPECT_EQ(DefaultName(0, 0), "column0");
  std::vector<std::string> names = {"a", "a", "a_1", "a", ""};
  MakeNamesUnique(&names);
  EXPECT_EQ(names, (std::vector<std::string>{"a", "a_1", "a_1_1", "a_2", ""}));
}

TEST(SchemaDetect, HeaderLinesJoinedWhenTheirFieldsMakeTheColumns) {
  const FieldSyntax syntax = Syntax();
  std::vector<std::string> names;
  size_t start = 99;
  // Every line break ends a field.
  std::string pre = "report\nid,first\nname,last\n";
  ASSERT_TRUE(JoinHeaderLines(Bytes(pre), pre.size(), Machine(), syntax, 4, &names, &start));
  EXPECT_EQ(names, (std::vector<std::string>{"id", "first", "name", "last"}));
  EXPECT_EQ(start, 7u);
  // Every line break inside a cell: its halves joined by a space.
  pre = "Order,Customer\nID,Name,Total\n";
  ASSERT_TRUE(JoinHeaderLines(Bytes(pre), pre.size(), Machine(), syntax, 4, &names, &start));
  EXPECT_EQ(names, (std::vector<std::string>{"Order", "Customer ID", "Name", "Total"}));
  EXPECT_EQ(start, 0u);
  // A cell that reads as a number, or fields that do not add up: no header.
  pre = "id,2020\nname,last\n";
  EXPECT_FALSE(JoinHeaderLines(Bytes(pre), pre.size(), Machine(), syntax, 4, &names, &start));
  pre = "id,first\nname\n";
  EXPECT_FALSE(JoinHeaderLines(Bytes(pre), pre.size(), Machine(), syntax, 5, &names, &start));
}

// Columns typed a column per task on a pool give the types of one thread's pass: every value
// of a column counts, short rows leave the missing cells null, a late value changes a type.
TEST(SchemaDetect, RowsInferredOnAPoolAsOnOneThread) {
  const FieldSyntax syntax = Syntax();
  std::string text = "i,f,z,d,s,t,b,short\n";
  for (int r = 0; r < 3000; ++r) {
    text += std::to_string(r) + ",";                                  // int64 throughout
    text += (r == 2500 ? std::string("2.5") : std::to_string(r)) + ",";  // double from row 2500 on
    text += (r == 2999 ? std::string("007") : std::to_string(r + 10)) + ",";  // a leading zero last: text
    text += "02/" + std::to_string(13 + r % 10) + "/2024,";            // one non-ISO date format
    text += "x" + std::to_string(r) + ",";
    text += "2024-01-02T03:04:05" + std::string(r == 1000 ? "+01:00" : "") + ",";  // one offset: UTC
    text += std::string(r % 2 ? "true" : "false");
    if (r % 3 == 0) text += ",42";  // the last cell only on every third row
    text += "\n";
  }
  SampleRows s = Sample(text, 5000);
  ASSERT_EQ(s.rows.size(), 3001u);
  const std::vector<std::string> want = {"int64", "double", "string", "date32", "string", "timestamp[us, tz=UTC]",
                                         "bool", "int64"};
  ThreadPool two(2), three(3);
  for (ThreadPool* pool : {static_cast<ThreadPool*>(nullptr), &two, &three}) {
    SCOPED_TRACE(pool ? pool->num_threads() : 0);
    TypeInferrer t = InferRows(Bytes(text), s, 1, 8, syntax, pool);
    for (int c = 0; c < 8; ++c) EXPECT_EQ(t.TypeOf(c)->ToString(), want[static_cast<size_t>(c)]) << c;
    ASSERT_NE(t.FormatOf(3), nullptr);
    EXPECT_EQ(t.FormatOf(3)->pattern(), "%m/%d/%Y");
    // From row 0 on, the header's names are values too: every column is text.
    TypeInferrer all = InferRows(Bytes(text), s, 0, 8, syntax, pool);
    for (int c = 0; c < 8; ++c) EXPECT_EQ(all.TypeOf(c)->ToString(), "string") << c;
    // The types handed in are the types ResolveTypes infers itself.
    CsvOptions o;
    const std::vector<std::string> names = {"i", "f", "z", "d", "s", "t", "b", "short"};
    ColumnTypes given, own;
    ASSERT_TRUE(ResolveTypes(Bytes(text), s, 1, names, syntax, o, "f.csv", &given, &t).ok());
    ASSERT_TRUE(ResolveTypes(Bytes(text), s, 1, names, syntax, o, "f.csv", &own, nullptr, pool).ok());
    for (int c = 0; c < 8; ++c) {
      EXPECT_EQ(given.fields[static_cast<size_t>(c)].type->ToString(), want[static_cast<size_t>(c)]) << c;
      EXPECT_EQ(own.fields[static_cast<size_t>(c)].type->ToString(), want[static_cast<size_t>(c)]) << c;
    }
    EXPECT_TRUE(DecideHeader(Bytes(text), s, 8, syntax, o, &t));
  }
}

TEST(SchemaDetect, TypesFromTheSampleAfterTheHeaderOrAsGiven) {
  const FieldSyntax syntax = Syntax();
  const std::string text = "a,b,c\n1,x,2024-01-02\n2,y,2024-01-03\n";
  SampleRows s = Sample(text);
  CsvOptions o;
  ColumnTypes t;
  ASSERT_TRUE(ResolveTypes(Bytes(text), s, 1, {"a", "b", "c"}, syntax, o, "f.csv", &t).ok());
  ASSERT_EQ(t.fields.size(), 3u);
  EXPECT_EQ(t.fields[0].type->ToString(), "int64");
  EXPECT_EQ(t.fields[1].type->ToString(), "string");
  EXPECT_EQ(t.fields[2].type->ToString(), "date32");
  EXPECT_EQ(t.inferred, (std::vector<bool>{true, true, true}));

  // The header row counted as data makes every column text.
  ColumnTypes all;
  ASSERT_TRUE(ResolveTypes(Bytes(text), s, 0, {"a", "b", "c"}, syntax, o, "f.csv", &all).ok());
  EXPECT_EQ(all.fields[0].type->ToString(), "string");

  o.column_types = {{"a", float64()}};
  o.column_formats = {{"c", "%Y-%m-%d"}};
  ColumnTypes given;
  ASSERT_TRUE(ResolveTypes(Bytes(text), s, 1, {"a", "b", "c"}, syntax, o, "f.csv", &given).ok());
  EXPECT_EQ(given.fields[0].type->ToString(), "double");
  EXPECT_EQ(given.inferred, (std::vector<bool>{false, true, true}));
  ASSERT_NE(given.formats[2], nullptr);
  EXPECT_EQ(given.formats[2]->pattern(), "%Y-%m-%d");

  o.column_formats = {{"b", "%Y"}};
  ColumnTypes bad;
  EXPECT_EQ(ResolveTypes(Bytes(text), s, 1, {"a", "b", "c"}, syntax, o, "f.csv", &bad).message(),
            "f.csv: column 'b' has a format ('%Y') but is not a date or timestamp column");
  o.column_formats.clear();
  o.column_types = {{"zz", int64()}};
  ColumnTypes unknown;
  EXPECT_EQ(ResolveTypes(Bytes(text), s, 1, {"a", "b", "c"}, syntax, o, "f.csv", &unknown).message(),
            "f.csv: column_types names column 'zz', which the file does not have");
}

}  // namespace
}  // namespace quiver::csv

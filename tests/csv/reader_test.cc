#include "quiver/csv/reader.h"

#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>
#include <fmt/format.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <tuple>

#include "quiver/columnar/pretty_print.h"
#include "quiver/csv/split_level_internal.h"
#include "quiver/csv/writer.h"
#include "quiver/io/output_stream.h"
#include "testing/csv_read.h"
#include "testing/gzip.h"

namespace quiver::csv {
namespace {

using testing::Bytes;
using testing::Read;
using testing::Rows;
using testing::RowsOfBatches;
using testing::Types;

// Reads batch by batch to the end or the first error, as a caller of Next() does: the rows as
// Rows() prints them and the error (OK at the end). Stops once the rows pass `limit` bytes, so
// that a reader repeating rows cannot run away.
struct BatchesRead {
  std::string rows;
  Status error;
};
BatchesRead ReadBatches(CsvReader& r, size_t limit = SIZE_MAX) {
  BatchesRead out;
  while (out.rows.size() <= limit) {
    auto b = r.Next();
    if (!b.ok()) {
      out.error = b.status();
      break;
    }
    if (!*b) break;
    out.rows += Rows(**b);
  }
  return out;
}

TEST(CsvReader, InfersTypesAndHeader) {
  auto b = Read(
      "id,price,ok,day,ts,name,t\n"
      "1,2.5,true,2024-01-31,2024-01-31 10:00:00,ann,12:30:00\n"
      "2,,false,2024-02-29,2024-02-29T23:59:59.5,\"b, \"\"c\"\"\",00:00:01\n");
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Types(**b),
            "id:int64 price:double ok:bool day:date32 ts:timestamp[us] name:string t:time64[us] ");
  EXPECT_EQ(Rows(**b),
            "1|2.5|true|2024-01-31|2024-01-31 10:00:00|ann|12:30:00\n"
            "2|null|false|2024-02-29|2024-02-29 23:59:59.500000|b, \"c\"|00:00:01\n");
}

TEST(CsvReader, PromotionAndUtcTimestamps) {
  auto b = Read("a,b,c\n1,2024-01-01,2024-01-01T00:00:00Z\n2.5,2024-01-01 12:00:00,2024-01-01T01:00:00+01:00\n");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(Types(**b), "a:double b:timestamp[us] c:timestamp[us, tz=UTC] ");
  EXPECT_EQ(Rows(**b), "1|2024-01-01 00:00:00|2024-01-01 00:00:00Z\n2.5|2024-01-01 12:00:00|2024-01-01 00:00:00Z\n");
}

TEST(CsvReader, HeaderDetection) {
  Dialect d;
  auto b = Read("1,2\n3,4\n", {}, nullptr, &d);
  ASSERT_TRUE(b.ok());
  EXPECT_FALSE(d.header);
  EXPECT_EQ(Types(**b), "column0:int64 column1:int64 ");
  EXPECT_EQ((*b)->num_rows(), 2);
  b = Read("name,city\nann,paris\nbob,rome\n", {}, nullptr, &d);
  EXPECT_TRUE(d.header);
  EXPECT_EQ(Types(**b), "name:string city:string ");
  CsvOptions o;
  o.header = false;
  b = Read("name,city\nann,paris\n", o);
  EXPECT_EQ((*b)->num_rows(), 2);
  // Duplicate and empty names are made unique.
  b = Read("a,a,,x\n1,2,3,4\n");
  EXPECT_EQ(Types(**b), "a:int64 a_1:int64 column2:int64 x:int64 ");
}

TEST(CsvReader, SniffsDelimiterQuoteAndLineEndings) {
  Dialect d;
  auto b = Read("a;b;c\r\n1;\"x;y\";3\r\n4;z;6\r\n", {}, nullptr, &d);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(d.delimiter, ';');
  EXPECT_EQ(Rows(**b), "1|x;y|3\n4|z|6\n");
  b = Read("a\tb\n1\t2\n", {}, nullptr, &d);
  EXPECT_EQ(d.delimiter, '\t');
  b = Read("a|b\r1|2\r3|4\r", {}, nullptr, &d);  // lone CR line ends
  EXPECT_EQ(d.delimiter, '|');
  EXPECT_EQ(Rows(**b), "1|2\n3|4\n");
  b = Read("\xEF\xBB\xBFid,v\n1,\xC3\xA9\n", {}, nullptr, &d);  // UTF-8 BOM
  EXPECT_EQ(Types(**b), "id:int64 v:string ");
  b = Read("only\n1\n2\n", {}, nullptr, &d);  // a single column
  EXPECT_EQ(Types(**b), "only:int64 ");
  EXPECT_EQ((*b)->num_rows(), 2);
  b = Read("x,y\n", {}, nullptr, &d);  // a header and nothing else
  ASSERT_TRUE(b.ok());
  EXPECT_EQ((*b)->num_rows(), 0);
  EXPECT_EQ(Types(**b), "x:string y:string ");
}

TEST(CsvReader, NullTokensAndQuotedEmpties) {
  CsvOptions o;
  o.null_values = {"", "NA", "\\N"};
  auto b = Read("a,b\nNA,\"\"\n\\N,x\n3,\n", o);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(Types(**b), "a:int64 b:string ");
  EXPECT_EQ(Rows(**b), "null|\nnull|x\n3|null\n");
  EXPECT_EQ((*b)->column(1).null_count(), 1);  // the quoted "" is an empty string
}

TEST(CsvReader, ExplicitTypes) {
  CsvOptions o;
  auto types = ParseColumnTypes("id=int32,price=decimal(12,2),flag=bool,z=string");
  ASSERT_TRUE(types.ok());
  o.column_types = *types;
  auto b = Read("id,price,flag,z\n7,12.5,1,007\n-3,-0.01,no,x\n", o);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Types(**b), "id:int32 price:decimal128(12, 2) flag:bool z:string ");
  EXPECT_EQ(Rows(**b), "7|12.50|true|007\n-3|-0.01|false|x\n");
  o.column_types = {{"nope", int64()}};
  EXPECT_EQ(Read("a\n1\n", o).status().message(), "t.csv: column_types names column 'nope', which the file does not have");
  EXPECT_EQ(ParseColumnTypes("a=decimal(40,2)").status().message(),
            "bad decimal type 'decimal(40,2)': want decimal(precision 1..38, scale 0..precision)");
}

TEST(CsvReader, ErrorsNameLineColumnValueAndByte) {
  // Line numbers count physical lines: the quoted newline in row 2 makes the bad row line 5.
  CsvOptions sample;
  sample.infer_rows = 2;
  auto r = Read("id,name\n1,\"two\nlines\"\n2,x\nthree,y\n", sample);
  EXPECT_EQ(r.status().message(),
            "t.csv:5:1 'id': cannot convert to int64, got \"three\" (byte 26); the type was inferred from the "
            "first 2 rows");
  CsvOptions o;
  o.infer_rows = 1;
  r = Read("a,b\n1,2\n3,4\n5\n", o);
  EXPECT_EQ(r.status().message(), "t.csv:4: expected 2 fields, got 1 (byte 12)");
  // With the quote given, malformed quoting is an error; sniffing would pick "no quote" here.
  CsvOptions q;
  q.quote = '"';
  r = Read("a,b\n1,\"open\n2,3\n", q);
  EXPECT_EQ(r.status().message(), "t.csv:2:2: quoted field is not terminated (byte 6)");
  r = Read("a,b\n1,x\"y\n", q);
  EXPECT_EQ(r.status().message(), "t.csv:2:2: quote inside an unquoted field (byte 7)");
  Dialect d;
  auto sniffed = Read("a,b\n1,x\"y\n", {}, nullptr, &d);
  ASSERT_TRUE(sniffed.ok());
  EXPECT_EQ(d.quote, '\0');
  EXPECT_EQ(Rows(**sniffed), "1|x\"y\n");
  r = Read("a,b\n1,ok\n2,bad\xff\n");
  EXPECT_EQ(r.status().message(),
            "t.csv:3:2 'b': invalid UTF-8, got \"bad\\xff\" (byte 11); the file may be in another encoding");
}

// A character cut between two values of a column ("\xC3" ends one, "\xA9" starts the next) is
// valid UTF-8 only as the bytes of both: each value is invalid, and the first is refused.
TEST(CsvReader, ACharacterSplitBetweenTwoValuesIsInvalidUtf8) {
  CsvOptions o;
  o.column_types = {{"s", utf8()}};
  auto r = Read("a,s\n1,\xc3\n2,\xa9\n", o);
  EXPECT_EQ(r.status().message(),
            "t.csv:2:2 's': invalid UTF-8, got \"\\xc3\" (byte 6); the file may be in another encoding");
  o.replace_invalid_utf8 = true;
  r = Read("a,s\n1,\xc3\n2,\xa9\n", o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Rows(**r), "1|\xEF\xBF\xBD\n2|\xEF\xBF\xBD\n");
}

// String columns come out marked as checked UTF-8, so the Parquet writer does not check them again.
TEST(CsvReader, StringColumnsAreMarkedUtf8Checked) {
  auto r = Read("a,s\n1,caf\xc3\xa9\n2,x\n");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)->column(1).type_id(), TypeId::kString);
  EXPECT_TRUE((*r)->column(1).data()->utf8_checked);
  EXPECT_FALSE((*r)->column(0).data()->utf8_checked);
}

TEST(CsvReader, ErrorsShowInputBytesEscapedAndCutShort) {
  // An ESC sequence, a bell and a quote in a bad value, and a value of 10,000 bytes.
  CsvOptions o;
  o.column_types = {{"n", int64()}};
  auto r = Read("n\n\x1b[2J\x07\"\"x\n", o);
  EXPECT_EQ(r.status().message(), "t.csv:2:1 'n': cannot convert to int64, got \"\\x1b[2J\\x07\\\"\\\"x\" (byte 2)");
  r = Read("n\n" + std::string(10000, '9') + "\n", o);
  EXPECT_EQ(r.status().message(),
            "t.csv:2:1 'n': cannot convert to int64, got \"" + std::string(80, '9') + "... (10000 bytes)\" (byte 2)");
  // A column name with control characters is escaped where errors name the column.
  CsvOptions named;
  named.column_names = {"n\x1b]0;x\x07"};
  named.column_types = {{"n\x1b]0;x\x07", int64()}};
  r = Read("1\nx\n", named);
  EXPECT_EQ(r.status().message(), "t.csv:2:1 'n\\x1b]0;x\\x07': cannot convert to int64, got \"x\" (byte 2)");
}

TEST(CsvReader, HeaderNamesMustBeUtf8OrAreRepairedLikeValues) {
  // A stray Windows-1252 byte in a header cell: the value error, with the cell's place.
  auto r = Read("id,Qu\xe9stion\n1,yes\n");
  EXPECT_EQ(r.status().message(),
            "t.csv:1:2: header: invalid UTF-8, got \"Qu\\xe9stion\" (byte 3); the file may be in another encoding");
  // After a preamble line, the header's own line and byte.
  CsvOptions skip;
  skip.skip_lines = 1;
  r = Read("title\nid,\xff\n1,2\n", skip);
  EXPECT_EQ(r.status().message(),
            "t.csv:2:2: header: invalid UTF-8, got \"\\xff\" (byte 9); the file may be in another encoding");
  CsvOptions named;
  named.column_names = {"a", "b\xc3"};
  r = Read("1,2\n", named);
  EXPECT_EQ(r.status().message(),
            "t.csv: column 2 name: invalid UTF-8, got \"b\\xc3\"; the file may be in another encoding");
  // --replace-invalid-utf8: names repaired as values are, kept unique.
  CsvOptions fix;
  fix.replace_invalid_utf8 = true;
  r = Read("id,Qu\xe9stion,Qu\xe8stion\n1,abc,no\xff\n", fix);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Types(**r), "id:int64 Qu\uFFFDstion:string Qu\uFFFDstion_1:string ");
  EXPECT_EQ(Rows(**r), "1|abc|no\uFFFD\n");
  // Latin-1 input is transcoded first, so its names are valid.
  CsvOptions latin;
  latin.encoding = Encoding::kLatin1;
  r = Read("id,Qu\xe9stion\n1,yes\n", latin);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)->schema()->field(1).name, "Qu\u00e9stion");
}

// Rejected rows reach the caller's handler once each, in file order (a field-count reject is
// found before conversion, a value reject only during it), with kind, line, column and bytes.
TEST(CsvReader, SkipHandsRejectedRowsToTheHandlerInFileOrder) {
  CsvOptions o;
  o.on_error = OnError::kSkip;
  o.column_types = {{"a", int64()}};
  std::string seen;
  o.on_reject = [&seen](const RejectedRow& r) {
    const Problem& p = r.problem;
    seen += fmt::format("{} line {} col {} '{}' byte {}: {} [{}]\n", ProblemKindName(p.kind), p.line, p.column,
                        p.column_name, p.byte, p.reason, r.record);
    return Status::OK();
  };
  CsvReadStats st;
  auto b = Read("a,b\n1,x\nzz,y\n3\r\n4,w\n", o, &st);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Rows(**b), "1|x\n4|w\n");
  EXPECT_EQ(st.rows_read, 4);
  EXPECT_EQ(st.rows_written, 2);
  EXPECT_EQ(st.rows_rejected, 2);
  EXPECT_EQ(seen,
            "conversion line 3 col 0 'a' byte 8: cannot convert to int64 [zz,y]\n"
            "field count line 4 col -1 '' byte 13: expected 2 fields, got 1 [3]\n");
  // The handler's error stops the read.
  o.on_reject = [](const RejectedRow&) { return Status::IOError("disk full"); };
  EXPECT_EQ(Read("a,b\n1,x\nzz,y\n", o).status().message(), "disk full");
  // A handler without on_error = skip is refused.
  o.on_error = OnError::kFail;
  EXPECT_EQ(Read("a,b\n1,x\n", o).status().message(), "a reject handler (on_reject) needs on_error = skip");
}

// The problem that fails a read reaches on_failure typed: its kind, where, and whether the
// column's type was inferred (what a caller's hint depends on).
TEST(CsvReader, FailureHandlerGetsTheTypedProblem) {
  std::vector<Problem> got;
  CsvOptions o;
  o.infer_rows = 1;
  o.on_failure = [&got](const Problem& p) { got.push_back(p); };
  EXPECT_FALSE(Read("a,b\n1,x\nzz,y\n", o).ok());
  EXPECT_FALSE(Read("a,b\n1,x\n2\n", o).ok());
  EXPECT_FALSE(Read("a,b\n1,ok\n2,bad\xff\n", o).ok());
  o.quote = '"';
  EXPECT_FALSE(Read("a,b\n1,\"open\n2,3\n", o).ok());
  ASSERT_EQ(got.size(), 4u);
  std::string s;
  for (const Problem& p : got) {
    s += fmt::format("{}|{}|{}|{}|{}|{}|{}|{}\n", ProblemKindName(p.kind), p.file, p.line, p.column, p.column_name, p.byte,
                     p.reason, p.type_inferred);
  }
  EXPECT_EQ(s,
            "conversion|t.csv|3|0|a|8|cannot convert to int64|true\n"
            "field count|t.csv|3|-1||8|expected 2 fields, got 1|false\n"
            "invalid UTF-8|t.csv|3|1|b|11|invalid UTF-8|true\n"
            "quoting|t.csv|2|1|b|6|quoted field is not terminated|false\n");
  EXPECT_EQ(got[0].value, "zz");
}

TEST(CsvReader, NullOnErrorCounts) {
  CsvOptions o;
  o.on_error = OnError::kNull;
  o.column_types = {{"a", int64()}};
  CsvReadStats st;
  auto b = Read("a\n1\nx\n3\n", o, &st);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(Rows(**b), "1\nnull\n3\n");
  EXPECT_EQ(st.cells_nulled, 1);
}

// A row with too few or too many fields: --on-error null keeps it (missing cells null, extra
// fields dropped), skip drops it, fail stops; with --lenient the same, except that fail (the
// default) keeps it as null does.
TEST(CsvReader, OnErrorDecidesRowsOfTheWrongWidth) {
  const std::string text = "a,b\n1,x\n2\nzz,y\n3,w,extra\n4,v\n";
  for (bool lenient : {false, true}) {
    CsvOptions o;
    o.lenient = lenient;
    o.column_types = {{"a", int64()}};
    o.on_error = OnError::kNull;
    CsvReadStats st;
    auto b = Read(text, o, &st);
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    EXPECT_EQ(Rows(**b), "1|x\n2|null\nnull|y\n3|w\n4|v\n") << lenient;
    EXPECT_EQ(st.rows_repaired, 2);
    EXPECT_EQ(st.fields_dropped, 1);
    EXPECT_EQ(st.cells_nulled, 1);
    EXPECT_EQ(st.rows_rejected, 0);
    o.on_error = OnError::kSkip;
    b = Read(text, o, &st);
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    EXPECT_EQ(Rows(**b), "1|x\n4|v\n") << lenient;
    EXPECT_EQ(st.rows_repaired, 0);
    EXPECT_EQ(st.rows_rejected, 3);
    o.on_error = OnError::kFail;
    b = Read(text, o, &st);
    EXPECT_EQ(b.status().message(), lenient ? "t.csv:4:1 'a': cannot convert to int64, got \"zz\" (byte 10)"
                                            : "t.csv:3: expected 2 fields, got 1 (byte 8)");
  }
}

TEST(CsvReader, LenientRepairsMessyFiles) {
  CsvOptions o;
  o.lenient = true;
  CsvReadStats st;
  Dialect d;
  auto b = Read("Report generated 2024-05-01\n\nid,name,score\n1,ann,3\n2,b\"ob,4\n3,cy\n\n4,dee,5,extra\n", o, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(d.skip_lines, 2);
  EXPECT_EQ(Types(**b), "id:int64 name:string score:int64 ");
  EXPECT_EQ(Rows(**b), "1|ann|3\n2|b\"ob|4\n3|cy|null\n4|dee|5\n");
  EXPECT_EQ(st.rows_repaired, 2);
  EXPECT_EQ(st.fields_dropped, 1);
  EXPECT_EQ(st.blank_lines, 1);
}

// --lenient joins a header wrapped over several lines: line breaks between fields, or inside
// cells; a file whose header fits on its line, or whose first data row is short, is read as
// before.
TEST(CsvReader, LenientJoinsAHeaderSpreadOverLines) {
  CsvOptions o;
  o.lenient = true;
  CsvReadStats st;
  Dialect d;
  // Each line break ends a field: 2 + 2 fields make the 4 columns.
  auto b = Read("id,name\nprice,qty\n1,ann,2.5,3\n2,bob,4.5,5\n", o, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Types(**b), "id:int64 name:string price:double qty:int64 ");
  EXPECT_EQ(Rows(**b), "1|ann|2.5|3\n2|bob|4.5|5\n");
  EXPECT_TRUE(d.header);
  EXPECT_EQ(d.skip_lines, 0);
  EXPECT_EQ(d.header_lines, 2);
  EXPECT_EQ(st.header_lines_joined, 2);
  EXPECT_EQ(st.rows_read, 2);
  EXPECT_EQ(st.rows_repaired, 0);
  // Three lines.
  b = Read("id,name\nprice,qty\ntax,note\n1,ann,2.5,3,0.125,x\n2,bob,3.5,4,0.25,y\n3,cy,4.5,5,0.5,z\n", o, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Types(**b), "id:int64 name:string price:double qty:int64 tax:double note:string ");
  EXPECT_EQ(Rows(**b), "1|ann|2.5|3|0.125|x\n2|bob|3.5|4|0.25|y\n3|cy|4.5|5|0.5|z\n");
  EXPECT_EQ(d.header_lines, 3);
  EXPECT_EQ(st.header_lines_joined, 3);
  // A line break inside a cell (2 + 2 fields, 3 columns), after a preamble and a blank line,
  // with CRLF; a quoted cell keeps its text unescaped.
  b = Read("Exported 2024-05-01\n\nid,unit\r\nprice,\"qty \"\"all\"\"\"\r\n7,1.25,x\r\n8,2.5,y\r\n", o, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Types(**b), "id:int64 unit price:double qty \"all\":string ");
  EXPECT_EQ(Rows(**b), "7|1.25|x\n8|2.5|y\n");
  EXPECT_EQ(d.skip_lines, 2);
  EXPECT_EQ(d.header_lines, 2);
  EXPECT_EQ(st.header_lines_joined, 2);
  // The same with --infer-all (whose second pass is told the joined names).
  CsvOptions all = o;
  all.infer_all = true;
  b = Read("id,name\nprice,qty\n1,ann,2.5,3\n2,bob,4.5,5\n", all, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Types(**b), "id:int64 name:string price:double qty:int64 ");
  EXPECT_EQ(Rows(**b), "1|ann|2.5|3\n2|bob|4.5|5\n");
  // Without --lenient the wrapped lines are a preamble and the file has no header.
  b = Read("id,name\nprice,qty\n1,ann,2.5,3\n2,bob,4.5,5\n", {}, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Types(**b), "column0:int64 column1:string column2:double column3:int64 ");
  EXPECT_EQ(d.skip_lines, 2);
  EXPECT_EQ(d.header_lines, 1);
  EXPECT_EQ(st.header_lines_joined, 0);
}

TEST(CsvReader, LenientHeaderJoinLeavesOtherFilesAlone) {
  CsvOptions o;
  o.lenient = true;
  CsvReadStats st;
  Dialect d;
  // A normal file.
  auto b = Read("id,name,score\n1,ann,3\n2,bob,4\n", o, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Types(**b), "id:int64 name:string score:int64 ");
  EXPECT_EQ(Rows(**b), "1|ann|3\n2|bob|4\n");
  EXPECT_EQ(d.header_lines, 1);
  EXPECT_EQ(st.header_lines_joined, 0);
  // A short first data row after a whole header is padded, not joined to the header.
  b = Read("id,name,score\n1,ann\n2,bob,4\n3,cy,5\n", o, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Types(**b), "id:int64 name:string score:int64 ");
  EXPECT_EQ(Rows(**b), "1|ann|null\n2|bob|4\n3|cy|5\n");
  EXPECT_EQ(st.rows_repaired, 1);
  EXPECT_EQ(st.header_lines_joined, 0);
  // Short lines of values before the data: they add up to the columns but read as numbers,
  // so they stay a preamble and the file has no header.
  b = Read("1,2\n3\n4,5,6\n7,8,9\n", o, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Types(**b), "column0:int64 column1:int64 column2:int64 ");
  EXPECT_EQ(Rows(**b), "4|5|6\n7|8|9\n");
  EXPECT_FALSE(d.header);
  EXPECT_EQ(d.skip_lines, 2);
  EXPECT_EQ(st.header_lines_joined, 0);
  // A preamble before a one-line header: the header is the line that fits.
  b = Read("Sales report\nQ3 figures\nname,amount\nann,3\nbob,4\n", o, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Types(**b), "name:string amount:int64 ");
  EXPECT_EQ(d.skip_lines, 2);
  EXPECT_EQ(d.header_lines, 1);
  // Lines separated by a blank line are not one header.
  b = Read("id,name\n\nprice,qty\n1,ann,2.5,3\n2,bob,4.5,5\n", o, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Types(**b), "column0:int64 column1:string column2:double column3:int64 ");
  EXPECT_EQ(st.header_lines_joined, 0);
}

// A row of 300,000 bytes, past the 4 MiB the reader opens with and far longer than a block
// (4 KiB per thread): the block grows until the row fits, with one thread and with two.
TEST(CsvReader, RowLongerThanManyBlocks) {
  const std::string big(300000, 'x');
  std::string text = "id,text\n";
  for (int i = 0; i < 200000; ++i) {
    text += std::to_string(i) + "," + (i == 180000 ? "\"" + big + "\"" : "value number " + std::to_string(i)) + "\n";
  }
  ASSERT_GT(text.size(), size_t{5} << 20);
  for (int threads : {1, 2}) {
    CsvOptions o;
    o.threads = threads;
    o.block_size = 4096;
    CsvReadStats st;
    auto b = Read(text, o, &st);
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    ASSERT_EQ((*b)->num_rows(), 200000);
    for (int64_t r : {0, 179999, 180000, 180001, 199999}) {
      std::string id, value;
      FormatValue((*b)->column(0), r, &id);
      FormatValue((*b)->column(1), r, &value);
      EXPECT_EQ(id, std::to_string(r)) << "threads " << threads;
      EXPECT_EQ(value, r == 180000 ? big : "value number " + std::to_string(r)) << "threads " << threads;
    }
    EXPECT_EQ(st.bytes_read, static_cast<int64_t>(text.size()));
  }
}

// With two threads the next block is read while the current one is parsed, and the row cut
// by the block end is copied in front of it. Past the 4 MiB read on open, rows whose quoted
// fields hold newlines and delimiters straddle hundreds of block ends (blocks of 3 KB); the
// values, and the line and byte of an error near the end, are what the text says.
TEST(CsvReader, ReadAheadKeepsRowsLinesAndBytesAcrossBlocks) {
  std::string text = "id,note,amount\n";
  std::string expected;
  int64_t lines = 1;  // physical lines before the current row
  const int bad_row = 210000;
  int64_t bad_line = 0, bad_byte = 0;
  for (int i = 0; i < 220000; ++i) {
    const bool quoted = i % 7 == 3;
    const std::string note = quoted ? fmt::format("first {}\nsecond, with \"\"quotes\"\"", i) : fmt::format("plain {}", i);
    const std::string shown = quoted ? fmt::format("first {}\nsecond, with \"quotes\"", i) : note;
    const std::string amount = i == bad_row ? "oops" : std::to_string(i * 3);
    text += std::to_string(i) + "," + (quoted ? "\"" + note + "\"" : note) + ",";
    if (i == bad_row) {
      bad_line = lines + 1 + (quoted ? 1 : 0);
      bad_byte = static_cast<int64_t>(text.size());
    }
    text += amount + "\n";
    lines += quoted ? 2 : 1;
    if (i < bad_row) expected += fmt::format("{}|{}|{}\n", i, shown, i * 3);
  }
  ASSERT_GT(bad_byte, (int64_t{4} << 20) + 100 * 3000);
  auto types = ParseColumnTypes("id=int64,note=string,amount=int64");
  ASSERT_TRUE(types.ok());
  for (int threads : {1, 2}) {
    CsvOptions o;
    o.threads = threads;
    o.block_size = 1500;
    o.column_types = *types;
    auto whole = Read(text, o);
    EXPECT_EQ(whole.status().message(),
              fmt::format("t.csv:{}:3 'amount': cannot convert to int64, got \"oops\" (byte {})", bad_line, bad_byte))
        << "threads " << threads;
    // The rows before the bad one come out intact, batch by batch.
    auto r = CsvReader::OpenBuffer(Bytes(text), o, "t.csv");
    ASSERT_TRUE(r.ok());
    std::string got;
    for (;;) {
      auto b = (*r)->Next();
      if (!b.ok() || !*b) break;
      got += Rows(**b);
    }
    EXPECT_EQ(got, expected.substr(0, got.size())) << "threads " << threads;
    EXPECT_GT(got.size(), expected.size() / 2) << "threads " << threads;
  }
}

// Rows of 100,000 bytes: longer than the 64 KiB in front of a block read ahead, shorter than a
// block (256 KiB per thread), so a cut row and the block after it move to a buffer of their
// own, every few blocks.
TEST(CsvReader, ReadAheadTailLongerThanTheHeadroom) {
  std::string text = "id,text,n\n";
  std::string expected;
  for (int i = 0; i < 60; ++i) {
    const std::string long_text(100000 + i, static_cast<char>('a' + i % 26));
    text += fmt::format("{},\"{}\",{}\n", i, long_text, -i);
    expected += fmt::format("{}|{}|{}\n", i, long_text, -i);
  }
  for (int threads : {1, 2}) {
    CsvOptions o;
    o.threads = threads;
    o.block_size = 128 << 10;
    CsvReadStats st;
    auto b = Read(text, o, &st);
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    EXPECT_EQ(Rows(**b), expected) << "threads " << threads;
    EXPECT_EQ(st.bytes_read, static_cast<int64_t>(text.size()));
    EXPECT_EQ(st.rows_read, 60);
  }
}

// The header "id,note,n" and rows "<i>,plain note <i>,<i % 13>" until `text` holds 4.5 MB (past
// the 4 MiB read on open, so that later rows are read ahead in pieces), with their "|"-joined
// rows in `expected`; returns the next id.
int PlainRowsPast4Mb(std::string* text, std::string* expected) {
  *text = "id,note,n\n";
  int i = 0;
  for (; text->size() < (size_t{9} << 19); ++i) {
    *text += fmt::format("{},plain note {},{}\n", i, i, i % 13);
    *expected += fmt::format("{}|plain note {}|{}\n", i, i, i % 13);
  }
  return i;
}

// Pieces read ahead are first parsed as if they began outside quotes. Past 4.5 MB of rows
// without quotes, quoted fields of a few hundred bytes that begin and end with a delimiter
// (",...\n...,") put piece starts inside quotes where the opposite reading has no stray quote
// to notice: read as unquoted, such a piece splits into other rows, or fails on their field
// count. The guess is found wrong from the state the piece before ends in, and the rows and
// the line of an error past them are what the text says.
TEST(CsvReader, GuessedQuoteStatesOfPiecesReadAheadAreChecked) {
  std::string text, expected;
  int i = PlainRowsPast4Mb(&text, &expected);
  int64_t lines = 1 + i;  // the header and one line per row
  for (const int quoted_from = i; i < quoted_from + 3000; ++i) {
    std::string note = ",";
    for (int w = 0; w < 20 + i % 17; ++w) note += fmt::format("w{}{}", w, w % 5 == 4 ? "\n" : ",");
    note += ",";
    text += fmt::format("{},\"{}\",{}\n", i, note, i % 13);
    expected += fmt::format("{}|{}|{}\n", i, note, i % 13);
    lines += 1 + static_cast<int64_t>(std::count(note.begin(), note.end(), '\n'));
  }
  const int64_t bad_line = lines + 1;
  std::string bad = text + fmt::format("{},fine,x13\n", i);
  for (int j = 1; j < 20; ++j) bad += fmt::format("{},fine,{}\n", i + j, j);
  auto types = ParseColumnTypes("id=int64,note=string,n=int64");
  ASSERT_TRUE(types.ok());
  struct ResetLevel { ~ResetLevel() { SetSplitLevelForTesting(std::nullopt); } } reset_level;
  for (SimdLevel level : SupportedSimdLevels()) {
    for (int threads : {1, 2}) {
      SetSplitLevelForTesting(level);
      CsvOptions o;
      o.threads = threads;
      o.block_size = 4096;
      o.column_types = *types;
      auto b = Read(text, o);
      ASSERT_TRUE(b.ok()) << b.status().ToString() << " " << SimdLevelName(level) << " threads " << threads;
      EXPECT_EQ(Rows(**b), expected) << SimdLevelName(level) << " threads " << threads;
      // The bad value follows "<id>,fine," on the first line past `text`.
      const size_t bad_byte = text.size() + std::to_string(i).size() + 6;
      EXPECT_EQ(Read(bad, o).status().message(),
                fmt::format("t.csv:{}:3 'n': cannot convert to int64, got \"x13\" (byte {})", bad_line, bad_byte))
          << SimdLevelName(level) << " threads " << threads;
    }
  }
}

// A wrong guess must not change how a block is cut into chunks: each chunk is one batch, and
// batches decide a Parquet file's pages. Past 4.5 MB of rows without quotes, quoted fields
// with line breaks and delimiters put piece starts and block ends inside quotes; read batch by
// batch, with guesses and with parities taken first, the two give the same batches (rows per
// batch and values), the rows the text says, and the same error for a bad value among them.
TEST(CsvReader, WrongQuoteGuessesKeepTheBatchesOfParities) {
  std::string text, expected;
  int i = PlainRowsPast4Mb(&text, &expected);
  for (const int quoted_from = i; i < quoted_from + 3000; ++i) {
    std::string note = ",";
    for (int w = 0; w < 20 + i % 17; ++w) note += fmt::format("w{}{}", w, w % 5 == 4 ? "\n" : ",");
    text += i % 3 == 0 ? fmt::format("{},\"{}\",{}\n", i, note, i % 13) : fmt::format("{},plain {},{}\n", i, i, i % 13);
    expected += i % 3 == 0 ? fmt::format("{}|{}|{}\n", i, note, i % 13) : fmt::format("{}|plain {}|{}\n", i, i, i % 13);
  }
  std::string bad = text;
  for (int j = 0; j < 600; ++j) bad += fmt::format("{},\"a\nb,{}\",{}\n", i + j, j, j == 500 ? "x" : "1");
  auto types = ParseColumnTypes("id=int64,note=string,n=int64");
  ASSERT_TRUE(types.ok());
  // Each batch's row count and rows, and the error the read ends with.
  auto batches = [&](const std::string& input, bool guess) {
    SetQuoteGuessForTesting(guess);
    CsvOptions o;
    o.threads = 2;
    o.block_size = 4096;
    o.column_types = *types;
    auto r = CsvReader::OpenBuffer(Bytes(input), o, "t.csv");
    SetQuoteGuessForTesting(true);
    std::string out;
    size_t count = 0;
    if (!r.ok()) return std::make_tuple(out, count, r.status().ToString());
    for (;;) {
      auto b = (*r)->Next();
      if (!b.ok()) return std::make_tuple(out, count, b.status().ToString());
      if (!*b) break;
      out += fmt::format("-- {} rows\n", (*b)->num_rows()) + Rows(**b);
      ++count;
    }
    return std::make_tuple(out, count, std::string("OK"));
  };
  struct Reset { ~Reset() { SetSplitLevelForTesting(std::nullopt); SetQuoteGuessForTesting(true); } } reset;
  for (SimdLevel level : SupportedSimdLevels()) {
    SetSplitLevelForTesting(level);
    const auto [with_parities, n_parities, st_parities] = batches(text, false);
    const auto [with_guesses, n_guesses, st_guesses] = batches(text, true);
    EXPECT_EQ(st_parities, "OK") << SimdLevelName(level);
    EXPECT_EQ(st_guesses, "OK") << SimdLevelName(level);
    EXPECT_GT(n_parities, 100u) << SimdLevelName(level);
    EXPECT_EQ(n_guesses, n_parities) << SimdLevelName(level);
    EXPECT_TRUE(testing::SameText(with_guesses, with_parities)) << SimdLevelName(level);
    EXPECT_TRUE(testing::SameText(RowsOfBatches(with_parities), expected)) << SimdLevelName(level);
    const auto [bad_parities, bn_parities, bst_parities] = batches(bad, false);
    const auto [bad_guesses, bn_guesses, bst_guesses] = batches(bad, true);
    EXPECT_TRUE(testing::SameText(bad_guesses, bad_parities)) << SimdLevelName(level);
    EXPECT_EQ(bst_guesses, bst_parities) << SimdLevelName(level);
    EXPECT_NE(bst_parities.find("cannot convert to int64, got \"x\""), std::string::npos) << bst_parities;
  }
}

// UTF-16 input decodes to fewer bytes than the file holds, and each read needs room for whole
// characters: across many blocks past the 4 MiB read on open (with and without read-ahead)
// it reads as its UTF-8 twin.
TEST(CsvReader, TranscodedInputAcrossManyBlocks) {
  std::string utf8 = "k,v\n";
  for (int i = 0; i < 300000; ++i) utf8 += fmt::format("{},caf\xC3\xA9 {}\n", i, i * 11);
  std::string utf16 = "\xFF\xFE";
  for (size_t i = 0; i < utf8.size(); ++i) {
    const auto c = static_cast<unsigned char>(utf8[i]);
    if (c == 0xC3) {
      utf16 += '\xE9';  // U+00E9 as one UTF-16 unit
      utf16 += '\0';
      ++i;
      continue;
    }
    utf16 += static_cast<char>(c);
    utf16 += '\0';
  }
  for (int threads : {1, 2}) {
    CsvOptions o;
    o.threads = threads;
    o.block_size = 777;
    auto want = Read(utf8, o);
    ASSERT_TRUE(want.ok()) << want.status().ToString();
    auto b = Read(utf16, o);
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    EXPECT_EQ(Rows(**b), Rows(**want)) << "threads " << threads;
    EXPECT_EQ((*b)->num_rows(), 300000);
  }
}

TEST(CsvReader, CommentsAndSkipLines) {
  CsvOptions o;
  o.comment = '#';
  auto b = Read("# a comment, with \"quotes\nx,y\n1,2\n# another\n3,4\n", o);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Rows(**b), "1|2\n3|4\n");
  CsvOptions s;
  s.skip_lines = 2;
  b = Read("junk\nmore junk\na,b\n1,2\n", s);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(Types(**b), "a:int64 b:int64 ");
}

// '#' comment lines are found without --comment when they are the rows that do not fit; a
// '#' line shaped like the data (here the header) is not a comment.
TEST(CsvReader, CommentLinesDetectedWithoutTheOption) {
  Dialect d;
  auto b = Read("# exported 2024-01-01\n# by a tool\nx,y,z\n1,2,3\n# a note in the middle\n4,5,6\n", {}, nullptr, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(d.comment, '#');
  EXPECT_EQ(Types(**b), "x:int64 y:int64 z:int64 ");
  EXPECT_EQ(Rows(**b), "1|2|3\n4|5|6\n");
  b = Read("#id,name\n1,a\n2,b\n", {}, nullptr, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(d.comment, '\0');
  EXPECT_EQ(Types(**b), "#id:int64 name:string ");
  EXPECT_EQ(Rows(**b), "1|a\n2|b\n");
  // Data rows that start with '#' and fit the columns stay data.
  b = Read("tag,n\n#a,1\n#b,2\nc,3\n", {}, nullptr, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(d.comment, '\0');
  EXPECT_EQ(Rows(**b), "#a|1\n#b|2\nc|3\n");
}

using quiver::testing::Gzip;

TEST(CsvReader, CompressedAndTranscodedInput) {
  const std::string text = "a,b\n1,x\n2,y\n";
  auto b = Read(Gzip(text) + Gzip("3,z\n"));  // two gzip members
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Rows(**b), "1|x\n2|y\n3|z\n");
  std::string z(ZSTD_compressBound(text.size()), '\0');
  z.resize(ZSTD_compress(z.data(), z.size(), text.data(), text.size(), 3));
  b = Read(z);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(Rows(**b), "1|x\n2|y\n");
  EXPECT_TRUE(Read(Gzip(text).substr(0, 12)).status().IsCorrupt());

  CsvOptions latin;
  latin.encoding = Encoding::kLatin1;
  b = Read("name\ncaf\xe9\n", latin);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(Rows(**b), "caf\xC3\xA9\n");
  std::string utf16 = "\xFF\xFE";
  for (char c : std::string("k,v\n1,\xe9\n")) {
    utf16 += c;
    utf16 += '\0';
  }
  b = Read(utf16);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Rows(**b), "1|\xC3\xA9\n");
}

// Random tables written as CSV with every quoting hazard read back equal, through every
// SIMD level, one or two threads, and blocks small enough to split rows and quoted fields.
TEST(CsvReader, RandomTablesRoundTrip) {
  std::mt19937_64 rng(7);
  const char* texts[] = {"plain", "with,comma", "with \"quote\"", "line\nbreak", "crlf\r\nbreak", "", " padded ",
                         "\xC3\xA9t\xC3\xA9", "semi;colon", "tab\there"};
  for (int round = 0; round < 12; ++round) {
    const int64_t rows = 200 + static_cast<int64_t>(rng() % 3000);
    std::string csv = "i,s,d,f\n";
    std::string expected;
    for (int64_t r = 0; r < rows; ++r) {
      int64_t i = static_cast<int64_t>(rng() % 2000000) - 1000000;
      const char* s = texts[rng() % 10];
      bool null_s = rng() % 7 == 0;
      double d = static_cast<double>(static_cast<int64_t>(rng() % 100000)) / 8.0;
      std::string sv = s;
      bool quote = sv.find_first_of(",\"\r\n") != std::string::npos || sv.empty() || rng() % 3 == 0;
      std::string field;
      if (null_s) {
        field = "";
      } else if (quote) {
        field = "\"";
        for (char c : sv) {
          if (c == '"') field += '"';
          field += c;
        }
        field += "\"";
      } else {
        field = sv;
      }
      const bool flag = rng() % 2 != 0;
      csv += std::to_string(i) + "," + field + "," + fmt::format("{}", d) + "," + (flag ? "t" : "f");
      csv += rng() % 5 == 0 ? "\r\n" : "\n";
      expected += std::to_string(i) + "|" + (null_s ? "null" : sv) + "|" + fmt::format("{}", d) + "|" +
                  (flag ? "true" : "false") + "\n";
    }
    // Readers opened after the test take the CPU's best level again.
    struct ResetLevel { ~ResetLevel() { SetSplitLevelForTesting(std::nullopt); } } reset_level;
    for (SimdLevel level : SupportedSimdLevels()) {
      for (int threads : {1, 2}) {
        CsvOptions o;
        SetSplitLevelForTesting(level);
        o.threads = threads;
        o.block_size = 1000 + static_cast<int64_t>(rng() % 5000);
        o.header = true;
        o.column_types = {{"s", utf8()}};
        auto b = Read(csv, o);
        ASSERT_TRUE(b.ok()) << b.status().ToString();
        ASSERT_EQ(Types(**b), "i:int64 s:string d:double f:bool ");
        ASSERT_EQ(Rows(**b), expected) << SimdLevelName(level) << " threads " << threads;
      }
    }
  }
}

// Chunks are split, assembled and converted a slice at a time, and a chunk's last row is
// finished by splitting on into the next chunk. Quote-dense rows (every text quoted, with
// delimiters, doubled quotes, LF and CRLF inside, some values longer than a slice) put slice,
// chunk and block boundaries inside quoted fields, right after opening quotes and between the
// two quotes of a doubled pair.
TEST(CsvReader, QuoteHeavyInputAcrossSliceAndChunkBoundaries) {
  std::mt19937_64 rng(11);
  const std::string pieces[] = {"a", ",", "\"", "\n", "\r\n", "|", " ", "x,y", "\"\"", "\xC3\xA9"};
  std::string csv = "id,s,n,t\n";
  std::string expected;
  for (int r = 0; r < 1500; ++r) {
    std::string s;
    const int len = rng() % 40 == 0 ? 150 + static_cast<int>(rng() % 300) : static_cast<int>(rng() % 12);
    for (int i = 0; i < len; ++i) s += pieces[rng() % 10];
    std::string quoted = "\"";
    for (char c : s) {
      if (c == '"') quoted += '"';
      quoted += c;
    }
    quoted += "\"";
    const std::string t = rng() % 2 ? "plain" : "";
    const bool quote_t = rng() % 3 == 0;
    csv += fmt::format("{},{},{}.{},{}{}", r, quoted, r % 97, 1 + r % 9, quote_t ? "\"" + t + "\"" : t,
                       rng() % 4 == 0 ? "\r\n" : "\n");
    // Unquoted empty text is null; quoted, it is an empty string.
    expected += fmt::format("{}|{}|{}.{}|{}\n", r, s, r % 97, 1 + r % 9, t.empty() && !quote_t ? "null" : t);
  }
  // Readers opened after the test take the CPU's best level again.
  struct ResetLevel { ~ResetLevel() { SetSplitLevelForTesting(std::nullopt); } } reset_level;
  for (SimdLevel level : SupportedSimdLevels()) {
    for (int64_t slice : {64, 65, 127, 301, 4096}) {
      for (int threads : {1, 2}) {
        CsvOptions o;
        SetSplitLevelForTesting(level);
        o.threads = threads;
        o.slice_bytes = slice;
        o.block_size = 3000 + static_cast<int64_t>(rng() % 9000);
        o.column_types = {{"s", utf8()}, {"n", float64()}, {"t", utf8()}};
        auto b = Read(csv, o);
        ASSERT_TRUE(b.ok()) << b.status().ToString();
        ASSERT_EQ(Types(**b), "id:int64 s:string n:double t:string ");
        ASSERT_EQ(Rows(**b), expected) << SimdLevelName(level) << " slice " << slice << " threads " << threads;
      }
    }
  }
}

// Row assembly looks for a CR before each row end only in slices whose split saw one, or
// whose previous byte is one: a CRLF cut by a slice boundary leaves its CR at the end of one
// slice and its LF first in the next, which holds no CR (rows end mostly with LF here). With
// one column such a row has no position in the slice before, so it is assembled whole in
// the next one.
TEST(CsvReader, CrlfCutBetweenSlicesLosesItsCr) {
  for (bool one_column : {true, false}) {
    std::mt19937_64 rng(23);
    std::string csv = one_column ? "c\n" : "a,b,c\n";
    std::string expected;
    for (int r = 0; r < 400; ++r) {
      const std::string text(1 + rng() % 9, static_cast<char>('k' + r % 7));
      const std::string head = one_column ? "" : fmt::format("{},{},", r, r % 13);
      csv += head + text + (rng() % 6 == 0 ? "\r\n" : "\n");
      expected += (one_column ? "" : fmt::format("{}|{}|", r, r % 13)) + text + "\n";
    }
    struct ResetLevel { ~ResetLevel() { SetSplitLevelForTesting(std::nullopt); } } reset_level;
    for (SimdLevel level : SupportedSimdLevels()) {
      for (int64_t slice = 64; slice < 96; ++slice) {
        CsvOptions o;
        SetSplitLevelForTesting(level);
        o.threads = 1;
        o.slice_bytes = slice;
        o.column_types = {{"c", utf8()}};
        auto b = Read(csv, o);
        ASSERT_TRUE(b.ok()) << b.status().ToString();
        ASSERT_EQ(Rows(**b), expected) << SimdLevelName(level) << " slice " << slice << " one column " << one_column;
      }
    }
  }
}

TEST(CsvWriter, QuotesOnlyWhenNeededAndRoundTrips) {
  auto b = Read("a,b\n1,\"x,y\"\n2,\"say \"\"hi\"\"\"\n3,\n4,\"\"\n");
  ASSERT_TRUE(b.ok());
  io::BufferOutputStream out;
  CsvWriter w(&out);
  ASSERT_TRUE(w.Write(**b).ok());
  auto buf = out.Finish();
  EXPECT_EQ((*buf)->view(), "a,b\n1,\"x,y\"\n2,\"say \"\"hi\"\"\"\n3,\n4,\"\"\n");
  auto again = Read(std::string((*buf)->view()));
  EXPECT_TRUE((*again)->Equals(**b));
}

}  // namespace
}  // namespace quiver::csv

namespace quiver::csv {
namespace {

TEST(CsvReader, SpacesAfterClosingQuoteAndPreambles) {
  auto b = Read("ingredients,item\n\"onions\"  ,\",\"\n\"a \" ,b\n");
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Rows(**b), "onions|,\na |b\n");
  Dialect d;
  b = Read("some text\ndescription\n\nJohn,Doe,12\nJack,Roe,13\n", {}, nullptr, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(d.skip_lines, 3);
  EXPECT_FALSE(d.header);
  EXPECT_EQ(Rows(**b), "John|Doe|12\nJack|Roe|13\n");
}

}  // namespace
}  // namespace quiver::csv

namespace quiver::csv {
namespace {

TEST(CsvReader, InferAllSeesLateValues) {
  std::string text = "id,v\n";
  for (int i = 0; i < 50; ++i) text += std::to_string(i) + "," + std::to_string(i) + "\n";
  text += "x,2.5\n";
  CsvOptions sampled;
  sampled.infer_rows = 10;
  EXPECT_TRUE(Read(text, sampled).status().IsInvalid());
  CsvOptions all = sampled;
  all.infer_all = true;
  auto b = Read(text, all);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Types(**b), "id:string v:double ");
  EXPECT_EQ((*b)->num_rows(), 51);
  // Explicit types still win, and a headerless file keeps its generated names.
  all.column_types = {{"id", utf8()}};
  b = Read(text, all);
  EXPECT_EQ(Types(**b), "id:string v:double ");
  all.column_types.clear();
  all.header = false;
  b = Read("1,a\n2,b\n", all);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Types(**b), "column0:int64 column1:string ");
}

}  // namespace
}  // namespace quiver::csv

namespace quiver::csv {
namespace {

// A file gives exactly what the same bytes give from memory, also when it ends on a page
// boundary with an unterminated row, after a UTF-8 byte order mark, and across many blocks.
TEST(CsvReader, FileMatchesTheBufferPath) {
  std::string body = "id,name,price,day\n";
  std::mt19937_64 rng(5);
  for (int i = 0; body.size() < 3 * 4096 * 16; ++i) {
    body += fmt::format("{},n{},{}.{:02},2001-{:02}-{:02}\n", i * 7919, rng() % 1000, rng() % 100000, rng() % 100,
                        1 + rng() % 12, 1 + rng() % 28);
  }
  // End exactly on a page boundary, the last value unterminated.
  const std::string last = "9,last,1.5,2001-01-01";
  body += "9,last" + std::string((4096 - (body.size() + last.size()) % 4096) % 4096, 'x') + last.substr(6);
  ASSERT_EQ(body.size() % 4096, 0u);
  for (const std::string& bytes : {body, "\xEF\xBB\xBF" + body}) {
    auto path = std::filesystem::temp_directory_path() / ("quiver-plain-" + std::to_string(getpid()) + ".csv");
    {
      std::ofstream f(path, std::ios::binary);
      f << bytes;
    }
    for (int threads : {1, 2}) {
      CsvOptions o;
      o.threads = threads;
      o.block_size = 5000;
      auto expected = Read(bytes.substr(bytes[0] == '\xEF' ? 3 : 0), o);
      ASSERT_TRUE(expected.ok()) << expected.status().ToString();
      auto r = CsvReader::Open(path.string(), o);
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      auto b = (*r)->ReadAll();
      ASSERT_TRUE(b.ok()) << b.status().ToString();
      EXPECT_EQ(Types(**b), Types(**expected));
      EXPECT_EQ(Rows(**b), Rows(**expected));
      EXPECT_EQ((*r)->stats().bytes_read, static_cast<int64_t>(bytes.size() - (bytes[0] == '\xEF' ? 3 : 0)));
      EXPECT_EQ((*r)->input_position(), (*r)->input_size());
    }
    std::filesystem::remove(path);
  }
}

}  // namespace
}  // namespace quiver::csv

namespace quiver::csv {
namespace {

// Text for the pipelined-read tests: past the 4 MiB read on open, stretches of 3,000 rows
// with quoted newlines, delimiters and doubled quotes alternate with stretches without any
// quote; every 5,003rd row has a stray quote in an unquoted field (read literally with
// --lenient, but it flips the fast quote parity, so the block goes through the state machine
// and the quote state guessed for the block after it is wrong, which in a stretch without
// quotes no split would notice; the dialect is given, since such a row in the sample misleads
// the sniffer); every 1,009th row past the first 4 MiB has 20,000 bytes (longer than a piece
// of a small block, so a chunk queued early cannot finish it); and one row has 100,000 bytes
// (longer than the headroom in front of a block). `expected` gets the rows as Rows() prints
// them, up to `bad_row` (whose amount is "oops" when >= 0).
struct PipelineText {
  std::string text = "id,note,amount\n";
  std::string expected;
  int64_t bad_line = 0, bad_byte = 0;
};

// Appends row i ("i,note,amount"; the amount is "oops" for `bad_row`) to t, whose text so far
// ends on line *lines; `note_breaks` is the number of line breaks inside the note.
void AppendPipelineRow(PipelineText& t, int64_t* lines, int i, int bad_row, const std::string& note,
                       const std::string& shown, int note_breaks) {
  t.text += fmt::format("{},{},", i, note);
  if (i == bad_row) {
    t.bad_line = *lines + note_breaks + 1;
    t.bad_byte = static_cast<int64_t>(t.text.size());
  }
  t.text += (i == bad_row ? std::string("oops") : std::to_string(i * 3)) + "\n";
  *lines += note_breaks + 1;
  if (bad_row < 0 || i < bad_row) t.expected += fmt::format("{}|{}|{}\n", i, shown, i * 3);
}

// The options the pipeline texts are read with: the dialect is given (a stray-quote row in the
// sample misleads the sniffer) and stray quotes are read literally.
CsvOptions PipelineOptions(int threads, int64_t block, const std::vector<std::pair<std::string, TypePtr>>& types) {
  CsvOptions o;
  o.threads = threads;
  o.block_size = block;
  o.column_types = types;
  o.delimiter = ',';
  o.quote = '"';
  o.lenient = true;
  return o;
}

PipelineText MakePipelineText(int rows, int bad_row) {
  PipelineText t;
  int64_t lines = 1;
  for (int i = 0; i < rows; ++i) {
    std::string note, shown;
    const bool quoted = i % 7 == 3 && (i / 3000) % 2 == 0;
    if (quoted) {
      note = fmt::format("\"first {}\nsecond, with \"\"quotes\"\"\"", i);
      shown = fmt::format("first {}\nsecond, with \"quotes\"", i);
    } else if (i % 5003 == 17) {
      note = shown = fmt::format("stray\"quote {}", i);
    } else if (i > 165000 && i % 1009 == 0) {
      note = shown = std::string(20000, static_cast<char>('a' + i % 26));
    } else if (i == 150001) {
      note = shown = std::string(100000, 'h');
    } else {
      note = shown = fmt::format("plain {}", i);
    }
    AppendPipelineRow(t, &lines, i, bad_row, note, shown, quoted ? 1 : 0);
  }
  return t;
}

// With two threads the next block is read, and all of its chunks but the first are parsed,
// while the current block is still being parsed, from the quote state the current block is
// expected to end in. When a stray quote, a row longer than what an early chunk may look at,
// or a row longer than the headroom proves that guess wrong, the work is done again: values,
// counts and bytes are those of one thread (no read-ahead), in blocks of several sizes.
TEST(CsvReader, PipelinedBlocksRedoWhatTheGuessGotWrong) {
  const PipelineText t = MakePipelineText(230000, -1);
  ASSERT_GT(t.text.size(), size_t{6} << 20);
  auto types = ParseColumnTypes("id=int64,note=string,amount=int64");
  ASSERT_TRUE(types.ok());
  for (int64_t block : {int64_t{1500}, int64_t{40000}, int64_t{1} << 20}) {
    for (int threads : {1, 2, 3}) {
      CsvOptions o = PipelineOptions(threads, block, *types);
      CsvReadStats st;
      auto b = Read(t.text, o, &st);
      ASSERT_TRUE(b.ok()) << b.status().ToString();
      EXPECT_EQ(Rows(**b), t.expected) << "block " << block << ", threads " << threads;
      EXPECT_EQ(st.rows_read, 230000);
      EXPECT_EQ(st.rows_written, 230000);
      EXPECT_EQ(st.bytes_read, static_cast<int64_t>(t.text.size()));
    }
  }
}

// The line and byte of a bad value after blocks whose guessed quote state was wrong, and
// every batch before it, are what the text says.
TEST(CsvReader, PipelinedBlocksKeepLinesAndBytesOfErrors) {
  const int bad_row = 200000;
  const PipelineText t = MakePipelineText(210000, bad_row);
  auto types = ParseColumnTypes("id=int64,note=string,amount=int64");
  ASSERT_TRUE(types.ok());
  for (int threads : {1, 2}) {
    CsvOptions o = PipelineOptions(threads, 1500, *types);
    auto whole = Read(t.text, o);
    EXPECT_EQ(whole.status().message(),
              fmt::format("t.csv:{}:3 'amount': cannot convert to int64, got \"oops\" (byte {})", t.bad_line, t.bad_byte))
        << "threads " << threads;
    auto r = CsvReader::OpenBuffer(Bytes(t.text), o, "t.csv");
    ASSERT_TRUE(r.ok());
    const auto [got, last] = ReadBatches(**r);
    EXPECT_EQ(last.message(), whole.status().message()) << "threads " << threads;
    EXPECT_EQ(got, t.expected.substr(0, got.size())) << "threads " << threads;
    EXPECT_GT(got.size(), t.expected.size() / 2) << "threads " << threads;
    // The read stays failed.
    auto again = (*r)->Next();
    EXPECT_EQ(again.status().message(), whole.status().message()) << "threads " << threads;
  }
}

// Column buffers of released batches serve later chunks: batches the caller still holds keep
// their values however many batches come and go after them. Every third batch is dropped at
// once, the others held to the end and printed again.
TEST(CsvReader, HeldBatchesKeepTheirValuesWhileOthersAreRecycled) {
  const PipelineText t = MakePipelineText(230000, -1);
  auto types = ParseColumnTypes("id=int64,note=string,amount=int64");
  ASSERT_TRUE(types.ok());
  for (int64_t block : {int64_t{3000}, int64_t{1} << 20}) {
    CsvOptions o = PipelineOptions(2, block, *types);
    o.batch_rows = 5000;
    auto r = CsvReader::OpenBuffer(Bytes(t.text), o, "t.csv");
    ASSERT_TRUE(r.ok());
    std::vector<std::pair<std::shared_ptr<RecordBatch>, std::string>> held;
    std::string all;
    for (int n = 0;; ++n) {
      auto b = (*r)->Next();
      ASSERT_TRUE(b.ok()) << b.status().ToString();
      if (!*b) break;
      std::string rows = Rows(**b);
      all += rows;
      if (n % 3 != 0) held.emplace_back(*b, std::move(rows));
    }
    EXPECT_EQ(all, t.expected) << "block " << block;
    ASSERT_GT(held.size(), size_t{20});
    for (const auto& [batch, rows] : held) ASSERT_EQ(Rows(*batch), rows) << "block " << block;
  }
}

}  // namespace
}  // namespace quiver::csv

namespace quiver::csv {
namespace {

// Rows whose quoted note ",x i<LF>y i," reads as valid CSV from either quote state: started
// inside a quote, "i," is quoted text, "x i" a field and "y i" the id of a row whose note is
// ",amount<LF>next id,". So a chunk parsed from the wrong quote state raises no anomaly, only
// other rows. Every 997th row (offset 500) has a stray quote in an unquoted note instead
// (read literally with --lenient): it leaves its block's quote parity odd, so the state
// guessed for the next block is wrong. `expected` holds the rows before `bad_row`.
PipelineText MakeTwoStateText(int rows, int bad_row) {
  PipelineText t;
  int64_t lines = 1;
  for (int i = 0; i < rows; ++i) {
    const bool stray = i % 997 == 500;
    const std::string note = stray ? fmt::format("stray\"q {}", i) : fmt::format("\",x {}\ny {},\"", i, i);
    const std::string shown = stray ? note : fmt::format(",x {}\ny {},", i, i);
    AppendPipelineRow(t, &lines, i, bad_row, note, shown, stray ? 0 : 1);
  }
  return t;
}

// A block whose stray quote makes the guessed quote state of the block read ahead wrong: the
// chunks parsed ahead from that guess are dropped, so values, counts and the line and byte of
// a later bad value are those of one thread.
TEST(CsvReader, PipelinedBlocksDropChunksParsedFromAWrongQuoteState) {
  const PipelineText t = MakeTwoStateText(260000, -1);
  ASSERT_GT(t.text.size(), size_t{6} << 20);
  const int bad_row = 250000;
  const PipelineText bad = MakeTwoStateText(260000, bad_row);
  auto types = ParseColumnTypes("id=int64,note=string,amount=int64");
  ASSERT_TRUE(types.ok());
  for (int64_t block : {int64_t{1500}, int64_t{6000}, int64_t{40000}}) {
    for (int threads : {1, 2, 3}) {
      CsvOptions o = PipelineOptions(threads, block, *types);
      CsvReadStats st;
      auto b = Read(t.text, o, &st);
      ASSERT_TRUE(b.ok()) << b.status().ToString() << " block " << block << ", threads " << threads;
      EXPECT_EQ(Rows(**b), t.expected) << "block " << block << ", threads " << threads;
      EXPECT_EQ(st.rows_read, 260000);
      EXPECT_EQ(st.rows_repaired, 0);
      EXPECT_EQ(st.bytes_read, static_cast<int64_t>(t.text.size()));
      auto e = Read(bad.text, o);
      EXPECT_EQ(e.status().message(), fmt::format("t.csv:{}:3 'amount': cannot convert to int64, got \"oops\" (byte {})",
                                                  bad.bad_line, bad.bad_byte))
          << "block " << block << ", threads " << threads;
    }
  }
}

// Rows of 3,000 bytes among short ones, in blocks whose read-ahead pieces are a few hundred
// bytes: a chunk queued before its block was read whole cannot finish such a row within the
// piece after it, and its block is parsed again; values, counts and the line and byte of a
// later bad value are those of one thread.
TEST(CsvReader, PipelinedChunksThatCannotFinishTheirLastRowAreRedone) {
  constexpr int kRows = 300000, kBad = 290000;
  std::string text = "id,note,amount\n", expected;
  int64_t bad_byte = 0;
  for (int i = 0; i < kRows; ++i) {
    const std::string note = i % 301 == 7 ? std::string(3000, static_cast<char>('a' + i % 26)) : fmt::format("p{}", i);
    text += fmt::format("{},{},", i, note);
    if (i == kBad) bad_byte = static_cast<int64_t>(text.size());
    text += (i == kBad ? std::string("oops") : std::to_string(i * 3)) + "\n";
    if (i < kBad) expected += fmt::format("{}|{}|{}\n", i, note, i * 3);
  }
  ASSERT_GT(text.size(), size_t{6} << 20);
  auto types = ParseColumnTypes("id=int64,note=string,amount=int64");
  ASSERT_TRUE(types.ok());
  for (int64_t block : {int64_t{1500}, int64_t{2500}}) {
    for (int threads : {2, 3}) {
      CsvOptions o;
      o.threads = threads;
      o.block_size = block;
      o.column_types = *types;
      auto r = CsvReader::OpenBuffer(Bytes(text), o, "t.csv");
      ASSERT_TRUE(r.ok());
      const auto [got, last] = ReadBatches(**r, expected.size());
      ASSERT_LE(got.size(), expected.size()) << "block " << block << ", threads " << threads;
      EXPECT_EQ(last.message(), fmt::format("t.csv:{}:3 'amount': cannot convert to int64, got \"oops\" (byte {})",
                                            kBad + 2, bad_byte))
          << "block " << block << ", threads " << threads;
      EXPECT_EQ(got, expected.substr(0, got.size())) << "block " << block << ", threads " << threads;
      EXPECT_GT(got.size(), expected.size() / 2) << "block " << block << ", threads " << threads;
    }
  }
}

// Rows "id,label,amount" of one length, each ending in `eol`, with "oops" for the amount of
// row kBad, read in blocks of every size from 100 to 101 rows at 1 and 2 threads: the exact
// line and byte of the bad value and, skipping it, every value, the row count and no blank
// line. Returns the text without the bad value, for the caller's own checks.
std::string ExpectBlocksOfEverySizeKeepRowsAndLines(const std::string& eol) {
  constexpr int kRows = 200000, kBad = 199000;
  const int64_t row_bytes = 25 + static_cast<int64_t>(eol.size());
  std::string text = "id,label,amount" + eol, good = text, expected;
  int64_t bad_byte = 0;
  for (int i = 0; i < kRows; ++i) {
    const std::string head = fmt::format("{:07},n{:07},", i, i);
    if (i == kBad) bad_byte = static_cast<int64_t>(text.size() + head.size());
    text += head + (i == kBad ? std::string("oops") : fmt::format("{:08}", i * 3)) + eol;
    good += head + fmt::format("{:08}", i * 3) + eol;
    if (i != kBad) expected += fmt::format("{}|n{:07}|{}\n", i, i, i * 3);
  }
  EXPECT_EQ(good.size(), 15 + eol.size() + kRows * row_bytes);
  auto types = ParseColumnTypes("id=int64,label=string,amount=int64");
  EXPECT_TRUE(types.ok());
  for (int64_t block = 100 * row_bytes; block <= 101 * row_bytes; ++block) {
    for (int threads : {1, 2}) {
      CsvOptions o;
      o.threads = threads;
      o.block_size = block;
      o.column_types = *types;
      o.header = true;
      auto e = Read(text, o);
      EXPECT_EQ(e.status().message(),
                fmt::format("t.csv:{}:3 'amount': cannot convert to int64, got \"oops\" (byte {})", kBad + 2, bad_byte))
          << "block " << block << ", threads " << threads;
      o.on_error = OnError::kSkip;
      CsvReadStats st;
      auto b = Read(text, o, &st);
      EXPECT_TRUE(b.ok()) << b.status().ToString();
      if (!b.ok()) continue;
      EXPECT_EQ(Rows(**b), expected) << "block " << block << ", threads " << threads;
      EXPECT_EQ(st.rows_read, kRows) << "block " << block << ", threads " << threads;
      EXPECT_EQ(st.rows_rejected, 1);
      EXPECT_EQ(st.blank_lines, 0) << "block " << block << ", threads " << threads;
    }
  }
  return good;
}

// CRLF rows of one length, so that blocks of some sizes end between a CR and its LF (the
// header's length puts the first 4 MiB boundary there too; 100 rows less one byte ends
// one-thread blocks on a CR, a whole number of rows two-thread ones). Such a CR ends no row:
// the row goes on into the next block, which gains no blank line, and lines are counted once.
TEST(CsvReader, BlocksEndingBetweenCrAndLf) {
  const std::string good = ExpectBlocksOfEverySizeKeepRowsAndLines("\r\n");
  ASSERT_EQ(good[(size_t{4} << 20) - 1], '\r');
  constexpr int kRows = 420000;
  std::string one = "key\r\n", one_expected;  // one column: a blank line would be a row
  for (int i = 0; i < kRows; ++i) {
    one += fmt::format("n{:07}\r\n", i);
    one_expected += fmt::format("n{:07}\n", i);
  }
  ASSERT_EQ(one[(size_t{4} << 20) - 1], '\r');
  auto one_types = ParseColumnTypes("key=string");
  ASSERT_TRUE(one_types.ok());
  for (int64_t block = 2700; block <= 2727; ++block) {  // the sizes used above: 100 to 101 CRLF rows
    for (int threads : {1, 2}) {
      CsvOptions o;
      o.threads = threads;
      o.block_size = block;
      o.column_types = *one_types;
      o.header = true;
      CsvReadStats st;
      auto b = Read(one, o, &st);
      ASSERT_TRUE(b.ok()) << b.status().ToString();
      EXPECT_EQ(Rows(**b), one_expected) << "one column, block " << block << ", threads " << threads;
      EXPECT_EQ(st.rows_read, kRows) << "one column, block " << block << ", threads " << threads;
    }
  }
}

// The same with lone-CR line ends (rows of 26 bytes, so blocks of a whole number of rows end on
// a CR): the CR left at a block's end still ends its row when the next block splits it again.
TEST(CsvReader, BlocksEndingOnALoneCr) { ExpectBlocksOfEverySizeKeepRowsAndLines("\r"); }

}  // namespace
}  // namespace quiver::csv

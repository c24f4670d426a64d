// File-level sniffing and inference decisions on minimal files, one class each (issue 39):
// two-byte and space delimiters, padded title lines above the header, a damaged header line,
// stacked tables, headers over two full lines, a backslash before a quote on one line, and a
// leading-zero code after the inference sample.
#include <gtest/gtest.h>

#include <string>

#include "testing/csv_read.h"

namespace quiver::csv {
namespace {

using testing::Read;
using testing::Rows;
using testing::Types;

// 1. Two-byte delimiters (", " "; " "\t " "||") and a space: the fields keep no pad, a quote
// after the delimiter opens a quoted field, and no line is taken for a preamble.
TEST(CsvSniffCases, TwoByteDelimiters) {
  struct Case {
    std::string delim;
    char first, pad;
  };
  for (const Case& k : {Case{", ", ',', ' '}, Case{"; ", ';', ' '}, Case{"\t ", '\t', ' '}, Case{"||", '|', '|'}}) {
    const std::string& s = k.delim;
    const std::string text = "id" + s + "name" + s + "score\n1" + s + "\"Smith" + s + "John\"" + s + "3.5\n2" + s +
                             "ann" + s + "4\n3" + s + "\"bob \"\"b\"\"\"" + s + "5\n";
    Dialect d;
    auto b = Read(text, {}, nullptr, &d);
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    EXPECT_EQ(d.delimiter, k.first) << s;
    EXPECT_EQ(d.delimiter_pad, k.pad) << s;
    EXPECT_EQ(d.skip_lines, 0) << s;
    EXPECT_EQ(d.quote, '"') << s;
    EXPECT_EQ(Types(**b), "id:int64 name:string score:double ") << s;
    EXPECT_EQ(Rows(**b), "1|Smith" + s + "John|3.5\n2|ann|4\n3|bob \"b\"|5\n") << s;
    // The same delimiter given (as --delimiter gives it) reads the same.
    CsvOptions o;
    o.delimiter = k.first;
    o.delimiter_pad = k.pad;
    auto given = Read(text, o);
    ASSERT_TRUE(given.ok()) << given.status().ToString();
    EXPECT_EQ(Rows(**given), Rows(**b)) << s;
  }
  // A lone comma (no space after it) is then text: "1,5" in a ", " file, read by the given
  // two-byte delimiter, stays one field.
  CsvOptions o;
  o.delimiter = ',';
  o.delimiter_pad = ' ';
  auto b = Read("a, b\n1,5, x\n2, y\n", o);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Rows(**b), "1,5|x\n2|y\n");
  // A single space.
  Dialect d;
  b = Read("id name score\n1 \"Smith John\" 3.5\n2 ann 4\n3 bob 5\n", {}, nullptr, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(d.delimiter, ' ');
  EXPECT_EQ(d.delimiter_pad, '\0');
  EXPECT_EQ(d.skip_lines, 0);
  EXPECT_EQ(Types(**b), "id:int64 name:string score:double ");
  EXPECT_EQ(Rows(**b), "1|Smith John|3.5\n2|ann|4\n3|bob|5\n");
  // A comma file with spaces inside its values stays a comma file.
  b = Read("when,what\n2024-01-01 10:00:00,a b\n2024-01-02 11:00:00,c d\n", {}, nullptr, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(d.delimiter, ',');
  EXPECT_EQ(d.delimiter_pad, '\0');
}

// A two-byte delimiter over many blocks, chunks and slices, at one and two threads: the rows
// equal those of the same table written with a comma.
TEST(CsvSniffCases, TwoByteDelimiterAcrossBlocks) {
  const char* names[] = {"ann", "bob, jr", "say \"hi\"", "multi\nline, text", "x||y"};
  auto quoted = [](const std::string& v) {
    if (v.find_first_of(",\"\n |") == std::string::npos) return v;
    std::string out = "\"";
    for (char ch : v) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
  };
  for (const std::string delim : {", ", "||"}) {
    std::string two = "id" + delim + "name" + delim + "tag\n", one = "id,name,tag\n";
    for (int i = 0; i < 20000; ++i) {
      const std::string name = quoted(names[(i * 7) % 5]), tag = quoted(i % 3 ? "a" : "b, c");
      two += std::to_string(i) + delim + name + delim + tag + "\n";
      one += std::to_string(i) + "," + name + "," + tag + "\n";
    }
    for (int threads : {1, 2}) {
      CsvOptions o;
      o.threads = threads;
      o.block_size = 64 << 10;
      o.slice_bytes = 16 << 10;
      Dialect d;
      auto a = Read(two, o, nullptr, &d);
      auto b = Read(one, o);
      ASSERT_TRUE(a.ok()) << a.status().ToString();
      ASSERT_TRUE(b.ok()) << b.status().ToString();
      EXPECT_EQ(d.delimiter_pad, delim[1]) << delim;
      EXPECT_EQ((*a)->num_rows(), 20000) << delim;
      EXPECT_TRUE(Rows(**a) == Rows(**b)) << delim << " threads " << threads;
    }
  }
}

// 2. A title padded with delimiters and a line of empty cells above the header: preamble.
TEST(CsvSniffCases, PaddedPreambleLinesOfTheFullFieldCount) {
  const std::string text =
      "TITLE,,,\n,,,\nid,name,score,when\n1,ann,3.5,2024-01-01\n2,bob,4,2024-01-02\n3,cy,5,2024-01-03\n";
  Dialect d;
  auto b = Read(text, {}, nullptr, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(d.skip_lines, 2);
  EXPECT_TRUE(d.header);
  EXPECT_EQ(Types(**b), "id:int64 name:string score:double when:date32 ");
  EXPECT_EQ(Rows(**b), "1|ann|3.5|2024-01-01\n2|bob|4|2024-01-02\n3|cy|5|2024-01-03\n");
  // A sparse first data row under no header stays data.
  b = Read("ann,,\nbob,2,3\ncy,4,5\n", {}, nullptr, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(d.skip_lines, 0);
  EXPECT_EQ((*b)->num_rows(), 3);
}

// 3. Lenient: a header with a field too many or too few keeps its names (cut or padded at the
// end), counted as a repaired row; strict reads are unchanged.
TEST(CsvSniffCases, DamagedHeaderKeepsItsNames) {
  CsvOptions o;
  o.lenient = true;
  CsvReadStats st;
  Dialect d;
  // One too many (a stray delimiter at the end of a name).
  auto b = Read("id,name,score,\"x\"\n1,ann,3.5\n2,bob,4\n3,cy,5\n", o, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(d.skip_lines, 0);
  EXPECT_EQ(Types(**b), "id:int64 name:string score:double ");
  EXPECT_EQ(Rows(**b), "1|ann|3.5\n2|bob|4\n3|cy|5\n");
  EXPECT_EQ(st.rows_repaired, 1);
  EXPECT_EQ(st.fields_dropped, 1);
  // One too few: the last column gets a generated name.
  b = Read("id,name\n1,ann,3.5\n2,bob,4\n3,cy,5\n", o, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(d.skip_lines, 0);
  EXPECT_EQ(Types(**b), "id:int64 name:string column2:double ");
  EXPECT_EQ(Rows(**b), "1|ann|3.5\n2|bob|4\n3|cy|5\n");
  EXPECT_EQ(st.rows_repaired, 1);
  // A stray quote: read as text, the names kept.
  b = Read("id,\"name,score\n1,ann,3.5\n2,bob,4\n3,cy,5\n", o, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Types(**b), "id:int64 \"name:string score:double ");
  EXPECT_EQ(Rows(**b), "1|ann|3.5\n2|bob|4\n3|cy|5\n");
}

// 4. Lenient: a second table after a blank line is not read as rows of the first; where it
// starts is reported.
TEST(CsvSniffCases, StackedTablesStopAtTheSecond) {
  const std::string text = "id,name,score\n1,ann,3.5\n2,bob,4\n\ncity,population\nParis,2100000\nLyon,500000\n";
  CsvOptions o;
  o.lenient = true;
  CsvReadStats st;
  Dialect d;
  auto b = Read(text, o, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Types(**b), "id:int64 name:string score:double ");
  EXPECT_EQ(Rows(**b), "1|ann|3.5\n2|bob|4\n");
  EXPECT_EQ(st.second_table_line, 5);
  EXPECT_EQ(d.second_table_line, 5);
  EXPECT_EQ(st.footer_lines, 4);
  // The same header repeated after a blank line.
  b = Read("id,name\n1,ann\n2,bob\n\nid,name\n3,cy\n", o, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Rows(**b), "1|ann\n2|bob\n");
  EXPECT_EQ(st.second_table_line, 5);
  // A blank line inside one table is not a second table.
  b = Read("id,name\n1,ann\n\n2,bob\n", o, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Rows(**b), "1|ann\n2|bob\n");
  EXPECT_EQ(st.second_table_line, 0);
}

// 5. Lenient: a header over two full lines, the second repeating names, is joined.
TEST(CsvSniffCases, HeaderOverTwoFullLinesIsJoined) {
  const std::string text = "DATE,DATE,PRICE,PRICE\nStart,End,Low,Low\n2024-01-01,2024-02-01,1.5,2\n"
                           "2024-01-02,2024-02-02,2.5,3\n";
  CsvOptions o;
  o.lenient = true;
  CsvReadStats st;
  Dialect d;
  auto b = Read(text, o, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(Types(**b), "DATE Start:date32 DATE End:date32 PRICE Low:double PRICE Low_1:int64 ");
  EXPECT_EQ(Rows(**b), "2024-01-01|2024-02-01|1.5|2\n2024-01-02|2024-02-02|2.5|3\n");
  EXPECT_TRUE(d.header);
  EXPECT_EQ(d.header_lines, 2);
  EXPECT_EQ(st.header_lines_joined, 2);
}

// 6. A backslash before a quote on one damaged line does not make '\' the escape: the other
// rows' backslashes stay text.
TEST(CsvSniffCases, EscapeOnlyWhenConsistent) {
  const std::string text = "id,path,note\n1,\"C:\\dir\\x\",\"a, b\"\n2,\"5\\\" screen\",c\n3,\"D:\\y\\z\",\"d, e\"\n";
  CsvOptions o;
  o.lenient = true;
  Dialect d;
  auto b = Read(text, o, nullptr, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(d.escape, '"');
  const std::string rows = Rows(**b);
  EXPECT_EQ(rows.rfind("1|C:\\dir\\x|a, b\n2|5\\\"", 0), 0u) << rows;
  EXPECT_NE(rows.find("\n3|D:\\y\\z|d, e\n"), std::string::npos) << rows;
  // Backslash-escaped quotes on two rows: the escape is '\'.
  b = Read("id,text\n1,\"say \\\"hi\\\"\"\n2,\"a \\\"b\\\" c\"\n3,plain\n", {}, nullptr, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(d.escape, '\\');
}

// 7. A leading-zero code first seen after the inference sample fails the read (the column was
// inferred int64 and would drop the zero), naming the line; --types or infer_all read it.
TEST(CsvSniffCases, LeadingZeroAfterTheSampleFailsLoudly) {
  std::string text = "id,zip\n";
  for (int i = 0; i < 25000; ++i) text += std::to_string(i) + "," + std::to_string(10000 + i) + "\n";
  text += "25000,00501\n";
  auto b = Read(text);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("t.csv:25002:2 'zip': cannot convert to int64 without losing its leading zero"),
            std::string::npos)
      << b.status().message();
  EXPECT_NE(b.status().message().find("got \"00501\""), std::string::npos) << b.status().message();
  // The same in a float column, and in the 8-row path's reach (a short value in a full group).
  std::string f = "x\n";
  for (int i = 0; i < 25000; ++i) f += "1.5\n";
  f += "1.5\n1.5\n1.5\n1.5\n007.5\n1.5\n1.5\n1.5\n";
  b = Read(f);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("cannot convert to double without losing its leading zero"), std::string::npos)
      << b.status().message();
  // Given as int64, the value is a number; inferred over the whole file, the column is text.
  CsvOptions o;
  o.column_types = {{"zip", int64()}};
  b = Read(text, o);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  CsvOptions on_null;
  on_null.on_error = OnError::kNull;
  CsvReadStats st;
  b = Read(text, on_null, &st);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(st.cells_nulled, 1);
  // Zeros that are numbers stay numbers after the sample.
  std::string z = text.substr(0, text.size() - 12) + "25000,0\n25001,-0\n";
  b = Read(z);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
}

}  // namespace
}  // namespace quiver::csv

// Dialect sniffing, preamble and header rules on minimal files: quoted fields spanning lines
// that split alike without quotes, stray quotes beside real quoting, preamble lines shaped like
// the table, header rows with empty cells.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <random>
#include <string>

#include "testing/csv_read.h"

namespace quiver::csv {
namespace {

using testing::Read;
using testing::Rows;
using testing::Types;

// A quoted field over `lines` lines of one delimiter each, so that every line also splits into
// the table's two fields without quotes: id,text / 1,"start / line 0, more / ... " / 2,plain.
std::string OneLongQuotedField(int lines, std::string* value) {
  *value = "start";
  for (int i = 0; i < lines; ++i) *value += "\nline " + std::to_string(i) + ", more";
  return "id,text\n1,\"" + *value + "\"\n2,plain\n3,other\n";
}

TEST(CsvSniff, QuotedFieldOverLinesThatSplitAlikeWithoutQuotes) {
  Dialect d;
  // Two lines: without quotes, three rows of two fields too (and one row too many).
  auto b = Read("id,text\n1,\"first line\nsecond, part\"\n2,plain\n3,other\n", {}, nullptr, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(d.quote, '"');
  EXPECT_EQ(Types(**b), "id:int64 text:string ");
  EXPECT_EQ(Rows(**b), "1|first line\nsecond, part\n2|plain\n3|other\n");
  // 4 KB, and 1 MB (past the 256 KiB the sniffer samples), at one and two threads.
  for (int lines : {300, 70000}) {
    std::string value;
    const std::string text = OneLongQuotedField(lines, &value);
    for (int threads : {1, 2}) {
      CsvOptions o;
      o.threads = threads;
      b = Read(text, o, nullptr, &d);
      ASSERT_TRUE(b.ok()) << lines << ": " << b.status().ToString();
      EXPECT_EQ(d.quote, '"') << lines;
      EXPECT_EQ(d.skip_lines, 0) << lines;
      EXPECT_EQ(Types(**b), "id:int64 text:string ") << lines;
      EXPECT_TRUE(testing::SameText(Rows(**b), "1|" + value + "\n2|plain\n3|other\n")) << lines << " threads " << threads;
    }
  }
}

// A quoted field longer than all the input the reader holds when it sniffs (4 MiB): whether
// the quote is the dialect's cannot be told from the lines, which split alike both ways, so
// the read stops and says what to pass; given the quote, the field reads whole.
TEST(CsvSniff, QuotedFieldLongerThanTheReadAheadStopsTheRead) {
  std::string value;
  const std::string text = OneLongQuotedField(300000, &value);
  ASSERT_GT(text.size(), size_t{5} << 20);
  auto b = Read(text);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("could not detect the CSV quoting: a field opened by \" near the start is "
                                      "still open after "),
            std::string::npos)
      << b.status().message();
  EXPECT_NE(b.status().message().find("(set the quote: to \" for one long quoted field, to none if the quote is text)"),
            std::string::npos)
      << b.status().message();
  CsvOptions o;
  o.quote = '"';
  Dialect d;
  b = Read(text, o, nullptr, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_TRUE(testing::SameText(Rows(**b), "1|" + value + "\n2|plain\n3|other\n"));
}

// One stray or mid-field quote among quoted fields holding commas: the quote is still the
// dialect's (no rows split at quoted commas, no invented preamble). Strict reading then stops
// at the stray quote; --lenient reads it as text.
TEST(CsvSniff, StrayQuotesDoNotHideTheQuoting) {
  const std::string text =
      "id,name,note\n"
      "1,\"Smith, Ann\",\"red, blue\"\n"
      "2,\"Jones, Bob\",a 5\" screen\n"
      "3,\"Lee, Cy\",\"one, two, three\"\n"
      "4,Doe,plain\n";
  CsvOptions lenient;
  lenient.lenient = true;
  Dialect d;
  CsvReadStats st;
  auto b = Read(text, lenient, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(d.quote, '"');
  EXPECT_EQ(d.skip_lines, 0);
  EXPECT_TRUE(d.header);
  EXPECT_EQ(Types(**b), "id:int64 name:string note:string ");
  EXPECT_EQ(Rows(**b), "1|Smith, Ann|red, blue\n2|Jones, Bob|a 5\" screen\n3|Lee, Cy|one, two, three\n4|Doe|plain\n");
  auto strict = Read(text, {}, nullptr, &d);
  EXPECT_EQ(d.quote, '"');
  EXPECT_EQ(strict.status().message(), "t.csv:3:3: quote inside an unquoted field (byte 58)");
  // Only stray quotes and no quoted field: no quote character, and the strict read succeeds.
  b = Read("a,b\n1,x\"y\n2,5\" screen\n", {}, nullptr, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(d.quote, '\0');
  EXPECT_EQ(Rows(**b), "1|x\"y\n2|5\" screen\n");
}

// The preamble: lines before the table that are not its rows. A title padded with delimiters
// to the table's width is one; a header with one extra empty cell is the header.
TEST(CsvSniff, PreambleLinesAndPollutedHeaders) {
  Dialect d;
  auto b = Read("Sales report for 2024,,\nid,name,score\n1,ann,3\n2,bob,4\n", {}, nullptr, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(d.skip_lines, 1);
  EXPECT_EQ(Types(**b), "id:int64 name:string score:int64 ");
  EXPECT_EQ(Rows(**b), "1|ann|3\n2|bob|4\n");
  for (bool lenient : {false, true}) {
    CsvOptions o;
    o.lenient = lenient;
    b = Read("id,name,score,\n1,ann,3\n2,bob,4\n", o, nullptr, &d);
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    EXPECT_EQ(d.skip_lines, 0);
    EXPECT_TRUE(d.header);
    EXPECT_EQ(Types(**b), "id:int64 name:string score:int64 ");
    EXPECT_EQ(Rows(**b), "1|ann|3\n2|bob|4\n");
  }
  // A first row of the table's width with one value that is no free text is data.
  b = Read("1,,\n2,a,b\n3,c,d\n", {}, nullptr, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(d.skip_lines, 0);
  EXPECT_EQ(Rows(**b), "1|null|null\n2|a|b\n3|c|d\n");
}

// A footer of prose after the table (lenient, whole input in hand): its lines are skipped and
// counted, so they neither become rows of nulls nor turn the id column into text. Strict
// reads still fail on it; a short last row of data, or a table whose first column is itself
// prose, keeps every row.
TEST(CsvSniff, LenientSkipsAFooterOfProse) {
  const std::string table = "id,name,amount\n1,a,2.5\n2,b,3.5\n3,c,4.5\n";
  CsvOptions lenient;
  lenient.lenient = true;
  Dialect d;
  CsvReadStats st;
  for (const std::string& footer : {std::string("\nSource: Example Bureau of Statistics, 2024.\nNote: amounts in thousands\n"),
                                   std::string("Source: the bureau, 2024\r\nNote: see the notes, a, b, c, d"),
                                   std::string("Total amounts for the year,,\n")}) {
    auto b = Read(table + footer, lenient, &st, &d);
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    EXPECT_EQ(Types(**b), "id:int64 name:string amount:double ") << footer;
    EXPECT_EQ(Rows(**b), "1|a|2.5\n2|b|3.5\n3|c|4.5\n") << footer;
    const int64_t lines = footer.rfind("Total", 0) == 0 ? 1 : footer[0] == '\n' ? 3 : 2;
    EXPECT_EQ(d.footer_lines, lines) << footer;
    EXPECT_EQ(st.footer_lines, lines) << footer;
    EXPECT_EQ(st.rows_repaired, 0) << footer;
  }
  auto strict = Read(table + "\nSource: Example Bureau of Statistics, 2024.\n");
  ASSERT_FALSE(strict.ok());
  EXPECT_EQ(strict.status().message(), "t.csv:6: expected 3 fields, got 2 (byte 40)");
  // Data, not a footer: a short last row whose first cell is a value, and a table whose first
  // column is prose.
  auto b = Read(table + "4,d\n", lenient, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(d.footer_lines, 0);
  EXPECT_EQ(Rows(**b), "1|a|2.5\n2|b|3.5\n3|c|4.5\n4|d|null\n");
  b = Read("name,city,age\nAnn Lee,Oslo,31\nBob Ray,Rome,42\nCid Moe,Kiel,50\nDee Fox Jr,Riga\n", lenient, &st, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(d.footer_lines, 0);
  EXPECT_EQ(Rows(**b), "Ann Lee|Oslo|31\nBob Ray|Rome|42\nCid Moe|Kiel|50\nDee Fox Jr|Riga|null\n");
}

// A header row with empty cells (survey exports): the header, its empty cells named as
// DuckDB names them. A first row whose cells read as numbers stays data.
TEST(CsvSniff, HeaderWithEmptyCells) {
  Dialect d;
  auto b = Read("name,,city,\nann,x,paris,1\nbob,y,rome,2\n", {}, nullptr, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_TRUE(d.header);
  EXPECT_EQ(Types(**b), "name:string column1:string city:string column3:int64 ");
  EXPECT_EQ(Rows(**b), "ann|x|paris|1\nbob|y|rome|2\n");
  b = Read("Respondent,Q1 age,,Q2 city,\n1,20,x,Oslo,\n2,31,,Rome,yes\n", {}, nullptr, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_TRUE(d.header);
  EXPECT_EQ(Types(**b), "Respondent:int64 Q1 age:int64 column2:string Q2 city:string column4:bool ");
  b = Read("1,,3\n4,5,6\n", {}, nullptr, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_FALSE(d.header);
  EXPECT_EQ(Rows(**b), "1|null|3\n4|5|6\n");
  // One text cell and the rest empty: no header (too little to tell it from data).
  b = Read("ann,,\nbob,x,y\ncy,z,w\n", {}, nullptr, &d);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_FALSE(d.header);
}

// Generated tables with quoted fields over several lines at random rows (some of one delimiter
// per line, which also split into the table's fields without quotes), of a few rows up to past
// the 256 KiB the sniffer samples, with a long such field across that cut: read back equal,
// everything detected, at one and two threads and with small blocks.
TEST(CsvSniff, RandomTablesWithQuotedFieldsOverLines) {
  std::mt19937_64 rng(19);
  const std::vector<std::string> texts = {"alpha", "beta gamma", "two\nlines", "a\nb, c", "say \"hi\"", "x, y",
                                          "start\nline, more\nline, more", "tab\there", "\xC3\xA9t\xC3\xA9"};
  // Two columns, text that only rarely spans lines and then with one delimiter per line:
  // the one quoted field in a while is all that tells the quote.
  const std::vector<std::string> sparse = {"alpha", "beta gamma", "first\nsecond, part", "start\nline, more\nline, more"};
  for (int round = 0; round < 12; ++round) {
    const bool big = round % 2 == 1;
    const bool two = round >= 4;
    const int64_t rows = big ? (two ? 19500 : 9000) + static_cast<int64_t>(rng() % 2000) : 2 + static_cast<int64_t>(rng() % 400);
    std::string csv = two ? "id,text\n" : "id,text,n,day\n", expected;
    bool long_field_placed = false;
    for (int64_t r = 0; r < rows; ++r) {
      std::string v = two ? sparse[rng() % 60 == 0 ? 2 + rng() % 2 : rng() % 2] : texts[rng() % texts.size()];
      if (big && !long_field_placed && csv.size() > (256 << 10) - 2000) {
        v = "long";
        for (int i = 0; i < 300; ++i) v += "\nline " + std::to_string(i) + ", more";
        long_field_placed = true;
      }
      std::string field = v;
      if (v.find_first_of(",\"\n") != std::string::npos) {
        field = "\"";
        for (char c : v) field += c == '"' ? std::string("\"\"") : std::string(1, c);
        field += "\"";
      }
      const double n = static_cast<double>(static_cast<int64_t>(rng() % 100000)) / 4.0;
      const std::string day = fmt::format("2024-{:02}-{:02}", 1 + rng() % 12, 1 + rng() % 28);
      csv += two ? fmt::format("{},{}\n", r, field) : fmt::format("{},{},{},{}\n", r, field, n, day);
      expected += two ? fmt::format("{}|{}\n", r, v) : fmt::format("{}|{}|{}|{}\n", r, v, n, day);
    }
    ASSERT_EQ(long_field_placed, big) << round;
    for (int threads : {1, 2}) {
      for (int64_t block : {int64_t{4} << 20, int64_t{65536}}) {
        CsvOptions o;
        o.threads = threads;
        o.block_size = block;
        Dialect d;
        auto b = Read(csv, o, nullptr, &d);
        ASSERT_TRUE(b.ok()) << "round " << round << ": " << b.status().ToString();
        EXPECT_EQ(d.quote, '"') << round;
        EXPECT_EQ(Types(**b), two ? "id:int64 text:string " : "id:int64 text:string n:double day:date32 ") << round;
        EXPECT_TRUE(testing::SameText(Rows(**b), expected)) << "round " << round << " rows " << rows << " threads " << threads
                                                            << " block " << block;
      }
    }
  }
}

}  // namespace
}  // namespace quiver::csv

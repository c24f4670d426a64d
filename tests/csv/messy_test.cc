// A home-made messy-file benchmark: one clean table (text with commas and quotes, numbers,
// dates, cells over several lines) written with one pollution at a time and a few combined,
// each read with --lenient and the dialect fully detected, and scored: header names right,
// and every row the pollution did not break present with every value right. Prints a
// summary table.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "testing/csv_read.h"

namespace quiver::csv {
namespace {

using Table = std::vector<std::vector<std::string>>;  // header first

Table CleanTable() {
  const char* names[] = {"Smith, Ann", "Jones", "Lee, Cy", "Doe", "O'Brien, Pat", "Kim", "Diaz, Luis", "Wu"};
  const char* cities[] = {"Oslo", "Rome", "New York", "Paris", "Lima", "Cairo", "Kyiv", "Porto"};
  const char* notes[] = {"plain", "two\nlines", "say \"hi\"", "a, b, c", "first\nsecond, part", "ok", "x", "end of note"};
  Table t = {{"id", "name", "city", "amount", "date", "note"}};
  for (int i = 1; i <= 30; ++i) {
    t.push_back({std::to_string(i), names[i % 8], cities[(i * 3) % 8], fmt::format("{}.{}", i * 7 % 100, 1 + i % 9),
                 fmt::format("2024-{:02}-{:02}", 1 + i % 12, 1 + i % 28), notes[(i * 5) % 8]});
  }
  return t;
}

std::string Field(const std::string& v, char delim) {
  if (v.find_first_of(std::string{delim, '"', '\n', '\r'}) == std::string::npos) return v;
  std::string q = "\"";
  for (char c : v) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

// One line of text per table row (quoted cells may hold line breaks), without its line end.
std::vector<std::string> Lines(const Table& t, char delim) {
  std::vector<std::string> lines;
  for (const auto& row : t) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      if (c) line.push_back(delim);
      line.append(Field(row[c], delim));
    }
    lines.push_back(line);
  }
  return lines;
}

// A polluted file: its text, the names a reader should find, and the data rows (1-based ids)
// that the pollution breaks (their values are not checked).
struct Variant {
  std::string name;
  std::string text;
  std::vector<std::string> names;
  std::set<int> broken;
};

struct Pollution {
  std::string name;
  char delim = ',';
  std::string eol = "\n";
  // Edits the table (values) and then the lines (one per table row, the header first).
  std::function<void(Table&, std::set<int>&)> edit_table = nullptr;
  std::function<void(std::vector<std::string>&, std::set<int>&)> edit_lines = nullptr;
  std::string before = "", after = "";  // lines added before the header and after the rows (each with its line end)
};

Variant Make(const Pollution& p, const Table& clean, Table* expected) {
  Variant v;
  v.name = p.name;
  Table t = clean;
  if (p.edit_table) p.edit_table(t, v.broken);
  *expected = t;
  std::vector<std::string> lines = Lines(t, p.delim);
  if (p.edit_lines) p.edit_lines(lines, v.broken);
  v.names = clean[0];
  std::string text = p.before;
  for (const auto& l : lines) text += l + p.eol;
  text += p.after;
  // Line ends outside quoted cells follow the variant; those inside stay LF.
  v.text = text;
  return v;
}

struct Score {
  bool read = false;
  bool header = false;
  int found = 0, required = 0, extra = 0;
  std::string error;
};

Score ScoreRead(const Variant& v, const Table& expected) {
  Score s;
  CsvOptions o;
  o.lenient = true;
  auto b = testing::Read(v.text, o);
  if (!b.ok()) {
    s.error = b.status().message().substr(0, 80);
    for (size_t r = 1; r < expected.size(); ++r) s.required += !v.broken.count(static_cast<int>(r));
    return s;
  }
  s.read = true;
  const RecordBatch& batch = **b;
  std::vector<std::string> names;
  for (const auto& f : batch.schema()->fields()) names.push_back(f.name);
  s.header = names == v.names;
  std::multiset<std::vector<std::string>> got;
  for (int64_t r = 0; r < batch.num_rows(); ++r) {
    std::vector<std::string> row;
    for (int c = 0; c < batch.num_columns(); ++c) row.push_back(FormatValue(batch.column(c), r));
    got.insert(row);
  }
  int matched = 0;
  for (size_t r = 1; r < expected.size(); ++r) {
    auto it = got.find(expected[r]);
    if (it != got.end()) {
      got.erase(it);
      ++matched;
      if (!v.broken.count(static_cast<int>(r))) ++s.found;
    }
    if (!v.broken.count(static_cast<int>(r))) ++s.required;
  }
  s.extra = static_cast<int>(got.size()) - static_cast<int>(v.broken.size());
  if (s.extra < 0) s.extra = 0;
  (void)matched;
  return s;
}

std::vector<Pollution> Pollutions() {
  std::vector<Pollution> ps;
  auto add = [&](Pollution p) { ps.push_back(std::move(p)); };
  add({.name = "clean"});
  add({.name = "stray quote in an unquoted field",
       .edit_table = [](Table& t, std::set<int>&) { t[5][2] = "Li\"ma"; }});
  add({.name = "mid-field quotes",
       .edit_table = [](Table& t, std::set<int>&) { t[8][1] = "The \"Big\" One"; },
       .edit_lines = [](std::vector<std::string>& l, std::set<int>&) {
         // Written as is, not quoted: the quotes sit inside an unquoted field.
         const std::string quoted = "\"The \"\"Big\"\" One\"";
         l[8].replace(l[8].find(quoted), quoted.size(), "The \"Big\" One");
       }});
  add({.name = "missing closing quote near the end",
       .edit_lines = [](std::vector<std::string>& l, std::set<int>& broken) {
         l[28] += ",\"unfinished";
         broken.insert(28);
       }});
  add({.name = "row with an extra delimiter",
       .edit_lines = [](std::vector<std::string>& l, std::set<int>& broken) {
         l[10].insert(l[10].find(",2024-"), 1, ',');
         broken.insert(10);
       }});
  add({.name = "row with a missing delimiter",
       .edit_lines = [](std::vector<std::string>& l, std::set<int>& broken) {
         l[12].erase(l[12].find(",2024-"), 1);
         broken.insert(12);
       }});
  add({.name = "free-text preamble", .before = "Export of the customer table\nGenerated 2024-06-01 by a tool\n"});
  add({.name = "preamble of the table's width", .before = "Customer export for Q2,,,,,\n"});
  add({.name = "footnotes", .after = "Note: amounts in EUR\nSource: internal systems\n"});
  add({.name = "extra empty header cell",
       .edit_lines = [](std::vector<std::string>& l, std::set<int>&) { l[0] += ","; }});
  add({.name = "header over two lines",
       .edit_lines = [](std::vector<std::string>& l, std::set<int>&) { l[0][l[0].find(",amount")] = '\n'; }});
  add({.name = "blank lines",
       .edit_lines = [](std::vector<std::string>& l, std::set<int>&) {
         l[3] += "\n";
         l[17] += "\n\n";
       },
       .before = "\n"});
  add({.name = "CRLF line ends", .eol = "\r\n"});
  add({.name = "CR line ends", .eol = "\r"});
  add({.name = "delimiter ;", .delim = ';'});
  add({.name = "delimiter tab", .delim = '\t'});
  add({.name = "delimiter |", .delim = '|'});
  add({.name = "preamble + stray quote + CRLF",
       .eol = "\r\n",
       .edit_table = [](Table& t, std::set<int>&) { t[2][2] = "Ro\"me"; },
       .before = "Customer export\r\n"});
  add({.name = "; + footnotes + blank lines",
       .delim = ';',
       .edit_lines = [](std::vector<std::string>& l, std::set<int>&) { l[20] += "\n"; },
       .after = "\nTotal: 30 rows\n"});
  add({.name = "extra header cell + mid-field quote + tab",
       .delim = '\t',
       .edit_table = [](Table& t, std::set<int>&) { t[4][1] = "Al \"Bo\" Cy"; },
       .edit_lines = [](std::vector<std::string>& l, std::set<int>&) {
         l[0] += "\t";
         const std::string quoted = "\"Al \"\"Bo\"\" Cy\"";
         l[4].replace(l[4].find(quoted), quoted.size(), "Al \"Bo\" Cy");
       }});
  add({.name = "table's-width preamble + extra delimiter + |",
       .delim = '|',
       .edit_lines = [](std::vector<std::string>& l, std::set<int>& broken) {
         l[6].insert(l[6].find("|2024-"), 1, '|');
         broken.insert(6);
       },
       .before = "Quarterly report|||||\n"});
  return ps;
}

TEST(CsvMessy, LenientReadsEveryUnbrokenRowOfEveryPollution) {
  const Table clean = CleanTable();
  // QUIVER_MESSY_DIR=folder writes each variant there (to read it with other tools).
  const char* dump = std::getenv("QUIVER_MESSY_DIR");
  std::string table = fmt::format("{:<46} {:>6} {:>7} {:>5}  {}\n", "pollution", "header", "rows", "extra", "error");
  int headers = 0, rows_found = 0, rows_required = 0, files = 0;
  for (const Pollution& p : Pollutions()) {
    Table expected;
    const Variant v = Make(p, clean, &expected);
    const Score s = ScoreRead(v, expected);
    if (dump) std::ofstream(fmt::format("{}/{:02}.csv", dump, files)) << v.text;
    ++files;
    headers += s.header;
    rows_found += s.found;
    rows_required += s.required;
    table += fmt::format("{:<46} {:>6} {:>3}/{:<3} {:>5}  {}\n", p.name, s.header ? "ok" : "WRONG", s.found, s.required, s.extra,
                         s.error);
    EXPECT_TRUE(s.read) << p.name << ": " << s.error;
    EXPECT_TRUE(s.header) << p.name;
    EXPECT_EQ(s.found, s.required) << p.name;
    EXPECT_EQ(s.extra, 0) << p.name;  // footnotes, blank lines and preambles make no rows
  }
  table += fmt::format("{} files: header right in {}, {} of {} unbroken rows read right\n", files, headers, rows_found,
                       rows_required);
  std::cout << table;
}

}  // namespace
}  // namespace quiver::csv

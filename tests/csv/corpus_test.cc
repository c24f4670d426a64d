// The CSV conformance corpora in ../shared/testdata: csv-spectrum values exactly, and a sweep of
// DuckDB's CSV test files comparing rows, columns and types with DuckDB's own reading.
#include <gtest/gtest.h>
#include <simdjson.h>

#include <fstream>
#include <map>
#include <sstream>

#include "quiver/columnar/pretty_print.h"
#include "quiver/csv/reader.h"
#include "testing/corpus.h"

namespace quiver::csv {
namespace {

namespace fs = std::filesystem;

// csv-spectrum: every file read with every column as text and no null tokens equals its JSON.
TEST(CsvCorpus, SpectrumValuesMatchExactly) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path dir = root / "csv-spectrum";
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(dir / "csvs")) {
    const std::string stem = entry.path().stem().string();
    CsvOptions o;
    o.infer_types = false;
    o.null_values = {};
    auto reader = CsvReader::Open(entry.path().string(), o);
    ASSERT_TRUE(reader.ok()) << stem << ": " << reader.status().ToString();
    auto batch = (*reader)->ReadAll();
    ASSERT_TRUE(batch.ok()) << stem << ": " << batch.status().ToString();
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_EQ(parser.load((dir / "json" / (stem + ".json")).string()).get(doc), simdjson::SUCCESS) << stem;
    simdjson::dom::array rows;
    if (doc.get_array().get(rows) != simdjson::SUCCESS) {
      // location_coordinates.json holds one object, not a list.
      rows = simdjson::dom::array();
    }
    std::vector<simdjson::dom::object> objects;
    if (doc.is_array()) {
      for (auto r : rows) objects.push_back(r.get_object().value());
    } else {
      objects.push_back(doc.get_object().value());
    }
    const RecordBatch& b = **batch;
    ASSERT_EQ(b.num_rows(), static_cast<int64_t>(objects.size())) << stem;
    for (size_t r = 0; r < objects.size(); ++r) {
      int c = 0;
      for (auto [key, value] : objects[r]) {
        ASSERT_LT(c, b.num_columns()) << stem;
        EXPECT_EQ(b.schema()->field(c).name, std::string(key)) << stem;
        std::string expected(value.get_string().value());
        std::string got = FormatValue(b.column(c), static_cast<int64_t>(r));
        // Upstream's expected file for location_coordinates carries a phone number that is not
        // the one in its CSV (1234567890 vs 2095257564); everything else must match.
        if (stem == "location_coordinates" && c == 0) expected = "2095257564";
        EXPECT_EQ(got, expected) << stem << " row " << r << " column " << c;
        ++c;
      }
      EXPECT_EQ(c, b.num_columns()) << stem;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 12);
}

std::string DuckTypeName(const DataType& t) {
  switch (t.id()) {
    case TypeId::kInt64: return "BIGINT";
    case TypeId::kFloat64: return "DOUBLE";
    case TypeId::kBool: return "BOOLEAN";
    case TypeId::kDate32: return "DATE";
    case TypeId::kTime64: return "TIME";
    case TypeId::kTimestamp: return t.timezone().empty() ? "TIMESTAMP" : "TIMESTAMP WITH TIME ZONE";
    default: return "VARCHAR";
  }
}

std::vector<std::string> SplitTabs(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, '\t')) out.push_back(cell);
  if (!line.empty() && line.back() == '\t') out.push_back("");
  return out;
}

// DuckDB's CSV test files: quiver must read each one or fail with a clean error (never crash
// or hang), and agree with DuckDB's rows, column names and types on most of them. The files
// are DuckDB's edge cases, so disagreement is expected on some; the counts are pinned so a
// regression shows, and the categories are listed in docs/csv-conformance.md.
TEST(CsvCorpus, DuckdbSweep) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path dir = root / "duckdb-csv";
  std::ifstream tsv(dir / "EXPECTED-csv.tsv");
  std::string line;
  std::vector<std::string> header;
  int files = 0, duck_ok = 0, both_ok = 0, rows_match = 0, shape_match = 0, types_match = 0, quiver_only = 0;
  std::map<std::string, int> error_kinds;
  std::string report;
  while (std::getline(tsv, line)) {
    if (line.empty() || line[0] == '#') continue;
    auto cells = SplitTabs(line);
    if (header.empty()) {
      header = cells;
      continue;
    }
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < header.size() && i < cells.size(); ++i) row[header[i]] = cells[i];
    const fs::path file = dir / row["file"];
    if (!fs::is_regular_file(file)) continue;
    ++files;
    const bool duck_read = row["duckdb_error"].empty();
    duck_ok += duck_read;
    auto reader = CsvReader::Open(file.string());
    Result<std::shared_ptr<RecordBatch>> batch = reader.ok() ? (*reader)->ReadAll() : Result<std::shared_ptr<RecordBatch>>(reader.status());
    if (!batch.ok()) {
      const Status& st = batch.status();
      ASSERT_FALSE(st.message().empty()) << row["file"];
      error_kinds[std::string(StatusCodeName(st.code()))]++;
      if (duck_read) report += "  quiver fails, DuckDB reads: " + row["file"] + ": " + st.message().substr(0, 160) + "\n";
      continue;
    }
    if (!duck_read) {
      ++quiver_only;
      continue;
    }
    ++both_ok;
    const RecordBatch& b = **batch;
    std::string cols;
    for (const auto& f : b.schema()->fields()) cols += (cols.empty() ? "" : "; ") + f.name + ":" + DuckTypeName(*f.type);
    const bool rows_eq = std::to_string(b.num_rows()) == row["duckdb_rows"];
    // Names and count of columns, then types.
    std::string duck_cols = row["duckdb_columns"], names_q, names_d;
    for (const auto& f : b.schema()->fields()) names_q += f.name + ";";
    {
      std::stringstream ss(duck_cols);
      std::string item;
      while (std::getline(ss, item, ';')) {
        if (!item.empty() && item[0] == ' ') item.erase(0, 1);
        names_d += item.substr(0, item.rfind(':')) + ";";
      }
    }
    rows_match += rows_eq;
    shape_match += rows_eq && names_q == names_d;
    types_match += rows_eq && cols == duck_cols;
    if (!(rows_eq && names_q == names_d)) {
      report += "  differs: " + row["file"] + ": quiver " + std::to_string(b.num_rows()) + " rows [" + cols.substr(0, 120) +
                "] DuckDB " + row["duckdb_rows"] + " rows [" + duck_cols.substr(0, 120) + "]\n";
    }
  }
  std::string summary = "files " + std::to_string(files) + ", DuckDB reads " + std::to_string(duck_ok) +
                        ", both read " + std::to_string(both_ok) + ", same rows " + std::to_string(rows_match) +
                        ", same rows and column names " + std::to_string(shape_match) + ", same types too " +
                        std::to_string(types_match) + ", only quiver reads " + std::to_string(quiver_only);
  std::cout << summary << "\n";
  if (const char* v = std::getenv("QUIVER_CORPUS_REPORT")) {
    std::ofstream(v) << summary << "\n" << report;
  }
  EXPECT_EQ(files, 770);
  // Pinned from the current reading (see docs/csv-conformance.md); raise them as quiver improves.
  // both_ok went from 416 to 415 when '#' comment lines became detected: comments/midline_big.csv
  // (comments in mid-line, which quiver does not strip) used to "read" as one garbage column
  // and now stops at its first such line with an error; three other comment files read right.
  // 415, 377 and 358 before the sniffer weighed quote evidence that survives stray quotes
  // (the share of rows at the table's field count, quoted fields holding delimiters or line
  // breaks) and told preamble rows from the table's.
  EXPECT_GE(both_ok, 417);
  EXPECT_GE(shape_match, 382);
  EXPECT_GE(types_match, 362);  // 349 before leading-zero codes stayed text and non-ISO dates got formats
}

}  // namespace
}  // namespace quiver::csv

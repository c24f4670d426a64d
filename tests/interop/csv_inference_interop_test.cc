// Property test over generated CSV tables: `quiver convert` to Parquet, read back by the pinned
// DuckDB (check_table.mjs), must give every generated value with the type it was meant to get:
// leading-zero codes as text, ISO and non-ISO dates (month-, day- and year-first) as dates,
// timestamps, integers, decimals and quoted text with commas, quotes and line breaks.
// Skipped when node/npm are missing.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <random>

#include "quiver/columnar/pretty_print.h"
#include "testing/run_cli.h"

namespace quiver {
namespace {

namespace fs = std::filesystem;

// One generated column: its DuckDB type, and per row the CSV field and the expected JSON value.
struct Column {
  std::string name, duckdb_type;
  std::vector<std::string> csv, json;
};

struct Date {
  int y, m, d;
};

class Generator {
 public:
  explicit Generator(uint32_t seed) : rng_(seed) {}
  int Int(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  // Days 1..28 (every month has them); the first row's day is above 12, so that day-first and
  // month-first readings part.
  Date RandomDate(int row) { return {Int(1900, 2099), Int(1, 12), row == 0 ? Int(13, 28) : Int(1, 28)}; }

  Column Make(int kind, int index, int rows) {
    Column c;
    c.name = fmt::format("c{}", index);
    for (int r = 0; r < rows; ++r) {
      std::string csv, json;
      // Nulls (empty fields) in number and date columns, never in the first row.
      const bool null = r > 0 && kind != kCode && kind != kText && Chance(0.05);
      Date dt = RandomDate(r);
      const std::string iso = fmt::format("{:04}-{:02}-{:02}", dt.y, dt.m, dt.d);
      switch (kind) {
        case kCode: {
          c.duckdb_type = "VARCHAR";
          const int width = 5;
          csv = r == 0 ? fmt::format("0{:0{}}", Int(0, 9999), width - 1) : fmt::format("{:0{}}", Int(0, 99999), width);
          json = "\"" + csv + "\"";
          break;
        }
        case kInt:
          c.duckdb_type = "BIGINT";
          csv = std::to_string(Int(-1000000, 1000000));
          json = csv;
          break;
        case kFloat: {
          c.duckdb_type = "DOUBLE";
          const int k = Int(-99999, 99999);
          csv = fmt::format("{}{}.{:02}", k < 0 ? "-" : "", std::abs(k) / 100, std::abs(k) % 100);
          json = csv;
          break;
        }
        case kIsoDate:
          c.duckdb_type = "DATE";
          csv = iso;
          json = "\"" + iso + "\"";
          break;
        case kMonthFirst:
          c.duckdb_type = "DATE";
          csv = fmt::format("{}/{}/{}", dt.m, dt.d, dt.y);
          json = "\"" + iso + "\"";
          break;
        case kDayFirst:
          c.duckdb_type = "DATE";
          csv = fmt::format("{:02}/{:02}/{}", dt.d, dt.m, dt.y);
          json = "\"" + iso + "\"";
          break;
        case kDayFirstDots:
          c.duckdb_type = "DATE";
          csv = fmt::format("{}.{}.{}", dt.d, dt.m, dt.y);
          json = "\"" + iso + "\"";
          break;
        case kYearFirst:
          c.duckdb_type = "DATE";
          csv = fmt::format("{}/{:02}/{:02}", dt.y, dt.m, dt.d);
          json = "\"" + iso + "\"";
          break;
        case kTimestamp: {
          c.duckdb_type = "TIMESTAMP";
          const int h = Int(0, 23), mi = Int(0, 59), s = Int(0, 59);
          csv = fmt::format("{}/{:02}/{:02} {:02}:{:02}:{:02}", dt.y, dt.m, dt.d, h, mi, s);
          json = fmt::format("\"{} {:02}:{:02}:{:02}\"", iso, h, mi, s);
          break;
        }
        case kMonthFirstMinutes: {
          c.duckdb_type = "TIMESTAMP";
          const int h = Int(0, 23), mi = Int(0, 59);
          csv = fmt::format("{}/{}/{} {}:{:02}", dt.m, dt.d, dt.y, h, mi);
          json = fmt::format("\"{} {:02}:{:02}:00\"", iso, h, mi);
          break;
        }
        case kText: {
          c.duckdb_type = "VARCHAR";
          static const std::vector<std::string> pieces = {"a", "b", "x", "y", " ", ",", "\"", "\n", "\xc3\xa9", "0", "7", "-", "/"};
          std::string v(1, "abdgh"[Int(0, 4)]);
          for (int n = Int(1, 12); n > 0; --n) v += pieces[static_cast<size_t>(Int(0, static_cast<int>(pieces.size()) - 1))];
          std::string quoted = "\"";
          for (char ch : v) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
          csv = quoted + "\"";
          // Unquoted when nothing in it needs quotes.
          if (v.find_first_of(",\"\n ") == std::string::npos) csv = v;
          AppendJsonQuoted(v, &json);
          break;
        }
      }
      if (null) {
        csv.clear();
        json = "null";
      }
      c.csv.push_back(std::move(csv));
      c.json.push_back(std::move(json));
    }
    return c;
  }

  enum Kind { kCode, kInt, kFloat, kIsoDate, kMonthFirst, kDayFirst, kDayFirstDots, kYearFirst, kTimestamp,
              kMonthFirstMinutes, kText, kKinds };

 private:
  std::mt19937 rng_;
};

TEST(CsvInferenceInterop, GeneratedTablesReadBackByDuckDb) {
  std::string node_dir;
  auto setup = testing::SetUpInteropEngines(&node_dir);
  if (setup.code != 0) GTEST_SKIP() << "DuckDB unavailable, CSV inference not checked against it: " << setup.out;
  const fs::path dir = fs::path("/tmp") / fmt::format("quiver-csv-infer-interop-{}", getpid());
  fs::create_directories(dir);
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    Generator g(seed);
    const int rows = g.Int(50, 3000);
    std::vector<Column> cols;
    // Every kind once, in a random order, then a few more drawn at random.
    std::vector<int> kinds;
    for (int k = 0; k < Generator::kKinds; ++k) kinds.push_back(k);
    for (int extra = g.Int(0, 4); extra > 0; --extra) kinds.push_back(g.Int(0, Generator::kKinds - 1));
    std::shuffle(kinds.begin(), kinds.end(), std::mt19937(seed));
    for (size_t i = 0; i < kinds.size(); ++i) cols.push_back(g.Make(kinds[i], static_cast<int>(i), rows));

    std::string csv = "id", jsonl = "{\"types\":{\"id\":\"BIGINT\"";
    for (const Column& c : cols) {
      csv += "," + c.name;
      jsonl += fmt::format(",\"{}\":\"{}\"", c.name, c.duckdb_type);
    }
    csv += "\n";
    jsonl += "}}\n";
    for (int r = 0; r < rows; ++r) {
      csv += std::to_string(r);
      jsonl += fmt::format("{{\"id\":{}", r);
      for (const Column& c : cols) {
        csv += "," + c.csv[static_cast<size_t>(r)];
        jsonl += fmt::format(",\"{}\":{}", c.name, c.json[static_cast<size_t>(r)]);
      }
      csv += g.Chance(0.1) ? "\r\n" : "\n";
      jsonl += "}\n";
    }
    const std::string in = (dir / fmt::format("t{}.csv", seed)).string();
    const std::string out = (dir / fmt::format("t{}.parquet", seed)).string();
    const std::string expected = (dir / fmt::format("t{}.jsonl", seed)).string();
    std::ofstream(in, std::ios::binary) << csv;
    std::ofstream(expected, std::ios::binary) << jsonl;
    for (int threads : {1, 2}) {
      auto conv = testing::RunCli(fmt::format("convert {} {} --threads {}", in, out, threads));
      ASSERT_EQ(conv.exit_code, 0) << "seed " << seed << ": " << conv.err;
      auto check = testing::RunShell("node " + node_dir + "/check_table.mjs " + out + " " + expected);
      EXPECT_EQ(check.code, 0) << "seed " << seed << ", " << threads << " threads: " << check.out;
      EXPECT_NE(check.out.find("\"ok\":true"), std::string::npos) << check.out;
      fs::remove(out);
    }
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace quiver

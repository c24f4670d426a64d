// Helpers shared by the Parquet footer tests: EXPECTED.tsv parsing and corpus file listing.
#pragma once

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace quiver::parquet::testing {

struct ExpectedRow {
  std::string file;  // relative to parquet-testing/
  std::string rows, columns, duckdb_error, footer_rows, row_groups, created_by;
};

inline std::vector<std::string> SplitTabs(const std::string& line) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t p = line.find('\t', start);
    out.push_back(line.substr(start, p == std::string::npos ? std::string::npos : p - start));
    if (p == std::string::npos) break;
    start = p + 1;
  }
  return out;
}

inline std::vector<ExpectedRow> ReadExpected(const std::filesystem::path& tsv) {
  std::ifstream in(tsv);
  std::vector<ExpectedRow> rows;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    auto f = SplitTabs(line);
    f.resize(10);
    rows.push_back({f[0], f[1], f[2], f[3], f[4], f[5], f[8]});
  }
  return rows;
}

// "a:INTEGER; b:STRUCT(x INTEGER, y VARCHAR)" -> ["a:INTEGER", "b:STRUCT(...)"]. Splits on
// "; " only outside parentheses and quotes. Names may contain ':', so callers match
// "<name>:" as a prefix.
inline std::vector<std::string> SplitColumns(const std::string& s) {
  std::vector<std::string> out;
  int depth = 0;
  bool quote = false;
  std::string cur;
  auto flush = [&] {
    if (!cur.empty()) out.push_back(cur);
    cur.clear();
  };
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\'') quote = !quote;
    if (!quote && c == '(') ++depth;
    if (!quote && c == ')') --depth;
    if (!quote && depth == 0 && c == ';' && i + 1 < s.size() && s[i + 1] == ' ') {
      flush();
      ++i;
      continue;
    }
    cur += c;
  }
  flush();
  return out;
}

inline bool EndsWithMagic(const std::filesystem::path& p, const char* magic) {
  std::ifstream in(p, std::ios::binary);
  in.seekg(-4, std::ios::end);
  char buf[4] = {};
  in.read(buf, 4);
  return in && std::string(buf, 4) == magic;
}

}  // namespace quiver::parquet::testing

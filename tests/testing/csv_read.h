// CSV test helpers: text read through CsvReader::OpenBuffer, and batches printed as rows of
// "v|v|v" lines and "name:type" lists, for exact comparisons.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <span>
#include <string>

#include "quiver/columnar/pretty_print.h"
#include "quiver/csv/reader.h"

namespace quiver::csv::testing {

inline std::shared_ptr<Buffer> Bytes(const std::string& s) {
  return *Buffer::CopyOf(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
}

inline Result<std::shared_ptr<RecordBatch>> Read(const std::string& text, CsvOptions o = {}, CsvReadStats* stats = nullptr,
                                                 Dialect* dialect = nullptr) {
  QUIVER_ASSIGN_OR_RETURN(auto r, CsvReader::OpenBuffer(Bytes(text), o, "t.csv"));
  if (dialect) *dialect = r->dialect();
  QUIVER_ASSIGN_OR_RETURN(auto b, r->ReadAll());
  if (stats) *stats = r->stats();
  return b;
}

// Every row as "v|v|v" lines, values printed by the pretty printer.
inline std::string Rows(const RecordBatch& b) {
  std::string s;
  for (int64_t r = 0; r < b.num_rows(); ++r) {
    for (int c = 0; c < b.num_columns(); ++c) {
      if (c) s += "|";
      FormatValue(b.column(c), r, &s);
    }
    s += "\n";
  }
  return s;
}

// Batches printed as a "-- N rows" line before each batch's rows: the rows alone, for input cut
// into other batches (of unknown size, transcoded) than the read it is compared with.
inline std::string RowsOfBatches(const std::string& batches) {
  std::string rows;
  for (size_t at = 0; at < batches.size();) {
    const size_t eol = batches.find('\n', at);
    const std::string line = batches.substr(at, eol - at + 1);
    if (line.rfind("-- ", 0) != 0) rows += line;
    at = eol + 1;
  }
  return rows;
}

inline std::string Types(const RecordBatch& b) {
  std::string s;
  for (const auto& f : b.schema()->fields()) s += f.name + ":" + f.type->ToString() + " ";
  return s;
}

// Equality of long texts, reported as the first differing byte and a few bytes around it
// (gtest's own diff of megabyte strings takes quadratic memory).
inline ::testing::AssertionResult SameText(const std::string& got, const std::string& want) {
  if (got == want) return ::testing::AssertionSuccess();
  size_t at = 0;
  while (at < got.size() && at < want.size() && got[at] == want[at]) ++at;
  const size_t from = at > 40 ? at - 40 : 0;
  return ::testing::AssertionFailure() << "differ at byte " << at << " (sizes " << got.size() << " and " << want.size()
                                       << "): got \"" << got.substr(from, 120) << "\", want \"" << want.substr(from, 120) << "\"";
}

}  // namespace quiver::csv::testing

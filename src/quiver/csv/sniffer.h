// Dialect sniffing: tries delimiter, quote and escape candidates on a sample and keeps the
// one under which the largest share of rows agrees on a field count, then the one whose quote
// changes the split more often than it is stray, skipping a preamble of lines that are not
// the table's (rules in docs/csv-conformance.md). Without --comment, lines starting with '#'
// are taken as comments when that reading splits into columns where the plain one could not,
// or removes only rows that did not fit.
#pragma once

#include <cstdint>
#include <string_view>

#include "quiver/core/result.h"
#include "quiver/csv/options.h"

namespace quiver::csv {

struct SniffResult {
  Dialect dialect;   // header left to type inference
  int num_columns = 0;
  int64_t rows_sampled = 0;
  // Byte offset where the table ends: before the footer (dialect.footer_lines), else the size
  // of the input.
  size_t table_end = 0;
};

// `input` is the start of the input (BOM already removed); `at_end` when it is all of it. The
// first 256 KiB are sampled; a quoted field open there is read on through the rest. With
// options.lenient and `at_end`, a footer of prose lines after the table is found (rules in
// docs/csv-conformance.md) and left out of table_end.
Result<SniffResult> SniffDialect(std::string_view input, bool at_end, const CsvOptions& options);

// Physical lines (LF, or CR not followed by LF) in text.
int64_t CountLineBreaks(const uint8_t* data, size_t n);
// Offset just past the first `lines` physical lines (n when there are fewer).
size_t SkipLines(const uint8_t* data, size_t n, int64_t lines);

}  // namespace quiver::csv

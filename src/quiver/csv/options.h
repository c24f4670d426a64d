// CsvOptions: everything a CSV read can be told (dialect, tokens, types, error policy).
// Unset dialect fields are sniffed from the data.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "quiver/columnar/type.h"
#include "quiver/core/result.h"
#include "quiver/csv/problems.h"

namespace quiver::csv {

enum class OnError {
  kFail,  // stop at the first bad row with file:line:column, the value and the reason
  kSkip,  // drop the row (handed to on_reject when set), count it
  kNull,  // a cell that does not convert becomes null, counted
};

enum class Encoding { kUtf8, kLatin1, kUtf16 };

struct Dialect {
  char delimiter = ',';
  // A two-byte delimiter's second byte (", " "; " "\t " "||"; '\0': a one-byte delimiter): a
  // delimiter is `delimiter` then this byte, and a quote after both opens a quoted field.
  char delimiter_pad = '\0';
  char quote = '"';   // '\0': no quoting
  char escape = '"';  // == quote: doubled quotes (RFC 4180); '\\': backslash inside quotes
  bool header = true;
  int64_t skip_lines = 0;  // physical lines before the header (or first row)
  int64_t header_lines = 1;  // physical lines the header spans (more than one: joined by --lenient)
  char comment = '\0';     // lines starting with it are skipped; '\0': none
  int64_t footer_lines = 0;  // lenient: physical lines of prose after the table, skipped
  // lenient: the line (1-based) where a second table stacked under the first starts (its
  // header after a blank line); it and the lines after it are among footer_lines. 0: none.
  int64_t second_table_line = 0;

  std::string ToString() const;
};

struct CsvOptions {
  // Dialect: what is set here wins; the rest is sniffed.
  std::optional<char> delimiter;
  // With `delimiter`: its second byte ('\0' or unset: a one-byte delimiter). Unset with the
  // delimiter unset: sniffed.
  std::optional<char> delimiter_pad;
  std::optional<char> quote;
  std::optional<char> escape;
  std::optional<bool> header;
  std::optional<int64_t> skip_lines;
  char comment = '\0';

  std::vector<std::string> null_values = {""};
  std::vector<std::string> true_values = {"true", "True", "TRUE", "t", "T", "yes", "Yes", "YES", "1"};
  std::vector<std::string> false_values = {"false", "False", "FALSE", "f", "F", "no", "No", "NO", "0"};
  bool trim_whitespace = false;

  Encoding encoding = Encoding::kUtf8;
  bool replace_invalid_utf8 = false;  // else invalid UTF-8 in a string column is an error

  OnError on_error = OnError::kFail;
  RejectHandler on_reject;     // with kSkip: each dropped row, in file order
  FailureHandler on_failure;   // the problem that fails the read (the CLI adds its flag hint)
  // Messy files: short rows padded with nulls, extra fields dropped, stray quotes literal,
  // blank lines and preambles skipped; every repair is counted.
  bool lenient = false;

  bool infer_types = true;      // false: every column is a string
  int64_t infer_rows = 20480;  // rows sampled for type inference (as many as DuckDB samples)
  bool infer_all = false;      // infer over the whole file (a first pass), so no late value breaks the load
  std::vector<std::pair<std::string, TypePtr>> column_types;  // explicit types by column name
  // Formats of date or timestamp columns named in column_types (date_format.h), by column name.
  std::vector<std::pair<std::string, std::string>> column_formats;
  // Two-digit years (%y) name years in the window of 100 starting here (1930: 30..99 are
  // 1930..1999, 00..29 are 2000..2029). Without it, no format with %y is used or inferred.
  std::optional<int> two_digit_years_from;
  std::vector<std::string> column_names;                      // names when the file has no header

  int64_t batch_rows = 65536;
  int threads = 0;                        // 0: the default pool
  // Bytes read and split per round (per thread). Rounds overlap (the next block is read and
  // mostly parsed while the current one finishes), so two blocks of text and of columns are in
  // memory at once.
  int64_t block_size = int64_t{4} << 20;
  // Bytes of a chunk split, assembled into rows and converted in one go, so that the text,
  // its positions and field spans are still in L2 when the values are parsed.
  int64_t slice_bytes = int64_t{128} << 10;
};

// Parses "id=int64,price=decimal(12,2),ts=timestamp" into column_types. A date, timestamp or
// timestamptz entry may name its format ("d=date:%d/%m/%Y"), added to `formats` (an error
// when `formats` is null). Errors name an entry as `what` (the CLI: its flag).
Result<std::vector<std::pair<std::string, TypePtr>>> ParseColumnTypes(
    const std::string& spec, std::vector<std::pair<std::string, std::string>>* formats = nullptr,
    std::string_view what = "column type");
// Parses a type name: int64, float64, bool, date, timestamp, timestamptz, time, string, decimal(p,s).
Result<TypePtr> ParseTypeName(const std::string& name);

// Sets the delimiter (and its pad) from the way a user names it: one byte ("\t" and "tab" spelled
// out, "space"), or a delimiter and the pad byte after it (", " "; " "\t " "||"). The shells
// take the same names through this one place. Errors name it as `what`.
Status SetDelimiterFromName(std::string_view name, CsvOptions* options, std::string_view what = "delimiter");
// A dialect's delimiter as its bytes: one, or two with its pad (", "), as SetDelimiterFromName takes them.
std::string DelimiterText(const Dialect& dialect);

}  // namespace quiver::csv

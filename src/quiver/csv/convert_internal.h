// Field spans to typed Arrow-layout columns: one tight loop per type over a chunk's rows,
// nulls by token, quoted fields unescaped only when they contain quotes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/columnar/array.h"
#include "quiver/core/buffer.h"
#include "quiver/core/memory_pool.h"
#include "quiver/core/simd_dispatch.h"
#include "quiver/csv/date_format.h"
#include "quiver/csv/options.h"
#include "quiver/csv/spans_internal.h"

namespace quiver::csv {

// How a column's text is read, derived once from CsvOptions.
struct FieldSyntax {
  char quote = '"';
  char escape = '"';
  bool trim = false;
  bool empty_is_null = true;               // the common case, tested without the token list
  std::vector<std::string> null_values;    // other tokens
  std::vector<std::string> true_values;
  std::vector<std::string> false_values;
  bool replace_invalid_utf8 = false;
  std::optional<int> two_digit_years_from;  // CsvOptions::two_digit_years_from

  static FieldSyntax From(const CsvOptions& options, const Dialect& dialect);

  // The field's text (quotes removed, escapes still in place) and whether it was quoted.
  // Returns false for null (missing, or a null token; a quoted value is a null only when a
  // token matches its text and the column is not a string column).
  // Inline: it runs once per field.
  bool Text(const uint8_t* data, const FieldSpan& f, bool string_column, std::string_view* text, bool* quoted) const {
    if (f.start == FieldSpan::kMissing) [[unlikely]] return false;
    std::string_view raw(reinterpret_cast<const char*>(data) + f.start, f.end - f.start);
    if (trim) [[unlikely]] raw = TrimSpaces(raw);
    if (!raw.empty() && raw.front() == quote && quote != '\0') [[unlikely]] return QuotedText(raw, string_column, text, quoted);
    *quoted = false;
    *text = raw;
    if (raw.empty()) return !empty_is_null;
    if (!null_values.empty() && IsNullToken(raw)) [[unlikely]] return false;
    return true;
  }
  // Whether a field that is neither empty nor starts with the quote is its own text, valid
  // (no trimming, no null tokens to compare): converters then skip Text for most fields.
  bool Direct() const { return !trim && null_values.empty(); }
  // Appends `text` with doubled quotes / escapes resolved.
  void Unescape(std::string_view text, std::string* out) const;
  bool IsNullToken(std::string_view s) const;

 private:
  static std::string_view TrimSpaces(std::string_view s);
  bool QuotedText(std::string_view raw, bool string_column, std::string_view* text, bool* quoted) const;
};

// A number written with a leading zero ("00501", "-01", "007.5"; not "0", "-0" or "0.5"):
// codes such as ZIP or FIPS codes, whose zeros a numeric column would drop. Inference makes
// such a column text; a column typed int64 or float64 by inference refuses one met later.
inline bool HasLeadingZero(std::string_view s) {
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) s.remove_prefix(1);
  return s.size() > 1 && s[0] == '0' && s[1] >= '0' && s[1] <= '9';
}

enum class ConvertFailure : uint8_t { kNone, kBadValue, kInvalidUtf8 };

struct ConvertError {
  int64_t row = -1;  // index into the chunk's rows
  ConvertFailure failure = ConvertFailure::kNone;
};

// Converts the text of one column (not a columnar builder: values arrive as field spans) of
// successive groups of rows (the slices of a chunk) into one array:
// each group is converted while its text and field spans are still in cache, and the values
// land straight in the column's final buffers.
class TextColumnConverter {
 public:
  // (Re)starts an empty column of `type`; buffers of the previous column were handed over.
  // At `level` kAvx512, int64, float64 and date32 columns convert 8 rows at a time in the
  // common shapes (short integers, decimals with a point, YYYY-MM-DD), the rest one by one.
  // A date32 or timestamp column with a `format` reads its values by that format (which must
  // outlive the builder), one by one.
  // `no_leading_zeros` (a number column whose type was inferred): a value written with a
  // leading zero is refused as a bad value, since the sample made codes like it text.
  Status Init(const TypePtr& type, MemoryPool* pool = default_memory_pool(), SimdLevel level = ActiveSimdLevel(),
              const DateFormat* format = nullptr, bool no_leading_zeros = false);
  // Room for about `rows` more values, so that appends do not regrow the buffers (string
  // bytes are sized at the first append, from its bytes per row).
  Status Reserve(int64_t rows);
  // Converts `rows` values of the column, `fields[r]` being row r's span (a column's spans lie
  // together, so the pass reads them sequentially). `data` must have at least 64 readable
  // bytes past its last field: the parsers read whole words. With `null_on_error`, a bad cell
  // becomes null and is counted in *nulled; otherwise the first bad row stops the conversion
  // and is reported in *error (its index among these rows).
  Status Append(const uint8_t* data, const FieldSpan* fields, int64_t rows, const FieldSyntax& syntax, bool null_on_error,
                int64_t* nulled, ConvertError* error);
  Result<Array> Finish();
  int64_t length() const { return length_; }

  // The conversion of one group, chosen by type when the column starts.
  using AppendFn = Status (*)(TextColumnConverter&, const uint8_t*, const FieldSpan*, int64_t, const FieldSyntax&,
                              bool, int64_t*, ConvertError*);

 private:
  friend struct ColumnConverters;  // the per-type loops, in convert.cc
  Status SetNull(int64_t row);     // `row` counts from the start of the column
  Status ExtendValidity(int64_t rows);  // a group of `rows` starts: validity (if any) covers it
  Status FillValidity(int64_t end);     // validity bits set up to row `end`

  TypePtr type_;
  const DateFormat* format_ = nullptr;
  MemoryPool* pool_ = nullptr;
  AppendFn append_ = nullptr;
  int value_width_ = 0;  // bytes per fixed-width value; 0: bits (bool) or strings
  bool wide_ = false;    // the 8-row AVX-512 parsers may be used
  bool no_leading_zeros_ = false;  // Init's no_leading_zeros, for int64 and float64 only
  BufferBuilder values_, offsets_, validity_;
  bool has_validity_ = false;
  int64_t validity_bits_ = 0;  // bits of validity_ initialised (set for rows without nulls)
  int64_t length_ = 0, nulls_ = 0;
  int64_t pending_end_ = 0;  // the column's length once the current group is in
  int64_t expected_ = 0;     // the length Reserve was told to expect
};

// Converts `rows` spans of one column into an array in one go (TextColumnConverter::Append's contract).
Result<Array> ConvertColumn(const TypePtr& type, const uint8_t* data, const FieldSpan* fields, int64_t rows,
                            const FieldSyntax& syntax, bool null_on_error, int64_t* nulled, ConvertError* error,
                            MemoryPool* pool = default_memory_pool(), SimdLevel level = ActiveSimdLevel());

// Whether the text of one field converts to `type` (read by `format` when given), for
// on_error=skip pre-validation and for finding the first bad cell of a failed group.
bool FieldConverts(const TypePtr& type, const uint8_t* data, const FieldSpan& f, const FieldSyntax& syntax,
                   const DateFormat* format = nullptr, bool no_leading_zeros = false);

// Parsers for one non-null text value, shared with type inference.
bool ParseBool(std::string_view s, const FieldSyntax& syntax, bool* out);

}  // namespace quiver::csv

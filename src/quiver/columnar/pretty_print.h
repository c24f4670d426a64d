// Human-readable text for values, arrays and record batches (dates, timestamps and
// decimals shown as such, not as their storage integers).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "quiver/columnar/array.h"
#include "quiver/columnar/record_batch.h"
#include "quiver/columnar/value_text.h"

namespace quiver {

// One value; "null" for a null slot. Strings are quoted when `quote_strings` (nested use).
void FormatValue(const Array& array, int64_t i, std::string* out, bool quote_strings = false);
std::string FormatValue(const Array& array, int64_t i);

// Appends s as a JSON string literal (quotes, backslash escapes, \u00XX for control bytes).
void AppendJsonQuoted(std::string_view s, std::string* out);
// The same literal as a string of its own.
std::string JsonQuoted(std::string_view s);

// "[1, null, 3]"; at most `max_items` values shown, then "...".
std::string ArrayToString(const Array& array, int64_t max_items = 100);
// An aligned text table with a header row; at most `max_rows` rows.
std::string FormatTable(const RecordBatch& batch, int64_t max_rows = 20);

}  // namespace quiver

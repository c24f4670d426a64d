// Deterministic lineitem-shaped CSV (TPC-H columns and value shapes) for demos, tests and
// benchmarks (or the same rows as JSON Lines); optionally "messy": quoted comments holding quotes, delimiters and newlines.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "quiver/core/status.h"
#include "quiver/io/output_stream.h"

namespace quiver::csv {

struct LineitemOptions {
  int64_t rows = 1000;
  char delimiter = ',';
  bool header = true;
  bool messy = false;
  uint64_t seed = 42;
  // JSON Lines instead of CSV: the same values (numbers bare, dates and text as strings), one
  // object per row keyed by the column names; no header, not messy.
  bool jsonl = false;
};

// Column names in order (16 columns).
const char* const* LineitemColumnNames();
inline constexpr int kLineitemColumns = 16;

// Writes the CSV to `out`; `progress(bytes, rows)` is called every few thousand rows.
Status GenerateLineitem(const LineitemOptions& options, io::OutputStream* out,
                        const std::function<void(int64_t, int64_t)>& progress = nullptr);

}  // namespace quiver::csv

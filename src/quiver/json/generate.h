// Deterministic log-shaped JSON Lines for demos, tests and benchmarks: objects two levels deep
// (http.client), arrays of strings and of objects, keys present only on some rows (user_id,
// error), strings with escapes and non-ASCII text.
#pragma once

#include <cstdint>
#include <functional>

#include "quiver/core/status.h"
#include "quiver/io/output_stream.h"

namespace quiver::json {

struct LogsOptions {
  int64_t rows = 1000;
  uint64_t seed = 42;
};

// Writes the rows to `out`; `progress(bytes, rows)` is called every few thousand rows.
Status GenerateLogs(const LogsOptions& options, io::OutputStream* out,
                    const std::function<void(int64_t, int64_t)>& progress = nullptr);

}  // namespace quiver::json

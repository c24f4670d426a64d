// JsonReadOptions: what a JSON read can be told (sample size, declared types, threads).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "quiver/columnar/type.h"
#include "quiver/core/memory_pool.h"
#include "quiver/core/thread_pool.h"

namespace quiver::json {

// What a line that is not valid JSON, or whose values do not convert to the schema, does.
enum class OnError { kFail, kSkip };

struct JsonReadOptions {
  // Rows (JSON Lines) or elements (a top-level array) of the first block the schema is inferred
  // from (DuckDB samples as many). A key first seen after them is an error naming its line.
  int64_t infer_rows = 20480;
  // Declared types by dotted key path ("a.b" is key b of object a; a path through an array of
  // objects names the elements' key: "items.price"). A declared type overrides inference below
  // it; `string` takes any value (a non-string as its JSON text). Types: bool, int32, int64,
  // float32, float64, string, date, timestamp (from strings in the CSV reader's forms).
  std::vector<std::pair<std::string, TypePtr>> types;
  // Blocks of this many bytes (at least; a longer line grows its block) are cut at a line's end
  // and parsed in parallel pieces.
  int64_t block_bytes = int64_t{16} << 20;
  // Parse threads: 0 takes `thread_pool`; otherwise the reader parses on a pool of this many of
  // its own (unless `thread_pool` has as many), as the CSV reader's `threads` does.
  int threads = 0;
  // kSkip (JSON Lines only): such a line is left out, counted in the stats' rows_rejected and
  // passed to on_reject with its line number, the reason and its text, in input order.
  OnError on_error = OnError::kFail;
  std::function<Status(int64_t line, std::string_view reason, std::string_view text)> on_reject;
  ThreadPool* thread_pool = nullptr;  // null: ThreadPool::Default()
  MemoryPool* pool = nullptr;         // null: default_memory_pool()
};

}  // namespace quiver::json

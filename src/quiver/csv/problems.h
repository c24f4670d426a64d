// What a CSV read reports about bad input: a typed problem (kind, line, column, byte, reason)
// and the handlers through which a caller receives rejected rows and the problem that failed
// a read, so that a caller (the CLI's --rejects file, a program) decides what to do with them.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "quiver/core/status.h"

namespace quiver::csv {

enum class ProblemKind : uint8_t {
  kFieldCount,   // a row with more or fewer fields than the header
  kConversion,   // a value that does not convert to its column's type
  kInvalidUtf8,  // a string value that is not valid UTF-8
  kQuoting,      // a quoted field not terminated, or a quote inside an unquoted field
  kRowTooLong,   // a single row longer than the reader can hold (2 GiB)
  kOther,        // anything else met while reading (memory, a column too large)
};

std::string_view ProblemKindName(ProblemKind kind);

struct Problem {
  ProblemKind kind = ProblemKind::kOther;
  std::string file;         // the input's name ("-" or "<memory>" when not a file)
  int64_t line = 0;         // physical line (1-based) of the row or field
  int column = -1;          // 0-based column, -1 when the problem is the whole row
  std::string column_name;  // empty when column is -1
  int64_t byte = 0;         // decoded byte offset of the field or row
  std::string reason;       // "expected 3 fields, got 2", "cannot convert to int64", ...
  std::string value;        // the field's raw bytes (conversion and UTF-8 problems)
  // The column's type came from a sample of infer_rows rows (a conversion problem may then be
  // a late value the sample did not show).
  bool type_inferred = false;
};

// A row dropped by OnError::kSkip: its problem and its original bytes (without the line end).
struct RejectedRow {
  const Problem& problem;
  std::string_view record;
};

// Called once per rejected row, on the thread that calls Next, in file order; an error stops
// the read with that error.
using RejectHandler = std::function<Status(const RejectedRow&)>;
// Called with the problem that fails a read, on the thread that calls Next (or Open), just
// before the error is returned.
using FailureHandler = std::function<void(const Problem&)>;

}  // namespace quiver::csv

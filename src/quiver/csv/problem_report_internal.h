// The CSV reader's problems as callers get them: a problem found in a chunk (or a rejected
// row), resolved to its line and byte by the reader, becomes a typed Problem (problems.h) and
// the message that names file, line, column and value; on_failure and on_reject receive them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/core/status.h"
#include "quiver/csv/options.h"
#include "quiver/csv/problems.h"
#include "quiver/csv/row_assembly_internal.h"

namespace quiver::csv {

// What messages need of the read (all borrowed from the reader).
struct ProblemContext {
  const std::string& file;                  // the input's name
  const std::vector<std::string>& names;    // column names
  const std::vector<bool>& inferred;        // per column: the type came from a sample
  const CsvOptions& options;                // on_failure, on_reject, infer_rows

  // Hands `p` to on_failure and returns the read's error with `message`.
  Status Fail(Problem p, std::string message) const;
  // A chunk's problem at physical `line` and decoded `byte`:
  // "FILE:LINE[:COL 'NAME']: REASON[, got "VALUE"] (byte N)[; diagnosis]", the diagnosis only
  // (what to change is the caller's to say in its own terms, from the problem's kind).
  Status Report(const ChunkProblem& p, int64_t line, int64_t byte) const;
  // A row dropped by OnError::kSkip to on_reject, with its text (without the line end).
  Status PassReject(const Reject& r, std::string_view text, int64_t line, int64_t byte) const;
};

}  // namespace quiver::csv

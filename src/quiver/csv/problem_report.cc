#include "quiver/csv/problem_report_internal.h"

#include <fmt/format.h>

#include "quiver/core/utf8.h"

namespace quiver::csv {

Status ProblemContext::Fail(Problem p, std::string message) const {
  if (options.on_failure) options.on_failure(p);
  return Status::Invalid(std::move(message));
}

Status ProblemContext::Report(const ChunkProblem& p, int64_t line, int64_t byte) const {
  Problem problem;
  problem.kind = p.kind;
  problem.file = file;
  problem.line = line;
  problem.column = p.col;
  if (p.col >= 0) problem.column_name = names[static_cast<size_t>(p.col)];
  problem.byte = byte;
  problem.reason = p.message;
  problem.value = p.value;
  problem.type_inferred = p.col >= 0 && inferred[static_cast<size_t>(p.col)];
  std::string msg = fmt::format("{}:{}", file, line);
  if (p.col >= 0) msg += fmt::format(":{} '{}'", p.col + 1, EscapeForMessage(names[static_cast<size_t>(p.col)]));
  msg += fmt::format(": {}", p.message);
  if (p.col >= 0) msg += fmt::format(", got \"{}\"", EscapeForMessage(p.value));
  msg += fmt::format(" (byte {})", byte);
  if (p.col >= 0 && p.kind == ProblemKind::kInvalidUtf8) msg += "; the file may be in another encoding";
  if (problem.type_inferred && p.kind == ProblemKind::kConversion) {
    msg += fmt::format("; the type was inferred from the first {} rows", options.infer_rows);
  }
  if (p.code != StatusCode::kInvalid) {
    if (options.on_failure) options.on_failure(problem);
    return Status(p.code, std::move(msg));
  }
  return Fail(std::move(problem), std::move(msg));
}

Status ProblemContext::PassReject(const Reject& r, std::string_view text, int64_t line, int64_t byte) const {
  Problem p;
  p.file = file;
  p.kind = r.kind;
  p.line = line;
  p.column = r.col;
  p.column_name = r.col >= 0 ? names[static_cast<size_t>(r.col)] : std::string();
  p.byte = byte;
  p.reason = r.reason;
  p.type_inferred = r.col >= 0 && inferred[static_cast<size_t>(r.col)];
  return options.on_reject(RejectedRow{p, text});
}

}  // namespace quiver::csv

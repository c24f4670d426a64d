#include "quiver/csv/problems.h"

namespace quiver::csv {

std::string_view ProblemKindName(ProblemKind kind) {
  switch (kind) {
    case ProblemKind::kFieldCount: return "field count";
    case ProblemKind::kConversion: return "conversion";
    case ProblemKind::kInvalidUtf8: return "invalid UTF-8";
    case ProblemKind::kQuoting: return "quoting";
    case ProblemKind::kRowTooLong: return "row too long";
    case ProblemKind::kOther: return "other";
  }
  return "other";
}

}  // namespace quiver::csv

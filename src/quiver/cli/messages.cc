#include "quiver/cli/messages.h"

#include <fmt/format.h>

#include <mutex>
#include <string_view>
#include <utility>

namespace quiver::cli {

namespace {

struct Noted {
  std::mutex mu;
  std::string where, reason;  // which error the hint belongs to (its file and reason)
  std::string hint;
};
Noted& noted() {
  static Noted n;
  return n;
}

// Phrases of library messages that name an option, and the flags that set it.
constexpr std::pair<std::string_view, std::string_view> kOptionFlags[] = {
    {": column_types names column '", ": --types names column '"},
    {"infer_all reads the input twice", "--infer-all reads the input twice"},
    {"(set the delimiter, quote and escape)", "(give --delimiter, --quote, --escape)"},
    {"(set the quote: to \" for one long quoted field, to none if the quote is text)",
     "(give --quote '\"' for one long quoted field, or --quote none if the quote is text)"},
    {"say which century with two_digit_years_from (e.g.", "say which century with --two-digit-years-from YEAR (e.g."},
    {"without a byte order mark, it seems: set the encoding to UTF-16", "without a byte order mark, it seems: pass --encoding utf-16"},
    {"if it is text, set its encoding (UTF-16 or Latin-1)", "if it is text, pass its encoding (--encoding utf-16 or --encoding latin1)"},
    {"row_group and columns apply to Parquet files only", "--row-group and --columns apply to Parquet files only"},
    {"row_group applies to Parquet files only", "--row-group applies to Parquet files only"},
    {"bloom filter probes apply to Parquet files only", "--bloom-probe applies to Parquet files only"},
    {"bloom filter probe takes column=value", "--bloom-probe takes column=value"},
    {"bloom filter probe: no column '", "--bloom-probe: no column '"},
};

}  // namespace

void NoteCsvFailure(const csv::Problem& p) {
  std::string hint;
  if (p.kind == csv::ProblemKind::kInvalidUtf8 && p.column >= 0) {
    hint = ": pass --encoding latin1 (or --replace-invalid-utf8)";
  } else if (p.kind == csv::ProblemKind::kConversion && p.type_inferred) {
    hint = fmt::format(": use --types '{}=string' or --infer-all", p.column_name);
  }
  std::lock_guard lock(noted().mu);
  noted().where = p.file;
  noted().reason = p.reason;
  noted().hint = std::move(hint);
}

std::string ErrorMessage(const Status& st) {
  std::string msg = st.message();
  {
    // Only on the error that problem produced (it may have gained context on the way up).
    std::lock_guard lock(noted().mu);
    const std::string_view detail = st.detail();
    if (!noted().hint.empty() && detail.starts_with(noted().where) && detail.find(noted().reason) != std::string_view::npos) {
      msg += noted().hint;
    }
  }
  for (const auto& [option, flag] : kOptionFlags) {
    const size_t at = msg.find(option);
    if (at != std::string::npos) msg.replace(at, option.size(), flag);
  }
  return msg;
}

}  // namespace quiver::cli

#include "quiver/csv/options.h"

#include <fmt/format.h>

#include <charconv>

#include "quiver/core/utf8.h"

namespace quiver::csv {

namespace {
std::string Show(char c) {
  switch (c) {
    case '\0': return "(none)";
    case '\t': return "\\t";
    case ' ': return "(space)";
    default: return std::string(1, c);
  }
}
std::string Strip(std::string s) {
  while (!s.empty() && s.front() == ' ') s.erase(s.begin());
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}
}  // namespace

std::string Dialect::ToString() const {
  std::string joined = header_lines > 1 ? fmt::format(" header_lines={}", header_lines) : std::string();
  std::string footer = footer_lines > 0 ? fmt::format(" footer_lines={}", footer_lines) : std::string();
  return fmt::format("delimiter={} quote={} escape={} header={}{} skip_lines={} comment={}{}",
                     delimiter_pad != '\0' ? Show(delimiter) + Show(delimiter_pad) : Show(delimiter),
                     Show(quote), escape == quote ? std::string("(doubled quote)") : Show(escape),
                     header ? "true" : "false", joined, skip_lines, Show(comment), footer);
}

Status SetDelimiterFromName(std::string_view name, CsvOptions* options, std::string_view what) {
  std::string spec(name);
  if (spec.rfind("\\t", 0) == 0) spec = "\t" + spec.substr(2);
  if (spec == "tab") spec = "\t";
  if (spec == "space") spec = " ";
  if (spec.size() == 2 && (spec[1] == ' ' || spec == "||")) {
    options->delimiter = spec[0];
    options->delimiter_pad = spec[1];
    return Status::OK();
  }
  if (spec.size() != 1) {
    return Status::Invalid(fmt::format("{} must be one byte, or two of ', ' '; ' '\\t ' '||', got '{}'", what,
                                       EscapeForMessage(name)));
  }
  options->delimiter = spec[0];
  options->delimiter_pad = '\0';
  return Status::OK();
}

std::string DelimiterText(const Dialect& d) {
  std::string text(1, d.delimiter);
  if (d.delimiter_pad != '\0') text += d.delimiter_pad;
  return text;
}

Result<TypePtr> ParseTypeName(const std::string& raw) {
  std::string n = Strip(raw);
  if (n == "int64" || n == "bigint" || n == "int") return int64();
  if (n == "int32" || n == "integer") return int32();
  if (n == "float64" || n == "double") return float64();
  if (n == "float32" || n == "float") return float32();
  if (n == "bool" || n == "boolean") return boolean();
  if (n == "date" || n == "date32") return date32();
  if (n == "timestamp") return timestamp(TimeUnit::kMicro);
  if (n == "timestamptz" || n == "timestamp_utc") return timestamp(TimeUnit::kMicro, "UTC");
  if (n == "time") return time64(TimeUnit::kMicro);
  if (n == "string" || n == "utf8" || n == "varchar" || n == "text") return utf8();
  if (n == "binary") return binary();
  if (n.rfind("decimal(", 0) == 0 && n.back() == ')') {
    std::string inner = n.substr(8, n.size() - 9);
    size_t comma = inner.find(',');
    int p = 0, s = 0;
    std::string ps = Strip(comma == std::string::npos ? inner : inner.substr(0, comma));
    std::string ss = comma == std::string::npos ? "0" : Strip(inner.substr(comma + 1));
    auto r1 = std::from_chars(ps.data(), ps.data() + ps.size(), p);
    auto r2 = std::from_chars(ss.data(), ss.data() + ss.size(), s);
    if (r1.ec != std::errc() || r2.ec != std::errc() || r1.ptr != ps.data() + ps.size() ||
        r2.ptr != ss.data() + ss.size() || p < 1 || p > 38 || s < 0 || s > p) {
      return Status::Invalid(fmt::format("bad decimal type '{}': want decimal(precision 1..38, scale 0..precision)", n));
    }
    return decimal128(p, s);
  }
  return Status::Invalid(fmt::format(
      "unknown type '{}' (known: int64, int32, float64, float32, bool, date, timestamp, timestamptz, time, string, "
      "binary, decimal(p,s))", n));
}

Result<std::vector<std::pair<std::string, TypePtr>>> ParseColumnTypes(
    const std::string& spec, std::vector<std::pair<std::string, std::string>>* formats, std::string_view what) {
  std::vector<std::pair<std::string, TypePtr>> out;
  size_t i = 0;
  while (i < spec.size()) {
    // Commas inside decimal(p,s) do not separate entries.
    size_t j = i;
    int depth = 0;
    while (j < spec.size() && (spec[j] != ',' || depth > 0)) {
      if (spec[j] == '(') ++depth;
      if (spec[j] == ')') --depth;
      ++j;
    }
    std::string item = spec.substr(i, j - i);
    size_t eq = item.find('=');
    if (eq == std::string::npos) return Status::Invalid(fmt::format("{} '{}' is not name=type", what, item));
    std::string type_name = item.substr(eq + 1);
    const size_t colon = type_name.find(':');
    if (colon != std::string::npos) {
      // date:FORMAT, timestamp:FORMAT, timestamptz:FORMAT (the format may hold colons).
      const std::string base = Strip(type_name.substr(0, colon));
      if (base != "date" && base != "timestamp" && base != "timestamptz") {
        return Status::Invalid(fmt::format("{} '{}': only date, timestamp and timestamptz take a format", what, item));
      }
      if (formats == nullptr) return Status::Invalid(fmt::format("{} '{}': formats are not accepted here", what, item));
      formats->emplace_back(Strip(item.substr(0, eq)), type_name.substr(colon + 1));
      type_name = base;
    }
    QUIVER_ASSIGN_OR_RETURN(TypePtr t, ParseTypeName(type_name));
    out.emplace_back(Strip(item.substr(0, eq)), std::move(t));
    i = j + 1;
  }
  return out;
}

}  // namespace quiver::csv

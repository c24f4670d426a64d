#include "quiver/stream/where.h"

#include <fmt/format.h>

#include <cctype>
#include <utility>

#include "quiver/core/utf8.h"
#include "quiver/stream/scan_literal.h"

namespace quiver::stream {
namespace {

using parquet::CompareOp;

// Longer names first, so that a prefix match takes "<=" before "<".
constexpr std::pair<std::string_view, CompareOp> kOps[] = {
    {"!=", CompareOp::kNe}, {"<>", CompareOp::kNe}, {"<=", CompareOp::kLe}, {">=", CompareOp::kGe},
    {"==", CompareOp::kEq}, {"=", CompareOp::kEq},  {"<", CompareOp::kLt},  {">", CompareOp::kGt}};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

std::optional<CompareOp> CompareOpFromName(std::string_view name) {
  for (const auto& [n, op] : kOps) {
    if (n == name) return op;
  }
  return std::nullopt;
}

Result<WhereClause> ParseWhere(std::string_view text, std::string label) {
  WhereClause w;
  w.label = std::move(label);
  auto bad = [&](std::string_view why) {
    return Status::Invalid(fmt::format("{} '{}': {}; expected 'column op literal' with op one of = != <> < <= > >=",
                                       w.label, EscapeForMessage(text), why));
  };
  const size_t at = text.find_first_of("=!<>");
  if (at == std::string_view::npos) return bad("no operator");
  w.column = std::string(Trim(text.substr(0, at)));
  if (w.column.size() >= 2 && w.column.front() == '"' && w.column.back() == '"') w.column = w.column.substr(1, w.column.size() - 2);
  if (w.column.empty()) return bad("no column");
  std::string_view rest = text.substr(at);
  size_t op_len = 0;
  for (const auto& [name, op] : kOps) {
    if (rest.starts_with(name)) {
      w.op = op;
      op_len = name.size();
      break;
    }
  }
  if (op_len == 0) return bad("unknown operator");
  std::string_view lit = Trim(rest.substr(op_len));
  if (lit.size() >= 2 && lit.front() == '\'' && lit.back() == '\'') {
    lit = lit.substr(1, lit.size() - 2);
    for (size_t i = 0; i < lit.size(); ++i) {
      if (lit[i] == '\'' && i + 1 < lit.size() && lit[i + 1] == '\'') ++i;
      w.literal.push_back(lit[i]);
    }
  } else {
    if (lit.empty()) return bad("no literal");
    w.literal = std::string(lit);
  }
  return w;
}

Result<ScanPredicate> BindWhere(const Schema& schema, const WhereClause& where, const std::string& path) {
  const int f = schema.GetFieldIndex(where.column);
  if (f < 0) {
    return Status::Invalid(fmt::format("{}: {}: no column named '{}'", path, where.label, EscapeForMessage(where.column)));
  }
  auto literal = ParseLiteral(*schema.field(f).type, where.literal, where.column);
  if (!literal.ok()) return literal.status().WithContext(where.label);
  return ScanPredicate{where.column, where.op, std::move(*literal)};
}

}  // namespace quiver::stream

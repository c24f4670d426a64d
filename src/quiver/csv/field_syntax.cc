// FieldSyntax (how a field's text is read: null tokens, quotes, escapes, trimming) and the
// boolean tokens, shared by the converters and type inference.
#include "quiver/csv/convert_internal.h"

#include <string>

namespace quiver::csv {

FieldSyntax FieldSyntax::From(const CsvOptions& o, const Dialect& d) {
  FieldSyntax s;
  s.quote = d.quote;
  s.escape = d.escape;
  s.trim = o.trim_whitespace;
  s.empty_is_null = std::find(o.null_values.begin(), o.null_values.end(), "") != o.null_values.end();
  for (const auto& t : o.null_values) {
    if (!t.empty()) s.null_values.push_back(t);
  }
  s.true_values = o.true_values;
  s.false_values = o.false_values;
  s.replace_invalid_utf8 = o.replace_invalid_utf8;
  s.two_digit_years_from = o.two_digit_years_from;
  return s;
}

bool FieldSyntax::IsNullToken(std::string_view s) const {
  if (s.empty()) return empty_is_null;
  for (const auto& t : null_values) {
    if (s == t) return true;
  }
  return false;
}

std::string_view FieldSyntax::TrimSpaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool FieldSyntax::QuotedText(std::string_view raw, bool string_column, std::string_view* text, bool* quoted) const {
  // Spaces after the closing quote are not part of the value ("a"  ,b).
  while (raw.size() > 2 && (raw.back() == ' ' || raw.back() == '\t') ) raw.remove_suffix(1);
  if (raw.size() < 2 || raw.back() != quote) {
    // A lone or unbalanced quote (lenient reading): the bytes are the value.
    *quoted = false;
    *text = raw;
    return true;
  }
  *quoted = true;
  *text = raw.substr(1, raw.size() - 2);
  // A quoted value is text as written: "" is an empty string, not a null, in a string column.
  if (string_column) return true;
  return !(text->empty() || IsNullToken(*text));
}

void FieldSyntax::Unescape(std::string_view text, std::string* out) const {
  const bool doubled = escape == '\0' || escape == quote;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (doubled ? (c == quote && i + 1 < text.size() && text[i + 1] == quote) : (c == escape && i + 1 < text.size())) {
      ++i;
      c = text[i];
    }
    out->push_back(c);
  }
}

bool ParseBool(std::string_view s, const FieldSyntax& syntax, bool* out) {
  for (const auto& t : syntax.true_values) {
    if (s == t) {
      *out = true;
      return true;
    }
  }
  for (const auto& t : syntax.false_values) {
    if (s == t) {
      *out = false;
      return true;
    }
  }
  return false;
}

}  // namespace quiver::csv

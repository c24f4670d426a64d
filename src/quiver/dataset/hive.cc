#include "quiver/dataset/hive.h"

#include "quiver/columnar/pretty_print.h"

namespace quiver::dataset {
namespace {

bool NeedsEscape(unsigned char c) {
  if (c < 0x20 || c == 0x7f) return true;
  switch (c) {
    case '"': case '#': case '%': case '\'': case '*': case '/': case ':': case '=': case '?': case '\\':
    case '{': case '[': case ']': case '^':
      return true;
    default:
      return false;
  }
}

}  // namespace

void AppendHiveEscaped(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (unsigned char c : s) {
    if (NeedsEscape(c)) {
      out->push_back('%');
      out->push_back(kHex[c >> 4]);
      out->push_back(kHex[c & 15]);
    } else {
      out->push_back(static_cast<char>(c));
    }
  }
}

std::string HivePartitionSegment(std::string_view column, const Array& values, int64_t row) {
  std::string seg;
  AppendHiveEscaped(column, &seg);
  seg.push_back('=');
  if (values.IsNull(row)) {
    seg += kHiveDefaultPartition;
    return seg;
  }
  std::string text;
  FormatValue(values, row, &text);
  if (text.empty()) seg += kHiveDefaultPartition;
  else AppendHiveEscaped(text, &seg);
  return seg;
}

}  // namespace quiver::dataset

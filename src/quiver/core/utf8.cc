#include "quiver/core/utf8.h"

#include <simdjson.h>

#include <fmt/format.h>

#include <algorithm>

namespace quiver {

namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is not one.
size_t SequenceLength(std::string_view s, size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  const size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (len == 0 || i + len > s.size()) return 0;
  return len == 1 || simdjson::validate_utf8(s.data() + i, len) ? len : 0;
}

}  // namespace

bool IsValidUtf8(std::string_view s) { return simdjson::validate_utf8(s.data(), s.size()); }

std::string RepairUtf8(std::string_view s) {
  std::string out;
  size_t i = 0;
  while (i < s.size()) {
    const size_t len = SequenceLength(s, i);
    if (len > 0) {
      out.append(s.data() + i, len);
      i += len;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

size_t Utf8PrefixLength(std::string_view s, size_t max_bytes) {
  if (s.size() <= max_bytes) return s.size();
  size_t i = 0;
  while (i < s.size()) {
    const size_t len = std::max<size_t>(SequenceLength(s, i), 1);
    if (i + len > max_bytes) break;
    i += len;
  }
  return i;
}

size_t CountInvalidUtf8Bytes(std::string_view s) {
  size_t bad = 0;
  for (size_t i = 0; i < s.size();) {
    const size_t len = SequenceLength(s, i);
    bad += len == 0;
    i += std::max<size_t>(len, 1);
  }
  return bad;
}

std::string EscapeForMessage(std::string_view s, size_t max_bytes) {
  const size_t keep = Utf8PrefixLength(s, max_bytes);
  std::string out;
  out.reserve(keep + 16);
  size_t i = 0;
  while (i < keep) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const size_t len = SequenceLength(s, i);
    if (len == 1) {
      if (c == '"' || c == '\\') {
        out.push_back('\\');
        out.push_back(static_cast<char>(c));
      } else if (c == '\n') {
        out += "\\n";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c == '\t') {
        out += "\\t";
      } else if (c < 0x20 || c == 0x7f) {
        out += fmt::format("\\x{:02x}", c);
      } else {
        out.push_back(static_cast<char>(c));
      }
      ++i;
    } else if (len == 2 && c == 0xc2 && static_cast<unsigned char>(s[i + 1]) < 0xa0) {
      // C1 controls (U+0080..U+009F): some terminals act on them as on ESC sequences.
      out += fmt::format("\\xc2\\x{:02x}", static_cast<unsigned char>(s[i + 1]));
      i += 2;
    } else if (len > 1) {
      out.append(s.data() + i, len);
      i += len;
    } else {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    }
  }
  if (keep < s.size()) out += fmt::format("... ({} bytes)", s.size());
  return out;
}

}  // namespace quiver

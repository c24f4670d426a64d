// UTF-8 text: validation, repair, and bytes from an input made safe to quote in a message
// (escaped, cut short), so that no error copies raw input to a terminal.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace quiver {

bool IsValidUtf8(std::string_view s);
// Each invalid UTF-8 sequence replaced by U+FFFD.
std::string RepairUtf8(std::string_view s);
// The longest prefix of at most `max_bytes` bytes that does not end inside a UTF-8 sequence
// (for valid UTF-8 `s`; invalid bytes count as one character each).
size_t Utf8PrefixLength(std::string_view s, size_t max_bytes);

// Bytes of `s` that belong to no valid UTF-8 sequence (a sequence cut by the end of `s` counts).
size_t CountInvalidUtf8Bytes(std::string_view s);

// `s` as printable text for a message, without surrounding quotes: printable ASCII and valid
// UTF-8 characters as they are; `"` and `\` behind a backslash; \n, \r, \t; other control
// characters (C0, DEL, C1) and invalid bytes as \xNN. Input past `max_bytes` bytes is cut at a
// character boundary and "... (N bytes)" appended with the whole length.
std::string EscapeForMessage(std::string_view s, size_t max_bytes = 80);

}  // namespace quiver

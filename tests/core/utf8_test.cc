// UTF-8 helpers: validity, repair, prefixes on character boundaries, and input bytes escaped
// and cut short for messages (control characters, ESC sequences, invalid bytes, long values).
#include "quiver/core/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace quiver {
namespace {

TEST(Utf8, ValidityRepairAndInvalidByteCounts) {
  EXPECT_TRUE(IsValidUtf8("caf\xC3\xA9 \xF0\x9F\x98\x80"));
  EXPECT_FALSE(IsValidUtf8("Qu\xE9stion"));
  EXPECT_FALSE(IsValidUtf8("\xC3"));  // cut inside a sequence
  EXPECT_EQ(RepairUtf8("Qu\xE9stion"), "Qu\xEF\xBF\xBDstion");
  EXPECT_EQ(RepairUtf8("a\xC3"), "a\xEF\xBF\xBD");
  EXPECT_EQ(CountInvalidUtf8Bytes("ok \xC3\xA9"), 0u);
  EXPECT_EQ(CountInvalidUtf8Bytes("\xFF\xFE" "a\xE9"), 3u);
}

TEST(Utf8, PrefixEndsOnACharacterBoundary) {
  const std::string s = "ab\xC3\xA9\xF0\x9F\x98\x80";  // a b é 😀
  EXPECT_EQ(Utf8PrefixLength(s, 100), s.size());
  EXPECT_EQ(Utf8PrefixLength(s, 3), 2u);  // not inside é
  EXPECT_EQ(Utf8PrefixLength(s, 4), 4u);
  EXPECT_EQ(Utf8PrefixLength(s, 7), 4u);  // not inside the emoji
  EXPECT_EQ(Utf8PrefixLength("\xFF\xFF\xFF", 2), 2u);  // invalid bytes count one each
}

TEST(Utf8, EscapeForMessageShowsNoRawControlOrInvalidBytes) {
  EXPECT_EQ(EscapeForMessage("plain text, caf\xC3\xA9"), "plain text, caf\xC3\xA9");
  EXPECT_EQ(EscapeForMessage("say \"hi\" \\ there"), "say \\\"hi\\\" \\\\ there");
  EXPECT_EQ(EscapeForMessage("a\nb\rc\td"), "a\\nb\\rc\\td");
  // An ESC sequence that would clear a terminal, BEL, DEL, a NUL.
  EXPECT_EQ(EscapeForMessage(std::string("\x1b[2J\x07\x7f\0z", 8)), "\\x1b[2J\\x07\\x7f\\x00z");
  // C1 controls (U+009B is a one-byte CSI on some terminals) and invalid bytes.
  EXPECT_EQ(EscapeForMessage("\xC2\x9B" "31m"), "\\xc2\\x9b31m");
  EXPECT_EQ(EscapeForMessage("Qu\xE9stion \xFF"), "Qu\\xe9stion \\xff");
  // Long values: cut at a character boundary, with the whole length.
  EXPECT_EQ(EscapeForMessage(std::string(100, 'x'), 10), "xxxxxxxxxx... (100 bytes)");
  EXPECT_EQ(EscapeForMessage("abcdefgh\xC3\xA9z", 9), "abcdefgh... (11 bytes)");
  const std::string huge(1 << 20, '\x1b');
  const std::string shown = EscapeForMessage(huge);
  EXPECT_EQ(shown.size(), 80 * 4 + std::string("... (1048576 bytes)").size());
  EXPECT_EQ(shown.find('\x1b'), std::string::npos);
}

}  // namespace
}  // namespace quiver

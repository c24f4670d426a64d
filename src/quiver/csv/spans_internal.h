// The byte spans the CSV reader's stages hand each other: a field's and a row's, as offsets
// into the block buffer (which stays put while any chunk task runs).
#pragma once

#include <cstdint>

namespace quiver::csv {

// One field of one row; kMissing marks a field the row did not have (lenient padding), read as
// null (its span is empty: start == end).
struct FieldSpan {
  uint32_t start;
  uint32_t end;
  static constexpr uint32_t kMissing = 0xffffffffu;
};

// One row: its first byte and its terminator (or the end of input).
struct RowSpan {
  uint32_t start;
  uint32_t end;
};

}  // namespace quiver::csv

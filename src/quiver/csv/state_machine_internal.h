// The byte-by-byte CSV splitter: quotes only count at field starts. It defines the reference
// semantics, handles what the SIMD pass cannot (comments, stray quotes, text after a closing
// quote), and reports malformed quoting with its byte position.
#pragma once

#include <cstddef>
#include <cstdint>

#include "quiver/csv/splitter_internal.h"

namespace quiver::csv {

struct MachineConfig {
  SplitConfig split;
  char comment = '\0';
  bool lenient = false;  // stray quotes (see MachineResult::stray_quotes) are literal text instead of errors
  // The second byte of a two-byte delimiter (", " "; " "\t " "||"): the first byte is a
  // delimiter only when this one follows (alone it is text), and this byte is then part of the
  // delimiter, so a quote after it opens a quoted field. Positions are the first byte's, so
  // field spans start at the pad: row assembly steps over it.
  uint8_t pad = 0;
};

enum class MachineError : uint8_t {
  kNone,
  kQuoteInUnquotedField,   // a"b
  kTextAfterClosingQuote,  // "a"b
  kUnterminatedQuote,      // "a<end of input>
};
const char* MachineErrorText(MachineError e);

struct MachineState {
  uint8_t state = 0;  // internal
  bool pad_next = false;  // a delimiter ended the last call: its pad may come first in the next
};

// Whether the bytes split so far end inside a quoted field.
bool InsideQuotes(const MachineState& state);

struct MachineResult {
  size_t count = 0;
  int64_t line_breaks = 0;
  MachineError error = MachineError::kNone;
  size_t error_pos = 0;  // byte of the offending character
  // Lenient: quotes read as text (inside an unquoted field, after a closing quote, or opening a
  // field that the end of the input leaves open or that closes lines later before text, which
  // is then split again from after the opening quote).
  int64_t stray_quotes = 0;
  // A two-byte delimiter's first byte without its pad, outside quotes (text; counted for sniffing).
  int64_t lone_delimiters = 0;
};

// Same output format as SplitKernel. Comment lines come out as one row whose first byte is
// the comment character. `at_end`: no more input follows (an open quote is then an error).
MachineResult SplitWithStateMachine(const uint8_t* data, size_t n, int next_byte, bool at_end,
                                    const MachineConfig& config, MachineState* state, uint32_t* out);

}  // namespace quiver::csv

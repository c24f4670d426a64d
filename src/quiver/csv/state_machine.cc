#include "quiver/csv/state_machine_internal.h"

namespace quiver::csv {

namespace {
enum State : uint8_t {
  kFieldStart,
  kUnquoted,
  kQuoted,
  kQuotedEscape,  // after an escape character inside quotes
  kQuoteSeen,     // after a quote inside a quoted field: the end, or half of a doubled quote
  kComment,
  kAfterQuote,    // spaces after a closing quote, before the delimiter: allowed and dropped
};
}  // namespace

bool InsideQuotes(const MachineState& state) { return state.state == kQuoted || state.state == kQuotedEscape; }

const char* MachineErrorText(MachineError e) {
  switch (e) {
    case MachineError::kNone: return "";
    case MachineError::kQuoteInUnquotedField: return "quote inside an unquoted field";
    case MachineError::kTextAfterClosingQuote: return "text after the closing quote of a field";
    case MachineError::kUnterminatedQuote: return "quoted field is not terminated";
  }
  return "";
}

MachineResult SplitWithStateMachine(const uint8_t* data, size_t n, int next_byte, bool at_end,
                                    const MachineConfig& cfg, MachineState* st, uint32_t* out) {
  MachineResult r;
  const uint8_t delim = cfg.split.delimiter;
  const uint8_t quote = cfg.split.quote;
  const uint8_t escape = cfg.split.escape;
  const bool doubled = quote != 0 && (escape == 0 || escape == quote);
  const uint8_t comment = static_cast<uint8_t>(cfg.comment);
  const uint8_t pad = cfg.pad;
  bool pad_next = st->pad_next;
  uint8_t s = st->state;
  // A two-byte delimiter's first byte is a delimiter only with its pad after it; alone it is text.
  auto PadFollows = [&](size_t i) { return (i + 1 < n ? static_cast<int>(data[i + 1]) : next_byte) == static_cast<int>(pad); };
  bool row_start = true;  // only meaningful in kFieldStart; reset on every field separator
  uint32_t* o = out;
  size_t open_at = 0;  // where the current quoted field opened, for the unterminated error
  // Lenient: a quote opened here that never closes, or that closes lines later before text,
  // is read again as text, from just after it, with the output and line count it had then.
  bool opened_here = false;
  uint32_t* o_at_open = out;
  int64_t breaks_at_open = 0;
  // Stops at a malformed byte: what was split so far is kept, with the error and its position.
  auto fail = [&](MachineError e, size_t at) {
    r.error = e;
    r.error_pos = at;
    r.count = static_cast<size_t>(o - out);
    st->state = s;
    st->pad_next = false;
    return r;
  };
  for (size_t i = 0;; ++i) {
    if (i == n) {
      if (!(at_end && cfg.lenient && opened_here && (s == kQuoted || s == kQuotedEscape))) break;
      o = o_at_open;
      r.line_breaks = breaks_at_open;
      s = kUnquoted;
      opened_here = false;
      ++r.stray_quotes;
      pad_next = false;
      i = open_at + 1;
      if (i == n) break;
    }
    const uint8_t b = data[i];
    if (pad_next) [[unlikely]] {
      pad_next = false;
      if (b == pad) continue;  // the delimiter's second byte
    }
    const bool lf = b == '\n';
    const bool cr = b == '\r';
    if (lf || cr) {
      bool lone_cr = cr && !((i + 1 < n) ? data[i + 1] == '\n' : next_byte == '\n');
      if (lf || lone_cr) ++r.line_breaks;
      if (s == kQuoted || s == kQuotedEscape) {
        if (s == kQuotedEscape) s = kQuoted;
        continue;  // newlines inside quotes are data
      }
      if (cr && !lone_cr) continue;  // the LF that follows ends the row
      *o++ = static_cast<uint32_t>(i) | kRowEndFlag;
      s = kFieldStart;
      row_start = true;
      continue;
    }
    switch (s) {
      case kComment:
        break;
      case kFieldStart:
        if (row_start && comment != 0 && b == comment) {
          s = kComment;
        } else if (b == delim && (pad == 0 || PadFollows(i))) {
          *o++ = static_cast<uint32_t>(i);
          pad_next = pad != 0;
          row_start = false;
        } else if (quote != 0 && b == quote) {
          s = kQuoted;
          open_at = i;
          opened_here = true;
          o_at_open = o;
          breaks_at_open = r.line_breaks;
        } else {
          if (b == delim) ++r.lone_delimiters;  // only with a pad: its first byte alone
          s = kUnquoted;
        }
        break;
      case kUnquoted:
        if (b == delim && (pad == 0 || PadFollows(i))) {
          *o++ = static_cast<uint32_t>(i);
          pad_next = pad != 0;
          s = kFieldStart;
          row_start = false;
        } else if (quote != 0 && b == quote) {
          if (!cfg.lenient) return fail(MachineError::kQuoteInUnquotedField, i);
          ++r.stray_quotes;
        } else if (b == delim) {
          ++r.lone_delimiters;  // only with a pad: its first byte alone
        }
        break;
      case kQuoted:
        if (quote != 0 && b == quote) {
          s = kQuoteSeen;
        } else if (!doubled && b == escape) {
          s = kQuotedEscape;
        }
        break;
      case kQuotedEscape:
        s = kQuoted;
        break;
      case kAfterQuote:
        if (b == delim && (pad == 0 || PadFollows(i))) {
          *o++ = static_cast<uint32_t>(i);
          pad_next = pad != 0;
          s = kFieldStart;
          row_start = false;
        } else if (b == ' ' || b == '\t') {
        } else if (cfg.lenient) {
          s = kUnquoted;
          ++r.stray_quotes;
        } else {
          return fail(MachineError::kTextAfterClosingQuote, i);
        }
        break;
      case kQuoteSeen:
        if (doubled && b == quote) {
          s = kQuoted;
        } else if (b == delim && (pad == 0 || PadFollows(i))) {
          *o++ = static_cast<uint32_t>(i);
          pad_next = pad != 0;
          s = kFieldStart;
          row_start = false;
        } else if (b == ' ' || b == '\t') {
          s = kAfterQuote;
        } else if (cfg.lenient && opened_here && r.line_breaks > breaks_at_open) {
          // A quoted field over lines that closes before text: its opening quote was stray
          // (a closing quote missing) and paired with a later one. Read again from after it.
          o = o_at_open;
          r.line_breaks = breaks_at_open;
          s = kUnquoted;
          opened_here = false;
          ++r.stray_quotes;
          pad_next = false;
          i = open_at;
        } else if (cfg.lenient) {
          s = kUnquoted;  // "a"b is read as the text "a"b
          ++r.stray_quotes;
        } else {
          return fail(MachineError::kTextAfterClosingQuote, i);
        }
        break;
    }
  }
  if (at_end && (s == kQuoted || s == kQuotedEscape) && !cfg.lenient) {
    r.error = MachineError::kUnterminatedQuote;
    r.error_pos = open_at;
  }
  st->state = s;
  st->pad_next = pad_next;
  r.count = static_cast<size_t>(o - out);
  return r;
}

}  // namespace quiver::csv

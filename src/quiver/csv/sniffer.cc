#include "quiver/csv/sniffer.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <vector>

#include "quiver/csv/infer_internal.h"
#include "quiver/csv/state_machine_internal.h"
#include "quiver/columnar/value_parse.h"
#include "quiver/core/utf8.h"

namespace quiver::csv {

int64_t CountLineBreaks(const uint8_t* data, size_t n) {
  int64_t lines = 0;
  for (size_t i = 0; i < n; ++i) {
    if (data[i] == '\n') ++lines;
    else if (data[i] == '\r' && (i + 1 >= n || data[i + 1] != '\n')) ++lines;
  }
  return lines;
}

size_t SkipLines(const uint8_t* data, size_t n, int64_t lines) {
  size_t i = 0;
  for (; i < n && lines > 0; ++i) {
    if (data[i] == '\n' || (data[i] == '\r' && (i + 1 >= n || data[i + 1] != '\n'))) --lines;
  }
  return i;
}

namespace {

// What one dialect makes of the sample.
struct Candidate {
  Dialect dialect;
  bool valid = false;
  bool quote_used = false;  // the quote character opens a field somewhere in the sample
  int64_t stray_quotes = 0;  // quotes read as text (MachineResult::stray_quotes)
  int64_t spans = 0;  // quoted fields, opened at a field start and closed at its end, holding a delimiter, quote or line break
  int64_t consistent = 0;  // rows with the dominant field count
  int ncols = 0;
  int64_t preamble_rows = 0;
  size_t region_start = 0;  // byte offset of the first row of the table
  size_t region_end = 0;    // byte offset just past the table's last line (footer_rows > 0)
  int64_t footer_rows = 0;  // trailing rows of prose after the table (find_footer only)
  int64_t rows = 0;
  bool swallowed = false;  // a quote still open where the input we have ends took most of the sample
  int64_t pad_misses = 0;  // delimiters (outside quotes, before more text) not followed by dialect.delimiter_pad
  int64_t lone_delimiters = 0;  // a two-byte delimiter's first byte alone outside quotes (MachineResult)
  int64_t escape_rows = 0;  // rows where the escape (not the quote) comes before a quote, delimiter or itself
  int64_t literal_escapes = 0;  // escape characters before any other byte: text, not escapes
  size_t second_table = 0;  // find_footer: byte offset of a stacked table's header (0: none)
};

struct RowShape {
  int fields;
  size_t start;  // byte offset
  size_t end;    // byte offset of its line end (or the sample's end)
};

// What the preamble rule needs of a row, worked out only for the leading rows it looks at.
struct RowCells {
  int nonempty = 0;        // fields holding text (a quoted "" counts as empty)
  int last_nonempty = -1;  // index of the last field holding text
  std::string_view first;  // the first field's text, unquoted when quoted
  std::vector<std::string_view> texts;  // every field's text, unquoted when quoted
};

// Text that reads as a number, date, time or timestamp.
bool IsValue(std::string_view t) {
  double d;
  int32_t day;
  int64_t nanos;
  ParsedTimestamp ts;
  return ParseFloat64(t, &d) || ParseDate(t, &day) || ParseTimestamp(t, &ts) || ParseTimeOfDayNanos(t, &nanos);
}

// Words (a space) that read as no number, date, time or timestamp: a title, not a value.
bool FreeText(std::string_view t) { return t.find(' ') != std::string_view::npos && !IsValue(t); }

// Cells that read as column names: at least two non-empty, every one valid UTF-8 text with a
// letter that is no value (number, date, time, true/false), none repeated.
bool NameCells(const RowCells& rc) {
  if (rc.nonempty < 2) return false;
  std::set<std::string_view> seen;
  for (std::string_view t : rc.texts) {
    if (t.empty()) continue;
    if (!HasLetter(t) || !IsValidUtf8(t)) return false;
    if (IsValue(t) || t == "true" || t == "false" || t == "TRUE" || t == "FALSE") return false;
    if (!seen.insert(t).second) return false;
  }
  return true;
}

// The first quote that closes a quoted field opened before `from` (doubled quotes and escaped
// characters skipped), or npos.
size_t ClosingQuote(std::string_view text, size_t from, char quote, char escape) {
  const bool doubled = escape == '\0' || escape == quote;
  for (size_t i = from; i < text.size(); ++i) {
    if (!doubled && text[i] == escape) {
      ++i;
    } else if (text[i] == quote) {
      if (doubled && i + 1 < text.size() && text[i + 1] == quote) ++i;
      else return i;
    }
  }
  return std::string_view::npos;
}

Candidate Evaluate(std::string_view sample, bool at_end, const Dialect& d, std::unique_ptr<uint32_t[]>& pos_storage,
                   size_t* pos_capacity, bool lenient, bool find_footer = false) {
  Candidate c;
  c.dialect = d;
  if (sample.size() + 1 > *pos_capacity) {
    pos_storage.reset(new uint32_t[sample.size() + 1]);
    *pos_capacity = sample.size() + 1;
  }
  MachineConfig mc;
  mc.split = SplitConfig{static_cast<uint8_t>(d.delimiter), static_cast<uint8_t>(d.quote), static_cast<uint8_t>(d.escape)};
  mc.comment = d.comment;
  mc.pad = static_cast<uint8_t>(d.delimiter_pad);
  const uint8_t pad = mc.pad;
  // Stray quotes are read as text and counted: one of them must not hide the quoting that the
  // rest of the sample shows.
  mc.lenient = true;
  uint32_t* pos = pos_storage.get();
  MachineState st;
  const auto* data = reinterpret_cast<const uint8_t*>(sample.data());
  MachineResult r = SplitWithStateMachine(data, sample.size(), -1, at_end, mc, &st, pos);
  c.stray_quotes = r.stray_quotes;
  const uint8_t q = static_cast<uint8_t>(d.quote), delim = static_cast<uint8_t>(d.delimiter);
  std::vector<RowShape> rows;
  size_t start = 0, field = 0;
  int fields = 1;
  const std::string special{d.delimiter, d.quote, '\n', '\r'};
  // A quoted field (opened at its start, closed at its end) holding a delimiter, quote or line
  // break: it changes the split.
  auto end_field = [&](size_t end, bool row_end) {
    if (q != 0 && data[field] == q) {
      if (row_end && end > field && data[end - 1] == '\r') --end;
      if (end - field >= 2 && data[end - 1] == q &&
          std::string_view(sample.data() + field + 1, end - field - 2).find_first_of(special) != std::string_view::npos) {
        ++c.spans;
      }
    }
  };
  for (size_t i = 0; i < r.count; ++i) {
    const size_t p = pos[i] & kPositionMask;
    if (field < p) end_field(p, (pos[i] & kRowEndFlag) != 0);
    if (pos[i] & kRowEndFlag) {
      const bool blank = p == start || (p == start + 1 && data[start] == '\r');
      const bool comment = d.comment != '\0' && p > start && data[start] == static_cast<uint8_t>(d.comment);
      if (!blank && !comment) rows.push_back(RowShape{fields, start, p});
      start = field = p + 1;
      fields = 1;
    } else {
      field = p + 1;
      if (pad != 0 && field < sample.size()) {
        if (data[field] == pad) ++field;
        else if (data[field] != '\n' && data[field] != '\r') ++c.pad_misses;
      }
      ++fields;
    }
  }
  const bool open_quote = q != 0 && InsideQuotes(st);
  if (at_end && start < sample.size()) {
    if (field < sample.size()) end_field(sample.size(), true);
    rows.push_back(RowShape{fields, start, sample.size()});
  } else if (open_quote && start < sample.size()) {
    // A quoted field still open where the input we have ends: evidence for the quote only
    // while it does not take most of the sample.
    const int64_t tail = CountLineBreaks(data + start, sample.size() - start);
    c.swallowed = tail > CountLineBreaks(data, start);
  }
  if (rows.empty()) return c;
  // A backslash-style escape is used where it comes before a quote, a delimiter or itself;
  // before anything else it reads as text.
  if (q != 0 && d.escape != '\0' && d.escape != d.quote) {
    const uint8_t e = static_cast<uint8_t>(d.escape);
    for (const RowShape& row : rows) {
      bool used = false;
      for (size_t i = row.start; i + 1 < row.end; ++i) {
        if (data[i] != e) continue;
        const uint8_t next = data[i + 1];
        if (next == q || next == delim || next == e) {
          used = true;
          ++i;
        } else if (next != '\n' && next != '\r') {
          ++c.literal_escapes;
        }
      }
      c.escape_rows += used ? 1 : 0;
    }
  }
  if (q != 0) {
    for (size_t i = 0; i < sample.size() && !c.quote_used; ++i) {
      c.quote_used = data[i] == q && (i == 0 || data[i - 1] == delim || data[i - 1] == '\n' || data[i - 1] == '\r' ||
                                      (pad != 0 && i >= 2 && data[i - 1] == pad && data[i - 2] == delim));
    }
  }
  std::map<int, int64_t> freq;
  for (const RowShape& row : rows) ++freq[row.fields];
  int mode = 0;
  int64_t best = -1;
  for (auto& [f, n] : freq) {
    if (n > best || (n == best && f > mode)) {
      best = n;
      mode = f;
    }
  }
  // The preamble: the leading rows that are not the table's. A row with fewer fields than the
  // table is one; so is a row with more fields unless only empty cells follow its first
  // `mode` (a trailing delimiter: a polluted header or data row), and a row of three or more
  // fields, the table's count, whose only non-empty cell is the first, holding words (a space)
  // that read as no number, date or time (a title padded with delimiters; a single word could
  // as well be a sparse data row). Any other row that splits into the table's fields starts
  // the table.
  auto cells = [&](const RowShape& row) {
    RowCells out;
    const size_t n = row.end - row.start;
    std::vector<uint32_t> at(n + 1);
    MachineState rs;
    const MachineResult rr = SplitWithStateMachine(data + row.start, n, row.end < sample.size() ? '\n' : -1, true, mc, &rs, at.data());
    size_t f0 = 0;
    for (size_t i = 0; i <= rr.count; ++i) {
      const bool last = i == rr.count;
      const size_t f1 = std::max(f0, last ? n : (at[i] & kPositionMask));
      std::string_view text(sample.data() + row.start + f0, f1 - f0);
      if (last && !text.empty() && text.back() == '\r') text.remove_suffix(1);
      if (q != 0 && text.size() >= 2 && text.front() == d.quote && text.back() == d.quote) text = text.substr(1, text.size() - 2);
      if (!text.empty()) {
        ++out.nonempty;
        out.last_nonempty = static_cast<int>(i);
      }
      if (i == 0) out.first = text;
      out.texts.push_back(text);
      if (!last) f0 = f1 + 1 + (pad != 0 && row.start + f1 + 1 < sample.size() && data[row.start + f1 + 1] == pad ? 1 : 0);
    }
    return out;
  };
  auto table_row = [&](const RowShape& row) {
    if (row.fields < mode) return false;
    if (row.fields > mode) return cells(row).last_nonempty < mode;
    if (mode < 3) return true;
    const RowCells rc = cells(row);
    return !(rc.nonempty == 1 && FreeText(rc.first));
  };
  // Whether rows[h]'s cells are column names over the table below it: names (NameCells), and
  // among the next rows of the table's field count, one holds a value (number, date, time)
  // in a column where rows[h] has a name.
  auto names_over_values = [&](size_t h, size_t from, int width) {
    const RowCells hc = cells(rows[h]);
    if (!NameCells(hc)) return false;
    int looked = 0;
    for (size_t r = from; r < rows.size() && looked < 20; ++r) {
      if (rows[r].fields != width) continue;
      ++looked;
      const RowCells rc = cells(rows[r]);
      for (size_t k = 0; k < rc.texts.size() && k < hc.texts.size(); ++k) {
        if (!hc.texts[k].empty() && !rc.texts[k].empty() && IsValue(rc.texts[k])) return true;
      }
    }
    return false;
  };
  size_t first = 0;
  while (first < rows.size() && !table_row(rows[first])) ++first;
  if (first == rows.size()) {
    first = 0;
    while (rows[first].fields != mode) ++first;
  }
  // Lines of the table's field count whose cells are all empty but one (a title padded with
  // delimiters: "TITLE,,,,") or all empty, above a line of names over the table's values, are
  // preamble too.
  if (mode >= 2) {
    size_t j = first;
    while (j < rows.size() && j - first < 8 && rows[j].fields >= mode && cells(rows[j]).nonempty <= 1) ++j;
    if (j > first && j + 1 < rows.size() && rows[j].fields == mode && names_over_values(j, j + 1, mode)) first = j;
  }
  // Lenient: a damaged header (a field too many or too few, by a stray delimiter or quote) is
  // not preamble when it is the line of names right above the table: the reader cuts or pads
  // it as it repairs a row, and keeps its names.
  // A line of names right above it (no blank line between) leaves the two to the reader's join
  // of a header spread over lines.
  if (lenient && first > 0 && mode >= 2) {
    const size_t h = first - 1;
    const int diff = rows[h].fields - mode;
    const bool wrapped = h > 0 && rows[h - 1].fields >= 2 && rows[h - 1].fields < mode &&
                         CountLineBreaks(data + rows[h - 1].end, rows[h].start - rows[h - 1].end) <= 1 &&
                         NameCells(cells(rows[h - 1]));
    int64_t below = 0;  // rows of the table's count under it: two or more, so that it cannot tie the count
    for (size_t r = first; r < rows.size() && below < 2; ++r) below += rows[r].fields == mode ? 1 : 0;
    if ((diff == 1 || diff == -1) && rows[h].fields >= 2 && below >= 2 && !wrapped && !NameCells(cells(rows[first])) &&
        names_over_values(h, first, mode)) {
      first = h;
    }
  }
  // The footer (asked for when the sample is all of the input): the trailing rows that are not
  // the table's, each opening with words that read as no number, date or time ("Source: ...",
  // "Note: ..."), after at least one table row past the header. A short last row is data as
  // often as a footnote, so the rule needs the prose: and when the table's own first column is
  // mostly prose (names, titles) the rule stays off, since a short last row of it would look
  // the same.
  //
  // Before it, lenient reads look for a second table stacked under the first: after at least
  // one data row, a blank line, then a line of names over values (of its own field count).
  // The table ends before the blank line; the rest is left out as a footer is.
  if (find_footer && at_end && lenient && mode >= 2) {
    bool data_row = false;  // a row of the first table's count after its first row
    for (size_t i = first + 2; i + 1 < rows.size(); ++i) {
      data_row |= rows[i - 1].fields == mode;
      if (!data_row) continue;
      int64_t breaks = 0;
      bool only_breaks = true;
      for (size_t k = rows[i - 1].end; k < rows[i].start && only_breaks; ++k) {
        only_breaks = data[k] == '\n' || data[k] == '\r';
        breaks += data[k] == '\n' || (data[k] == '\r' && (k + 1 >= rows[i].start || data[k + 1] != '\n')) ? 1 : 0;
      }
      if (only_breaks && breaks >= 2 && rows[i].fields >= 2 && names_over_values(i, i + 1, rows[i].fields)) {
        c.second_table = rows[i].start;
        break;
      }
    }
  }
  if (find_footer && at_end && mode >= 2) {
    size_t end_rows = rows.size();
    if (c.second_table != 0) {
      while (rows[end_rows - 1].start >= c.second_table) --end_rows;
    }
    size_t last = end_rows;
    while (last > first + 2 && !table_row(rows[last - 1]) && FreeText(cells(rows[last - 1]).first)) --last;
    if (last < end_rows) {
      int64_t looked = 0, prose = 0;
      for (size_t i = last; i-- > first + 1 && looked < 200; ++looked) prose += FreeText(cells(rows[i]).first) ? 1 : 0;
      if (prose * 2 >= looked) last = end_rows;
    }
    if (last < rows.size()) {
      {
        c.footer_rows = static_cast<int64_t>(rows.size() - last);
        size_t end = rows[last - 1].end;
        if (end < sample.size()) end += data[end] == '\r' && end + 1 < sample.size() && data[end + 1] == '\n' ? 2 : 1;
        c.region_end = end;
      }
    }
  }
  // A space splits prose too: it is a delimiter only when nearly every row agrees on a count of
  // three or more fields and a column below the first row holds only numbers, dates or times.
  if (d.delimiter == ' ' && pad == 0) {
    if (mode < 3 || rows.size() < 3 || best * 10 < static_cast<int64_t>(rows.size()) * 9) return c;
    std::vector<int> typed(static_cast<size_t>(mode), 1);
    int looked = 0;
    for (size_t r = first + 1; r < rows.size() && looked < 50; ++r) {
      if (rows[r].fields != mode) continue;
      ++looked;
      const RowCells rc = cells(rows[r]);
      for (size_t k = 0; k < typed.size(); ++k) typed[k] &= !rc.texts[k].empty() && IsValue(rc.texts[k]) ? 1 : 0;
    }
    if (looked == 0 || std::find(typed.begin(), typed.end(), 1) == typed.end()) return c;
  }
  // A two-byte delimiter "||" splits as '|' with an empty column between every two: it is the
  // file's when the first row names its columns (a header has no empty name between names).
  if (pad != 0 && pad == static_cast<uint8_t>(d.delimiter) && !NameCells(cells(rows[first]))) return c;
  c.lone_delimiters = r.lone_delimiters;
  c.valid = true;
  c.ncols = mode;
  c.consistent = best;
  c.preamble_rows = static_cast<int64_t>(first);
  c.region_start = rows[first].start;
  c.rows = static_cast<int64_t>(rows.size());
  return c;
}

// Whether `first` followed by `pad` occurs in `sample`, and at least as often as `first` alone.
bool PairsOutnumberLoneBytes(std::string_view sample, char first, char pad) {
  int64_t pairs = 0, lone = 0;
  for (size_t i = sample.find(first); i != std::string_view::npos; i = sample.find(first, i + 1)) {
    if (i + 1 < sample.size() && sample[i + 1] == pad) {
      ++pairs;
      if (first == pad) ++i;
    } else {
      ++lone;
    }
  }
  return pairs > 0 && pairs >= lone;
}

// Whether `c` reads the sample better than `b`.
bool Better(const Candidate& c, const Candidate& b) {
  if (!b.valid) return true;
  if (c.swallowed != b.swallowed) return !c.swallowed;
  // A single-column reading agrees trivially; it only wins when nothing splits.
  const bool c_multi = c.ncols > 1, b_multi = b.ncols > 1;
  if (c_multi != b_multi) return c_multi;
  // The share of rows with the table's field count: quoting changes how many rows there are
  // (a quoted field may span lines), so counts alone would favour splitting at every line.
  const __int128 lhs = static_cast<__int128>(c.consistent) * b.rows, rhs = static_cast<__int128>(b.consistent) * c.rows;
  if (lhs != rhs) return lhs > rhs;
  // A space splits text as readily as a table: it wins only by a larger share.
  const bool c_space = c.dialect.delimiter == ' ' && c.dialect.delimiter_pad == '\0';
  const bool b_space = b.dialect.delimiter == ' ' && b.dialect.delimiter_pad == '\0';
  if (c_space != b_space) return !c_space;
  // As consistent either way: a quote whose fields hold delimiters or line breaks (so that it
  // changes the split) and that is more often used so than stray wins.
  const bool c_quotes = c.spans > c.stray_quotes, b_quotes = b.spans > b.stray_quotes;
  if (c_quotes != b_quotes) return c_quotes;
  if (c.consistent != b.consistent) return c.consistent > b.consistent;
  if (c.ncols != b.ncols) return c.ncols > b.ncols;
  if (c.stray_quotes != b.stray_quotes) return c.stray_quotes < b.stray_quotes;
  return c.quote_used && !b.quote_used;  // a quote the file really uses; else earlier candidates win ties
}

}  // namespace

Result<SniffResult> SniffDialect(std::string_view input, bool input_is_all, const CsvOptions& o) {
  // A bounded prefix is evidence enough and keeps sniffing cheap for every candidate; the
  // cut is moved back to a line end so the last sampled row is whole. A candidate whose
  // quoted field is still open at the cut reads on through the rest of `input` to the end of
  // the line where that field closes.
  constexpr size_t kMaxSniff = 256 << 10;
  std::string_view sample = input;
  bool at_end = input_is_all;
  if (sample.size() > kMaxSniff) {
    size_t cut = sample.rfind('\n', kMaxSniff);
    sample = sample.substr(0, cut == std::string_view::npos ? kMaxSniff : cut + 1);
    at_end = false;
  }
  // Positions are written before they are read: no need to zero them.
  size_t pos_capacity = sample.size() + 1;
  std::unique_ptr<uint32_t[]> pos_storage(new uint32_t[pos_capacity]);
  // Delimiters: one byte, or two: ", " "; " "\t " "||" (a pad after the first byte).
  struct Delim {
    char first, pad;
  };
  std::vector<Delim> delims;
  if (o.delimiter) {
    delims.push_back({*o.delimiter, o.delimiter_pad.value_or('\0')});
  } else {
    delims = {{',', '\0'}, {'|', '\0'}, {';', '\0'}, {'\t', '\0'}, {' ', '\0'},
              {',', ' '},   {'|', '|'},   {';', ' '},   {'\t', ' '}};
  }
  std::vector<char> quotes = o.quote ? std::vector<char>{*o.quote} : std::vector<char>{'"', '\0', '\''};
  // A delimiter or quote character that the sample does not contain splits it exactly as
  // any other absent one (and an absent quote as no quote, whatever the escape, which acts
  // only inside quotes): such candidates score the same as the first of them, which wins
  // the tie, so only that one is evaluated.
  bool present[256] = {};
  for (unsigned char ch : sample) present[ch] = true;
  auto evaluate = [&](const Dialect& dialect) {
    Candidate c = Evaluate(sample, at_end, dialect, pos_storage, &pos_capacity, o.lenient);
    if (c.swallowed && sample.size() < input.size()) {
      // Read on to the closing quote, if the input we have holds it, and the end of its line.
      size_t close = ClosingQuote(input, sample.size(), dialect.quote, dialect.escape);
      size_t line_end = close == std::string_view::npos ? std::string_view::npos : input.find('\n', close);
      std::string_view longer = line_end == std::string_view::npos ? input : input.substr(0, line_end + 1);
      if (longer.size() > sample.size()) {
        c = Evaluate(longer, input_is_all && longer.size() == input.size(), dialect, pos_storage, &pos_capacity, o.lenient);
      }
    }
    return c;
  };
  // A quote that opens a field and is still open at the end of all the input we hold: the
  // file may be one quoted field longer than that, or the quote may be text. Another reading
  // could still split every line alike, so nothing here can tell; the read stops instead.
  char unclosed_quote = '\0';
  auto search = [&](char comment) {
    Candidate best;
    std::set<std::tuple<int, int, int, int>> seen;
    // The same delimiter and quote with the quote doubled, for weighing a backslash escape.
    std::map<std::tuple<int, int, int>, Candidate> doubled;
    // Whether a (share) reads more rows at its field count than b.
    auto share_above = [](const Candidate& a, const Candidate& b) {
      return static_cast<__int128>(a.consistent) * b.rows > static_cast<__int128>(b.consistent) * a.rows;
    };
    for (char q : quotes) {
      std::vector<char> escapes = o.escape ? std::vector<char>{*o.escape} : std::vector<char>{q, '\\'};
      if (q == '\0') escapes = {'\0'};
      const bool quotes_here = q != '\0' && present[static_cast<uint8_t>(q)];
      for (char e : escapes) {
        // The one-byte reading of each delimiter, to weigh its two-byte reading against.
        std::map<char, Candidate> one_byte;
        for (const Delim& dl : delims) {
          const char d = dl.first;
          if (dl.pad != '\0' && !(present[static_cast<uint8_t>(d)] && present[static_cast<uint8_t>(dl.pad)])) continue;
          const int d_key = present[static_cast<uint8_t>(d)] ? static_cast<uint8_t>(d) : -1;
          const int p_key = static_cast<uint8_t>(dl.pad);
          const auto key = quotes_here ? std::make_tuple(static_cast<int>(static_cast<uint8_t>(q)), static_cast<int>(static_cast<uint8_t>(e)), d_key, p_key)
                                       : std::make_tuple(-1, -1, d_key, p_key);
          if (!seen.insert(key).second) continue;
          if (!o.delimiter) {
            // Skipped unevaluated where they cannot win (sniffing stays a few milliseconds): a
            // space against a reading of several columns where every row agrees (a space needs
            // a larger share), and a two-byte delimiter whose pair the sample lacks or whose
            // first byte comes more often alone than paired (it may come alone only in quotes).
            if (d == ' ' && dl.pad == '\0' && best.valid && !best.swallowed && best.ncols > 1 &&
                best.consistent == best.rows) {
              continue;
            }
            if (dl.pad != '\0' && !PairsOutnumberLoneBytes(sample, d, dl.pad)) continue;
          }
          Dialect dialect;
          dialect.delimiter = d;
          dialect.delimiter_pad = dl.pad;
          dialect.quote = q;
          dialect.escape = e;
          dialect.comment = comment;
          Candidate c = evaluate(dialect);
          if (q != '\0' && c.swallowed && !input_is_all) unclosed_quote = q;
          // A quote the caller gave is the dialect's, however long its field runs.
          if (o.quote) c.swallowed = false;
          if (!c.valid) continue;
          if (dl.pad == '\0') {
            one_byte[d] = c;
            if (e == q) doubled[std::make_tuple(static_cast<int>(static_cast<uint8_t>(q)), d_key, 0)] = c;
          }
          // A backslash escape is chosen only when the sample uses it consistently: before a
          // quote, delimiter or backslash on two rows or more, or on one row when no backslash
          // elsewhere reads as text, or where it reads more rows at the table's field count than
          // the doubled quote does. One damaged line ("5\" screen") does not make it the escape
          // of a file whose other backslashes are text ("C:\dir\x").
          if (!o.escape && q != '\0' && e != q && c.escape_rows < 2 && c.literal_escapes > 0) {
            auto it = doubled.find(std::make_tuple(static_cast<int>(static_cast<uint8_t>(q)), d_key, static_cast<int>(p_key)));
            if (it == doubled.end() || !share_above(c, it->second)) continue;
          }
          if (dl.pad != '\0') {
            if (e == q) doubled[std::make_tuple(static_cast<int>(static_cast<uint8_t>(q)), d_key, p_key)] = c;
            // A two-byte delimiter: every delimiter before more text is followed by its pad,
            // and it reads the rows at least as consistently as the first byte alone. It
            // then wins over that one-byte reading (whose fields would keep the pad).
            if (o.delimiter) {
              if (Better(c, best)) best = c;
              continue;
            }
            if (c.pad_misses > 0 || c.lone_delimiters > 0 || c.ncols < 2) continue;
            auto it = one_byte.find(d);
            if (it != one_byte.end()) {
              if (share_above(it->second, c)) continue;
              if (best.valid && best.dialect.delimiter == d && best.dialect.delimiter_pad == '\0' &&
                  best.dialect.quote == q && best.dialect.escape == e) {
                best = c;
                continue;
              }
            }
          }
          if (Better(c, best)) best = c;
        }
      }
    }
    return best;
  };
  Candidate best = search(o.comment);
  // Comment lines without --comment: when a line of the sample starts with '#', the search
  // runs again with '#' as the comment character. That reading wins when it has no more stray
  // quotes and either splits into columns where the plain one could not, or keeps the same
  // columns with as many agreeing rows and fewer odd ones: the '#' lines were what did not
  // fit. A '#' line shaped like the data (a header "#id,name") keeps the plain reading.
  if (best.valid && o.comment == '\0') {
    const auto* bytes = reinterpret_cast<const uint8_t*>(sample.data());
    bool hash_line = false;
    for (size_t i = 0; i < sample.size() && !hash_line; ++i) {
      hash_line = bytes[i] == '#' && (i == 0 || bytes[i - 1] == '\n' || bytes[i - 1] == '\r');
    }
    if (hash_line) {
      Candidate c = search('#');
      const bool splits = c.ncols > 1 && best.ncols == 1;
      const bool fewer_odd = c.ncols == best.ncols && c.consistent >= best.consistent &&
                             c.rows - c.consistent < best.rows - best.consistent;
      if (c.valid && c.stray_quotes <= best.stray_quotes && (splits || fewer_odd)) best = c;
    }
  }
  if (!best.valid) {
    return Status::Invalid("could not detect the CSV dialect: no delimiter and quote candidate parses the first "
                           "rows (set the delimiter, quote and escape)");
  }
  if (unclosed_quote != '\0' && best.dialect.quote != unclosed_quote && !o.quote) {
    return Status::Invalid(fmt::format(
        "could not detect the CSV quoting: a field opened by {} near the start is still open after {} bytes, the "
        "most read ahead (set the quote: to {} for one long quoted field, to none if the quote is text)",
        unclosed_quote, input.size(), unclosed_quote));
  }
  SniffResult out;
  out.dialect = best.dialect;
  out.num_columns = best.ncols;
  out.rows_sampled = best.rows;
  const auto* data = reinterpret_cast<const uint8_t*>(input.data());
  out.dialect.skip_lines = o.skip_lines ? *o.skip_lines : CountLineBreaks(data, best.region_start);
  out.table_end = input.size();
  // Lenient reads of a whole small input drop a footer of prose lines (Evaluate says which)
  // rather than pad each into a row of nulls that would also sway type inference.
  if (o.lenient && input_is_all && !o.skip_lines) {
    Candidate whole = Evaluate(input, true, best.dialect, pos_storage, &pos_capacity, true, /*find_footer=*/true);
    if (whole.valid && whole.footer_rows > 0 && whole.region_start == best.region_start) {
      out.table_end = whole.region_end;
      const std::string_view footer = input.substr(whole.region_end);
      out.dialect.footer_lines = CountLineBreaks(data + whole.region_end, footer.size()) +
                                 (footer.empty() || footer.back() == '\n' || footer.back() == '\r' ? 0 : 1);
      if (whole.second_table != 0) out.dialect.second_table_line = CountLineBreaks(data, whole.second_table) + 1;
    }
  }
  return out;
}

}  // namespace quiver::csv

#include "quiver/csv/sniffer.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <tuple>
#include <vector>

#include "quiver/csv/state_machine.h"

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

struct Candidate {
  Dialect dialect;
  bool valid = false;
  bool clean = false;  // parsed without a quoting error
  bool quote_used = false;  // the quote character opens a field somewhere in the sample
  int64_t consistent = 0;  // rows with the dominant field count
  int ncols = 0;
  int64_t preamble_rows = 0;
  size_t region_start = 0;  // byte offset of the first row of the consistent region
  int64_t rows = 0;
};

Candidate Evaluate(std::string_view sample, bool at_end, const Dialect& d, const CsvOptions& o,
                   std::unique_ptr<uint32_t[]>& pos_storage) {
  Candidate c;
  c.dialect = d;
  MachineConfig mc;
  mc.split = SplitConfig{static_cast<uint8_t>(d.delimiter), static_cast<uint8_t>(d.quote), static_cast<uint8_t>(d.escape)};
  mc.comment = d.comment;
  mc.lenient = false;
  uint32_t* pos = pos_storage.get();
  MachineState st;
  const auto* data = reinterpret_cast<const uint8_t*>(sample.data());
  MachineResult r = SplitWithStateMachine(data, sample.size(), -1, at_end, mc, &st, pos);
  size_t usable = r.count;
  // An open quote at the end of a partial sample is not evidence against the dialect; other
  // errors rank the candidate below every clean one, judged on the rows before the error.
  c.clean = r.error == MachineError::kNone || (r.error == MachineError::kUnterminatedQuote && !at_end);
  // Field counts per row; a trailing unterminated row only counts at the end of input.
  std::vector<std::pair<int, size_t>> rows;  // (fields, start offset)
  size_t start = 0;
  int fields = 1;
  for (size_t i = 0; i < usable; ++i) {
    if (pos[i] & kRowEndFlag) {
      size_t end = pos[i] & kPositionMask;
      bool blank = end == start || (end == start + 1 && data[start] == '\r');
      bool comment = d.comment != '\0' && end > start && data[start] == static_cast<uint8_t>(d.comment);
      if (!blank && !comment) rows.emplace_back(fields, start);
      start = end + 1;
      fields = 1;
    } else {
      ++fields;
    }
  }
  if (at_end && r.error == MachineError::kNone && start < sample.size()) rows.emplace_back(fields, start);
  if (rows.empty()) return c;
  if (d.quote != '\0') {
    for (size_t i = 0; i < sample.size() && !c.quote_used; ++i) {
      c.quote_used = data[i] == static_cast<uint8_t>(d.quote) &&
                     (i == 0 || data[i - 1] == static_cast<uint8_t>(d.delimiter) || data[i - 1] == '\n' || data[i - 1] == '\r');
    }
  }
  std::map<int, int64_t> freq;
  for (auto& [f, s] : rows) ++freq[f];
  int mode = 0;
  int64_t best = -1;
  for (auto& [f, n] : freq) {
    if (n > best || (n == best && f > mode)) {
      best = n;
      mode = f;
    }
  }
  size_t first = 0;
  while (first < rows.size() && rows[first].first != mode) ++first;
  c.valid = true;
  c.ncols = mode;
  c.consistent = best;
  c.preamble_rows = static_cast<int64_t>(first);
  c.region_start = rows[first].second;
  c.rows = static_cast<int64_t>(rows.size());
  return c;
}

}  // namespace

Result<SniffResult> SniffDialect(std::string_view sample, bool at_end, const CsvOptions& o) {
  // A bounded prefix is evidence enough and keeps sniffing cheap for every candidate; the
  // cut is moved back to a line end so the last sampled row is whole.
  constexpr size_t kMaxSniff = 256 << 10;
  if (sample.size() > kMaxSniff) {
    size_t cut = sample.rfind('\n', kMaxSniff);
    sample = sample.substr(0, cut == std::string_view::npos ? kMaxSniff : cut + 1);
    at_end = false;
  }
  // Positions are written before they are read: no need to zero them.
  std::unique_ptr<uint32_t[]> pos_storage(new uint32_t[sample.size() + 1]);
  std::vector<char> delims = o.delimiter ? std::vector<char>{*o.delimiter} : std::vector<char>{',', '|', ';', '\t'};
  std::vector<char> quotes = o.quote ? std::vector<char>{*o.quote} : std::vector<char>{'"', '\0', '\''};
  // A delimiter or quote character that the sample does not contain splits it exactly as
  // any other absent one (and an absent quote as no quote, whatever the escape, which acts
  // only inside quotes): such candidates score the same as the first of them, which wins
  // the tie, so only that one is evaluated.
  bool present[256] = {};
  for (unsigned char ch : sample) present[ch] = true;
  auto search = [&](char comment) {
    Candidate best;
    std::set<std::tuple<int, int, int>> seen;
    for (char q : quotes) {
      std::vector<char> escapes = o.escape ? std::vector<char>{*o.escape} : std::vector<char>{q, '\\'};
      if (q == '\0') escapes = {'\0'};
      const bool quotes_here = q != '\0' && present[static_cast<uint8_t>(q)];
      for (char e : escapes) {
        for (char d : delims) {
          const int d_key = present[static_cast<uint8_t>(d)] ? static_cast<uint8_t>(d) : -1;
          const auto key = quotes_here ? std::make_tuple(static_cast<int>(static_cast<uint8_t>(q)), static_cast<int>(static_cast<uint8_t>(e)), d_key)
                                       : std::make_tuple(-1, -1, d_key);
          if (!seen.insert(key).second) continue;
          Dialect dialect;
          dialect.delimiter = d;
          dialect.quote = q;
          dialect.escape = e;
          dialect.comment = comment;
          Candidate c = Evaluate(sample, at_end, dialect, o, pos_storage);
          if (!c.valid) continue;
          // More agreeing rows first; then more columns; earlier candidates win exact ties.
          bool better = !best.valid;
          if (!better && c.clean != best.clean) {
            better = c.clean;
          } else if (!better) {
            // A single-column reading agrees trivially; it only wins when nothing splits.
            bool c_multi = c.ncols > 1, b_multi = best.ncols > 1;
            if (c_multi != b_multi) better = c_multi;
            else if (c.consistent != best.consistent) better = c.consistent > best.consistent;
            else if (c.ncols != best.ncols) better = c.ncols > best.ncols;
            else better = c.quote_used && !best.quote_used;  // a quote the file really uses
          }
          if (better) best = c;
        }
      }
    }
    return best;
  };
  Candidate best = search(o.comment);
  // Comment lines without --comment: when a line of the sample starts with '#', the search
  // runs again with '#' as the comment character. That reading wins when it is no less clean
  // and either splits into columns where the plain one could not, or keeps the same columns
  // with as many agreeing rows and fewer odd ones: the '#' lines were what did not fit. A
  // '#' line shaped like the data (a header "#id,name") keeps the plain reading.
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
      if (c.valid && (c.clean || !best.clean) && (splits || fewer_odd)) best = c;
    }
  }
  if (!best.valid) {
    return Status::Invalid("could not detect the CSV dialect: no delimiter and quote candidate parses the first "
                           "rows (set the delimiter, quote and escape)");
  }
  SniffResult out;
  out.dialect = best.dialect;
  out.num_columns = best.ncols;
  out.rows_sampled = best.rows;
  const auto* data = reinterpret_cast<const uint8_t*>(sample.data());
  out.dialect.skip_lines = o.skip_lines ? *o.skip_lines : CountLineBreaks(data, best.region_start);
  return out;
}

}  // namespace quiver::csv

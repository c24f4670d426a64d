// Type inference: which of int64, float64, bool, date, timestamp, time every sampled value of
// a column parses as (string otherwise), and for dates and timestamps not in ISO form, the one
// format (date_format.h) every value fits.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "quiver/columnar/type.h"
#include "quiver/csv/convert_internal.h"
#include "quiver/csv/date_format.h"

namespace quiver::csv {

// Whether a cell holds a letter (ASCII, or any non-ASCII character): names do, rules of dashes
// and numbers do not (the sniffer's and the header detection's test of a name).
inline bool HasLetter(std::string_view t) {
  for (unsigned char ch : t) {
    if (ch >= 0x80 || static_cast<unsigned>((ch | 0x20) - 'a') < 26u) return true;
  }
  return false;
}

class TypeInferrer {
 public:
  TypeInferrer(int ncols, const FieldSyntax& syntax)
      : syntax_(syntax), formats_(DateFormatCandidates(syntax.two_digit_years_from)), cols_(static_cast<size_t>(ncols)) {
    for (Candidates& c : cols_) c.formats = formats_.size() >= 64 ? ~uint64_t{0} : (uint64_t{1} << formats_.size()) - 1;
  }
  void AddValue(int col, std::string_view text) { AddTo(cols_[static_cast<size_t>(col)], text); }
  // Column `col` of rows[first..]: fields past a row's end are missing (null). Only this
  // column's state is touched, so different columns may be added on different threads.
  void AddColumn(int col, const uint8_t* data, const std::vector<std::vector<FieldSpan>>& rows, size_t first);
  // The narrowest type that holds every value seen (string when nothing was seen).
  TypePtr TypeOf(int col) const;
  // The format of a date or timestamp column whose values are not ISO (null otherwise): the
  // only candidate every value fits. A column that fits several (1/2/2008: month- or
  // day-first) has none, and stays text.
  const DateFormat* FormatOf(int col) const;
  // Whether `text` is a non-null value that the type inferred for `col` cannot hold.
  bool Contradicts(int col, std::string_view text) const;

 private:
  struct Candidates {
    bool any = false;
    bool int64 = true, float64 = true, boolean = true, date = true, timestamp = true, time = true;
    bool offset = false;  // a timestamp carried a UTC offset
    uint64_t formats = 0;  // the candidate formats every value fits, by bit
  };
  void AddTo(Candidates& c, std::string_view text) const;

  const FieldSyntax& syntax_;
  const std::vector<DateFormat>& formats_;
  std::vector<Candidates> cols_;
};

}  // namespace quiver::csv

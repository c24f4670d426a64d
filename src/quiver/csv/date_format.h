// Date and timestamp formats beyond ISO 8601 (1/1/1948, 24/08/2008, 2015/01/01 01:00:00): a
// strptime-like pattern compiled once per column, and the candidates type inference tries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/core/result.h"

namespace quiver::csv {

// Directives: %Y (4-digit year), %y (2-digit year, read in the 100-year window starting at
// `two_digit_years_from`, which it requires), %m and %d (1 or 2 digits), %H (1 or 2 digits,
// 0-23), %M and %S (2 digits; %S may be followed by a fraction, .1 to .999999999, truncated to
// microseconds), %% (a percent sign). Every other character must appear as it is.
class DateFormat {
 public:
  // `timestamp`: time directives are allowed (missing ones are zero); a date format has none.
  static Result<DateFormat> Compile(std::string_view pattern, bool timestamp, std::optional<int> two_digit_years_from);

  // Days since 1970-01-01; false when `s` does not fit the pattern or names no real date.
  bool ParseDays(std::string_view s, int32_t* days) const;
  // Microseconds since 1970-01-01 00:00:00.
  bool ParseMicros(std::string_view s, int64_t* micros) const;
  const std::string& pattern() const { return pattern_; }
  bool has_time() const { return has_time_; }

 private:
  enum class Op : uint8_t { kLiteral, kYear4, kYear2, kMonth, kDay, kHour, kMinute, kSecond };
  struct Step {
    Op op;
    char literal;
  };
  struct Fields {
    int64_t year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, micros = 0;
  };
  bool Match(std::string_view s, Fields* f) const;

  std::string pattern_;
  std::vector<Step> steps_;
  bool has_time_ = false;
  int two_digit_base_ = 0;  // first year of the two-digit window
};

// The formats inference tries, in a fixed order: month-first, day-first and year-first dates
// with '/', '-' or '.' between the parts (year-first with '-' is ISO, read without a format),
// each alone or followed by " %H:%M" or " %H:%M:%S". Two-digit years (month- and day-first
// only) are tried only when a window is given.
const std::vector<DateFormat>& DateFormatCandidates(std::optional<int> two_digit_years_from);

}  // namespace quiver::csv

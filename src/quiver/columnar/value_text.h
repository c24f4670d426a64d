// Typed values as text, the one formatting of each logical type that the pretty printer, the
// CSV and JSON Lines writers and the Parquet statistics printer share: dates, times of day,
// timestamps, decimals, half floats. (Text back to values: value_parse.h beside it.)
#pragma once

#include <cstdint>
#include <string>

#include "quiver/columnar/type.h"

namespace quiver {

// Days since 1970-01-01 as YYYY-MM-DD (years before 1 AD signed, at least four digits).
void FormatDate(int64_t days, std::string* out);
// A time of day in `unit` as HH:MM:SS, then the fraction in the unit's digits when it is not
// zero, or always with `all_digits`.
void FormatTimeOfDay(int64_t value, TimeUnit unit, std::string* out, bool all_digits = false);
// A timestamp in `unit` as ISO 8601: date, `separator`, time of day as above, "Z" when `utc`.
void FormatTimestamp(int64_t value, TimeUnit unit, bool utc, std::string* out, char separator = ' ',
                     bool all_digits = false);
// An unscaled decimal with `scale` digits after the point.
void FormatDecimal(__int128 value, int32_t scale, std::string* out);
float HalfToFloat(uint16_t half);

}  // namespace quiver

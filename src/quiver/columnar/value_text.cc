#include "quiver/columnar/value_text.h"

#include <fmt/format.h>

#include <cmath>

#include "quiver/columnar/value_parse.h"

namespace quiver {

namespace {

int64_t UnitsPerSecond(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return 1;
    case TimeUnit::kMilli: return 1000;
    case TimeUnit::kMicro: return 1000000;
    case TimeUnit::kNano: return 1000000000;
  }
  return 1;
}

int UnitDigits(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return 0;
    case TimeUnit::kMilli: return 3;
    case TimeUnit::kMicro: return 6;
    case TimeUnit::kNano: return 9;
  }
  return 0;
}

// Whole units (floored) and the non-negative remainder, with no multiplication that could
// overflow at the ends of int64.
void SplitFloor(int64_t v, int64_t per, int64_t* whole, int64_t* rest) {
  *whole = v / per;
  *rest = v % per;
  if (*rest < 0) {
    *rest += per;
    *whole -= 1;
  }
}

}  // namespace

float HalfToFloat(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  float v;
  if (exp == 0) v = std::ldexp(static_cast<float>(mant), -24);
  else if (exp == 31) v = mant ? NAN : INFINITY;
  else v = std::ldexp(static_cast<float>(mant | 0x400), static_cast<int>(exp) - 25);
  return sign ? -v : v;
}

void FormatDate(int64_t days, std::string* out) {
  int64_t y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  // ISO 8601 years before 1 AD: a sign and at least four digits ("-0221").
  if (y < 0) fmt::format_to(std::back_inserter(*out), "-{:04}-{:02}-{:02}", -y, m, d);
  else fmt::format_to(std::back_inserter(*out), "{:04}-{:02}-{:02}", y, m, d);
}

void FormatTimeOfDay(int64_t value, TimeUnit unit, std::string* out, bool all_digits) {
  const int64_t per_sec = UnitsPerSecond(unit);
  int64_t secs, frac;
  SplitFloor(value, per_sec, &secs, &frac);
  fmt::format_to(std::back_inserter(*out), "{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
  if ((frac != 0 || all_digits) && unit != TimeUnit::kSecond) {
    fmt::format_to(std::back_inserter(*out), ".{:0{}}", frac, UnitDigits(unit));
  }
}

void FormatTimestamp(int64_t value, TimeUnit unit, bool utc, std::string* out, char separator, bool all_digits) {
  // Seconds first, then days: days * units-per-day could overflow near INT64_MIN.
  const int64_t per_sec = UnitsPerSecond(unit);
  int64_t secs, frac, days, sod;
  SplitFloor(value, per_sec, &secs, &frac);
  SplitFloor(secs, 86400, &days, &sod);
  FormatDate(days, out);
  out->push_back(separator);
  // Time of day printed from its parts: sod * per_sec + frac fits easily.
  FormatTimeOfDay(sod * per_sec + frac, unit, out, all_digits);
  if (utc) out->push_back('Z');
}

void FormatDecimal(__int128 value, int32_t scale, std::string* out) {
  // Digits are built in a string: the scale may come from a hostile file and be any size.
  const bool neg = value < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(value) : static_cast<unsigned __int128>(value);
  std::string digits;
  do {
    digits.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  } while (u != 0);
  const size_t frac = scale > 0 ? static_cast<size_t>(scale) : 0;
  if (digits.size() <= frac) digits.append(frac + 1 - digits.size(), '0');  // one digit before the point
  if (neg) out->push_back('-');
  for (size_t i = digits.size(); i-- > 0;) {
    out->push_back(digits[i]);
    if (i == frac && frac > 0) out->push_back('.');
  }
}

}  // namespace quiver

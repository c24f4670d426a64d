// Text to typed values: the per-field parsers behind CSV conversion and type inference.
// Each returns false (no Status) on text that is not a value of its type.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace quiver::csv {

inline bool IsDigit(char c) { return static_cast<unsigned char>(c - '0') < 10; }

// [+-]digits, no spaces, no overflow.
inline bool ParseInt64(std::string_view s, int64_t* out) {
  const char* p = s.data();
  const char* end = p + s.size();
  if (p == end) return false;
  bool neg = false;
  if (*p == '-' || *p == '+') {
    neg = *p == '-';
    if (++p == end) return false;
  }
  uint64_t v = 0;
  // 18 digits can never overflow; longer inputs take the checked loop.
  if (end - p <= 18) {
    for (; p < end; ++p) {
      unsigned d = static_cast<unsigned char>(*p - '0');
      if (d > 9) return false;
      v = v * 10 + d;
    }
  } else {
    for (; p < end; ++p) {
      unsigned d = static_cast<unsigned char>(*p - '0');
      if (d > 9) return false;
      if (__builtin_mul_overflow(v, 10u, &v) || __builtin_add_overflow(v, d, &v)) return false;
    }
    if (v > (neg ? uint64_t{1} << 63 : static_cast<uint64_t>(INT64_MAX))) return false;
  }
  *out = neg ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
  return true;
}

// Shortest-round-trip-correct decimal text to double (fast_float), also inf/nan.
bool ParseFloat64(std::string_view s, double* out);

// YYYY-MM-DD (also YYYY-M-D) to days since 1970-01-01.
bool ParseDate(std::string_view s, int32_t* days);
// HH:MM[:SS[.fraction]] to nanoseconds since midnight.
bool ParseTimeOfDayNanos(std::string_view s, int64_t* nanos);

struct ParsedTimestamp {
  int64_t micros;   // since the epoch, in UTC when has_offset
  bool has_offset;  // 'Z' or ±HH[:MM] was present
};
// YYYY-MM-DD[( |T)HH:MM[:SS[.ffffff]]][Z|±HH[:MM]]; fractions beyond microseconds truncate.
bool ParseTimestamp(std::string_view s, ParsedTimestamp* out);

// [+-]digits[.digits] with at most `scale` fraction digits (zero-padded) and at most
// `precision` digits in all, to a scaled 128-bit integer.
bool ParseDecimal(std::string_view s, int32_t precision, int32_t scale, __int128* out);

// Days since the epoch of a proleptic Gregorian date; false when the date does not exist.
bool DaysFromCivil(int64_t y, unsigned m, unsigned d, int64_t* days);

}  // namespace quiver::csv

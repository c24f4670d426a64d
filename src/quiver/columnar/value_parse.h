// Text to typed values: the per-field parsers behind CSV conversion and type inference.
// Each returns false (no Status) on text that is not a value of its type.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

#include "quiver/columnar/type.h"

namespace quiver {

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

// ---- Parsers for text inside a padded buffer ----------------------------------------------
// The `...Padded` parsers below give exactly the results of the plain ones, but may read up to
// 24 bytes from the start of `s` whatever its length: CSV conversion calls them on fields of a
// block buffer, which has at least 64 readable bytes past its end. They read 8 digits at a
// time (SWAR: one 64-bit load, a validity test on all bytes at once, three multiplies to
// combine) and fall back to the plain parsers for anything unusual.

namespace swar {

inline uint64_t Load8(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;  // little-endian: p[0] is the low byte
}

// Every byte of v is an ASCII digit: high nibble 3 before and after adding 6.
inline bool AllDigits(uint64_t v) {
  return ((v & 0xF0F0F0F0F0F0F0F0ull) | (((v + 0x0606060606060606ull) & 0xF0F0F0F0F0F0F0F0ull) >> 4)) ==
         0x3333333333333333ull;
}

// The value of the first k (1..8) decimal digits packed in v (first digit in the low byte),
// or false when one of them is not a digit.
inline bool DigitsOfWord(uint64_t v, size_t k, uint32_t* out) {
  if (k < 8) {
    // Move the k digits to the high bytes (the most significant places) and fill the low
    // bytes with '0' characters, i.e. leading zeros.
    v = (v << (8 * (8 - k))) | (0x3030303030303030ull >> (8 * k));
  }
  if (!AllDigits(v)) return false;
  v -= 0x3030303030303030ull;
  // Pairs of digits, then groups of four, then all eight; the first character is the most
  // significant digit and sits in the lowest byte.
  v = (v * 10 + (v >> 8)) & 0x00FF00FF00FF00FFull;
  v = (v * 100 + (v >> 16)) & 0x0000FFFF0000FFFFull;
  v = (v * 10000 + (v >> 32)) & 0xFFFFFFFFull;
  *out = static_cast<uint32_t>(v);
  return true;
}

// The value of the k (1..8) decimal digits at p, or false when one of them is not a digit.
inline bool Digits(const char* p, size_t k, uint32_t* out) { return DigitsOfWord(Load8(p), k, out); }

// Index of the first byte equal to `c` among the 8 at p, or 8.
inline size_t FindByte(const char* p, uint8_t c) {
  uint64_t x = Load8(p) ^ (0x0101010101010101ull * c);
  uint64_t z = (x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull;
  return z == 0 ? 8 : static_cast<size_t>(__builtin_ctzll(z)) / 8;
}

}  // namespace swar

inline bool ParseInt64Padded(std::string_view s, int64_t* out) {
  const char* p = s.data();
  size_t n = s.size();
  bool neg = false;
  if (n > 0 && (*p == '-' || *p == '+')) {
    neg = *p == '-';
    ++p;
    --n;
  }
  uint64_t v;
  uint32_t hi, lo;
  if (n >= 1 && n <= 8) {
    if (!swar::Digits(p, n, &lo)) return false;
    v = lo;
  } else if (n > 8 && n <= 16) {
    if (!swar::Digits(p, n - 8, &hi) || !swar::Digits(p + n - 8, 8, &lo)) return false;
    v = uint64_t{hi} * 100000000u + lo;
  } else {
    return ParseInt64(s, out);
  }
  *out = neg ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
  return true;
}

namespace internal {
inline constexpr double kExactPow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
inline constexpr uint32_t kPow10U32[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
}  // namespace internal

inline bool ParseFloat64Padded(std::string_view s, double* out) {
  // [-]D{1,8}[.D{1,8}] with at most 15 digits: the digits as one integer (exact below 2^53)
  // divided by an exact power of ten is correctly rounded, as in ParseFloat64.
  const char* p = s.data();
  size_t n = s.size();
  const bool neg = n > 0 && *p == '-';
  p += neg;
  n -= neg;
  if (n >= 3 && n <= 9) {
    // Up to 8 digits around a point within the first 8 bytes (prices, rates, quantities):
    // the point is squeezed out of one word and the digits are read in one go.
    const uint64_t v = swar::Load8(p);
    const size_t dot = swar::FindByte(p, '.');
    if (dot >= 1 && dot + 2 <= n) {
      const size_t frac = n - 1 - dot;
      const uint64_t lo = (uint64_t{1} << (8 * dot)) - 1;
      const uint64_t w = (v & lo) | ((v >> 8) & ~lo) | (uint64_t{static_cast<uint8_t>(p[8])} << 56);
      uint32_t digits;
      if (swar::DigitsOfWord(w, n - 1, &digits)) {
        const double m = static_cast<double>(digits) / internal::kExactPow10[frac];
        *out = neg ? -m : m;
        return true;
      }
      return ParseFloat64(s, out);
    }
  }
  if (n >= 1 && n <= 16) {
    // The point within the first 9 bytes, else the integer must end at the field's end.
    size_t dot = swar::FindByte(p, '.');
    if (dot == 8 && n > 8 && p[8] != '.') dot = 0;  // more than 8 integer digits: not this path
    if (dot > n) dot = n;
    uint32_t ip, fp = 0;
    const size_t frac = dot < n ? n - dot - 1 : 0;
    if (dot >= 1 && dot <= 8 && (dot == n || (frac >= 1 && frac <= 8 && dot + frac <= 15)) &&
        swar::Digits(p, dot, &ip) && (frac == 0 || swar::Digits(p + dot + 1, frac, &fp))) {
      double v = static_cast<double>(uint64_t{ip} * internal::kPow10U32[frac] + fp);
      if (frac > 0) v /= internal::kExactPow10[frac];
      *out = neg ? -v : v;
      return true;
    }
  }
  return ParseFloat64(s, out);
}

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
// A parsed timestamp's microseconds in `unit` (seconds and milliseconds truncate toward zero);
// false when nanoseconds would not fit in int64 (past 2262).
bool MicrosInUnit(int64_t micros, TimeUnit unit, int64_t* out);

// [+-]digits[.digits] with at most `scale` fraction digits (zero-padded) and at most
// `precision` digits in all, to a scaled 128-bit integer.
bool ParseDecimal(std::string_view s, int32_t precision, int32_t scale, __int128* out);

// Days since the epoch of a proleptic Gregorian date; false when the date does not exist.
bool DaysFromCivil(int64_t y, unsigned m, unsigned d, int64_t* days);
// Days since the epoch to (year, month, day) in the proleptic Gregorian calendar.
void CivilFromDays(int64_t days, int64_t* y, unsigned* m, unsigned* d);

// YYYY-MM-DD with a year in 1970..2099 by table, inline; everything else through ParseDate.
inline bool ParseDatePadded(std::string_view s, int32_t* days) {
  static constexpr uint16_t kBefore[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
  static constexpr uint8_t kLen[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const char* p = s.data();
  if (s.size() != 10) return ParseDate(s, days);
  // The eight digits gathered into one word ("YYYYMMDD", dashes checked apart), validated at
  // once and combined pairwise: 16-bit lanes then hold the year's two halves, month and day.
  const uint64_t v = swar::Load8(p);
  uint16_t dd;
  std::memcpy(&dd, p + 8, 2);
  const uint64_t w = (v & 0xFFFFFFFFull) | (((v >> 40) & 0xFFFF) << 32) | (uint64_t{dd} << 48);
  if (((v >> 32) & 0xFF) != '-' || (v >> 56) != '-' || !swar::AllDigits(w)) return ParseDate(s, days);
  uint64_t t = w - 0x3030303030303030ull;
  t = (t * 10 + (t >> 8)) & 0x00FF00FF00FF00FFull;
  const uint32_t y = static_cast<uint32_t>(t & 0xFF) * 100 + static_cast<uint32_t>((t >> 16) & 0xFF);
  const uint32_t m = static_cast<uint32_t>((t >> 32) & 0xFF), d = static_cast<uint32_t>(t >> 48);
  if (y >= 1970 && y <= 2099 && m - 1 < 12 && d >= 1) {
    const bool leap = (y & 3) == 0;  // 2000 is a leap year; 2100 is outside the range
    if (d > static_cast<uint32_t>(kLen[m - 1] + (m == 2 && leap))) return false;
    const int32_t yy = static_cast<int32_t>(y) - 1970;
    *days = yy * 365 + (yy + 1) / 4 + kBefore[m - 1] + (m > 2 && leap) + static_cast<int32_t>(d) - 1;
    return true;
  }
  return ParseDate(s, days);
}

}  // namespace quiver

#include "quiver/columnar/value_parse.h"

#include <fast_float/fast_float.h>

namespace quiver {

bool ParseFloat64(std::string_view s, double* out) {
  const char* p = s.data();
  const char* end = p + s.size();
  if (p == end) return false;
  // Plain decimals ([-]digits[.digits], at most 15 digits) are exact: the digits as an
  // integer below 2^53 divided by an exact power of ten rounds correctly (Clinger).
  if (s.size() <= 17) {
    static const double kPow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    const char* q = p;
    bool neg = *q == '-';
    q += neg;
    uint64_t m = 0;
    int digits = 0, frac = -1;
    for (; q < end; ++q) {
      unsigned d = static_cast<unsigned char>(*q - '0');
      if (d < 10) {
        m = m * 10 + d;
        ++digits;
        if (frac >= 0) ++frac;
      } else if (*q == '.' && frac < 0) {
        frac = 0;
      } else {
        break;
      }
    }
    if (q == end && digits > 0 && digits <= 15 && frac != 0) {
      double v = static_cast<double>(m);
      if (frac > 0) v /= kPow10[frac];
      *out = neg ? -v : v;
      return true;
    }
  }
  if (*p == '+') ++p;  // fast_float rejects a leading plus
  auto r = fast_float::from_chars(p, end, *out);
  return r.ec == std::errc() && r.ptr == end;
}

bool DaysFromCivil(int64_t y, unsigned m, unsigned d, int64_t* days) {
  // Years 1970..2099 (most data) by table: days before each month, leap days counted
  // directly; the general era formula below handles everything else.
  static const uint16_t kBefore[] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
  static const uint8_t kLen[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (y >= 1970 && y <= 2099 && m >= 1 && m <= 12 && d >= 1) {
    const bool leap = (y & 3) == 0;  // 2000 is a leap year; 2100 is outside the range
    if (d > static_cast<unsigned>(kLen[m - 1] + (m == 2 && leap))) return false;
    const int64_t yy = y - 1970;
    *days = yy * 365 + (yy + 1) / 4 + kBefore[m - 1] + (m > 2 && leap) + d - 1;
    return true;
  }
  static const unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12 || d < 1) return false;
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (d > kDays[m - 1] + (m == 2 && leap)) return false;
  // The inverse of CivilFromDays' era decomposition.
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  *days = era * 146097 + static_cast<int64_t>(doe) - 719468;
  return true;
}

// By the usual era-of-400-years decomposition.
void CivilFromDays(int64_t z, int64_t* y, unsigned* m, unsigned* d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = static_cast<int64_t>(yoe) + era * 400 + (*m <= 2);
}

namespace {

// Reads 1..max_digits digits; returns characters consumed (0 on none).
inline int ReadDigits(const char* p, const char* end, int max_digits, int64_t* v) {
  int n = 0;
  int64_t x = 0;
  while (p + n < end && n < max_digits && IsDigit(p[n])) {
    x = x * 10 + (p[n] - '0');
    ++n;
  }
  *v = x;
  return n;
}

// Parses the date at the start of s; returns characters consumed or 0.
int ParseDatePrefix(std::string_view s, int64_t* days) {
  const char* p = s.data();
  const char* end = p + s.size();
  const char* start = p;
  bool neg = false;
  if (p < end && *p == '-') {
    neg = true;
    ++p;
  }
  int64_t y, m, d;
  int n = ReadDigits(p, end, 6, &y);
  if (n < 4) return 0;
  p += n;
  if (p >= end || *p != '-') return 0;
  ++p;
  n = ReadDigits(p, end, 2, &m);
  if (n == 0) return 0;
  p += n;
  if (p >= end || *p != '-') return 0;
  ++p;
  n = ReadDigits(p, end, 2, &d);
  if (n == 0) return 0;
  p += n;
  if (!DaysFromCivil(neg ? -y : y, static_cast<unsigned>(m), static_cast<unsigned>(d), days)) return 0;
  return static_cast<int>(p - start);
}

// HH:MM[:SS[.f]]; returns characters consumed or 0.
int ParseTimePrefix(std::string_view s, int64_t* nanos) {
  const char* p = s.data();
  const char* end = p + s.size();
  const char* start = p;
  int64_t h, mi, sec = 0, frac = 0;
  int n = ReadDigits(p, end, 2, &h);
  if (n == 0) return 0;
  p += n;
  if (p >= end || *p != ':') return 0;
  ++p;
  n = ReadDigits(p, end, 2, &mi);
  if (n != 2) return 0;
  p += n;
  if (p < end && *p == ':') {
    ++p;
    n = ReadDigits(p, end, 2, &sec);
    if (n != 2) return 0;
    p += n;
    if (p < end && (*p == '.' || *p == ',')) {
      ++p;
      int digits = 0;
      while (p < end && IsDigit(*p)) {
        if (digits < 9) frac = frac * 10 + (*p - '0');
        ++digits;
        ++p;
      }
      if (digits == 0) return 0;
      for (int k = digits; k < 9; ++k) frac *= 10;
    }
  }
  if (h > 24 || mi > 59 || sec > 60 || (h == 24 && (mi || sec || frac))) return 0;
  *nanos = ((h * 60 + mi) * 60 + sec) * 1000000000 + frac;
  return static_cast<int>(p - start);
}

}  // namespace

bool ParseDate(std::string_view s, int32_t* days) {
  // The common ISO form YYYY-MM-DD, checked in one go.
  if (s.size() == 10 && s[4] == '-' && s[7] == '-') {
    const char* p = s.data();
    unsigned y0 = p[0] - '0', y1 = p[1] - '0', y2 = p[2] - '0', y3 = p[3] - '0';
    unsigned m0 = p[5] - '0', m1 = p[6] - '0', d0 = p[8] - '0', d1 = p[9] - '0';
    if ((y0 | y1 | y2 | y3 | m0 | m1 | d0 | d1) < 10) {
      int64_t out;
      if (!DaysFromCivil(y0 * 1000 + y1 * 100 + y2 * 10 + y3, m0 * 10 + m1, d0 * 10 + d1, &out)) return false;
      *days = static_cast<int32_t>(out);
      return true;
    }
  }
  int64_t d;
  int n = ParseDatePrefix(s, &d);
  if (n == 0 || static_cast<size_t>(n) != s.size() || d < INT32_MIN || d > INT32_MAX) return false;
  *days = static_cast<int32_t>(d);
  return true;
}

bool ParseTimeOfDayNanos(std::string_view s, int64_t* nanos) {
  int n = ParseTimePrefix(s, nanos);
  return n > 0 && static_cast<size_t>(n) == s.size();
}

bool MicrosInUnit(int64_t micros, TimeUnit unit, int64_t* out) {
  switch (unit) {
    case TimeUnit::kSecond: *out = micros / 1000000; break;
    case TimeUnit::kMilli: *out = micros / 1000; break;
    case TimeUnit::kMicro: *out = micros; break;
    case TimeUnit::kNano: return !__builtin_mul_overflow(micros, int64_t{1000}, out);
  }
  return true;
}

bool ParseTimestamp(std::string_view s, ParsedTimestamp* out) {
  int64_t days;
  int n = ParseDatePrefix(s, &days);
  if (n == 0) return false;
  int64_t nanos = 0;
  bool has_offset = false;
  int64_t offset_seconds = 0;
  std::string_view rest = s.substr(static_cast<size_t>(n));
  if (!rest.empty()) {
    if (rest[0] != ' ' && rest[0] != 'T') return false;
    rest.remove_prefix(1);
    int t = ParseTimePrefix(rest, &nanos);
    if (t == 0) return false;
    rest.remove_prefix(static_cast<size_t>(t));
    if (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
    if (!rest.empty()) {
      if (rest == "Z" || rest == "z" || rest == "UTC") {
        has_offset = true;
      } else if (rest[0] == '+' || rest[0] == '-') {
        int sign = rest[0] == '-' ? -1 : 1;
        rest.remove_prefix(1);
        int64_t oh = 0, om = 0;
        int k = ReadDigits(rest.data(), rest.data() + rest.size(), 2, &oh);
        if (k != 2) return false;
        rest.remove_prefix(2);
        if (!rest.empty() && rest[0] == ':') rest.remove_prefix(1);
        if (!rest.empty()) {
          k = ReadDigits(rest.data(), rest.data() + rest.size(), 2, &om);
          if (k != 2 || rest.size() != 2) return false;
        }
        if (oh > 18 || om > 59) return false;
        has_offset = true;
        offset_seconds = sign * (oh * 3600 + om * 60);
      } else {
        return false;
      }
    }
  }
  __int128 micros = static_cast<__int128>(days) * 86400000000 + nanos / 1000 - offset_seconds * 1000000;
  if (micros < INT64_MIN || micros > INT64_MAX) return false;
  out->micros = static_cast<int64_t>(micros);
  out->has_offset = has_offset;
  return true;
}

bool ParseDecimal(std::string_view s, int32_t precision, int32_t scale, __int128* out) {
  const char* p = s.data();
  const char* end = p + s.size();
  if (p == end) return false;
  bool neg = false;
  if (*p == '-' || *p == '+') {
    neg = *p == '-';
    ++p;
  }
  __int128 v = 0;
  int digits = 0, frac_digits = 0;
  bool seen_digit = false, seen_point = false;
  for (; p < end; ++p) {
    char c = *p;
    if (IsDigit(c)) {
      seen_digit = true;
      if (seen_point) {
        if (++frac_digits > scale) return false;
      }
      if (digits > 0 || c != '0') ++digits;
      v = v * 10 + (c - '0');
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      return false;
    }
  }
  if (!seen_digit) return false;
  for (int k = frac_digits; k < scale; ++k) {
    v *= 10;
    if (digits > 0) ++digits;
  }
  if (digits > precision) return false;
  *out = neg ? -v : v;
  return true;
}

}  // namespace quiver

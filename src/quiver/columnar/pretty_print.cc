#include "quiver/columnar/pretty_print.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace quiver {

namespace {

// Days since the epoch to (year, month, day) in the proleptic Gregorian calendar, by the
// usual era-of-400-years decomposition.
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

void AppendHex(std::string_view s, std::string* out) {
  static const char* digits = "0123456789abcdef";
  *out += "0x";
  for (unsigned char c : s) {
    out->push_back(digits[c >> 4]);
    out->push_back(digits[c & 15]);
  }
}

template <typename F>
void AppendFloat(F v, std::string* out) {
  if (std::isnan(v)) *out += "NaN";
  else if (std::isinf(v)) *out += v > 0 ? "inf" : "-inf";
  else fmt::format_to(std::back_inserter(*out), "{}", v);
}

}  // namespace

void AppendJsonQuoted(std::string_view s, std::string* out) {
  out->push_back('"');
  for (char c : s) {
    switch (c) {
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\r': *out += "\\r"; break;
      case '\t': *out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) fmt::format_to(std::back_inserter(*out), "\\u{:04x}", static_cast<unsigned>(c));
        else out->push_back(c);
    }
  }
  out->push_back('"');
}

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

void FormatTimeOfDay(int64_t value, TimeUnit unit, std::string* out) {
  const int64_t per_sec = UnitsPerSecond(unit);
  int64_t secs, frac;
  SplitFloor(value, per_sec, &secs, &frac);
  fmt::format_to(std::back_inserter(*out), "{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
  if (frac != 0) fmt::format_to(std::back_inserter(*out), ".{:0{}}", frac, UnitDigits(unit));
}

void FormatTimestamp(int64_t value, TimeUnit unit, bool utc, std::string* out) {
  // Seconds first, then days: days * units-per-day could overflow near INT64_MIN.
  const int64_t per_sec = UnitsPerSecond(unit);
  int64_t secs, frac, days, sod;
  SplitFloor(value, per_sec, &secs, &frac);
  SplitFloor(secs, 86400, &days, &sod);
  FormatDate(days, out);
  out->push_back(' ');
  // Time of day printed from its parts: sod * per_sec + frac fits easily.
  FormatTimeOfDay(sod * per_sec + frac, unit, out);
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

void FormatValue(const Array& a, int64_t i, std::string* out, bool quote_strings) {
  if (a.IsNull(i)) {
    *out += "null";
    return;
  }
  const ArrayData& d = *a.data();
  const int64_t k = d.offset + i;
  const DataType& t = *a.type();
  auto raw = [&](auto tag) { return d.buffers[1]->data_as<decltype(tag)>()[k]; };
  auto it = std::back_inserter(*out);
  switch (t.id()) {
    case TypeId::kBool: *out += BooleanArray(a).Value(i) ? "true" : "false"; return;
    case TypeId::kInt8: fmt::format_to(it, "{}", raw(int8_t{})); return;
    case TypeId::kInt16: fmt::format_to(it, "{}", raw(int16_t{})); return;
    case TypeId::kInt32: fmt::format_to(it, "{}", raw(int32_t{})); return;
    case TypeId::kInt64: fmt::format_to(it, "{}", raw(int64_t{})); return;
    case TypeId::kUInt8: fmt::format_to(it, "{}", raw(uint8_t{})); return;
    case TypeId::kUInt16: fmt::format_to(it, "{}", raw(uint16_t{})); return;
    case TypeId::kUInt32: fmt::format_to(it, "{}", raw(uint32_t{})); return;
    case TypeId::kUInt64: fmt::format_to(it, "{}", raw(uint64_t{})); return;
    case TypeId::kFloat16: AppendFloat(HalfToFloat(raw(uint16_t{})), out); return;
    case TypeId::kFloat32: AppendFloat(raw(float{}), out); return;
    case TypeId::kFloat64: AppendFloat(raw(double{}), out); return;
    case TypeId::kDecimal128: {
      __int128 v;
      std::memcpy(&v, d.buffers[1]->data() + k * 16, 16);
      FormatDecimal(v, t.scale(), out);
      return;
    }
    case TypeId::kDate32: FormatDate(raw(int32_t{}), out); return;
    case TypeId::kTime32: FormatTimeOfDay(raw(int32_t{}), t.unit(), out); return;
    case TypeId::kTime64: FormatTimeOfDay(raw(int64_t{}), t.unit(), out); return;
    case TypeId::kTimestamp: FormatTimestamp(raw(int64_t{}), t.unit(), t.timezone() == "UTC", out); return;
    case TypeId::kString: {
      auto v = BinaryArray(a).GetView(i);
      if (quote_strings) AppendJsonQuoted(v, out);
      else *out += v;
      return;
    }
    case TypeId::kBinary: AppendHex(BinaryArray(a).GetView(i), out); return;
    case TypeId::kFixedSizeBinary: AppendHex(FixedSizeBinaryArray(a).GetView(i), out); return;
    case TypeId::kList: {
      ListArray l(a);
      Array values = l.values();
      out->push_back('[');
      for (int32_t j = 0; j < l.value_length(i); ++j) {
        if (j) *out += ", ";
        FormatValue(values, l.value_offset(i) + j, out, true);
      }
      out->push_back(']');
      return;
    }
    case TypeId::kMap: {
      ListArray l(a);
      StructArray entries(l.values());
      Array keys(entries.data()->children[0]), items(entries.data()->children[1]);
      out->push_back('{');
      for (int32_t j = 0; j < l.value_length(i); ++j) {
        if (j) *out += ", ";
        int64_t e = entries.offset() + l.value_offset(i) + j;
        FormatValue(keys, e, out, true);
        *out += ": ";
        FormatValue(items, e, out, true);
      }
      out->push_back('}');
      return;
    }
    case TypeId::kStruct: {
      StructArray s(a);
      out->push_back('{');
      for (int c = 0; c < s.num_fields(); ++c) {
        if (c) *out += ", ";
        *out += t.field(c).name;
        *out += ": ";
        FormatValue(Array(d.children[static_cast<size_t>(c)]), k, out, true);
      }
      out->push_back('}');
      return;
    }
  }
}

std::string FormatValue(const Array& array, int64_t i) {
  std::string s;
  FormatValue(array, i, &s);
  return s;
}

std::string ArrayToString(const Array& array, int64_t max_items) {
  std::string s = "[";
  int64_t n = std::min(array.length(), max_items);
  for (int64_t i = 0; i < n; ++i) {
    if (i) s += ", ";
    FormatValue(array, i, &s, true);
  }
  if (n < array.length()) s += n ? ", ..." : "...";
  s += "]";
  return s;
}

std::string Array::ToString() const { return ArrayToString(*this); }

std::string FormatTable(const RecordBatch& batch, int64_t max_rows) {
  const int ncols = batch.num_columns();
  const int64_t nrows = std::min(batch.num_rows(), max_rows);
  std::vector<std::vector<std::string>> cells(static_cast<size_t>(ncols));
  std::vector<size_t> width(static_cast<size_t>(ncols));
  for (int c = 0; c < ncols; ++c) {
    auto& col = cells[static_cast<size_t>(c)];
    col.push_back(batch.schema()->field(c).name);
    for (int64_t r = 0; r < nrows; ++r) {
      std::string v;
      FormatValue(batch.column(c), r, &v);
      for (char& ch : v) {
        if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' ';
      }
      col.push_back(std::move(v));
    }
    for (const auto& v : col) width[static_cast<size_t>(c)] = std::max(width[static_cast<size_t>(c)], v.size());
  }
  std::string out;
  for (int64_t r = 0; r <= nrows; ++r) {
    for (int c = 0; c < ncols; ++c) {
      const std::string& v = cells[static_cast<size_t>(c)][static_cast<size_t>(r)];
      out += v;
      if (c + 1 < ncols) out.append(width[static_cast<size_t>(c)] - v.size() + 2, ' ');
    }
    out += '\n';
    if (r == 0) {
      for (int c = 0; c < ncols; ++c) {
        out.append(width[static_cast<size_t>(c)], '-');
        if (c + 1 < ncols) out += "  ";
      }
      out += '\n';
    }
  }
  if (nrows < batch.num_rows()) out += fmt::format("... {} more rows\n", batch.num_rows() - nrows);
  return out;
}

}  // namespace quiver

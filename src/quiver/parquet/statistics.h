// Parquet statistics in one place: the sort order of a column's PLAIN-encoded values (its
// type order) and comparisons in it, which values may be bounds (never NaN), a zero bound's
// sign, byte-array bounds truncated (then inexact), the bounds a Statistics struct offers a
// reader with their exactness, and a bound printed as a value of its column's type. The
// writer's statistics, the reader's pruning and `quiver meta` share these rules.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "quiver/columnar/type.h"
#include "quiver/parquet/metadata.h"
#include "quiver/parquet/schema.h"

namespace quiver::parquet {

// How a column's PLAIN values sort: integers signed or unsigned by their width, floats by
// value, bytes unsigned lexicographically, wide decimals as big-endian two's complement; kNone
// when quiver writes no bounds (FLOAT16).
enum class SortOrder : uint8_t { kSigned, kUnsigned, kFloat, kBytes, kSignedBigEndian, kNone };

// The order of the column quiver writes for a value of type `t`: bool (0 < 1), small unsigned
// integers (widened to non-negative INT32), dates and times sort signed.
SortOrder SortOrderFor(const DataType& t);

// Whether PLAIN value `a` sorts before `b` in `order` (values of physical type `physical`).
// A NaN sorts neither before nor after anything. Inline: writers call it per value of some
// columns.
inline bool PlainLess(SortOrder order, Type physical, std::string_view a, std::string_view b) {
  auto load = [](std::string_view s, auto zero) {
    decltype(zero) v;
    std::memcpy(&v, s.data(), sizeof(v));
    return v;
  };
  switch (order) {
    case SortOrder::kBytes: return a < b;  // std::string_view compares as unsigned bytes
    case SortOrder::kSignedBigEndian: {
      const int8_t ha = static_cast<int8_t>(a[0]), hb = static_cast<int8_t>(b[0]);
      if (ha != hb) return ha < hb;
      return a.substr(1) < b.substr(1);
    }
    case SortOrder::kFloat:
      return physical == Type::FLOAT ? load(a, 0.0f) < load(b, 0.0f) : load(a, 0.0) < load(b, 0.0);
    case SortOrder::kUnsigned:
      return physical == Type::INT32 ? load(a, uint32_t{}) < load(b, uint32_t{}) : load(a, uint64_t{}) < load(b, uint64_t{});
    case SortOrder::kSigned:
      if (physical == Type::BOOLEAN) return load(a, uint8_t{}) < load(b, uint8_t{});
      return physical == Type::INT32 ? load(a, int32_t{}) < load(b, int32_t{}) : load(a, int64_t{}) < load(b, int64_t{});
    case SortOrder::kNone: return false;
  }
  return false;
}


// Whether a value may become a bound: not in a column without an order, and never a NaN.
inline bool CanBeBound(SortOrder order, Type physical, std::string_view v) {
  if (order == SortOrder::kNone) return false;
  if (order != SortOrder::kFloat) return true;
  if (physical == Type::FLOAT) {
    float f;
    std::memcpy(&f, v.data(), 4);
    return !std::isnan(f);
  }
  double d;
  std::memcpy(&d, v.data(), 8);
  return !std::isnan(d);
}

// A zero bound is written as the widest zero, min -0.0 and max +0.0 (the format's rule: a
// reader may skip a chunk whose max is -0.0 when looking for +0.0). Float orders only.
void WidenZeroBounds(SortOrder order, Type physical, std::string* min, std::string* max);

// Byte-array bounds longer than `limit` bytes (0: no limit) are cut: the min to a prefix, the
// max to a prefix with its last byte (or, for `utf8`, code point, never a surrogate) that can
// be incremented, incremented. Either one cut is no longer exact. A max made only of 0xFF
// bytes (or U+10FFFF) stays whole.
void TruncateBounds(int32_t limit, bool utf8, std::string* min, std::string* max, bool* min_exact, bool* max_exact);

// The first min(size, 8) bytes of s as a big-endian word, zero-padded (overlapping loads, no
// read past the value).
inline uint64_t Prefix8(std::string_view s) {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  const size_t n = s.size();
  if (n >= 8) {
    uint64_t x;
    std::memcpy(&x, p, 8);
    return __builtin_bswap64(x);
  }
  if (n >= 4) {
    uint32_t hi, lo;
    std::memcpy(&hi, p, 4);
    std::memcpy(&lo, p + n - 4, 4);
    return (uint64_t{__builtin_bswap32(hi)} << 32) | (uint64_t{__builtin_bswap32(lo)} << (64 - 8 * n));
  }
  if (n == 0) return 0;
  return (uint64_t{p[0]} << 56) | (uint64_t{p[n / 2]} << (56 - 8 * (n / 2))) | (uint64_t{p[n - 1]} << (56 - 8 * (n - 1)));
}

// Unsigned lexicographic order, for hot loops: most values differ within their first eight
// bytes, which are compared as one word instead of through memcmp. Equal padded prefixes with
// either value at most 8 bytes long mean the shorter is a prefix of the longer.
inline bool BytesLess(std::string_view a, std::string_view b) {
  const uint64_t x = Prefix8(a), y = Prefix8(b);
  if (x != y) return x < y;
  if (a.size() <= 8 || b.size() <= 8) return a.size() < b.size();
  return a.substr(8) < b.substr(8);
}

// -1, 0, 1 for a < b, a == b, a > b.
template <typename T>
inline int CompareValues(const T& a, const T& b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}
// As CompareValues, but NaN sorts above every number and equals itself, so that a row filter
// agrees with DuckDB.
inline int CompareFloat(double a, double b) {
  const bool an = std::isnan(a), bn = std::isnan(b);
  if (an || bn) return an == bn ? 0 : (an ? 1 : -1);
  return a < b ? -1 : (a > b ? 1 : 0);
}
// Unsigned lexicographic, as CompareValues.
inline int CompareBytes(std::string_view a, std::string_view b) {
  const int c = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
  if (c != 0) return c < 0 ? -1 : 1;
  return CompareValues(a.size(), b.size());
}

// The bounds a reader may use from a chunk's or page's Statistics: min_value / max_value with
// their exactness (exact unless said otherwise) when the column declares a type order, else
// the deprecated min / max when `legacy_usable` (signed integers, whose old order was
// signed), always exact; none otherwise.
struct StatisticsBounds {
  std::string_view min, max;
  bool min_exact = true, max_exact = true;
};
std::optional<StatisticsBounds> BoundsOf(const Statistics& stats, bool type_order, bool legacy_usable);

// A statistics value (PLAIN bytes without length prefix) printed as a value of the column's
// logical type: dates, timestamps, decimals, strings, UUIDs; hex when nothing better fits.
std::string FormatStatisticsValue(const ColumnDescriptor& column, std::string_view bytes);

}  // namespace quiver::parquet

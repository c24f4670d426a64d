// Column statistics as the ORC writer gathers them: one accumulator per column for the current
// row group, merged into the stripe's and the file's, and turned into the metadata model's
// ColumnStatistics. Updates are inline and allocate only when a string bound changes.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "quiver/core/bit_util.h"
#include "quiver/orc/metadata.h"

namespace quiver::orc::writer {

class StatsAccumulator {
 public:
  enum Kind : uint8_t { kPlain, kBoolean, kInteger, kDouble, kString, kBinary, kDecimal, kDate, kTimestamp, kCollection };
  explicit StatsAccumulator(Kind kind = kPlain, int32_t decimal_scale = 0) : kind_(kind), scale_(decimal_scale) {}

  Kind kind() const { return kind_; }
  void AddNulls(int64_t n) { has_null_ |= n > 0; }
  void AddCount(int64_t n) { count_ += n; }  // non-null values whose kind keeps no bounds

  void UpdateBoolean(bool v) {
    ++count_;
    trues_ += v;
  }
  void UpdateInteger(int64_t v) {
    ++count_;
    imin_ = std::min(imin_, v);
    imax_ = std::max(imax_, v);
    sum_overflow_ |= __builtin_add_overflow(isum_, v, &isum_);
  }
  void UpdateDouble(double v) {
    ++count_;
    dsum_ += v;
    if (std::isnan(v)) return;  // NaN takes no part in the bounds
    if (!has_bounds_ || v < dmin_) dmin_ = v;
    if (!has_bounds_ || v > dmax_) dmax_ = v;
    has_bounds_ = true;
  }
  void UpdateString(std::string_view v) {
    AddString(static_cast<int64_t>(v.size()));
    UpdateStringBounds(v);
  }
  // A string counted apart from its bounds (a dictionary entry's bounds are taken once a group).
  void AddString(int64_t length) {
    ++count_;
    length_ += length;
  }
  void UpdateStringBounds(std::string_view v) {
    // The first 8 bytes, big-endian and zero-padded, order strings as their bytes do as far
    // as they differ; only equal prefixes compare whole.
    const uint64_t prefix = __builtin_bswap64(bit_util::LoadPartialWord(reinterpret_cast<const uint8_t*>(v.data()),
                                                                        static_cast<int64_t>(v.size())));
    if (!has_bounds_) {
      smin_.assign(v);
      smax_.assign(v);
      min_prefix_ = max_prefix_ = prefix;
      has_bounds_ = true;
      return;
    }
    if (prefix <= min_prefix_ && v < smin_) {
      smin_.assign(v);
      min_prefix_ = prefix;
    }
    if (prefix >= max_prefix_ && v > smax_) {
      smax_.assign(v);
      max_prefix_ = prefix;
    }
  }
  void UpdateBinary(int64_t length) {
    ++count_;
    length_ += length;
  }
  void UpdateDecimal(__int128 v) {
    ++count_;
    if (!has_bounds_ || v < cmin_) cmin_ = v;
    if (!has_bounds_ || v > cmax_) cmax_ = v;
    has_bounds_ = true;
    sum_overflow_ |= __builtin_add_overflow(csum_, v, &csum_);
  }
  // Days since 1970-01-01.
  void UpdateDate(int32_t days) {
    ++count_;
    imin_ = std::min<int64_t>(imin_, days);
    imax_ = std::max<int64_t>(imax_, days);
  }
  // Nanoseconds since the epoch, UTC.
  void UpdateTimestamp(__int128 nanos) {
    ++count_;
    if (!has_bounds_ || nanos < cmin_) cmin_ = nanos;
    if (!has_bounds_ || nanos > cmax_) cmax_ = nanos;
    has_bounds_ = true;
  }
  void UpdateCollection(int64_t children) {
    ++count_;
    imin_ = std::min(imin_, children);
    imax_ = std::max(imax_, children);
    length_ += children;
  }

  void Merge(const StatsAccumulator& o);
  void Reset() { *this = StatsAccumulator(kind_, scale_); }
  ColumnStatistics ToStatistics() const;

 private:
  Kind kind_;
  int32_t scale_;
  bool has_null_ = false, has_bounds_ = false, sum_overflow_ = false;
  int64_t count_ = 0, trues_ = 0, length_ = 0;
  int64_t imin_ = INT64_MAX, imax_ = INT64_MIN, isum_ = 0;
  double dmin_ = 0, dmax_ = 0, dsum_ = 0;
  __int128 cmin_ = 0, cmax_ = 0, csum_ = 0;
  std::string smin_, smax_;
  uint64_t min_prefix_ = 0, max_prefix_ = 0;
};

}  // namespace quiver::orc::writer

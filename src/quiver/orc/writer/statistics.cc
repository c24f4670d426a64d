#include "quiver/orc/writer/statistics_internal.h"

#include "quiver/columnar/value_text.h"

namespace quiver::orc::writer {
namespace {

// Floor division for the millisecond part of a nanosecond instant.
inline int64_t FloorDiv(__int128 a, int64_t b) {
  __int128 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return static_cast<int64_t>(q);
}

constexpr __int128 kMaxDecimal38 = static_cast<__int128>(10000000000000000000ULL) * 10000000000000000000ULL - 1;

}  // namespace

void StatsAccumulator::Merge(const StatsAccumulator& o) {
  has_null_ |= o.has_null_;
  count_ += o.count_;
  trues_ += o.trues_;
  length_ += o.length_;
  sum_overflow_ |= o.sum_overflow_;
  imin_ = std::min(imin_, o.imin_);
  imax_ = std::max(imax_, o.imax_);
  sum_overflow_ |= __builtin_add_overflow(isum_, o.isum_, &isum_);
  dsum_ += o.dsum_;
  if (kind_ == kDecimal) sum_overflow_ |= __builtin_add_overflow(csum_, o.csum_, &csum_);
  if (!o.has_bounds_) return;
  if (!has_bounds_) {
    dmin_ = o.dmin_, dmax_ = o.dmax_, cmin_ = o.cmin_, cmax_ = o.cmax_;
    smin_ = o.smin_, smax_ = o.smax_;
    min_prefix_ = o.min_prefix_, max_prefix_ = o.max_prefix_;
    has_bounds_ = true;
    return;
  }
  dmin_ = std::min(dmin_, o.dmin_);
  dmax_ = std::max(dmax_, o.dmax_);
  cmin_ = std::min(cmin_, o.cmin_);
  cmax_ = std::max(cmax_, o.cmax_);
  if (o.smin_ < smin_) smin_ = o.smin_, min_prefix_ = o.min_prefix_;
  if (o.smax_ > smax_) smax_ = o.smax_, max_prefix_ = o.max_prefix_;
}

ColumnStatistics StatsAccumulator::ToStatistics() const {
  ColumnStatistics s;
  s.number_of_values = static_cast<uint64_t>(count_);
  s.has_null = has_null_;
  const bool any = count_ > 0;
  switch (kind_) {
    case kPlain: break;
    case kBoolean: s.bucket_statistics = BucketStatistics{{static_cast<uint64_t>(trues_)}}; break;
    case kInteger: {
      IntegerStatistics& i = s.int_statistics.emplace();
      if (any) i.minimum = imin_, i.maximum = imax_;
      if (!sum_overflow_) i.sum = isum_;
      break;
    }
    case kDouble: {
      DoubleStatistics& d = s.double_statistics.emplace();
      if (has_bounds_) d.minimum = dmin_, d.maximum = dmax_;
      d.sum = dsum_;
      break;
    }
    case kString: {
      StringStatistics& t = s.string_statistics.emplace();
      if (has_bounds_) t.minimum = smin_, t.maximum = smax_;
      t.sum = length_;
      break;
    }
    case kBinary: s.binary_statistics = BinaryStatistics{length_}; break;
    case kDecimal: {
      DecimalStatistics& d = s.decimal_statistics.emplace();
      if (has_bounds_) {
        FormatDecimal(cmin_, scale_, &d.minimum.emplace());
        FormatDecimal(cmax_, scale_, &d.maximum.emplace());
      }
      if (!sum_overflow_ && csum_ <= kMaxDecimal38 && csum_ >= -kMaxDecimal38) FormatDecimal(csum_, scale_, &d.sum.emplace());
      break;
    }
    case kDate: {
      DateStatistics& d = s.date_statistics.emplace();
      if (any) d.minimum = static_cast<int32_t>(imin_), d.maximum = static_cast<int32_t>(imax_);
      break;
    }
    case kTimestamp: {
      TimestampStatistics& t = s.timestamp_statistics.emplace();
      if (has_bounds_) {
        // Milliseconds, and the nanoseconds within the millisecond plus one (0 means absent).
        t.minimum_utc = FloorDiv(cmin_, 1000000);
        t.maximum_utc = FloorDiv(cmax_, 1000000);
        t.minimum_nanos = static_cast<int32_t>(cmin_ - static_cast<__int128>(*t.minimum_utc) * 1000000) + 1;
        t.maximum_nanos = static_cast<int32_t>(cmax_ - static_cast<__int128>(*t.maximum_utc) * 1000000) + 1;
      }
      break;
    }
    case kCollection: {
      CollectionStatistics& c = s.collection_statistics.emplace();
      if (any) c.min_children = static_cast<uint64_t>(imin_), c.max_children = static_cast<uint64_t>(imax_);
      c.total_children = static_cast<uint64_t>(length_);
      break;
    }
  }
  return s;
}

}  // namespace quiver::orc::writer

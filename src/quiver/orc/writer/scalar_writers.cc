// ORC writers of scalar columns (typed_writers_internal.h): BOOLEAN and BYTE as RLE,
// integers and dates as signed RLE v2, FLOAT/DOUBLE as raw IEEE values, DECIMAL as varints with
// a scale per value, TIMESTAMP as seconds and folded nanoseconds.
#include <fmt/format.h>

#include <optional>
#include <type_traits>

#include "quiver/columnar/value_text.h"
#include "quiver/orc/format.h"
#include "quiver/orc/writer/typed_writers_internal.h"

namespace quiver::orc::writer {
namespace {

namespace sk = format::stream_kind;
namespace ek = format::encoding_kind;

// --- boolean, tinyint

class BooleanWriter final : public ColumnWriter {
 public:
  BooleanWriter(const ColumnContext& ctx, std::string name, uint32_t id)
      : ColumnWriter(ctx, std::move(name), id, StatsAccumulator::kBoolean), data_(NewStream(sk::kData)) {}

 protected:
  void AddValues(const ArrayData& a, int64_t offset, int64_t length, const uint8_t* validity) override {
    const uint8_t* bits = a.buffers[1]->data();
    const int64_t base = a.offset + offset;
    ForEachValid(validity, base, length, [&](int64_t i) {
      const bool v = bit_util::GetBit(bits, base + i);
      data_.Add(v);
      group_stats_.UpdateBoolean(v);
    });
  }
  void RecordPositions(std::vector<uint64_t>* p) override { data_.RecordPosition(p); }
  Result<ColumnEncoding> FinishData() override {
    data_.Flush();
    return Encoding(ek::kDirect);
  }

 private:
  BooleanRleEncoder data_;
};

class ByteWriter final : public ColumnWriter {
 public:
  ByteWriter(const ColumnContext& ctx, std::string name, uint32_t id)
      : ColumnWriter(ctx, std::move(name), id, StatsAccumulator::kInteger), data_(NewStream(sk::kData)) {}

 protected:
  void AddValues(const ArrayData& a, int64_t offset, int64_t length, const uint8_t* validity) override {
    const int8_t* v = a.values<int8_t>() + offset;
    ForEachValid(validity, a.offset + offset, length, [&](int64_t i) {
      data_.Add(static_cast<uint8_t>(v[i]));
      group_stats_.UpdateInteger(v[i]);
      if (bloom_) bloom_->AddLong(v[i]);
    });
  }
  void RecordPositions(std::vector<uint64_t>* p) override { data_.RecordPosition(p); }
  Result<ColumnEncoding> FinishData() override {
    data_.Flush();
    return Encoding(ek::kDirect);
  }

 private:
  ByteRleEncoder data_;
};

// --- integers and dates (signed RLE v2)

template <typename T, StatsAccumulator::Kind kKind>
class IntegerWriter final : public ColumnWriter {
 public:
  IntegerWriter(const ColumnContext& ctx, std::string name, uint32_t id)
      : ColumnWriter(ctx, std::move(name), id, kKind), data_(NewStream(sk::kData), true) {}

 protected:
  void AddValues(const ArrayData& a, int64_t offset, int64_t length, const uint8_t* validity) override {
    const T* v = a.values<T>() + offset;
    ForEachValid(validity, a.offset + offset, length, [&](int64_t i) {
      const auto x = static_cast<int64_t>(v[i]);
      data_.Add(x);
      if (bloom_) bloom_->AddLong(x);
      if constexpr (kKind == StatsAccumulator::kDate) {
        group_stats_.UpdateDate(static_cast<int32_t>(x));
      } else {
        group_stats_.UpdateInteger(x);
      }
    });
  }
  void RecordPositions(std::vector<uint64_t>* p) override { data_.RecordPosition(p); }
  Result<ColumnEncoding> FinishData() override {
    data_.Flush();
    return Encoding(ek::kDirectV2);
  }

 private:
  IntRleV2Encoder data_;
};

// --- float, double

template <typename In, typename Out>
class FloatingWriter final : public ColumnWriter {
 public:
  FloatingWriter(const ColumnContext& ctx, std::string name, uint32_t id)
      : ColumnWriter(ctx, std::move(name), id, StatsAccumulator::kDouble), data_(NewStream(sk::kData)) {}

 protected:
  void AddValues(const ArrayData& a, int64_t offset, int64_t length, const uint8_t* validity) override {
    const In* v = a.values<In>() + offset;
    if constexpr (std::is_same_v<In, Out>) {
      if (validity == nullptr) {  // little-endian IEEE values as they lie
        data_->Write(v, length * static_cast<int64_t>(sizeof(Out)));
        for (int64_t i = 0; i < length; ++i) group_stats_.UpdateDouble(static_cast<double>(v[i]));
        if (bloom_) {
          for (int64_t i = 0; i < length; ++i) bloom_->AddDouble(static_cast<double>(v[i]));
        }
        return;
      }
    }
    ForEachValid(validity, a.offset + offset, length, [&](int64_t i) {
      Out x;
      if constexpr (std::is_same_v<In, uint16_t>) {
        x = HalfToFloat(v[i]);
      } else {
        x = static_cast<Out>(v[i]);
      }
      data_->Write(&x, sizeof(Out));
      group_stats_.UpdateDouble(static_cast<double>(x));
      if (bloom_) bloom_->AddDouble(static_cast<double>(x));
    });
  }
  void RecordPositions(std::vector<uint64_t>* p) override { data_->RecordPosition(p); }
  Result<ColumnEncoding> FinishData() override { return Encoding(ek::kDirect); }

 private:
  OutStream* data_;
};

// --- decimal: zigzag base-128 varints of the unscaled value, and the scale per value

template <typename In>
class DecimalWriter final : public ColumnWriter {
 public:
  DecimalWriter(const ColumnContext& ctx, std::string name, uint32_t id, int32_t precision, int32_t scale)
      : ColumnWriter(ctx, std::move(name), id, StatsAccumulator::kDecimal, scale),
        precision_(precision),
        scale_(scale),
        limit_(PowerOfTen(precision) - 1),
        data_(NewStream(sk::kData)),
        scales_(NewStream(sk::kSecondary), true) {}

 protected:
  void AddValues(const ArrayData& a, int64_t offset, int64_t length, const uint8_t* validity) override {
    const In* v = a.values<In>() + offset;
    ForEachValid(validity, a.offset + offset, length, [&](int64_t i) {
      const auto x = static_cast<__int128>(v[i]);
      if (x > limit_ || x < -limit_) [[unlikely]] {
        if (!too_wide_) too_wide_ = x;
      }
      unsigned __int128 u = (static_cast<unsigned __int128>(x) << 1) ^ static_cast<unsigned __int128>(x >> 127);
      uint8_t buf[19];
      int n = 0;
      while (u >= 0x80) {
        buf[n++] = static_cast<uint8_t>(u | 0x80);
        u >>= 7;
      }
      buf[n++] = static_cast<uint8_t>(u);
      data_->Write(buf, n);
      scales_.Add(scale_);
      group_stats_.UpdateDecimal(x);
    });
  }
  void RecordPositions(std::vector<uint64_t>* p) override {
    data_->RecordPosition(p);
    scales_.RecordPosition(p);
  }
  Result<ColumnEncoding> FinishData() override {
    scales_.Flush();
    if (too_wide_) {
      // Readers would take the value modulo the precision's range (decimals up to 18 digits in 64 bits).
      std::string text;
      FormatDecimal(*too_wide_, scale_, &text);
      return Status::Invalid(fmt::format("column '{}': the value {} has more than the {} digits of its type decimal({}, {})",
                                         name_, text, precision_, precision_, scale_));
    }
    return Encoding(ek::kDirectV2);
  }

 private:
  static __int128 PowerOfTen(int32_t n) {
    __int128 p = 1;
    for (int32_t i = 0; i < n; ++i) p *= 10;
    return p;
  }
  int32_t precision_, scale_;
  __int128 limit_;
  std::optional<__int128> too_wide_;
  OutStream* data_;
  IntRleV2Encoder scales_;
};

// --- timestamps: seconds from 2015-01-01 UTC (signed RLE v2) and nanoseconds with their
// trailing decimal zeros folded into the low 3 bits (unsigned RLE v2)

constexpr int64_t kOrcEpochSeconds = 1420070400;  // 2015-01-01 00:00:00 UTC

inline uint64_t EncodeNanos(int64_t nanos) {
  if (nanos == 0) return 0;
  if (nanos % 100 != 0) return static_cast<uint64_t>(nanos) << 3;
  nanos /= 100;
  uint64_t zeros = 1;
  while (nanos % 10 == 0 && zeros < 7) {
    nanos /= 10;
    ++zeros;
  }
  return static_cast<uint64_t>(nanos) << 3 | zeros;
}

class TimestampWriter final : public ColumnWriter {
 public:
  TimestampWriter(const ColumnContext& ctx, std::string name, uint32_t id, TimeUnit unit)
      : ColumnWriter(ctx, std::move(name), id, StatsAccumulator::kTimestamp),
        per_second_(unit == TimeUnit::kSecond ? 1 : unit == TimeUnit::kMilli ? 1000 : unit == TimeUnit::kMicro ? 1000000 : 1000000000),
        seconds_(NewStream(sk::kData), true),
        nanos_(NewStream(sk::kSecondary), false) {}

 protected:
  void AddValues(const ArrayData& a, int64_t offset, int64_t length, const uint8_t* validity) override {
    const int64_t* v = a.values<int64_t>() + offset;
    const int64_t nanos_per_unit = 1000000000 / per_second_;
    ForEachValid(validity, a.offset + offset, length, [&](int64_t i) {
      int64_t secs = v[i] / per_second_, sub = v[i] % per_second_;
      if (sub < 0) sub += per_second_, --secs;
      const int64_t nanos = sub * nanos_per_unit;
      group_stats_.UpdateTimestamp(static_cast<__int128>(secs) * 1000000000 + nanos);
      // Readers take a negative second with more than a millisecond of nanoseconds as one too
      // many (Java's truncating writers), so such a second is written one up.
      if (secs < 0 && nanos > 999999) ++secs;
      seconds_.Add(secs - kOrcEpochSeconds);
      nanos_.Add(static_cast<int64_t>(EncodeNanos(nanos)));
    });
  }
  void RecordPositions(std::vector<uint64_t>* p) override {
    seconds_.RecordPosition(p);
    nanos_.RecordPosition(p);
  }
  Result<ColumnEncoding> FinishData() override {
    seconds_.Flush();
    nanos_.Flush();
    return Encoding(ek::kDirectV2);
  }

 private:
  int64_t per_second_;
  IntRleV2Encoder seconds_, nanos_;
};

}  // namespace

std::unique_ptr<ColumnWriter> MakeScalarWriter(const ColumnContext& ctx, const std::string& name, uint32_t id,
                                               const DataType& type) {
  using K = StatsAccumulator;
  switch (type.id()) {
    case TypeId::kBool: return std::make_unique<BooleanWriter>(ctx, name, id);
    case TypeId::kInt8: return std::make_unique<ByteWriter>(ctx, name, id);
    case TypeId::kInt16: return std::make_unique<IntegerWriter<int16_t, K::kInteger>>(ctx, name, id);
    case TypeId::kInt32: return std::make_unique<IntegerWriter<int32_t, K::kInteger>>(ctx, name, id);
    case TypeId::kInt64: return std::make_unique<IntegerWriter<int64_t, K::kInteger>>(ctx, name, id);
    case TypeId::kUInt8: return std::make_unique<IntegerWriter<uint8_t, K::kInteger>>(ctx, name, id);
    case TypeId::kUInt16: return std::make_unique<IntegerWriter<uint16_t, K::kInteger>>(ctx, name, id);
    case TypeId::kUInt32: return std::make_unique<IntegerWriter<uint32_t, K::kInteger>>(ctx, name, id);
    case TypeId::kUInt64: return std::make_unique<DecimalWriter<uint64_t>>(ctx, name, id, 20, 0);
    case TypeId::kFloat16: return std::make_unique<FloatingWriter<uint16_t, float>>(ctx, name, id);
    case TypeId::kFloat32: return std::make_unique<FloatingWriter<float, float>>(ctx, name, id);
    case TypeId::kFloat64: return std::make_unique<FloatingWriter<double, double>>(ctx, name, id);
    case TypeId::kDecimal128: return std::make_unique<DecimalWriter<__int128>>(ctx, name, id, type.precision(), type.scale());
    case TypeId::kDate32: return std::make_unique<IntegerWriter<int32_t, K::kDate>>(ctx, name, id);
    case TypeId::kTimestamp: return std::make_unique<TimestampWriter>(ctx, name, id, type.unit());
    default: return nullptr;
  }
}

}  // namespace quiver::orc::writer

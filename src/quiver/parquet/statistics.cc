#include "quiver/parquet/statistics.h"

#include <fmt/format.h>

#include "quiver/columnar/value_text.h"

namespace quiver::parquet {

SortOrder SortOrderFor(const DataType& t) {
  switch (t.id()) {
    case TypeId::kUInt32:
    case TypeId::kUInt64: return SortOrder::kUnsigned;
    case TypeId::kFloat32:
    case TypeId::kFloat64: return SortOrder::kFloat;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kFixedSizeBinary: return SortOrder::kBytes;
    case TypeId::kDecimal128: return t.precision() > 18 ? SortOrder::kSignedBigEndian : SortOrder::kSigned;
    case TypeId::kFloat16: return SortOrder::kNone;
    default: return SortOrder::kSigned;
  }
}

void WidenZeroBounds(SortOrder order, Type physical, std::string* mn, std::string* mx) {
  if (order != SortOrder::kFloat) return;
  auto load = [](const std::string& s, auto zero) {
    decltype(zero) v;
    std::memcpy(&v, s.data(), sizeof(v));
    return v;
  };
  if (physical == Type::FLOAT) {
    if (load(*mn, 0.0f) == 0.0f) { const float z = -0.0f; mn->assign(reinterpret_cast<const char*>(&z), 4); }
    if (load(*mx, 0.0f) == 0.0f) { const float z = 0.0f; mx->assign(reinterpret_cast<const char*>(&z), 4); }
  } else {
    if (load(*mn, 0.0) == 0.0) { const double z = -0.0; mn->assign(reinterpret_cast<const char*>(&z), 8); }
    if (load(*mx, 0.0) == 0.0) { const double z = 0.0; mx->assign(reinterpret_cast<const char*>(&z), 8); }
  }
}

void TruncateBounds(int32_t limit, bool utf8, std::string* min, std::string* max, bool* min_exact, bool* max_exact) {
  if (limit <= 0) return;
  auto cut = [&](const std::string& s) {
    size_t n = static_cast<size_t>(limit);
    // Back off to the start of a code point.
    if (utf8) {
      while (n > 0 && (static_cast<uint8_t>(s[n]) & 0xC0) == 0x80) --n;
    }
    return n;
  };
  if (min->size() > static_cast<size_t>(limit)) {
    min->resize(cut(*min));
    *min_exact = false;
  }
  if (max->size() > static_cast<size_t>(limit)) {
    std::string m = max->substr(0, cut(*max));
    // Increment the last byte (code point) that can be, dropping what follows it.
    while (!m.empty()) {
      if (!utf8) {
        uint8_t& last = reinterpret_cast<uint8_t&>(m.back());
        if (last != 0xFF) {
          ++last;
          break;
        }
        m.pop_back();
        continue;
      }
      size_t start = m.size() - 1;
      while (start > 0 && (static_cast<uint8_t>(m[start]) & 0xC0) == 0x80) --start;
      const auto* b = reinterpret_cast<const uint8_t*>(m.data()) + start;
      const size_t len = m.size() - start;
      uint32_t cp = len == 1 ? b[0] : len == 2 ? ((b[0] & 0x1Fu) << 6) | (b[1] & 0x3Fu)
                              : len == 3 ? ((b[0] & 0x0Fu) << 12) | ((b[1] & 0x3Fu) << 6) | (b[2] & 0x3Fu)
                                         : ((b[0] & 0x07u) << 18) | ((b[1] & 0x3Fu) << 12) | ((b[2] & 0x3Fu) << 6) | (b[3] & 0x3Fu);
      m.resize(start);
      if (cp >= 0x10FFFF) continue;
      ++cp;
      if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xE000;  // no surrogates
      if (cp < 0x80) {
        m.push_back(static_cast<char>(cp));
      } else if (cp < 0x800) {
        m.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        m.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
      } else if (cp < 0x10000) {
        m.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        m.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        m.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
      } else {
        m.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        m.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        m.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        m.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
      }
      break;
    }
    if (!m.empty()) {
      *max = std::move(m);
      *max_exact = false;
    }
  }
}
std::optional<StatisticsBounds> BoundsOf(const Statistics& stats, bool type_order, bool legacy_usable) {
  StatisticsBounds b;
  if (type_order && stats.min_value && stats.max_value) {
    b.min = *stats.min_value;
    b.max = *stats.max_value;
    b.min_exact = stats.is_min_value_exact.value_or(true);
    b.max_exact = stats.is_max_value_exact.value_or(true);
    return b;
  }
  if (legacy_usable && stats.min && stats.max) {
    b.min = *stats.min;
    b.max = *stats.max;
    return b;
  }
  return std::nullopt;
}

namespace {

std::string FormatDate(int64_t days) {
  std::string s;
  quiver::FormatDate(days, &s);
  return s;
}

// Statistics show every fraction digit of the unit and a 'T' (the raw value at a glance).
std::string FormatTimeOfDay(int64_t v, quiver::TimeUnit unit) {
  std::string s;
  quiver::FormatTimeOfDay(v, unit, &s, /*all_digits=*/true);
  return s;
}

std::string FormatTimestamp(int64_t v, quiver::TimeUnit unit, bool utc) {
  std::string s;
  quiver::FormatTimestamp(v, unit, utc, &s, 'T', /*all_digits=*/true);
  return s;
}

std::string Hex(std::string_view b) {
  std::string s = "0x";
  for (unsigned char c : b) s += fmt::format("{:02x}", c);
  return s;
}

std::string FormatUnscaled(__int128 v, int32_t scale) {
  std::string s;
  FormatDecimal(v, scale, &s);
  return s;
}

// Big-endian two's complement of up to 16 bytes.
bool BigEndianToInt128(std::string_view b, __int128* out) {
  if (b.empty() || b.size() > 16) return false;
  __int128 v = static_cast<signed char>(b[0]) < 0 ? -1 : 0;
  for (unsigned char c : b) v = static_cast<__int128>((static_cast<unsigned __int128>(v) << 8) | c);
  *out = v;
  return true;
}

template <typename T>
T Load(std::string_view b) {
  T v;
  std::memcpy(&v, b.data(), sizeof(T));
  return v;
}

}  // namespace

std::string FormatStatisticsValue(const ColumnDescriptor& col, std::string_view b) {
  const SchemaElement& e = *col.element;
  const LogicalType* lt = e.logicalType ? &*e.logicalType : nullptr;
  std::optional<ConvertedType> ct = e.converted_type;
  auto decimal_scale = [&]() -> std::optional<int32_t> {
    if (lt != nullptr && lt->DECIMAL) return lt->DECIMAL->scale;
    if (lt == nullptr && ct == ConvertedType::DECIMAL) return e.scale.value_or(0);
    return std::nullopt;
  };
  switch (col.physical_type) {
    case Type::BOOLEAN:
      if (b.size() != 1) break;
      return b[0] ? "true" : "false";
    case Type::INT32: {
      if (b.size() != 4) break;
      int32_t v = Load<int32_t>(b);
      if (auto s = decimal_scale()) return FormatUnscaled(v, *s);
      if ((lt && lt->DATE) || (!lt && ct == ConvertedType::DATE)) return FormatDate(v);
      if ((lt && lt->TIME && lt->TIME->unit.MILLIS) || (!lt && ct == ConvertedType::TIME_MILLIS)) {
        return FormatTimeOfDay(v, quiver::TimeUnit::kMilli);
      }
      bool is_unsigned = (lt && lt->INTEGER && !lt->INTEGER->isSigned) ||
                         (!lt && ct && (*ct == ConvertedType::UINT_8 || *ct == ConvertedType::UINT_16 ||
                                        *ct == ConvertedType::UINT_32));
      if (is_unsigned) return fmt::format("{}", static_cast<uint32_t>(v));
      return fmt::format("{}", v);
    }
    case Type::INT64: {
      if (b.size() != 8) break;
      int64_t v = Load<int64_t>(b);
      if (auto s = decimal_scale()) return FormatUnscaled(v, *s);
      if (lt && lt->TIMESTAMP) {
        const TimeUnit& u = lt->TIMESTAMP->unit;
        bool utc = lt->TIMESTAMP->isAdjustedToUTC;
        if (u.MILLIS) return FormatTimestamp(v, quiver::TimeUnit::kMilli, utc);
        if (u.MICROS) return FormatTimestamp(v, quiver::TimeUnit::kMicro, utc);
        if (u.NANOS) return FormatTimestamp(v, quiver::TimeUnit::kNano, utc);
      }
      if (!lt && ct == ConvertedType::TIMESTAMP_MILLIS) return FormatTimestamp(v, quiver::TimeUnit::kMilli, true);
      if (!lt && ct == ConvertedType::TIMESTAMP_MICROS) return FormatTimestamp(v, quiver::TimeUnit::kMicro, true);
      if (lt && lt->TIME) {
        if (lt->TIME->unit.MICROS) return FormatTimeOfDay(v, quiver::TimeUnit::kMicro);
        if (lt->TIME->unit.NANOS) return FormatTimeOfDay(v, quiver::TimeUnit::kNano);
      }
      if (!lt && ct == ConvertedType::TIME_MICROS) return FormatTimeOfDay(v, quiver::TimeUnit::kMicro);
      if ((lt && lt->INTEGER && !lt->INTEGER->isSigned) || (!lt && ct == ConvertedType::UINT_64)) {
        return fmt::format("{}", static_cast<uint64_t>(v));
      }
      return fmt::format("{}", v);
    }
    case Type::INT96: {
      if (b.size() != 12) break;
      int64_t nanos = Load<int64_t>(b);
      int32_t julian = Load<int32_t>(b.substr(8));
      int64_t days = static_cast<int64_t>(julian) - 2440588;  // Julian day of 1970-01-01
      return FormatDate(days) + "T" + FormatTimeOfDay(nanos, quiver::TimeUnit::kNano);
    }
    case Type::FLOAT:
      if (b.size() != 4) break;
      return fmt::format("{}", Load<float>(b));
    case Type::DOUBLE:
      if (b.size() != 8) break;
      return fmt::format("{}", Load<double>(b));
    case Type::BYTE_ARRAY:
    case Type::FIXED_LEN_BYTE_ARRAY: {
      if (auto s = decimal_scale()) {
        __int128 v;
        if (BigEndianToInt128(b, &v)) return FormatUnscaled(v, *s);
        break;
      }
      bool text = (lt && (lt->STRING || lt->ENUM || lt->JSON)) ||
                  (!lt && ct && (*ct == ConvertedType::UTF8 || *ct == ConvertedType::ENUM || *ct == ConvertedType::JSON));
      if (text) return std::string(b);
      if (lt && lt->FLOAT16 && b.size() == 2) return fmt::format("{}", HalfToFloat(Load<uint16_t>(b)));
      if (lt && lt->UUID && b.size() == 16) {
        std::string h = Hex(b).substr(2);
        return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20);
      }
      return Hex(b);
    }
  }
  return Hex(b);
}

}  // namespace quiver::parquet

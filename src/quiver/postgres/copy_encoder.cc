#include "quiver/postgres/copy_encoder.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

#include "quiver/columnar/value_text.h"
#include "quiver/core/utf8.h"
#include "quiver/jsonl/writer.h"

namespace quiver::postgres {

namespace {

inline void Put16(uint8_t* p, uint16_t v) {
  v = __builtin_bswap16(v);
  std::memcpy(p, &v, 2);
}
inline void Put32(uint8_t* p, uint32_t v) {
  v = __builtin_bswap32(v);
  std::memcpy(p, &v, 4);
}
inline void Put64(uint8_t* p, uint64_t v) {
  v = __builtin_bswap64(v);
  std::memcpy(p, &v, 8);
}
constexpr uint32_t kNullLength = 0xFFFFFFFFu;

// PostgreSQL counts dates and timestamps from 2000-01-01, Arrow from 1970-01-01.
constexpr int32_t kEpochDays = 10957;
constexpr int64_t kEpochMicros = int64_t{kEpochDays} * 86400 * 1000000;
// The server's accepted ranges (datatype/timestamp.h): dates from Julian day 0 (4714-11-24 BC)
// to 5874897-12-31, timestamps from 4714-11-24 BC to 294276-12-31, both counted from 2000.
constexpr int64_t kMinDate = -2451545, kEndDate = 2147483494 - 2451545;
constexpr int64_t kMinTimestamp = -211813488000000000, kEndTimestamp = 9223371331200000000;

struct Problem {
  int64_t index = -1;  // slot relative to the range encoded
  std::string what;
};

}  // namespace

// One column's values as COPY fields: sizes of slots [begin, begin+n) added to sizes[0..n),
// then the fields written at base + cursors[i] (each cursor moved past its field). AddSizes
// checks every value the target cannot hold, so Write never fails.
class ColumnEncoder {
 public:
  virtual ~ColumnEncoder() = default;
  virtual bool AddSizes(const Array& arr, int64_t begin, int64_t n, int64_t* sizes, Problem* p) = 0;
  virtual void Write(const Array& arr, int64_t begin, int64_t n, uint8_t* base, int64_t* cursors) = 0;
};

namespace {

bool SlotValid(const uint8_t* valid, int64_t bit) { return valid == nullptr || bit_util::GetBit(valid, bit); }

struct Uuid16 {
  const uint8_t* p;
};

template <typename Src>
struct Reader {
  static Src Get(const ArrayData& a, int64_t i) { return a.values<Src>()[i]; }
};
template <>
struct Reader<bool> {
  static bool Get(const ArrayData& a, int64_t i) { return bit_util::GetBit(a.buffers[1]->data(), a.offset + i); }
};
template <>
struct Reader<Uuid16> {
  static Uuid16 Get(const ArrayData& a, int64_t i) { return {a.buffers[1]->data() + (a.offset + i) * 16}; }
};

// Fixed-width targets: Conv says the width, whether values need checking, and the bytes.
template <typename Src, typename Conv>
class FixedEncoder final : public ColumnEncoder {
 public:
  explicit FixedEncoder(Conv conv) : conv_(std::move(conv)) {}

  bool AddSizes(const Array& arr, int64_t begin, int64_t n, int64_t* sizes, Problem* p) override {
    const ArrayData& a = *arr.data();
    const uint8_t* valid = a.validity();
    const int64_t bit0 = a.offset + begin;
    constexpr int64_t kField = 4 + Conv::kWidth;
    if (valid == nullptr) {
      for (int64_t i = 0; i < n; ++i) sizes[i] += kField;
    } else {
      for (int64_t i = 0; i < n; ++i) sizes[i] += bit_util::GetBit(valid, bit0 + i) ? kField : 4;
    }
    if constexpr (Conv::kChecks) {
      for (int64_t i = 0; i < n; ++i) {
        if (!SlotValid(valid, bit0 + i)) continue;
        const Src v = Reader<Src>::Get(a, begin + i);
        if (!conv_.Ok(v)) [[unlikely]] {
          p->index = i;
          p->what = conv_.Why(v);
          return false;
        }
      }
    }
    return true;
  }

  void Write(const Array& arr, int64_t begin, int64_t n, uint8_t* base, int64_t* cursors) override {
    const ArrayData& a = *arr.data();
    const uint8_t* valid = a.validity();
    const int64_t bit0 = a.offset + begin;
    for (int64_t i = 0; i < n; ++i) {
      uint8_t* q = base + cursors[i];
      if (!SlotValid(valid, bit0 + i)) {
        Put32(q, kNullLength);
        cursors[i] += 4;
        continue;
      }
      Put32(q, Conv::kWidth);
      conv_.Put(q + 4, Reader<Src>::Get(a, begin + i));
      cursors[i] += 4 + Conv::kWidth;
    }
  }

 private:
  Conv conv_;
};

struct BoolConv {
  static constexpr int kWidth = 1;
  static constexpr bool kChecks = false;
  void Put(uint8_t* q, bool v) const { *q = v ? 1 : 0; }
  bool Ok(bool) const { return true; }
  std::string Why(bool) const { return ""; }
};

template <typename Src, typename Dst>
struct IntConv {
  static constexpr int kWidth = sizeof(Dst);
  static constexpr bool kChecks = std::cmp_less(std::numeric_limits<Src>::min(), std::numeric_limits<Dst>::min()) ||
                                  std::cmp_greater(std::numeric_limits<Src>::max(), std::numeric_limits<Dst>::max());
  const char* name;
  void Put(uint8_t* q, Src v) const {
    const auto d = static_cast<std::make_unsigned_t<Dst>>(static_cast<Dst>(v));
    if constexpr (sizeof(Dst) == 2) Put16(q, d);
    else if constexpr (sizeof(Dst) == 4) Put32(q, d);
    else Put64(q, d);
  }
  bool Ok(Src v) const { return std::in_range<Dst>(v); }
  std::string Why(Src v) const { return fmt::format("{} is out of range for {}", v, name); }
};

template <typename Src, typename Dst>
struct FloatConv {
  static constexpr int kWidth = sizeof(Dst);
  static constexpr bool kChecks = false;
  void Put(uint8_t* q, Src v) const {
    Dst d;
    if constexpr (std::is_same_v<Src, uint16_t>) d = static_cast<Dst>(HalfToFloat(v));
    else d = static_cast<Dst>(v);
    if constexpr (sizeof(Dst) == 4) {
      uint32_t b;
      std::memcpy(&b, &d, 4);
      Put32(q, b);
    } else {
      uint64_t b;
      std::memcpy(&b, &d, 8);
      Put64(q, b);
    }
  }
  bool Ok(Src) const { return true; }
  std::string Why(Src) const { return ""; }
};

struct DateConv {
  static constexpr int kWidth = 4;
  static constexpr bool kChecks = true;
  void Put(uint8_t* q, int32_t v) const { Put32(q, static_cast<uint32_t>(v - kEpochDays)); }
  bool Ok(int32_t v) const {
    const int64_t d = int64_t{v} - kEpochDays;
    return d >= kMinDate && d < kEndDate;
  }
  std::string Why(int32_t v) const {
    std::string s;
    FormatDate(v, &s);
    return fmt::format("date {} is out of PostgreSQL's range (4714-11-24 BC to 5874897-12-31)", s);
  }
};

// Times of day and timestamps to microseconds: v * mul, or v / div when finer (nanoseconds,
// which must then be whole microseconds: PostgreSQL keeps no finer digits).
template <typename Src>
struct MicrosConv {
  static constexpr int kWidth = 8;
  static constexpr bool kChecks = true;
  int64_t mul = 1, div = 1, shift = 0;  // micros = v * mul / div - shift
  int64_t lo = 0, hi = 0;               // accepted micros (after the shift), hi exclusive
  const char* name;
  bool Micros(Src v, int64_t* out) const {
    int64_t m = 0;
    if (div > 1) {
      if (v % div != 0) return false;
      m = v / div;
    } else if (__builtin_mul_overflow(static_cast<int64_t>(v), mul, &m)) {
      return false;
    }
    if (__builtin_sub_overflow(m, shift, out)) return false;
    return *out >= lo && *out < hi;
  }
  void Put(uint8_t* q, Src v) const {
    int64_t m = 0;
    Micros(v, &m);
    Put64(q, static_cast<uint64_t>(m));
  }
  bool Ok(Src v) const {
    int64_t m = 0;
    return Micros(v, &m);
  }
  std::string Why(Src v) const {
    if (div > 1 && v % div != 0) {
      return fmt::format("{} has digits finer than the microseconds PostgreSQL's {} keeps", v, name);
    }
    return fmt::format("{} is out of range for {}", v, name);
  }
};

struct UuidConv {
  static constexpr int kWidth = 16;
  static constexpr bool kChecks = false;
  void Put(uint8_t* q, Uuid16 v) const { std::memcpy(q, v.p, 16); }
  bool Ok(Uuid16) const { return true; }
  std::string Why(Uuid16) const { return ""; }
};

// string and binary (int32 offsets) as text, bytea, json, or jsonb (a version byte, 1, first).
class BinaryEncoder final : public ColumnEncoder {
 public:
  explicit BinaryEncoder(bool jsonb) : prefix_(jsonb ? 1 : 0) {}
  bool AddSizes(const Array& arr, int64_t begin, int64_t n, int64_t* sizes, Problem*) override {
    const ArrayData& a = *arr.data();
    const uint8_t* valid = a.validity();
    const int32_t* o = a.values<int32_t>(1) + begin;
    const int64_t bit0 = a.offset + begin;
    for (int64_t i = 0; i < n; ++i) {
      sizes[i] += SlotValid(valid, bit0 + i) ? 4 + prefix_ + (o[i + 1] - o[i]) : 4;
    }
    return true;
  }
  void Write(const Array& arr, int64_t begin, int64_t n, uint8_t* base, int64_t* cursors) override {
    const ArrayData& a = *arr.data();
    const uint8_t* valid = a.validity();
    const int32_t* o = a.values<int32_t>(1) + begin;
    const uint8_t* bytes = a.buffers[2] ? a.buffers[2]->data() : nullptr;
    const int64_t bit0 = a.offset + begin;
    for (int64_t i = 0; i < n; ++i) {
      uint8_t* q = base + cursors[i];
      if (!SlotValid(valid, bit0 + i)) {
        Put32(q, kNullLength);
        cursors[i] += 4;
        continue;
      }
      const int32_t len = o[i + 1] - o[i];
      Put32(q, static_cast<uint32_t>(len + prefix_));
      if (prefix_) q[4] = 1;
      if (len > 0) std::memcpy(q + 4 + prefix_, bytes + o[i], static_cast<size_t>(len));
      cursors[i] += 4 + prefix_ + len;
    }
  }

 private:
  int prefix_;
};

// fixed_size_binary as bytea.
class FixedBinaryEncoder final : public ColumnEncoder {
 public:
  explicit FixedBinaryEncoder(int width) : width_(width) {}
  bool AddSizes(const Array& arr, int64_t begin, int64_t n, int64_t* sizes, Problem*) override {
    const ArrayData& a = *arr.data();
    for (int64_t i = 0; i < n; ++i) sizes[i] += SlotValid(a.validity(), a.offset + begin + i) ? 4 + width_ : 4;
    return true;
  }
  void Write(const Array& arr, int64_t begin, int64_t n, uint8_t* base, int64_t* cursors) override {
    const ArrayData& a = *arr.data();
    const uint8_t* bytes = a.buffers[1]->data();
    for (int64_t i = 0; i < n; ++i) {
      uint8_t* q = base + cursors[i];
      if (!SlotValid(a.validity(), a.offset + begin + i)) {
        Put32(q, kNullLength);
        cursors[i] += 4;
        continue;
      }
      Put32(q, static_cast<uint32_t>(width_));
      std::memcpy(q + 4, bytes + (a.offset + begin + i) * width_, static_cast<size_t>(width_));
      cursors[i] += 4 + width_;
    }
  }

 private:
  int width_;
};

// The base-10000 digits of |value| * 10^-scale, most significant first, as numeric_recv takes
// them: groups aligned on the decimal point, zero groups at either end left out (the weight
// places the first). Returns the digit count (0 for zero).
template <typename U>
int NumericGroups(U u, int scale, uint16_t* out, int* weight) {
  *weight = 0;
  if (u == 0) return 0;
  static constexpr uint32_t kPow10[] = {1, 10, 100, 1000, 10000};
  uint16_t ls[12] = {};
  int k = 0;
  const int pad = (4 - scale % 4) % 4;  // zeros that fill the last fraction group
  const uint32_t first = kPow10[4 - pad];
  ls[k++] = static_cast<uint16_t>(static_cast<uint32_t>(u % first) * kPow10[pad]);
  u /= first;
  while (u != 0) {
    ls[k++] = static_cast<uint16_t>(u % 10000);
    u /= 10000;
  }
  *weight = k - 1 - (scale + pad) / 4;
  int lo = 0;
  while (ls[lo] == 0) ++lo;  // the top group is never zero
  const int nd = k - lo;
  for (int j = 0; j < nd; ++j) out[j] = ls[k - 1 - j];
  return nd;
}

int NumericDigits(__int128 v, int scale, uint16_t* out, int* weight) {
  const unsigned __int128 u = v < 0 ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  if ((u >> 64) == 0) return NumericGroups<uint64_t>(static_cast<uint64_t>(u), scale, out, weight);
  return NumericGroups<unsigned __int128>(u, scale, out, weight);
}

template <typename Src>
__int128 ReadWide(const ArrayData& a, int64_t i) {
  if constexpr (std::is_same_v<Src, __int128>) {
    __int128 v;
    std::memcpy(&v, a.buffers[1]->data() + (a.offset + i) * 16, 16);
    return v;
  } else {
    return static_cast<__int128>(a.values<Src>()[i]);
  }
}

// decimal128 (Src = __int128) and integers (scale 0) as numeric.
template <typename Src>
class NumericEncoder final : public ColumnEncoder {
 public:
  explicit NumericEncoder(int scale) : scale_(scale) {}
  bool AddSizes(const Array& arr, int64_t begin, int64_t n, int64_t* sizes, Problem*) override {
    const ArrayData& a = *arr.data();
    uint16_t g[12];
    int w;
    for (int64_t i = 0; i < n; ++i) {
      if (!SlotValid(a.validity(), a.offset + begin + i)) {
        sizes[i] += 4;
        continue;
      }
      sizes[i] += 4 + 8 + 2 * NumericDigits(ReadWide<Src>(a, begin + i), scale_, g, &w);
    }
    return true;
  }
  void Write(const Array& arr, int64_t begin, int64_t n, uint8_t* base, int64_t* cursors) override {
    const ArrayData& a = *arr.data();
    uint16_t g[12];
    int w;
    for (int64_t i = 0; i < n; ++i) {
      uint8_t* q = base + cursors[i];
      if (!SlotValid(a.validity(), a.offset + begin + i)) {
        Put32(q, kNullLength);
        cursors[i] += 4;
        continue;
      }
      const __int128 v = ReadWide<Src>(a, begin + i);
      const int nd = NumericDigits(v, scale_, g, &w);
      Put32(q, static_cast<uint32_t>(8 + 2 * nd));
      Put16(q + 4, static_cast<uint16_t>(nd));
      Put16(q + 6, static_cast<uint16_t>(static_cast<int16_t>(w)));
      Put16(q + 8, v < 0 ? 0x4000 : 0x0000);
      Put16(q + 10, static_cast<uint16_t>(scale_));
      for (int j = 0; j < nd; ++j) Put16(q + 12 + 2 * j, g[j]);
      cursors[i] += 4 + 8 + 2 * nd;
    }
  }

 private:
  int scale_;
};

// Nested values (structs, maps, nested lists, unions) as JSON text: rendered once while
// sizing, into one buffer reused from batch to batch, and copied when written.
class JsonEncoder final : public ColumnEncoder {
 public:
  explicit JsonEncoder(bool jsonb) : prefix_(jsonb ? 1 : 0) {}
  bool AddSizes(const Array& arr, int64_t begin, int64_t n, int64_t* sizes, Problem*) override {
    text_.clear();
    ends_.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      if (arr.IsValid(begin + i)) {
        jsonl::AppendJsonValue(arr, begin + i, &text_);
        sizes[i] += 4 + prefix_;
      } else {
        sizes[i] += 4;
      }
      ends_[static_cast<size_t>(i)] = static_cast<int64_t>(text_.size());
    }
    int64_t start = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (arr.IsValid(begin + i)) sizes[i] += ends_[static_cast<size_t>(i)] - start;
      start = ends_[static_cast<size_t>(i)];
    }
    return true;
  }
  void Write(const Array& arr, int64_t begin, int64_t n, uint8_t* base, int64_t* cursors) override {
    int64_t start = 0;
    for (int64_t i = 0; i < n; ++i) {
      uint8_t* q = base + cursors[i];
      const int64_t end = ends_[static_cast<size_t>(i)];
      if (!arr.IsValid(begin + i)) {
        Put32(q, kNullLength);
        cursors[i] += 4;
      } else {
        const int64_t len = end - start;
        Put32(q, static_cast<uint32_t>(len + prefix_));
        if (prefix_) q[4] = 1;
        std::memcpy(q + 4 + prefix_, text_.data() + start, static_cast<size_t>(len));
        cursors[i] += 4 + prefix_ + len;
      }
      start = end;
    }
  }

 private:
  int prefix_;
  std::string text_;
  std::vector<int64_t> ends_;
};

// A list as a one-dimensional array: header (dimensions, null flag, element OID, length,
// lower bound 1), then its elements as fields, written by the element encoder in one call
// per batch with each element's cursor placed inside its row.
class ArrayEncoder final : public ColumnEncoder {
 public:
  ArrayEncoder(std::unique_ptr<ColumnEncoder> elem, uint32_t elem_oid) : elem_(std::move(elem)), elem_oid_(elem_oid) {}

  bool AddSizes(const Array& arr, int64_t begin, int64_t n, int64_t* sizes, Problem* p) override {
    const ArrayData& a = *arr.data();
    const int32_t* o = a.values<int32_t>(1) + begin;
    const Array child(a.children[0]);
    const int64_t cb = o[0], ce = o[n];
    elem_sizes_.assign(static_cast<size_t>(ce - cb), 0);
    if (!elem_->AddSizes(child, cb, ce - cb, elem_sizes_.data(), p)) {
      const int64_t row = std::upper_bound(o, o + n + 1, static_cast<int32_t>(cb + p->index)) - o - 1;
      p->what = fmt::format("list element {}: {}", cb + p->index - o[row] + 1, p->what);
      p->index = row;
      return false;
    }
    row_len_.resize(static_cast<size_t>(n));
    gaps_ = false;
    for (int64_t i = 0; i < n; ++i) {
      int64_t len;
      if (!arr.IsValid(begin + i)) {
        len = -1;
        if (o[i + 1] != o[i]) gaps_ = true;
        sizes[i] += 4;
      } else {
        len = o[i + 1] == o[i] ? 12 : 20;
        for (int32_t j = o[i]; j < o[i + 1]; ++j) len += elem_sizes_[static_cast<size_t>(j - cb)];
        sizes[i] += 4 + len;
      }
      row_len_[static_cast<size_t>(i)] = len;
    }
    return true;
  }

  void Write(const Array& arr, int64_t begin, int64_t n, uint8_t* base, int64_t* cursors) override {
    const ArrayData& a = *arr.data();
    const int32_t* o = a.values<int32_t>(1) + begin;
    const Array child(a.children[0]);
    const int64_t cb = o[0], ce = o[n];
    elem_cursors_.resize(static_cast<size_t>(ce - cb));
    const uint32_t has_null = child.data()->validity() != nullptr ? 1 : 0;
    for (int64_t i = 0; i < n; ++i) {
      uint8_t* q = base + cursors[i];
      const int64_t len = row_len_[static_cast<size_t>(i)];
      if (len < 0) {
        Put32(q, kNullLength);
        cursors[i] += 4;
        continue;
      }
      Put32(q, static_cast<uint32_t>(len));
      const int32_t count = o[i + 1] - o[i];
      Put32(q + 4, count == 0 ? 0 : 1);
      Put32(q + 8, has_null);
      Put32(q + 12, elem_oid_);
      int64_t pos = cursors[i] + 16;
      if (count > 0) {
        Put32(q + 16, static_cast<uint32_t>(count));
        Put32(q + 20, 1);
        pos += 8;
      }
      for (int32_t j = o[i]; j < o[i + 1]; ++j) {
        elem_cursors_[static_cast<size_t>(j - cb)] = pos;
        pos += elem_sizes_[static_cast<size_t>(j - cb)];
      }
      cursors[i] += 4 + len;
    }
    if (!gaps_) {
      elem_->Write(child, cb, ce - cb, base, elem_cursors_.data());
      return;
    }
    // Null lists that still span elements (Arrow allows it): their elements are not sent.
    for (int64_t i = 0; i < n; ++i) {
      if (row_len_[static_cast<size_t>(i)] < 0 || o[i + 1] == o[i]) continue;
      elem_->Write(child, o[i], o[i + 1] - o[i], base, elem_cursors_.data() + (o[i] - cb));
    }
  }

 private:
  std::unique_ptr<ColumnEncoder> elem_;
  uint32_t elem_oid_;
  std::vector<int64_t> elem_sizes_, elem_cursors_, row_len_;
  bool gaps_ = false;
};

template <typename Src>
std::unique_ptr<ColumnEncoder> IntegerEncoder(PgKind kind) {
  switch (kind) {
    case PgKind::kInt2:
      return std::make_unique<FixedEncoder<Src, IntConv<Src, int16_t>>>(IntConv<Src, int16_t>{"smallint"});
    case PgKind::kInt4:
      return std::make_unique<FixedEncoder<Src, IntConv<Src, int32_t>>>(IntConv<Src, int32_t>{"integer"});
    case PgKind::kInt8:
      return std::make_unique<FixedEncoder<Src, IntConv<Src, int64_t>>>(IntConv<Src, int64_t>{"bigint"});
    case PgKind::kNumeric:
      return std::make_unique<NumericEncoder<Src>>(0);
    default:
      return nullptr;
  }
}

template <typename Src>
std::unique_ptr<ColumnEncoder> FloatEncoder(PgKind kind) {
  if (kind == PgKind::kFloat4) return std::make_unique<FixedEncoder<Src, FloatConv<Src, float>>>(FloatConv<Src, float>{});
  if (kind == PgKind::kFloat8) return std::make_unique<FixedEncoder<Src, FloatConv<Src, double>>>(FloatConv<Src, double>{});
  return nullptr;
}

template <typename Src>
std::unique_ptr<ColumnEncoder> MicrosEncoder(TimeUnit unit, bool timestamp, const char* name) {
  MicrosConv<Src> c;
  c.name = name;
  switch (unit) {
    case TimeUnit::kSecond: c.mul = 1000000; break;
    case TimeUnit::kMilli: c.mul = 1000; break;
    case TimeUnit::kMicro: break;
    case TimeUnit::kNano: c.div = 1000; break;
  }
  if (timestamp) {
    c.shift = kEpochMicros;
    c.lo = kMinTimestamp;
    c.hi = kEndTimestamp;
  } else {
    c.lo = 0;
    c.hi = int64_t{86400} * 1000000 + 1;  // 24:00:00 is a time PostgreSQL takes
  }
  return std::make_unique<FixedEncoder<Src, MicrosConv<Src>>>(c);
}

Result<std::unique_ptr<ColumnEncoder>> MakeColumnEncoder(const Field& field, const PgType& target) {
  const DataType& t = *field.type;
  std::unique_ptr<ColumnEncoder> e;
  const PgKind k = target.kind;
  switch (t.id()) {
    case TypeId::kBool:
      if (k == PgKind::kBool) e = std::make_unique<FixedEncoder<bool, BoolConv>>(BoolConv{});
      break;
    case TypeId::kInt8: e = IntegerEncoder<int8_t>(k); break;
    case TypeId::kInt16: e = IntegerEncoder<int16_t>(k); break;
    case TypeId::kInt32: e = IntegerEncoder<int32_t>(k); break;
    case TypeId::kInt64: e = IntegerEncoder<int64_t>(k); break;
    case TypeId::kUInt8: e = IntegerEncoder<uint8_t>(k); break;
    case TypeId::kUInt16: e = IntegerEncoder<uint16_t>(k); break;
    case TypeId::kUInt32: e = IntegerEncoder<uint32_t>(k); break;
    case TypeId::kUInt64: e = IntegerEncoder<uint64_t>(k); break;
    case TypeId::kFloat16: e = FloatEncoder<uint16_t>(k); break;
    case TypeId::kFloat32: e = FloatEncoder<float>(k); break;
    case TypeId::kFloat64: e = FloatEncoder<double>(k); break;
    case TypeId::kDecimal128:
      if (t.scale() < 0) {
        return Status::NotImplemented(fmt::format("column '{}': decimals with a negative scale ({}) are not written",
                                                  EscapeForMessage(field.name), t.ToString()));
      }
      if (k == PgKind::kNumeric) e = std::make_unique<NumericEncoder<__int128>>(t.scale());
      break;
    case TypeId::kDate32:
      if (k == PgKind::kDate) e = std::make_unique<FixedEncoder<int32_t, DateConv>>(DateConv{});
      break;
    case TypeId::kTime32:
      if (k == PgKind::kTime) e = MicrosEncoder<int32_t>(t.unit(), false, "time");
      break;
    case TypeId::kTime64:
      if (k == PgKind::kTime) e = MicrosEncoder<int64_t>(t.unit(), false, "time");
      break;
    case TypeId::kTimestamp:
      if (k == PgKind::kTimestamp || k == PgKind::kTimestampTz) {
        e = MicrosEncoder<int64_t>(t.unit(), true, k == PgKind::kTimestamp ? "timestamp" : "timestamptz");
      }
      break;
    case TypeId::kString:
    case TypeId::kBinary:
      if (k == PgKind::kText || k == PgKind::kBytea || k == PgKind::kJson || k == PgKind::kJsonb) {
        e = std::make_unique<BinaryEncoder>(k == PgKind::kJsonb);
      }
      break;
    case TypeId::kFixedSizeBinary:
      if (k == PgKind::kUuid && t.fixed_size() == 16) e = std::make_unique<FixedEncoder<Uuid16, UuidConv>>(UuidConv{});
      if (k == PgKind::kBytea) e = std::make_unique<FixedBinaryEncoder>(t.fixed_size());
      break;
    case TypeId::kList:
      if (k == PgKind::kArray) {
        PgType et;
        et.kind = target.elem;
        et.oid = target.elem_oid;
        QUIVER_ASSIGN_OR_RETURN(auto elem, MakeColumnEncoder(t.field(0), et));
        e = std::make_unique<ArrayEncoder>(std::move(elem), target.elem_oid);
      }
      break;
    default:
      break;
  }
  if (!e && t.is_nested() && (k == PgKind::kJson || k == PgKind::kJsonb)) {
    e = std::make_unique<JsonEncoder>(k == PgKind::kJsonb);
  }
  if (!e) {
    // The planner's check (CheckAssignable) names the usual refusals; an OK from it here would
    // otherwise become a Result holding no encoder.
    QUIVER_RETURN_NOT_OK(CheckAssignable(field, target, "the table"));
    return Status::NotImplemented(fmt::format("column '{}': {} has no binary COPY encoding into {}",
                                              EscapeForMessage(field.name), t.ToString(), target.sql));
  }
  return e;
}

}  // namespace

void EncodedRows::Resize(int64_t size) {
  if (size > capacity_) {
    // Grown by half again, so that batches of slowly growing size do not reallocate each time.
    const int64_t cap = std::max(size, capacity_ + capacity_ / 2);
    data_.reset(new uint8_t[static_cast<size_t>(cap)]);
    capacity_ = cap;
  }
  size_ = size;
}

CopyEncoder::~CopyEncoder() = default;

std::string CopyEncoder::Header() {
  static const char kSignature[] = "PGCOPY\n\377\r\n";  // 11 bytes with its NUL
  std::string h(kSignature, 11);
  h.append(8, '\0');  // flags (no OIDs), header extension length 0
  return h;
}

std::string CopyEncoder::Trailer() { return std::string("\xff\xff", 2); }

Result<std::unique_ptr<CopyEncoder>> CopyEncoder::Make(SchemaPtr schema, std::vector<PgType> targets) {
  if (static_cast<int>(targets.size()) != schema->num_fields()) {
    return Status::Invalid("postgres: one target type per column is needed");
  }
  std::unique_ptr<CopyEncoder> enc(new CopyEncoder());
  for (int i = 0; i < schema->num_fields(); ++i) {
    QUIVER_ASSIGN_OR_RETURN(auto c, MakeColumnEncoder(schema->field(i), targets[static_cast<size_t>(i)]));
    enc->columns_.push_back(std::move(c));
  }
  enc->schema_ = std::move(schema);
  return enc;
}

Status CopyEncoder::Encode(const RecordBatch& batch, int64_t first_row, EncodedRows* out) {
  const int64_t n = batch.num_rows();
  const int ncols = batch.num_columns();
  sizes_.assign(static_cast<size_t>(n), 2);  // each row's field count
  Problem p;
  for (int c = 0; c < ncols; ++c) {
    if (!columns_[static_cast<size_t>(c)]->AddSizes(batch.column(c), 0, n, sizes_.data(), &p)) {
      return Status::Invalid(fmt::format("column '{}', row {}: {}", EscapeForMessage(schema_->field(c).name),
                                         first_row + p.index + 1, p.what));
    }
  }
  int64_t pos = 0;
  for (int64_t& s : sizes_) pos += std::exchange(s, pos);  // sizes become row starts
  out->Resize(pos);
  uint8_t* base = out->mutable_data();
  for (int64_t& s : sizes_) {
    Put16(base + s, static_cast<uint16_t>(ncols));
    s += 2;
  }
  for (int c = 0; c < ncols; ++c) columns_[static_cast<size_t>(c)]->Write(batch.column(c), 0, n, base, sizes_.data());
  return Status::OK();
}

}  // namespace quiver::postgres

#include "quiver/parquet/reader/predicate.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "quiver/columnar/concatenate.h"
#include "quiver/core/bit_util.h"
#include "quiver/parquet/statistics.h"

namespace quiver::parquet {
namespace {

inline bool Holds(CompareOp op, int c) {
  switch (op) {
    case CompareOp::kEq: return c == 0;
    case CompareOp::kNe: return c != 0;
    case CompareOp::kLt: return c < 0;
    case CompareOp::kLe: return c <= 0;
    case CompareOp::kGt: return c > 0;
    case CompareOp::kGe: return c >= 0;
  }
  return false;
}

// A statistics bound decoded as the literal's kind; false when the bytes do not fit the
// physical type (then nothing is concluded from them).
struct Bound {
  __int128 i = 0;
  double f = 0;
  std::string_view bytes;
};

bool DecodeBound(const BoundPredicate& p, std::string_view s, Bound* out) {
  switch (p.value.kind) {
    case Literal::Kind::kInt:
      if (p.physical == Type::INT32) {
        if (s.size() != 4) return false;
        int32_t v;
        std::memcpy(&v, s.data(), 4);
        out->i = p.is_unsigned ? static_cast<__int128>(static_cast<uint32_t>(v)) : v;
        return true;
      }
      if (p.physical == Type::INT64) {
        if (s.size() != 8) return false;
        int64_t v;
        std::memcpy(&v, s.data(), 8);
        out->i = p.is_unsigned ? static_cast<__int128>(static_cast<uint64_t>(v)) : v;
        return true;
      }
      if (p.physical == Type::BOOLEAN) {
        if (s.size() != 1) return false;
        out->i = s[0] != 0;
        return true;
      }
      return false;
    case Literal::Kind::kFloat:
      if (p.physical == Type::FLOAT) {
        if (s.size() != 4) return false;
        float v;
        std::memcpy(&v, s.data(), 4);
        out->f = v;
        return true;
      }
      if (p.physical == Type::DOUBLE) {
        if (s.size() != 8) return false;
        std::memcpy(&out->f, s.data(), 8);
        return true;
      }
      return false;
    case Literal::Kind::kBytes:
      if (p.physical != Type::BYTE_ARRAY) return false;
      out->bytes = s;
      return true;
  }
  return false;
}

int CompareBound(const Literal& lit, const Bound& b) {
  switch (lit.kind) {
    case Literal::Kind::kInt: return CompareValues(b.i, lit.i);
    case Literal::Kind::kFloat: return CompareFloat(b.f, lit.f);
    case Literal::Kind::kBytes: return CompareBytes(b.bytes, lit.bytes);
  }
  return 0;
}

// Sets bit i of `out` when test(i) holds for a valid row i; returns the count.
template <typename Test>
int64_t Select(const ArrayData& a, uint8_t* out, Test test) {
  int64_t n = 0;
  const uint8_t* validity = a.validity();
  for (int64_t i = 0; i < a.length; ++i) {
    const bool keep = (validity == nullptr || bit_util::GetBit(validity, a.offset + i)) && test(i);
    if (keep) {
      out[i >> 3] |= static_cast<uint8_t>(1u << (i & 7));
      ++n;
    }
  }
  return n;
}

template <typename T>
int64_t SelectInt(const ArrayData& a, CompareOp op, __int128 lit, uint8_t* out) {
  const T* v = a.values<T>();
  return Select(a, out, [&](int64_t i) { return Holds(op, CompareValues(static_cast<__int128>(v[i]), lit)); });
}

// Columns without nulls: eight rows' bits a byte, each operator its own loop over the native
// values (what Select does through a 128-bit comparison and a switch per row).
template <typename T, typename Cmp>
int64_t SelectDense(const T* v, int64_t n, Cmp cmp, uint8_t* out) {
  int64_t count = 0, i = 0;
  for (; i + 8 <= n; i += 8) {
    uint32_t b = 0;
    for (int k = 0; k < 8; ++k) b |= static_cast<uint32_t>(cmp(v[i + k])) << k;
    out[i >> 3] = static_cast<uint8_t>(b);
    count += std::popcount(b);
  }
  for (; i < n; ++i) {
    if (cmp(v[i])) {
      out[i >> 3] = static_cast<uint8_t>(out[i >> 3] | (1u << (i & 7)));
      ++count;
    }
  }
  return count;
}

// `v op lit` for every row. Integers: `lit` must be a T. Floats: as CompareFloat with a
// literal that is not NaN (a NaN value is above it and not equal to it).
template <typename T, typename L>
int64_t SelectDenseOp(const T* v, int64_t n, CompareOp op, L lit, uint8_t* out) {
  switch (op) {
    case CompareOp::kEq: return SelectDense(v, n, [lit](T x) { return x == lit; }, out);
    case CompareOp::kNe: return SelectDense(v, n, [lit](T x) { return !(x == lit); }, out);
    case CompareOp::kLt: return SelectDense(v, n, [lit](T x) { return x < lit; }, out);
    case CompareOp::kLe: return SelectDense(v, n, [lit](T x) { return x <= lit; }, out);
    case CompareOp::kGt: return SelectDense(v, n, [lit](T x) { return !(x <= lit); }, out);
    case CompareOp::kGe: return SelectDense(v, n, [lit](T x) { return !(x < lit); }, out);
  }
  return 0;
}

// The dense fast path when it applies (no nulls; an integer literal the column's type holds;
// a float literal that is not NaN); -1 otherwise.
int64_t TrySelectDense(const ArrayData& a, CompareOp op, const Literal& value, uint8_t* out) {
  if (a.validity() != nullptr && a.null_count != 0) return -1;
  auto ints = [&](auto* tag) -> int64_t {
    using T = std::remove_pointer_t<decltype(tag)>;
    if (value.i < std::numeric_limits<T>::min() || value.i > std::numeric_limits<T>::max()) return -1;
    return SelectDenseOp(a.values<T>(), a.length, op, static_cast<T>(value.i), out);
  };
  switch (a.type->id()) {
    case TypeId::kInt32: case TypeId::kDate32: return ints(static_cast<int32_t*>(nullptr));
    case TypeId::kInt64: case TypeId::kTimestamp: return ints(static_cast<int64_t*>(nullptr));
    case TypeId::kFloat64:
      if (std::isnan(value.f)) return -1;
      return SelectDenseOp(a.values<double>(), a.length, op, value.f, out);
    case TypeId::kFloat32:
      if (std::isnan(value.f)) return -1;
      return SelectDenseOp(a.values<float>(), a.length, op, value.f, out);
    default:
      return -1;
  }
}

template <typename T>
int64_t SelectFloat(const ArrayData& a, CompareOp op, double lit, uint8_t* out) {
  const T* v = a.values<T>();
  return Select(a, out, [&](int64_t i) { return Holds(op, CompareFloat(static_cast<double>(v[i]), lit)); });
}

// Types FilterArray copies: fixed width in whole bytes, booleans, strings and binary.
bool IsFilterable(const DataType& t) {
  return t.is_binary_like() || t.id() == TypeId::kBool || (t.is_fixed_width() && t.bit_width() % 8 == 0);
}

int64_t CountSetBits(const uint8_t* bits, int64_t rows) {
  int64_t n = 0;
  const int64_t words = rows / 64;
  for (int64_t w = 0; w < words; ++w) {
    uint64_t word;
    std::memcpy(&word, bits + w * 8, 8);
    n += std::popcount(word);
  }
  for (int64_t i = words * 64; i < rows; ++i) n += bit_util::GetBit(bits, i);
  return n;
}

// The numbers of the set bits among the first `rows` of `bits`, written to `out`; their count.
int64_t SetBitIndices(const uint8_t* bits, int64_t rows, int32_t* out) {
  int64_t n = 0;
  const int64_t words = rows / 64;
  for (int64_t w = 0; w < words; ++w) {
    uint64_t word;
    std::memcpy(&word, bits + w * 8, 8);
    while (word != 0) {
      out[n++] = static_cast<int32_t>(w * 64 + std::countr_zero(word));
      word &= word - 1;
    }
  }
  for (int64_t i = words * 64; i < rows; ++i) {
    if (bit_util::GetBit(bits, i)) out[n++] = static_cast<int32_t>(i);
  }
  return n;
}

template <int W>
void GatherFixed(const uint8_t* src, const int32_t* idx, int64_t n, uint8_t* dst) {
  for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * W, src + static_cast<int64_t>(idx[i]) * W, W);
}

// Rows `idx` (increasing, relative to `a`'s offset) of a flat array, in buffers of their size.
Result<Array> TakeRows(const ArrayData& a, const std::vector<int32_t>& idx, MemoryPool* pool) {
  const int64_t n = static_cast<int64_t>(idx.size());
  const int32_t* ix = idx.data();
  auto out = std::make_shared<ArrayData>();
  out->type = a.type;
  out->length = n;
  out->null_count = 0;
  out->buffers.resize(a.type->is_binary_like() ? 3 : 2);
  if (const uint8_t* v = a.validity()) {
    QUIVER_ASSIGN_OR_RETURN(auto bits, Buffer::AllocateZeroed(bit_util::BytesForBits(n), pool));
    uint8_t* b = bits->mutable_data();
    int64_t valid = 0;
    for (int64_t i = 0; i < n; ++i) {
      const bool ok = bit_util::GetBit(v, a.offset + ix[i]);
      b[i >> 3] |= static_cast<uint8_t>(ok) << (i & 7);
      valid += ok;
    }
    out->null_count = n - valid;
    if (valid < n) out->buffers[0] = std::move(bits);
  }
  const DataType& t = *a.type;
  if (t.is_binary_like()) {
    const int32_t* off = a.values<int32_t>(1);
    const uint8_t* data = a.buffers[2] ? a.buffers[2]->data() : nullptr;
    int64_t bytes = 0;
    for (int64_t i = 0; i < n; ++i) bytes += off[ix[i] + 1] - off[ix[i]];
    QUIVER_ASSIGN_OR_RETURN(auto offsets, Buffer::Allocate((n + 1) * 4, pool));
    QUIVER_ASSIGN_OR_RETURN(auto values, Buffer::Allocate(std::max<int64_t>(bytes, 1), pool));
    int32_t* o = offsets->mutable_data_as<int32_t>();
    uint8_t* d = values->mutable_data();
    int32_t end = 0;
    o[0] = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int32_t b = off[ix[i]], len = off[ix[i] + 1] - b;
      if (len > 0) std::memcpy(d + end, data + b, static_cast<size_t>(len));
      end += len;
      o[i + 1] = end;
    }
    QUIVER_RETURN_NOT_OK(values->Resize(bytes));
    out->buffers[1] = std::move(offsets);
    out->buffers[2] = std::move(values);
    return Array(out);
  }
  if (t.id() == TypeId::kBool) {
    QUIVER_ASSIGN_OR_RETURN(auto bits, Buffer::AllocateZeroed(std::max<int64_t>(bit_util::BytesForBits(n), 1), pool));
    const uint8_t* in = a.buffers[1]->data();
    uint8_t* b = bits->mutable_data();
    for (int64_t i = 0; i < n; ++i) b[i >> 3] |= static_cast<uint8_t>(bit_util::GetBit(in, a.offset + ix[i])) << (i & 7);
    out->buffers[1] = std::move(bits);
    return Array(out);
  }
  const int w = t.byte_width();
  QUIVER_ASSIGN_OR_RETURN(auto values, Buffer::Allocate(std::max<int64_t>(n * w, 1), pool));
  const uint8_t* src = a.buffers[1]->data() + a.offset * w;
  uint8_t* dst = values->mutable_data();
  switch (w) {
    case 1: GatherFixed<1>(src, ix, n, dst); break;
    case 2: GatherFixed<2>(src, ix, n, dst); break;
    case 4: GatherFixed<4>(src, ix, n, dst); break;
    case 8: GatherFixed<8>(src, ix, n, dst); break;
    case 16: GatherFixed<16>(src, ix, n, dst); break;
    default:
      for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * w, src + static_cast<int64_t>(ix[i]) * w, static_cast<size_t>(w));
  }
  QUIVER_RETURN_NOT_OK(values->Resize(n * w));
  out->buffers[1] = std::move(values);
  return Array(out);
}

}  // namespace

const char* CompareOpName(CompareOp op) {
  switch (op) {
    case CompareOp::kEq: return "=";
    case CompareOp::kNe: return "!=";
    case CompareOp::kLt: return "<";
    case CompareOp::kLe: return "<=";
    case CompareOp::kGt: return ">";
    case CompareOp::kGe: return ">=";
  }
  return "?";
}

Result<Literal::Kind> LiteralKindFor(const DataType& type) {
  switch (type.id()) {
    case TypeId::kBool:
    case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
    case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kUInt64:
    case TypeId::kDate32:
    case TypeId::kTimestamp:
      return Literal::Kind::kInt;
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      return Literal::Kind::kFloat;
    case TypeId::kString:
    case TypeId::kBinary:
      return Literal::Kind::kBytes;
    default:
      return Status::NotImplemented(fmt::format("comparisons on {} columns are not supported", type.ToString()));
  }
}

bool StatisticsMayMatch(const BoundPredicate& p, const Statistics* stats, int64_t num_values) {
  if (stats == nullptr) return true;
  // Every value null: no comparison holds (SQL), whatever min and max say.
  if (stats->null_count && num_values > 0 && *stats->null_count >= num_values) return false;
  const std::optional<StatisticsBounds> bounds =
      BoundsOf(*stats, p.type_order, p.value.kind == Literal::Kind::kInt && !p.is_unsigned);
  if (!bounds) return true;
  const bool min_exact = bounds->min_exact, max_exact = bounds->max_exact;
  Bound lo, hi;
  if (!DecodeBound(p, bounds->min, &lo) || !DecodeBound(p, bounds->max, &hi)) return true;
  if (p.value.kind == Literal::Kind::kFloat) {
    if (std::isnan(p.value.f) || std::isnan(lo.f) || std::isnan(hi.f)) return true;
    // NaN values satisfy these (NaN sorts above every number) without showing in min/max.
    const bool may_hold_nan = !stats->nan_count || *stats->nan_count > 0;
    if (may_hold_nan && (p.op == CompareOp::kGt || p.op == CompareOp::kGe || p.op == CompareOp::kNe)) return true;
  }
  const int c_lo = CompareBound(p.value, lo);  // sign of (min - literal)
  const int c_hi = CompareBound(p.value, hi);  // sign of (max - literal)
  switch (p.op) {
    case CompareOp::kEq: return c_lo <= 0 && c_hi >= 0;
    case CompareOp::kNe: return !(min_exact && max_exact && c_lo == 0 && c_hi == 0);
    case CompareOp::kLt: return c_lo < 0;
    case CompareOp::kLe: return c_lo <= 0;
    case CompareOp::kGt: return c_hi > 0;
    case CompareOp::kGe: return c_hi >= 0;
  }
  return true;
}

Result<std::shared_ptr<Buffer>> EvaluatePredicate(const Array& values, CompareOp op, const Literal& value,
                                                  int64_t* selected, MemoryPool* pool) {
  QUIVER_ASSIGN_OR_RETURN(Literal::Kind kind, LiteralKindFor(*values.type()));
  if (kind != value.kind) {
    return Status::Invalid(fmt::format("a {} column cannot be compared with this literal", values.type()->ToString()));
  }
  const ArrayData& a = *values.data();
  QUIVER_ASSIGN_OR_RETURN(auto out, Buffer::AllocateZeroed(bit_util::BytesForBits(a.length), pool));
  uint8_t* bits = out->mutable_data();
  int64_t n = TrySelectDense(a, op, value, bits);
  if (n >= 0) {
    *selected = n;
    return out;
  }
  n = 0;
  switch (values.type_id()) {
    case TypeId::kBool: {
      const uint8_t* v = a.buffers[1]->data();
      n = Select(a, bits, [&](int64_t i) {
        return Holds(op, CompareValues(static_cast<__int128>(bit_util::GetBit(v, a.offset + i)), value.i));
      });
      break;
    }
    case TypeId::kInt8: n = SelectInt<int8_t>(a, op, value.i, bits); break;
    case TypeId::kInt16: n = SelectInt<int16_t>(a, op, value.i, bits); break;
    case TypeId::kInt32: case TypeId::kDate32: n = SelectInt<int32_t>(a, op, value.i, bits); break;
    case TypeId::kInt64: case TypeId::kTimestamp: n = SelectInt<int64_t>(a, op, value.i, bits); break;
    case TypeId::kUInt8: n = SelectInt<uint8_t>(a, op, value.i, bits); break;
    case TypeId::kUInt16: n = SelectInt<uint16_t>(a, op, value.i, bits); break;
    case TypeId::kUInt32: n = SelectInt<uint32_t>(a, op, value.i, bits); break;
    case TypeId::kUInt64: n = SelectInt<uint64_t>(a, op, value.i, bits); break;
    case TypeId::kFloat32: n = SelectFloat<float>(a, op, value.f, bits); break;
    case TypeId::kFloat64: n = SelectFloat<double>(a, op, value.f, bits); break;
    case TypeId::kString:
    case TypeId::kBinary: {
      BinaryArray b(values);
      n = Select(a, bits, [&](int64_t i) { return Holds(op, CompareBytes(b.GetView(i), value.bytes)); });
      break;
    }
    default:
      return Status::NotImplemented(fmt::format("comparisons on {} columns are not supported", values.type()->ToString()));
  }
  *selected = n;
  return out;
}

Result<Array> FilterArray(const Array& values, const uint8_t* selection, int64_t selected, MemoryPool* pool) {
  if (!IsFilterable(*values.type())) {
    return Status::NotImplemented(fmt::format("filtering rows of a {} column", values.type()->ToString()));
  }
  const int64_t set = CountSetBits(selection, values.length());
  if (set != selected) {
    return Status::Invalid(fmt::format("filter: {} rows said to be selected, the selection holds {}", selected, set));
  }
  if (selected == values.length()) return values;
  std::vector<int32_t> idx(static_cast<size_t>(selected));
  SetBitIndices(selection, values.length(), idx.data());
  return TakeRows(*values.data(), idx, pool);
}

Result<std::shared_ptr<RecordBatch>> FilterBatch(const std::shared_ptr<RecordBatch>& batch, const uint8_t* selection,
                                                 int64_t selected, MemoryPool* pool) {
  const int64_t rows = batch->num_rows();
  if (selected == rows) return batch;
  bool flat = true;
  for (const Array& c : batch->columns()) flat = flat && IsFilterable(*c.type());
  if (flat) {
    // The kept rows' numbers once, then each column copied by them into buffers of its final size.
    const int64_t set = CountSetBits(selection, rows);
    if (set != selected) {
      return Status::Invalid(fmt::format("filter: {} rows said to be selected, the selection holds {}", selected, set));
    }
    std::vector<int32_t> idx(static_cast<size_t>(selected));
    SetBitIndices(selection, rows, idx.data());
    std::vector<Array> columns;
    columns.reserve(static_cast<size_t>(batch->num_columns()));
    for (const Array& c : batch->columns()) {
      QUIVER_ASSIGN_OR_RETURN(Array a, TakeRows(*c.data(), idx, pool));
      columns.push_back(std::move(a));
    }
    return std::make_shared<RecordBatch>(batch->schema(), selected, std::move(columns));
  }
  // Nested columns: runs of consecutive rows sliced and joined.
  std::vector<std::shared_ptr<RecordBatch>> runs;
  int64_t i = 0;
  while (i < rows) {
    while (i < rows && !bit_util::GetBit(selection, i)) ++i;
    const int64_t start = i;
    while (i < rows && bit_util::GetBit(selection, i)) ++i;
    if (i > start) runs.push_back(batch->Slice(start, i - start));
  }
  return ConcatenateBatches(batch->schema(), runs, pool);
}

}  // namespace quiver::parquet

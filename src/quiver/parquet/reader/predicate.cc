#include "quiver/parquet/reader/predicate.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
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

template <typename T>
int64_t SelectFloat(const ArrayData& a, CompareOp op, double lit, uint8_t* out) {
  const T* v = a.values<T>();
  return Select(a, out, [&](int64_t i) { return Holds(op, CompareFloat(static_cast<double>(v[i]), lit)); });
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
  int64_t n = 0;
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

Result<std::shared_ptr<RecordBatch>> FilterBatch(const std::shared_ptr<RecordBatch>& batch, const uint8_t* selection,
                                                 int64_t selected, MemoryPool* pool) {
  const int64_t rows = batch->num_rows();
  if (selected == rows) return batch;
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

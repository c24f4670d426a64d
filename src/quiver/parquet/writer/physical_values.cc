// quiver arrays as dense Parquet physical values (physical_values_internal.h).
#include "quiver/parquet/writer/physical_values_internal.h"

#include <fmt/format.h>

#include <cstring>

#include "quiver/core/bit_util.h"

namespace quiver::parquet::writer {

namespace {

template <typename Out, typename In, typename F>
Result<int64_t> Dense(const ArrayData& a, int64_t r, int64_t n, BufferBuilder* scratch, F&& convert) {
  QUIVER_RETURN_NOT_OK(scratch->Reserve(n * static_cast<int64_t>(sizeof(Out))));
  scratch->Clear();
  Out* out = reinterpret_cast<Out*>(scratch->mutable_data());
  const In* in = a.values<In>() + r;
  const uint8_t* v = a.validity();
  int64_t k = 0;
  if (v == nullptr) {
    for (int64_t i = 0; i < n; ++i) out[i] = convert(in[i]);
    k = n;
  } else {
    for (int64_t i = 0; i < n; ++i) {
      if (bit_util::GetBit(v, a.offset + r + i)) out[k++] = convert(in[i]);
    }
  }
  scratch->UnsafeSetSize(k * static_cast<int64_t>(sizeof(Out)));
  return k;
}

template <typename Out, typename In>
Result<int64_t> DenseCast(const ArrayData& a, int64_t r, int64_t n, BufferBuilder* scratch) {
  return Dense<Out, In>(a, r, n, scratch, [](In x) { return static_cast<Out>(x); });
}

// Seconds become milliseconds (Parquet has no seconds unit); overflow is an error, not a wrap.
template <typename Out, typename In>
Result<int64_t> DenseSecondsToMillis(const ArrayData& a, int64_t r, int64_t n, BufferBuilder* scratch) {
  bool overflow = false;
  In first_bad = 0;
  QUIVER_ASSIGN_OR_RETURN(int64_t k, (Dense<Out, In>(a, r, n, scratch, [&](In x) {
                            Out y;
                            if (__builtin_mul_overflow(static_cast<Out>(x), Out{1000}, &y) && !overflow) {
                              overflow = true;
                              first_bad = x;
                            }
                            return y;
                          })));
  if (overflow) {
    return Status::Invalid(
        fmt::format("{} seconds do not fit in 64-bit milliseconds (Parquet has no seconds unit)", first_bad));
  }
  return k;
}

// FIXED_LEN_BYTE_ARRAY values of `width` bytes from source values of `src_width` bytes;
// decimals keep the low `width` bytes of the int128, most significant first.
Result<int64_t> DenseFixed(const ArrayData& a, int64_t r, int64_t n, int width, int src_width, bool big_endian,
                           BufferBuilder* scratch) {
  QUIVER_RETURN_NOT_OK(scratch->Reserve(n * width));
  scratch->Clear();
  uint8_t* out = scratch->mutable_data();
  const uint8_t* in = a.buffers[1]->data() + (a.offset + r) * src_width;
  const uint8_t* v = a.validity();
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (v != nullptr && !bit_util::GetBit(v, a.offset + r + i)) continue;
    const uint8_t* src = in + i * src_width;
    uint8_t* dst = out + k * width;
    if (big_endian) {
      for (int b = 0; b < width; ++b) dst[b] = src[width - 1 - b];
    } else {
      std::memcpy(dst, src, static_cast<size_t>(width));
    }
    ++k;
  }
  scratch->UnsafeSetSize(k * width);
  return k;
}

Result<int64_t> DenseBooleans(const ArrayData& a, int64_t r, int64_t n, BufferBuilder* scratch) {
  QUIVER_RETURN_NOT_OK(scratch->Reserve(n));
  scratch->Clear();
  uint8_t* out = scratch->mutable_data();
  const uint8_t* bits = a.buffers[1]->data();
  const uint8_t* v = a.validity();
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t j = a.offset + r + i;
    if (v == nullptr || bit_util::GetBit(v, j)) out[k++] = bit_util::GetBit(bits, j) ? 1 : 0;
  }
  scratch->UnsafeSetSize(k);
  return k;
}

}  // namespace

Result<int64_t> GatherPhysical(const ArrayData& a, int64_t r, int64_t n, const LeafType& leaf, int width,
                               std::string_view column, BufferBuilder* scratch) {
  const DataType& t = *a.type;
  switch (t.id()) {
    case TypeId::kBool: return DenseBooleans(a, r, n, scratch);
    case TypeId::kInt8: return DenseCast<int32_t, int8_t>(a, r, n, scratch);
    case TypeId::kInt16: return DenseCast<int32_t, int16_t>(a, r, n, scratch);
    case TypeId::kUInt8: return DenseCast<int32_t, uint8_t>(a, r, n, scratch);
    case TypeId::kUInt16: return DenseCast<int32_t, uint16_t>(a, r, n, scratch);
    case TypeId::kInt32:
    case TypeId::kUInt32:
    case TypeId::kDate32: return DenseCast<int32_t, int32_t>(a, r, n, scratch);
    case TypeId::kTime32:
      if (t.unit() == quiver::TimeUnit::kSecond) return DenseSecondsToMillis<int32_t, int32_t>(a, r, n, scratch);
      return DenseCast<int32_t, int32_t>(a, r, n, scratch);
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kTime64: return DenseCast<int64_t, int64_t>(a, r, n, scratch);
    case TypeId::kTimestamp:
      if (t.unit() == quiver::TimeUnit::kSecond) return DenseSecondsToMillis<int64_t, int64_t>(a, r, n, scratch);
      return DenseCast<int64_t, int64_t>(a, r, n, scratch);
    case TypeId::kFloat32: return DenseCast<float, float>(a, r, n, scratch);
    case TypeId::kFloat64: return DenseCast<double, double>(a, r, n, scratch);
    case TypeId::kDecimal128: {
      // Arrow's decimal128 is a little-endian int128; the low bits hold any value that fits.
      if (leaf.physical == Type::INT32) {
        return Dense<int32_t, __int128>(a, r, n, scratch, [](__int128 x) { return static_cast<int32_t>(x); });
      }
      if (leaf.physical == Type::INT64) {
        return Dense<int64_t, __int128>(a, r, n, scratch, [](__int128 x) { return static_cast<int64_t>(x); });
      }
      return DenseFixed(a, r, n, width, 16, /*big_endian=*/true, scratch);
    }
    case TypeId::kFloat16: return DenseFixed(a, r, n, width, 2, false, scratch);
    case TypeId::kFixedSizeBinary: return DenseFixed(a, r, n, width, t.fixed_size(), false, scratch);
    default: return Status::NotImplemented(fmt::format("column '{}': no dense form for {}", column, t.ToString()));
  }
}

const uint8_t* PlainInPlace(const ArrayData& a, int64_t r) {
  const DataType& t = *a.type;
  switch (t.id()) {
    case TypeId::kInt32:
    case TypeId::kUInt32:
    case TypeId::kDate32:
    case TypeId::kFloat32: return reinterpret_cast<const uint8_t*>(a.values<int32_t>() + r);
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kTime64:
    case TypeId::kFloat64: return reinterpret_cast<const uint8_t*>(a.values<int64_t>() + r);
    case TypeId::kTime32:
      return t.unit() == quiver::TimeUnit::kSecond ? nullptr : reinterpret_cast<const uint8_t*>(a.values<int32_t>() + r);
    case TypeId::kTimestamp:
      return t.unit() == quiver::TimeUnit::kSecond ? nullptr : reinterpret_cast<const uint8_t*>(a.values<int64_t>() + r);
    default: return nullptr;
  }
}

}  // namespace quiver::parquet::writer

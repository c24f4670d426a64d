#include "quiver/parquet/reader/assemble_internal.h"

#include <fmt/format.h>

#include <cstring>

#include "quiver/core/bit_util.h"

namespace quiver::parquet::reader {
namespace {

template <typename Out, typename In>
void Narrow(const uint8_t* in, int64_t n, uint8_t* out) {
  for (int64_t i = 0; i < n; ++i) {
    In v;
    std::memcpy(&v, in + i * sizeof(In), sizeof(In));
    const Out o = static_cast<Out>(v);
    std::memcpy(out + i * sizeof(Out), &o, sizeof(Out));
  }
}

void StoreDecimal(__int128 v, uint8_t* out) { std::memcpy(out, &v, 16); }

// Big-endian two's complement of `len` bytes to a 16-byte little-endian decimal; false when it
// does not fit in 128 bits.
bool BigEndianToDecimal(const uint8_t* p, int64_t len, uint8_t* out) {
  if (len == 0) {
    std::memset(out, 0, 16);
    return true;
  }
  const bool negative = (p[0] & 0x80) != 0;
  int64_t skip = 0;
  if (len > 16) {
    skip = len - 16;
    for (int64_t i = 0; i < skip; ++i) {
      if (p[i] != (negative ? 0xff : 0x00)) return false;
    }
    if (((p[skip] & 0x80) != 0) != negative) return false;
  }
  uint8_t le[16];
  std::memset(le, negative ? 0xff : 0x00, 16);
  for (int64_t i = skip; i < len; ++i) le[len - 1 - i] = p[i];
  std::memcpy(out, le, 16);
  return true;
}

// Spreads `n` dense values of `width` bytes over `rows` slots by the validity bitmap.
template <int W>
void ScatterFixed(const uint8_t* dense, const uint8_t* validity, int64_t rows, uint8_t* out) {
  int64_t j = 0;
  for (int64_t i = 0; i < rows; ++i) {
    if (bit_util::GetBit(validity, i)) {
      std::memcpy(out + i * W, dense + j * W, W);
      ++j;
    }
  }
}

void ScatterFixedAny(const uint8_t* dense, int width, const uint8_t* validity, int64_t rows, uint8_t* out) {
  switch (width) {
    case 1: return ScatterFixed<1>(dense, validity, rows, out);
    case 2: return ScatterFixed<2>(dense, validity, rows, out);
    case 4: return ScatterFixed<4>(dense, validity, rows, out);
    case 8: return ScatterFixed<8>(dense, validity, rows, out);
    case 16: return ScatterFixed<16>(dense, validity, rows, out);
    default: break;
  }
  int64_t j = 0;
  for (int64_t i = 0; i < rows; ++i) {
    if (bit_util::GetBit(validity, i)) {
      std::memcpy(out + i * width, dense + j * width, static_cast<size_t>(width));
      ++j;
    }
  }
}

}  // namespace

Result<Array> Assemble(DenseValues d, const ColumnDescriptor& col, const TypePtr& type, MemoryPool* pool,
                       std::shared_ptr<Buffer> validity, int64_t rows, int64_t nulls, bool shrink_strings) {
  const int64_t n = d.non_null;
  if (rows - nulls != n) {
    return Status::Corrupt(fmt::format("{} values decoded but the levels place {}", n, rows - nulls));
  }
  auto data = std::make_shared<ArrayData>();
  data->type = type;
  data->length = rows;
  data->null_count = nulls;
  const Type pt = col.physical_type;
  const TypeId id = type->id();
  auto mismatch = [&] {
    return Status::NotImplemented(
        fmt::format("{} values as {}", TypeName(pt) ? TypeName(pt) : "unknown", type->ToString()));
  };

  if (id == TypeId::kBool) {
    if (pt != Type::BOOLEAN) return mismatch();
    QUIVER_ASSIGN_OR_RETURN(auto dense, d.values->Finish());
    if (nulls == 0) {
      data->buffers = {nullptr, dense};
    } else {
      QUIVER_ASSIGN_OR_RETURN(auto bits, Buffer::AllocateZeroed(bit_util::BytesForBits(rows), pool));
      int64_t j = 0;
      const uint8_t* v = validity->data();
      const uint8_t* src = dense ? dense->data() : nullptr;
      for (int64_t i = 0; i < rows; ++i) {
        if (bit_util::GetBit(v, i)) {
          if (bit_util::GetBit(src, j)) bit_util::SetBit(bits->mutable_data(), i);
          ++j;
        }
      }
      data->buffers = {validity, bits};
    }
    return Array(data);
  }

  if (id == TypeId::kString || id == TypeId::kBinary) {
    if (pt != Type::BYTE_ARRAY) return mismatch();
    if (d.offsets->size() == 0) QUIVER_RETURN_NOT_OK(d.offsets->AppendValue<int32_t>(0));
    QUIVER_ASSIGN_OR_RETURN(auto offsets, d.offsets->Finish());
    QUIVER_ASSIGN_OR_RETURN(auto bytes, d.values->Finish());
    if (!bytes) { QUIVER_ASSIGN_OR_RETURN(bytes, Buffer::Allocate(0, pool)); }
    // PLAIN pages reserve their whole size (length prefixes included): an arena takes back
    // what is left.
    if (shrink_strings) QUIVER_RETURN_NOT_OK(bytes->Resize(bytes->size(), /*shrink_to_fit=*/true));
    if (nulls > 0) {
      // Null slots take no bytes, so the value bytes stay as they are; only offsets repeat.
      QUIVER_ASSIGN_OR_RETURN(auto out, Buffer::Allocate((rows + 1) * 4, pool));
      const int32_t* src = offsets->data_as<int32_t>();
      int32_t* dst = out->mutable_data_as<int32_t>();
      const uint8_t* v = validity->data();
      int64_t j = 0;
      dst[0] = src[0];
      for (int64_t i = 0; i < rows; ++i) {
        if (bit_util::GetBit(v, i)) ++j;
        dst[i + 1] = src[j];
      }
      offsets = out;
    }
    data->buffers = {validity, offsets, bytes};
    return Array(data);
  }

  // Fixed-width output: convert the dense values first when the layout differs.
  const int out_width = type->byte_width();
  if (out_width <= 0) return mismatch();
  std::shared_ptr<Buffer> dense;
  auto converted = [&]() -> Result<uint8_t*> {
    QUIVER_ASSIGN_OR_RETURN(dense, Buffer::Allocate(n * out_width, pool));
    return dense->mutable_data();
  };
  const uint8_t* in = d.values->data();
  if (id == TypeId::kDecimal128) {
    QUIVER_ASSIGN_OR_RETURN(uint8_t* out, converted());
    if (pt == Type::INT32) {
      for (int64_t i = 0; i < n; ++i) {
        int32_t v;
        std::memcpy(&v, in + i * 4, 4);
        StoreDecimal(v, out + i * 16);
      }
    } else if (pt == Type::INT64) {
      for (int64_t i = 0; i < n; ++i) {
        int64_t v;
        std::memcpy(&v, in + i * 8, 8);
        StoreDecimal(v, out + i * 16);
      }
    } else if (pt == Type::FIXED_LEN_BYTE_ARRAY) {
      for (int64_t i = 0; i < n; ++i) {
        if (!BigEndianToDecimal(in + i * d.width, d.width, out + i * 16)) {
          return Status::Corrupt(fmt::format("decimal value {} does not fit in 128 bits", i));
        }
      }
    } else if (pt == Type::BYTE_ARRAY) {
      const int32_t* off = reinterpret_cast<const int32_t*>(d.offsets->data());
      for (int64_t i = 0; i < n; ++i) {
        if (!BigEndianToDecimal(in + off[i], off[i + 1] - off[i], out + i * 16)) {
          return Status::Corrupt(fmt::format("decimal value {} does not fit in 128 bits", i));
        }
      }
    } else {
      return mismatch();
    }
  } else if (pt == Type::INT96) {
    if (id != TypeId::kTimestamp) return mismatch();
    QUIVER_ASSIGN_OR_RETURN(uint8_t* out, converted());
    // Nanoseconds of the day, then the Julian day; 2440588 is 1970-01-01. Read as microseconds
    // (as Spark and DuckDB do): nanoseconds since 1970 overflow 64 bits past 2262, and Spark
    // writes instants up to year 294,000. Spark stores its int64 microseconds plus the epoch's
    // Julian offset, which wraps for the last 2.1e17 microseconds of the range (years past
    // about 287,000: a negative day and nanoseconds); that sum, when it fits 64 bits, has one
    // int64 reading, taken as Spark and DuckDB take it. Anything else past int64 microseconds
    // is an error, never a wrap.
    constexpr __int128 kEpochMicros = __int128{2440588} * 86400000000;
    for (int64_t i = 0; i < n; ++i) {
      int64_t nanos;
      int32_t julian;
      std::memcpy(&nanos, in + i * 12, 8);
      std::memcpy(&julian, in + i * 12 + 8, 4);
      const __int128 julian_micros = __int128{julian} * 86400000000 + nanos / 1000;
      __int128 v = julian_micros - kEpochMicros;
      if (v < INT64_MIN && julian_micros >= INT64_MIN) v += __int128{1} << 64;  // Spark's wrapped sum
      if (v < INT64_MIN || v > INT64_MAX) {
        return Status::Corrupt(fmt::format(
            "INT96 value {} (Julian day {}, {} ns in the day) is outside the range of timestamp[us]", i, julian,
            nanos));
      }
      const int64_t out_value = static_cast<int64_t>(v);
      std::memcpy(out + i * 8, &out_value, 8);
    }
  } else if (d.width == out_width) {
    if (pt == Type::BOOLEAN || pt == Type::BYTE_ARRAY) return mismatch();
    QUIVER_ASSIGN_OR_RETURN(dense, d.values->Finish());
  } else if (pt == Type::INT32 && out_width < 4) {
    QUIVER_ASSIGN_OR_RETURN(uint8_t* out, converted());
    if (out_width == 1) Narrow<int8_t, int32_t>(in, n, out);
    else Narrow<int16_t, int32_t>(in, n, out);
  } else {
    return mismatch();
  }
  if (!dense) { QUIVER_ASSIGN_OR_RETURN(dense, Buffer::Allocate(0, pool)); }
  if (nulls == 0) {
    data->buffers = {nullptr, dense};
  } else {
    QUIVER_ASSIGN_OR_RETURN(auto out, Buffer::AllocateZeroed(rows * out_width, pool));
    ScatterFixedAny(dense->data(), out_width, validity->data(), rows, out->mutable_data());
    data->buffers = {validity, out};
  }
  return Array(data);
}


}  // namespace quiver::parquet::reader

// PLAIN encoding for every physical type: fixed-width values (INT32/INT64/INT96/FLOAT/DOUBLE/
// FIXED_LEN_BYTE_ARRAY) are raw little-endian bytes, BOOLEAN is bit-packed LSB first, BYTE_ARRAY
// is a 4-byte little-endian length before each value.
#pragma once

#include <cstdint>
#include <cstring>

#include "quiver/core/bit_util.h"
#include "quiver/core/buffer.h"
#include "quiver/core/status.h"

namespace quiver::parquet::encoding {

// Fixed-width values: a copy or a zero-copy view of the page bytes.
class PlainFixedDecoder {
 public:
  // `width` is the byte width of one value (4, 8, 12 for INT96, the FLBA length).
  Status Reset(const uint8_t* data, int64_t size, int width) {
    if (width <= 0) return Status::Corrupt("PLAIN value width " + std::to_string(width) + " must be positive");
    data_ = data;
    end_ = data + size;
    width_ = width;
    return Status::OK();
  }
  int width() const { return width_; }
  // Whole values left (trailing bytes short of a value do not count).
  int64_t values_left() const { return (end_ - data_) / width_; }

  // Copies `n` values into `out` (n * width bytes).
  Status Decode(void* out, int64_t n) {
    const uint8_t* p = nullptr;  // set by Take on success; initialised for -Wmaybe-uninitialized
    QUIVER_RETURN_NOT_OK(Take(n, &p));
    if (n > 0) std::memcpy(out, p, static_cast<size_t>(n * width_));
    return Status::OK();
  }
  // Points `*out` at the next `n` values inside the page and moves past them: a reader whose
  // page buffer outlives the batch can wrap it instead of copying.
  Status Take(int64_t n, const uint8_t** out) {
    if (n < 0 || n > values_left()) [[unlikely]] return Short(n);
    *out = data_;
    data_ += n * width_;
    return Status::OK();
  }
  Status Skip(int64_t n) {
    const uint8_t* p;
    return Take(n, &p);
  }

 private:
  Status Short(int64_t n) const;
  const uint8_t* data_ = nullptr;
  const uint8_t* end_ = nullptr;
  int width_ = 1;
};

// BOOLEAN: one bit per value, LSB first, which is already Arrow's bitmap layout.
class PlainBooleanDecoder {
 public:
  void Reset(const uint8_t* data, int64_t size) {
    data_ = data;
    bits_ = size * 8;
    bit_pos_ = 0;
  }
  int64_t values_left() const { return bits_ - bit_pos_; }
  // `n` values into an LSB-first bitmap starting at bit `bit_offset`.
  Status DecodeBitmap(uint8_t* bitmap, int64_t bit_offset, int64_t n);
  // `n` values as bytes 0/1.
  Status Decode(uint8_t* out, int64_t n);

 private:
  Status Short(int64_t n) const;
  const uint8_t* data_ = nullptr;
  int64_t bits_ = 0;
  int64_t bit_pos_ = 0;
};

// BYTE_ARRAY: appends values Arrow-style, int32 offsets + concatenated bytes.
class PlainByteArrayDecoder {
 public:
  void Reset(const uint8_t* data, int64_t size) {
    begin_ = data;
    data_ = data;
    end_ = data + size;
    decoded_ = 0;
  }
  // Appends `n` values. `offsets` holds int32 offsets into `values`; when empty it gets the
  // leading 0 first; afterwards it gains n entries. Corrupt when a length is negative or runs
  // past the page, or fewer than n values remain; Invalid when `values` would pass 2 GiB.
  Status Decode(int64_t n, BufferBuilder* offsets, BufferBuilder* values);
  Status Skip(int64_t n);
  int64_t bytes_left() const { return end_ - data_; }

 private:
  Status Corrupt(const char* what, int64_t index, int64_t detail) const;
  const uint8_t* begin_ = nullptr;
  const uint8_t* data_ = nullptr;
  const uint8_t* end_ = nullptr;
  int64_t decoded_ = 0;
};

// ---- encoders ----

// Appends `n` fixed-width values. With `validity` (LSB-first, from bit `validity_offset`),
// only the values whose bit is set are written (nulls take no room in Parquet pages).
Status PlainEncodeFixed(const void* values, int64_t n, int width, BufferBuilder* out,
                        const uint8_t* validity = nullptr, int64_t validity_offset = 0);

// Appends values[i] = data[offsets[i], offsets[i+1]) for i < n, each behind its 4-byte length;
// nulls skipped as above.
Status PlainEncodeByteArrays(const int32_t* offsets, const uint8_t* data, int64_t n, BufferBuilder* out,
                             const uint8_t* validity = nullptr, int64_t validity_offset = 0);

// PlainEncodeByteArrays that also hands each value it writes to `visit(const uint8_t* value,
// int32_t len)`, in order, so that a caller that needs to look at every value (the writer's page
// bounds of l_comment) does so in the same pass, while the value is in cache.
template <typename Visit>
Status PlainEncodeByteArraysVisiting(const int32_t* offsets, const uint8_t* data, int64_t n, BufferBuilder* out,
                                     const uint8_t* validity, int64_t validity_offset, Visit&& visit) {
  // 64 bytes of slack: a value of up to 64 bytes whose source has 64 bytes to read before the
  // values' end (most of them: text fields are short) is copied with four fixed 16-byte moves
  // instead of a memcpy call of its length; the rest by length. The limit sits past the
  // lengths of common text (l_comment's run to 43 bytes), so that the branch is not mispredicted
  // where lengths vary around it; the moves past a value are overwritten by the next.
  QUIVER_RETURN_NOT_OK(out->Reserve(n * 4 + (offsets[n] - offsets[0]) + 64));
  uint8_t* const begin = out->mutable_data() + out->size();
  uint8_t* dst = begin;
  const int32_t wide_end = offsets[n] - 64;
  for (int64_t i = 0; i < n; ++i) {
    if (validity != nullptr && !bit_util::GetBit(validity, validity_offset + i)) continue;
    const int32_t at = offsets[i];
    const int32_t len = offsets[i + 1] - at;
    std::memcpy(dst, &len, 4);
    if (len <= 64 && at <= wide_end) [[likely]] {
      for (int k = 0; k < 64; k += 16) std::memcpy(dst + 4 + k, data + at + k, 16);
    } else {
      std::memcpy(dst + 4, data + at, static_cast<size_t>(len));
    }
    visit(data + at, len);
    dst += 4 + len;
  }
  out->UnsafeSetSize(out->size() + (dst - begin));
  return Status::OK();
}

// BOOLEAN values accumulate bit by bit across calls; Finish pads the last byte with zeros.
class PlainBooleanEncoder {
 public:
  explicit PlainBooleanEncoder(MemoryPool* pool = default_memory_pool()) : bits_(pool) {}
  // Bits [offset, offset + n) of an LSB-first bitmap.
  Status PutBitmap(const uint8_t* bitmap, int64_t offset, int64_t n);
  // Bytes, nonzero = true.
  Status Put(const uint8_t* values, int64_t n);
  Status Finish(BufferBuilder* out);
  int64_t num_values() const { return count_; }

 private:
  BufferBuilder bits_;
  int64_t count_ = 0;
};

}  // namespace quiver::parquet::encoding

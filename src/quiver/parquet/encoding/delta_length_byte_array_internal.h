// DELTA_LENGTH_BYTE_ARRAY: every value's length as one DELTA_BINARY_PACKED INT32 stream, then
// all the bytes back to back; decoding a batch is one offsets pass and one memcpy.
#pragma once

#include <cstdint>

#include "quiver/core/buffer.h"
#include "quiver/core/status.h"
#include "quiver/parquet/encoding/delta_binary_packed_internal.h"

namespace quiver::parquet::encoding {

class DeltaLengthByteArrayDecoder {
 public:
  explicit DeltaLengthByteArrayDecoder(SimdLevel level = ActiveSimdLevel(), MemoryPool* pool = default_memory_pool())
      : lengths_decoder_(level), lengths_(pool) {}

  // Decodes every length up front and checks them: Corrupt on a negative length or when the
  // lengths add up to more bytes than follow them.
  Status Reset(const uint8_t* data, int64_t size);
  int64_t values_left() const { return count_ - index_; }

  // Appends `n` values Arrow-style (see PlainByteArrayDecoder::Decode).
  Status Decode(int64_t n, BufferBuilder* offsets, BufferBuilder* values);
  Status Skip(int64_t n);
  // The next `n` values as their lengths and the start of their concatenated bytes; advances.
  Status Next(int64_t n, const int32_t** lengths, const uint8_t** bytes);

 private:
  DeltaBinaryPackedDecoder<int32_t> lengths_decoder_;
  BufferBuilder lengths_;
  int64_t count_ = 0;
  int64_t index_ = 0;
  const uint8_t* bytes_ = nullptr;  // bytes of value index_
};

class DeltaLengthByteArrayEncoder {
 public:
  explicit DeltaLengthByteArrayEncoder(MemoryPool* pool = default_memory_pool()) : lengths_(pool), bytes_(pool) {}

  // values[i] = data[offsets[i], offsets[i+1]); `validity` (optional) skips nulls.
  Status Put(const int32_t* offsets, const uint8_t* data, int64_t n, const uint8_t* validity = nullptr,
             int64_t validity_offset = 0);
  Status Put(const uint8_t* value, int32_t length);
  int64_t num_values() const { return lengths_.num_values(); }
  int64_t EstimatedSize() const { return lengths_.EstimatedSize() + bytes_.size(); }
  // Appends the encoded stream and starts over.
  Status Finish(BufferBuilder* out);

 private:
  DeltaBinaryPackedEncoder<int32_t> lengths_;
  BufferBuilder bytes_;
};

}  // namespace quiver::parquet::encoding

// DELTA_BYTE_ARRAY (incremental / front coding) for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY: the
// length of the prefix shared with the previous value (DELTA_BINARY_PACKED), then the suffixes
// as DELTA_LENGTH_BYTE_ARRAY.
#pragma once

#include <cstdint>
#include <vector>

#include "quiver/core/buffer.h"
#include "quiver/core/status.h"
#include "quiver/parquet/encoding/delta_binary_packed_internal.h"
#include "quiver/parquet/encoding/delta_length_byte_array_internal.h"

namespace quiver::parquet::encoding {

class DeltaByteArrayDecoder {
 public:
  explicit DeltaByteArrayDecoder(SimdLevel level = ActiveSimdLevel(), MemoryPool* pool = default_memory_pool())
      : prefix_decoder_(level), prefixes_(pool), suffixes_(level, pool) {}

  // Decodes all prefix and suffix lengths; Corrupt when their counts differ or either is bad.
  Status Reset(const uint8_t* data, int64_t size);
  int64_t values_left() const { return count_ - index_; }

  // Appends `n` values Arrow-style. Corrupt when a prefix is longer than the previous value.
  Status Decode(int64_t n, BufferBuilder* offsets, BufferBuilder* values);
  // `n` FIXED_LEN_BYTE_ARRAY values of `width` bytes into `out`; Corrupt when one is not.
  Status DecodeFixed(int64_t n, int width, uint8_t* out);
  Status Skip(int64_t n);

 private:
  Status BadPrefix(int64_t i, int32_t prefix, int64_t previous) const;
  // Checks that n values remain and points at their prefix lengths, suffix lengths and bytes.
  Status NextBatch(int64_t n, const int32_t** prefix, const int32_t** slen, const uint8_t** sbytes);

  DeltaBinaryPackedDecoder<int32_t> prefix_decoder_;
  BufferBuilder prefixes_;
  DeltaLengthByteArrayDecoder suffixes_;
  std::vector<uint8_t> last_;  // the previous value, carried across batches
  int64_t count_ = 0;
  int64_t index_ = 0;
};

class DeltaByteArrayEncoder {
 public:
  explicit DeltaByteArrayEncoder(MemoryPool* pool = default_memory_pool()) : prefixes_(pool), suffixes_(pool) {}

  // values[i] = data[offsets[i], offsets[i+1]); `validity` (optional) skips nulls.
  Status Put(const int32_t* offsets, const uint8_t* data, int64_t n, const uint8_t* validity = nullptr,
             int64_t validity_offset = 0);
  // `n` values of `width` bytes, back to back.
  Status PutFixed(const uint8_t* values, int width, int64_t n);
  int64_t num_values() const { return prefixes_.num_values(); }
  int64_t EstimatedSize() const { return prefixes_.EstimatedSize() + suffixes_.EstimatedSize(); }
  Status Finish(BufferBuilder* out);

 private:
  Status PutOne(const uint8_t* v, int32_t len);
  DeltaBinaryPackedEncoder<int32_t> prefixes_;
  DeltaLengthByteArrayEncoder suffixes_;
  std::vector<uint8_t> last_;
};

}  // namespace quiver::parquet::encoding

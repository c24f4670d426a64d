// DELTA_BINARY_PACKED for INT32/INT64 (and the lengths inside the DELTA byte-array encodings):
// header <block size> <miniblocks per block> <total count> <first value, zigzag>, then blocks of
// <min delta, zigzag> <one bit-width byte per miniblock> <bit-packed miniblocks>.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "quiver/core/buffer.h"
#include "quiver/core/simd_dispatch.h"
#include "quiver/core/status.h"
#include "quiver/parquet/encoding/bit_unpack_internal.h"

namespace quiver::parquet::encoding {

// T is int32_t or int64_t. Arithmetic wraps in T's unsigned type, as the writers' does, so
// deltas that overflow T (INT64_MIN after INT64_MAX) round-trip.
template <typename T>
class DeltaBinaryPackedDecoder {
  static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>);
  using U = std::make_unsigned_t<T>;

 public:
  explicit DeltaBinaryPackedDecoder(SimdLevel level = ActiveSimdLevel());

  // Parses the header. Corrupt on a malformed header (block size not a multiple of 128,
  // miniblock size not a multiple of 32, count beyond INT32_MAX... ).
  Status Reset(const uint8_t* data, int64_t size);

  int64_t total_values() const { return total_; }
  int64_t values_left() const { return left_; }

  // Exactly `n` values (Corrupt if fewer remain or the data is malformed or truncated).
  Status Decode(T* out, int64_t n);
  Status Skip(int64_t n);

  // Bytes the whole encoded stream occupies, decoding (and dropping) what is left: where the
  // data after it (DELTA_LENGTH_BYTE_ARRAY's bytes) begins.
  Status ConsumeAll(int64_t* bytes);

 private:
  Status ReadBlockHeader();
  Status NextMiniblock(T* direct, int64_t* produced);
  Status Truncated(const char* what) const;

  const BitUnpackKernels* kernels_;
  U (*prefix_sum_)(U* deltas, int64_t n, U min_delta, U last);  // per SIMD level
  const uint8_t* begin_ = nullptr;
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  int64_t block_size_ = 0;
  int64_t miniblocks_ = 0;
  int64_t mini_values_ = 0;
  int64_t total_ = 0;
  int64_t left_ = 0;
  bool first_pending_ = false;
  U first_ = 0;
  U last_ = 0;
  U min_delta_ = 0;
  int64_t mini_index_ = 0;  // next miniblock in the current block; == miniblocks_ when none
  std::vector<uint8_t> widths_;
  std::vector<U> buf_;  // one miniblock when the caller asks for less than a whole one
  int64_t buf_pos_ = 0;
  int64_t buf_len_ = 0;
};

// Buffers a page of values and writes them with blocks of 128 values in 4 miniblocks of 32.
template <typename T>
class DeltaBinaryPackedEncoder {
  static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>);
  using U = std::make_unsigned_t<T>;

 public:
  static constexpr int kBlockSize = 128;
  static constexpr int kMiniblocks = 4;
  static constexpr int kMiniblockSize = kBlockSize / kMiniblocks;

  explicit DeltaBinaryPackedEncoder(MemoryPool* pool = default_memory_pool()) : blocks_(pool) {}

  Status Put(const T* values, int64_t n);
  int64_t num_values() const { return count_; }
  // Appends header + blocks to `out` and starts a new page.
  Status Finish(BufferBuilder* out);
  int64_t EstimatedSize() const { return blocks_.size() + pending_ * static_cast<int64_t>(sizeof(T)) + 32; }

 private:
  Status FlushBlock();

  BufferBuilder blocks_;
  int64_t count_ = 0;
  U first_ = 0;
  U last_ = 0;
  U deltas_[kBlockSize];
  int pending_ = 0;
};

// Writes `n` values as one complete DELTA_BINARY_PACKED stream.
template <typename T>
Status DeltaBinaryPackedEncode(const T* values, int64_t n, BufferBuilder* out) {
  DeltaBinaryPackedEncoder<T> enc;
  QUIVER_RETURN_NOT_OK(enc.Put(values, n));
  return enc.Finish(out);
}

extern template class DeltaBinaryPackedDecoder<int32_t>;
extern template class DeltaBinaryPackedDecoder<int64_t>;
extern template class DeltaBinaryPackedEncoder<int32_t>;
extern template class DeltaBinaryPackedEncoder<int64_t>;

}  // namespace quiver::parquet::encoding

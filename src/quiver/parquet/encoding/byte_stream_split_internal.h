// BYTE_STREAM_SPLIT for FLOAT, DOUBLE, INT32, INT64, FLOAT16 and FIXED_LEN_BYTE_ARRAY of any width:
// byte k of every value is stored in stream k; K streams of N bytes each. SIMD transposes for
// widths 4 and 8, chosen once per level.
#pragma once

#include <cstdint>

#include "quiver/core/buffer.h"
#include "quiver/core/simd_dispatch.h"
#include "quiver/core/status.h"

namespace quiver::parquet::encoding {

struct ByteStreamSplitKernels {
  SimdLevel level;
  // Values [0, n) of 4/8-byte width from streams starting at `in`, `stride` bytes apart.
  void (*decode4)(const uint8_t* in, int64_t stride, int64_t n, uint8_t* out);
  void (*decode8)(const uint8_t* in, int64_t stride, int64_t n, uint8_t* out);
  // The mirror image: n values into streams `stride` bytes apart.
  void (*encode4)(const uint8_t* in, int64_t n, int64_t stride, uint8_t* out);
  void (*encode8)(const uint8_t* in, int64_t n, int64_t stride, uint8_t* out);
};
const ByteStreamSplitKernels& ByteStreamSplitKernelsFor(SimdLevel level);

class ByteStreamSplitDecoder {
 public:
  explicit ByteStreamSplitDecoder(SimdLevel level = ActiveSimdLevel()) : kernels_(&ByteStreamSplitKernelsFor(level)) {}

  // The page's whole values section: its size must be a multiple of `width` (Corrupt if not).
  Status Reset(const uint8_t* data, int64_t size, int width);
  int64_t values_left() const { return count_ - index_; }
  // `n` values, `width` bytes each, into `out`.
  Status Decode(void* out, int64_t n);
  Status Skip(int64_t n);

 private:
  const ByteStreamSplitKernels* kernels_;
  const uint8_t* data_ = nullptr;
  int width_ = 1;
  int64_t count_ = 0;
  int64_t index_ = 0;
};

// Appends `n` values of `width` bytes as `width` streams.
Status ByteStreamSplitEncode(const void* values, int64_t n, int width, BufferBuilder* out,
                             SimdLevel level = ActiveSimdLevel());

}  // namespace quiver::parquet::encoding

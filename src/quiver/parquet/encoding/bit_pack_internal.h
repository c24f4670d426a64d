// Internal: the scalar LSB-first bit packer that RLE/bit-packed literal runs and dictionary
// index pages share (the SIMD paths pack whole groups first and leave it the rest).
#pragma once

#include <cstdint>
#include <cstring>

namespace quiver::parquet::encoding {

// Packs values[i, n) at `width` (1..32) bits each, LSB first, the low `width` bits of each;
// values from `avail` on are written as zeros (a run rounded up to a group of 8). Returns the
// end of what it wrote. Eight values of W bits are exactly W bytes: the 64-bit accumulator
// spills 4 bytes at a time, so W <= 32 never overflows it.
template <typename T>
inline uint8_t* PackBitsLsb(const T* values, int64_t i, int64_t n, int64_t avail, int width, uint8_t* dst) {
  const uint64_t mask = width == 32 ? 0xffffffffull : (uint64_t{1} << width) - 1;
  uint64_t acc = 0;
  int bits = 0;
  for (; i < n; ++i) {
    const uint64_t v = i < avail ? (static_cast<uint32_t>(values[i]) & mask) : 0;
    acc |= v << bits;
    bits += width;
    if (bits >= 32) {
      const uint32_t word = static_cast<uint32_t>(acc);
      std::memcpy(dst, &word, 4);
      dst += 4;
      acc >>= 32;
      bits -= 32;
    }
  }
  for (; bits > 0; bits -= 8, acc >>= 8) *dst++ = static_cast<uint8_t>(acc);
  return dst;
}

}  // namespace quiver::parquet::encoding

// Bit and bitmap helpers in Arrow's LSB-first order, and scalar bit packing.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace quiver::bit_util {

constexpr int64_t RoundUp(int64_t value, int64_t factor) { return (value + factor - 1) / factor * factor; }
constexpr int64_t BytesForBits(int64_t bits) { return (bits + 7) >> 3; }
constexpr bool IsPowerOf2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

inline bool GetBit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }
inline void SetBit(uint8_t* bits, int64_t i) { bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7)); }
inline void ClearBit(uint8_t* bits, int64_t i) { bits[i >> 3] &= static_cast<uint8_t>(~(1u << (i & 7))); }
inline void SetBitTo(uint8_t* bits, int64_t i, bool v) {
  bits[i >> 3] = static_cast<uint8_t>((bits[i >> 3] & ~(1u << (i & 7))) | (unsigned{v} << (i & 7)));
}

// Loads up to 8 bytes little-endian without reading past `n` bytes.
inline uint64_t LoadPartialWord(const uint8_t* p, int64_t n) {
  uint64_t w = 0;
  std::memcpy(&w, p, static_cast<size_t>(n < 8 ? n : 8));
  return w;
}

// Number of set bits in [offset, offset + length).
int64_t CountSetBits(const uint8_t* bits, int64_t offset, int64_t length);
// Sets bits [offset, offset + length) to `value`.
void SetBitsTo(uint8_t* bits, int64_t offset, int64_t length, bool value);
// Copies `length` bits from src starting at src_offset to dst starting at dst_offset.
void CopyBitmap(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst, int64_t dst_offset);
// True when the two bit ranges hold the same bits.
bool BitmapEquals(const uint8_t* a, int64_t a_offset, const uint8_t* b, int64_t b_offset, int64_t length);

// Unpacks `count` values of `bit_width` bits (0..64), packed LSB-first as Parquet's
// bit-packed runs are, from `in` into `out`. Reads exactly BytesForBits(count*bit_width) bytes.
void UnpackBits(const uint8_t* in, int bit_width, int64_t count, uint64_t* out);
void UnpackBits32(const uint8_t* in, int bit_width, int64_t count, uint32_t* out);
// The mirror image: writes BytesForBits(count*bit_width) bytes.
void PackBits(const uint64_t* in, int bit_width, int64_t count, uint8_t* out);

}  // namespace quiver::bit_util

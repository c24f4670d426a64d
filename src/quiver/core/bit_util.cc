#include "quiver/core/bit_util.h"

namespace quiver::bit_util {

int64_t CountSetBits(const uint8_t* bits, int64_t offset, int64_t length) {
  int64_t count = 0;
  int64_t i = offset;
  const int64_t end = offset + length;
  for (; i < end && (i & 63) != 0; ++i) count += GetBit(bits, i);
  for (; i + 64 <= end; i += 64) {
    uint64_t w;
    std::memcpy(&w, bits + (i >> 3), 8);
    count += std::popcount(w);
  }
  for (; i < end; ++i) count += GetBit(bits, i);
  return count;
}

void SetBitsTo(uint8_t* bits, int64_t offset, int64_t length, bool value) {
  int64_t i = offset;
  const int64_t end = offset + length;
  for (; i < end && (i & 7) != 0; ++i) SetBitTo(bits, i, value);
  int64_t whole = (end - i) >> 3;
  if (whole > 0) {
    std::memset(bits + (i >> 3), value ? 0xff : 0, static_cast<size_t>(whole));
    i += whole * 8;
  }
  for (; i < end; ++i) SetBitTo(bits, i, value);
}

void CopyBitmap(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst, int64_t dst_offset) {
  if ((src_offset & 7) == 0 && (dst_offset & 7) == 0) {
    int64_t whole = length >> 3;
    std::memcpy(dst + (dst_offset >> 3), src + (src_offset >> 3), static_cast<size_t>(whole));
    for (int64_t i = whole * 8; i < length; ++i) SetBitTo(dst, dst_offset + i, GetBit(src, src_offset + i));
    return;
  }
  for (int64_t i = 0; i < length; ++i) SetBitTo(dst, dst_offset + i, GetBit(src, src_offset + i));
}

bool BitmapEquals(const uint8_t* a, int64_t a_offset, const uint8_t* b, int64_t b_offset, int64_t length) {
  for (int64_t i = 0; i < length; ++i) {
    if (GetBit(a, a_offset + i) != GetBit(b, b_offset + i)) return false;
  }
  return true;
}

template <typename Out>
static void UnpackGeneric(const uint8_t* in, int bit_width, int64_t count, Out* out) {
  if (bit_width == 0) {
    for (int64_t i = 0; i < count; ++i) out[i] = 0;
    return;
  }
  const int64_t total_bytes = BytesForBits(count * bit_width);
  const uint64_t mask = bit_width == 64 ? ~uint64_t{0} : (uint64_t{1} << bit_width) - 1;
  int64_t bit = 0;
  for (int64_t i = 0; i < count; ++i, bit += bit_width) {
    int64_t byte = bit >> 3;
    int shift = static_cast<int>(bit & 7);
    uint64_t lo = LoadPartialWord(in + byte, total_bytes - byte);
    uint64_t v = lo >> shift;
    if (shift + bit_width > 64) {
      uint64_t hi = in[byte + 8];
      v |= hi << (64 - shift);
    }
    out[i] = static_cast<Out>(v & mask);
  }
}

void UnpackBits(const uint8_t* in, int bit_width, int64_t count, uint64_t* out) {
  UnpackGeneric(in, bit_width, count, out);
}
void UnpackBits32(const uint8_t* in, int bit_width, int64_t count, uint32_t* out) {
  UnpackGeneric(in, bit_width, count, out);
}

void PackBits(const uint64_t* in, int bit_width, int64_t count, uint8_t* out) {
  const int64_t total_bytes = BytesForBits(count * bit_width);
  if (total_bytes == 0) return;  // width 0: nothing to write (and `out` may be null)
  std::memset(out, 0, static_cast<size_t>(total_bytes));
  const uint64_t mask = bit_width == 64 ? ~uint64_t{0} : (uint64_t{1} << bit_width) - 1;
  int64_t bit = 0;
  for (int64_t i = 0; i < count; ++i, bit += bit_width) {
    uint64_t v = in[i] & mask;
    int64_t byte = bit >> 3;
    int shift = static_cast<int>(bit & 7);
    int remaining = bit_width;
    // First byte may be shared with the previous value.
    out[byte] |= static_cast<uint8_t>(v << shift);
    int written = 8 - shift;
    while (written < remaining) {
      ++byte;
      out[byte] |= static_cast<uint8_t>(v >> written);
      written += 8;
    }
  }
}

}  // namespace quiver::bit_util

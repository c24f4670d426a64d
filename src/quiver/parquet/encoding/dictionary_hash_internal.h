// Internal to the dictionary encoders: hashing and comparing fixed-width keys and short byte
// values without branches on their length (see dictionary_encoder.cc).
#pragma once

#include <cstdint>
#include <cstring>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace quiver::parquet::encoding::dict_hash {

// Slot of a fixed-width key: the top bits of key * 2^64/phi (Fibonacci hashing), one multiply
// instead of a full mixer; every key bit reaches the top bits, so sequential integers and
// doubles that differ only in their high bits spread evenly.
inline size_t SlotOf(uint64_t key, int shift) { return static_cast<size_t>((key * 0x9E3779B97F4A7C15ULL) >> shift); }

// Values of up to 16 bytes as two zero-padded words: hashed and compared without a branch on
// their length (lengths vary at random in most string columns, and mispredictions cost more
// than the work).
struct ShortValue {
  uint64_t lo = 0, hi = 0;
  bool operator==(const ShortValue& o) const { return ((lo ^ o.lo) | (hi ^ o.hi)) == 0; }
};
// Byte i of kShortMask + 16 - len is 0xff when i < len: the mask of a value's first `len` bytes
// (len <= 16) loaded, not computed by shifts that need branches around their width.
alignas(64) constexpr uint8_t kShortMask[32] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                                0xff, 0xff, 0xff, 0xff, 0xff};
// `p` has 16 readable bytes; those past `len` (<= 16) are masked off.
inline ShortValue LoadShort(const uint8_t* p, int32_t len) {
  uint64_t lo, hi, lo_mask, hi_mask;
  std::memcpy(&lo, p, 8);
  std::memcpy(&hi, p + 8, 8);
  std::memcpy(&lo_mask, kShortMask + 16 - len, 8);
  std::memcpy(&hi_mask, kShortMask + 24 - len, 8);
  return {lo & lo_mask, hi & hi_mask};
}
// The same for a value near the end of its buffer.
inline ShortValue CopyShort(const uint8_t* p, int32_t len) {
  uint8_t buf[16] = {};
  std::memcpy(buf, p, static_cast<size_t>(len));
  return LoadShort(buf, len);
}
// One 64x64->128 multiply of the two words (the length folded in) and a final mix.
inline uint64_t HashShort(const ShortValue& v, int32_t len) {
  const unsigned __int128 m = static_cast<unsigned __int128>(v.lo ^ 0x9E3779B97F4A7C15ULL) *
                              (v.hi ^ 0xC2B2AE3D27D4EB4FULL ^ (static_cast<uint64_t>(len) << 56));
  uint64_t h = static_cast<uint64_t>(m) ^ static_cast<uint64_t>(m >> 64);
  h *= 0x9FB21C651E98DF25ULL;
  return h ^ (h >> 29);
}

// A value of up to 32 bytes as ByteArrayDictionaryEncoder's memo keeps it: its bytes as four
// little-endian words, zero past its length. With the length these name the value, so the memo
// compares them and never the bytes.
struct MemoWords {
  uint64_t lo, hi, lo2, hi2;  // bytes 0-7, 8-15, 16-23, 24-31
};
// Byte i of kMemoMask + 32 - len is 0xff when i < len: the mask of a value's first `len` bytes
// (len <= 32) loaded.
alignas(64) constexpr uint8_t kMemoMask[64] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                               0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                               0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
// `p` has 32 readable bytes; no branch on the length (<= 32), which in a column like
// l_shipinstruct falls on either side of 16 at random. Four loads and masks: taking the first
// and the last 16 bytes instead cost a third more instructions per value in MemoHits<32>.
inline MemoWords LoadMemoWords(const uint8_t* p, int32_t len) {
  // Word by word: as two 32-byte copies, GCC moved them through the stack.
  const uint8_t* mask = kMemoMask + 32 - len;
  auto word = [&](int k) {
    uint64_t w, m;
    std::memcpy(&w, p + 8 * k, 8);
    std::memcpy(&m, mask + 8 * k, 8);
    return w & m;
  };
  return {word(0), word(1), word(2), word(3)};
}
// The same for a value near the end of its buffer.
inline MemoWords CopyMemoWords(const uint8_t* p, int32_t len) {
  uint8_t buf[32] = {};
  std::memcpy(buf, p, static_cast<size_t>(len));
  return LoadMemoWords(buf, len);
}
// A value's place in ByteArrayDictionaryEncoder's memo (kMemoSize = 256): one multiply of its
// folded words, cheaper than HashShort or XXH3, which only a value not found there needs.
inline size_t MemoSlot(const MemoWords& v, int32_t len) {
  const uint64_t f =
      (v.lo ^ ((v.hi ^ v.lo2) * 0xC2B2AE3D27D4EB4FULL) ^ std::rotl(v.hi2, 32) ^ static_cast<uint64_t>(len)) *
      0x9E3779B97F4A7C15ULL;
  return static_cast<size_t>(f >> 56);
}

// Longer values: XXH3 (Debian's xxhash, inlined).
inline uint64_t HashBytes(const uint8_t* p, int64_t n) { return XXH3_64bits(p, static_cast<size_t>(n)); }

// Two values of the same length `len` > 16: up to 32 bytes, the first and the last 16 (which
// overlap) decide it without a call (l_shipinstruct's "DELIVER IN PERSON" is 17).
inline bool EqualLong(const uint8_t* a, const uint8_t* b, int32_t len) {
  if (len <= 32) {
    uint64_t x[4], y[4];
    std::memcpy(x, a, 16);
    std::memcpy(x + 2, a + len - 16, 16);
    std::memcpy(y, b, 16);
    std::memcpy(y + 2, b + len - 16, 16);
    return ((x[0] ^ y[0]) | (x[1] ^ y[1]) | (x[2] ^ y[2]) | (x[3] ^ y[3])) == 0;
  }
  return std::memcmp(a, b, static_cast<size_t>(len)) == 0;
}


}  // namespace quiver::parquet::encoding::dict_hash

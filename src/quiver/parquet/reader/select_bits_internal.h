// Row bitmaps of a scan's predicates (a bit per row of a row group, in 64-bit words): a
// dictionary page's per-entry answers looked up by index 64 rows to a word (scalar / AVX2 /
// AVX-512 kernels; gathers, or registers for dictionaries of up to 64 entries), and answers
// ANDed into the bitmap at any row offset.
#pragma once

#include <cstdint>

#include "quiver/core/simd_dispatch.h"

namespace quiver::parquet::reader {

struct SelectKernels {
  SimdLevel level;
  // Bit k of the result: answers[idx[k]] != 0, for k in [0, 64). `answers` holds 0 or -1 per
  // dictionary entry; every idx[k] is an index already checked against the dictionary's size.
  uint64_t (*answer_word)(const int32_t* idx, const int32_t* answers);
  // The same for a dictionary of at most 64 entries, `answers` padded with 0 to 64 of them: the
  // answers held in registers (AVX-512: four tables picked by permutes, AVX2 and scalar: one
  // bit per entry shifted out), no gathers. lineitem's l_discount (11 entries) and l_quantity
  // (50) are such dictionaries.
  uint64_t (*answer_word_small)(const int32_t* idx, const int32_t* answers);
};

// The kernels of one level (tests run each level in SupportedSimdLevels() on the same input);
// a level above what the CPU supports is clamped to DetectedSimdLevel().
const SelectKernels& SelectKernelsFor(SimdLevel level);
// The kernels of ActiveSimdLevel(), resolved once.
const SelectKernels& ActiveSelectKernels();

// Bitmaps here are words LSB first with one word of slack past their last row, so that a word
// read or ANDed at any bit offset inside them stays inside the allocation.
inline uint64_t WordAt(const uint64_t* bits, int64_t offset) {
  const int64_t q = offset >> 6;
  const int s = static_cast<int>(offset & 63);
  if (s == 0) return bits[q];
  return (bits[q] >> s) | (bits[q + 1] << (64 - s));
}

// Bits [offset, offset + 64) of `bits` ANDed with `w` (a bit set in `w` leaves its row as it is).
inline void AndWordAt(uint64_t* bits, int64_t offset, uint64_t w) {
  const int64_t q = offset >> 6;
  const int s = static_cast<int>(offset & 63);
  if (s == 0) {
    bits[q] &= w;
    return;
  }
  const uint64_t low = (uint64_t{1} << s) - 1;
  bits[q] &= (w << s) | low;
  bits[q + 1] &= (w >> (64 - s)) | ~low;
}

// Bits [0, n) of `src` (bytes, LSB first) ANDed into `bits` from bit `offset`.
void AndBitsAt(uint64_t* bits, int64_t offset, const uint8_t* src, int64_t n);

// Each row of [offset, offset + n) still set in `bits` ANDed with answers[idx[row - offset]]
// (`answers`: one per dictionary entry, `num_answers` of them, as SelectKernels takes them); a
// word of 64 rows already all out is not looked up.
void AndDictionaryAnswers(const SelectKernels& k, uint64_t* bits, int64_t offset, const int32_t* idx, int64_t n,
                          const int32_t* answers, int64_t num_answers);

}  // namespace quiver::parquet::reader

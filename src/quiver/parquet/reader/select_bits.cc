#include "quiver/parquet/reader/select_bits_internal.h"

#include "quiver/core/intrinsics_internal.h"

#include <algorithm>

#include "quiver/core/bit_util.h"

namespace quiver::parquet::reader {
namespace {

uint64_t AnswerWordScalar(const int32_t* idx, const int32_t* answers) {
  uint64_t w = 0;
  for (int k = 0; k < 64; ++k) w |= static_cast<uint64_t>(answers[idx[k]] & 1) << k;
  return w;
}

// Eight lanes a gather; the answers' sign bits are the row bits.
__attribute__((target("avx2"))) uint64_t AnswerWordAvx2(const int32_t* idx, const int32_t* answers) {
  uint64_t w = 0;
  for (int k = 0; k < 8; ++k) {
    const __m256i i = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx + 8 * k));
    const __m256i a = _mm256_i32gather_epi32(answers, i, 4);
    w |= static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(a)))) << (8 * k);
  }
  return w;
}

__attribute__((target("avx512f,avx512dq"))) uint64_t AnswerWordAvx512(const int32_t* idx, const int32_t* answers) {
  uint64_t w = 0;
  for (int k = 0; k < 4; ++k) {
    const __m512i i = _mm512_loadu_si512(idx + 16 * k);
    // (The masked form: GCC 12 warns that the unmasked one reads an uninitialized register.)
    const __m512i a = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), __mmask16{0xFFFF}, i, answers, 4);
    w |= static_cast<uint64_t>(_mm512_movepi32_mask(a)) << (16 * k);
  }
  return w;
}

// The answers of up to 64 entries as one bit each.
uint64_t AnswerBits(const int32_t* answers) {
  uint64_t m = 0;
  for (int e = 0; e < 64; ++e) m |= static_cast<uint64_t>(answers[e] & 1) << e;
  return m;
}

uint64_t AnswerWordSmallScalar(const int32_t* idx, const int32_t* answers) {
  const uint64_t m = AnswerBits(answers);
  uint64_t w = 0;
  for (int k = 0; k < 64; ++k) w |= ((m >> (idx[k] & 63)) & 1) << k;
  return w;
}

// Eight lanes a step: each lane shifts its entry's bit out of the low or the high half of the
// entries' bits.
__attribute__((target("avx2"))) uint64_t AnswerWordSmallAvx2(const int32_t* idx, const int32_t* answers) {
  const uint64_t m = AnswerBits(answers);
  const __m256i lo = _mm256_set1_epi32(static_cast<int32_t>(static_cast<uint32_t>(m)));
  const __m256i hi = _mm256_set1_epi32(static_cast<int32_t>(static_cast<uint32_t>(m >> 32)));
  const __m256i k31 = _mm256_set1_epi32(31);
  uint64_t w = 0;
  for (int k = 0; k < 8; ++k) {
    const __m256i i = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx + 8 * k));
    const __m256i upper = _mm256_cmpgt_epi32(i, k31);
    const __m256i half = _mm256_blendv_epi8(lo, hi, upper);
    // The entry's bit moved to the sign bit: left by 31 - (i & 31).
    const __m256i bit = _mm256_sllv_epi32(half, _mm256_sub_epi32(k31, _mm256_and_si256(i, k31)));
    w |= static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(bit)))) << (8 * k);
  }
  return w;
}

// Sixteen lanes a step: entries 0-31 and 32-63 each picked from two tables by one permute, the
// half chosen by bit 5 of the index.
__attribute__((target("avx512f,avx512dq"))) uint64_t AnswerWordSmallAvx512(const int32_t* idx,
                                                                           const int32_t* answers) {
  const __m512i t0 = _mm512_loadu_si512(answers), t1 = _mm512_loadu_si512(answers + 16);
  const __m512i t2 = _mm512_loadu_si512(answers + 32), t3 = _mm512_loadu_si512(answers + 48);
  const __m512i k32 = _mm512_set1_epi32(32);
  uint64_t w = 0;
  for (int k = 0; k < 4; ++k) {
    const __m512i i = _mm512_loadu_si512(idx + 16 * k);
    const __m512i lo = _mm512_permutex2var_epi32(t0, i, t1);
    const __m512i hi = _mm512_permutex2var_epi32(t2, i, t3);
    const __m512i a = _mm512_mask_blend_epi32(_mm512_test_epi32_mask(i, k32), lo, hi);
    w |= static_cast<uint64_t>(_mm512_movepi32_mask(a)) << (16 * k);
  }
  return w;
}

constexpr SelectKernels kScalar{SimdLevel::kScalar, &AnswerWordScalar, &AnswerWordSmallScalar};
constexpr SelectKernels kAvx2{SimdLevel::kAvx2, &AnswerWordAvx2, &AnswerWordSmallAvx2};
constexpr SelectKernels kAvx512{SimdLevel::kAvx512, &AnswerWordAvx512, &AnswerWordSmallAvx512};

}  // namespace

const SelectKernels& SelectKernelsFor(SimdLevel level) { return ForSimdLevel(level, kScalar, kAvx2, kAvx512); }

const SelectKernels& ActiveSelectKernels() {
  static const SelectKernels& k = SelectKernelsFor(ActiveSimdLevel());
  return k;
}

void AndBitsAt(uint64_t* bits, int64_t offset, const uint8_t* src, int64_t n) {
  for (int64_t i = 0; i < n; i += 64) {
    const int64_t m = std::min<int64_t>(64, n - i);
    uint64_t w = bit_util::LoadPartialWord(src + i / 8, bit_util::BytesForBits(m));
    if (m < 64) w |= ~uint64_t{0} << m;  // rows past the source stay as they are
    AndWordAt(bits, offset + i, w);
  }
}

void AndDictionaryAnswers(const SelectKernels& k, uint64_t* bits, int64_t offset, const int32_t* idx, int64_t n,
                          const int32_t* answers, int64_t num_answers) {
  int64_t i = 0;
  if (num_answers <= 64) {
    int32_t padded[64] = {};
    std::copy(answers, answers + std::max<int64_t>(num_answers, 0), padded);
    for (; i + 64 <= n; i += 64) {
      if (WordAt(bits, offset + i) == 0) continue;
      AndWordAt(bits, offset + i, k.answer_word_small(idx + i, padded));
    }
  } else {
    for (; i + 64 <= n; i += 64) {
      if (WordAt(bits, offset + i) == 0) continue;
      AndWordAt(bits, offset + i, k.answer_word(idx + i, answers));
    }
  }
  if (i < n) {
    const int64_t m = n - i;
    uint64_t w = ~uint64_t{0} << m;
    for (int64_t r = 0; r < m; ++r) w |= static_cast<uint64_t>(answers[idx[i + r]] & 1) << r;
    AndWordAt(bits, offset + i, w);
  }
}

}  // namespace quiver::parquet::reader

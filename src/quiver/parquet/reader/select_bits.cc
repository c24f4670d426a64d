#include "quiver/parquet/reader/select_bits_internal.h"

#include <immintrin.h>

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

constexpr SelectKernels kScalar{SimdLevel::kScalar, &AnswerWordScalar};
constexpr SelectKernels kAvx2{SimdLevel::kAvx2, &AnswerWordAvx2};
constexpr SelectKernels kAvx512{SimdLevel::kAvx512, &AnswerWordAvx512};

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
                          const int32_t* answers) {
  int64_t i = 0;
  for (; i + 64 <= n; i += 64) {
    if (WordAt(bits, offset + i) == 0) continue;
    AndWordAt(bits, offset + i, k.answer_word(idx + i, answers));
  }
  if (i < n) {
    const int64_t m = n - i;
    uint64_t w = ~uint64_t{0} << m;
    for (int64_t r = 0; r < m; ++r) w |= static_cast<uint64_t>(answers[idx[i + r]] & 1) << r;
    AndWordAt(bits, offset + i, w);
  }
}

}  // namespace quiver::parquet::reader

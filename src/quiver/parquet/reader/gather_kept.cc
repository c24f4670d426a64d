#include "quiver/parquet/reader/gather_kept_internal.h"

#include "quiver/core/intrinsics_internal.h"

#include <bit>
#include <cstring>

namespace quiver::parquet::reader {
namespace {

// Every row copied, the output advancing by its bit: no branch per row.
template <int W, typename Src>
int64_t CopyAdvance(uint64_t keep, Src src, uint8_t* out) {
  int64_t j = 0;
  for (int k = 0; k < 64; ++k) {
    std::memcpy(out + j * W, src(k), W);
    j += static_cast<int64_t>((keep >> k) & 1);
  }
  return j;
}

int64_t Plain4Scalar(uint64_t keep, const uint8_t* values, uint8_t* out) {
  return CopyAdvance<4>(keep, [values](int k) { return values + k * 4; }, out);
}
int64_t Plain8Scalar(uint64_t keep, const uint8_t* values, uint8_t* out) {
  return CopyAdvance<8>(keep, [values](int k) { return values + k * 8; }, out);
}
int64_t Dict4Scalar(uint64_t keep, const int32_t* idx, const uint8_t* entries, uint8_t* out) {
  return CopyAdvance<4>(keep, [idx, entries](int k) { return entries + static_cast<int64_t>(idx[k]) * 4; }, out);
}
int64_t Dict8Scalar(uint64_t keep, const int32_t* idx, const uint8_t* entries, uint8_t* out) {
  return CopyAdvance<8>(keep, [idx, entries](int k) { return entries + static_cast<int64_t>(idx[k]) * 8; }, out);
}

// Compressed in a register and stored whole (a compressing store to memory is many times
// slower on Intel cores): the lanes past the kept ones land where the next rows' go, and the
// step's 64 rows bound them, since at most the rows before a store were kept.
#define QUIVER_AVX512 __attribute__((target("avx512f,avx512vl,avx512dq,avx2,popcnt")))

QUIVER_AVX512 int64_t Plain4Avx512(uint64_t keep, const uint8_t* values, uint8_t* out) {
  int64_t j = 0;
  for (int k = 0; k < 4; ++k) {
    const auto m = static_cast<__mmask16>(keep >> (16 * k));
    const __m512i v = _mm512_loadu_si512(values + 64 * k);
    _mm512_storeu_si512(out + j * 4, _mm512_maskz_compress_epi32(m, v));
    j += std::popcount(static_cast<unsigned>(m));
  }
  return j;
}

QUIVER_AVX512 int64_t Plain8Avx512(uint64_t keep, const uint8_t* values, uint8_t* out) {
  int64_t j = 0;
  for (int k = 0; k < 8; ++k) {
    const auto m = static_cast<__mmask8>(keep >> (8 * k));
    const __m512i v = _mm512_loadu_si512(values + 64 * k);
    _mm512_storeu_si512(out + j * 8, _mm512_maskz_compress_epi64(m, v));
    j += std::popcount(static_cast<unsigned>(m));
  }
  return j;
}

QUIVER_AVX512 int64_t Dict4Avx512(uint64_t keep, const int32_t* idx, const uint8_t* entries, uint8_t* out) {
  int64_t j = 0;
  for (int k = 0; k < 4; ++k) {
    const auto m = static_cast<__mmask16>(keep >> (16 * k));
    const __m512i i = _mm512_loadu_si512(idx + 16 * k);
    // (Masked gathers: GCC 12 warns that the unmasked ones read an uninitialized register.)
    const __m512i v = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), m, i, entries, 4);
    _mm512_storeu_si512(out + j * 4, _mm512_maskz_compress_epi32(m, v));
    j += std::popcount(static_cast<unsigned>(m));
  }
  return j;
}

QUIVER_AVX512 int64_t Dict8Avx512(uint64_t keep, const int32_t* idx, const uint8_t* entries, uint8_t* out) {
  int64_t j = 0;
  for (int k = 0; k < 8; ++k) {
    const auto m = static_cast<__mmask8>(keep >> (8 * k));
    const __m256i i = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx + 8 * k));
    const __m512i v = _mm512_mask_i32gather_epi64(_mm512_setzero_si512(), m, i, entries, 8);
    _mm512_storeu_si512(out + j * 8, _mm512_maskz_compress_epi64(m, v));
    j += std::popcount(static_cast<unsigned>(m));
  }
  return j;
}

// The 16 entries in two registers; an index (checked below the dictionary's size, at most 16)
// picks its entry from them by its low four bits.
QUIVER_AVX512 int64_t Dict8Of16Avx512(uint64_t keep, const int32_t* idx, const uint8_t* entries, uint8_t* out) {
  const __m512d lo = _mm512_loadu_pd(entries);
  const __m512d hi = _mm512_loadu_pd(entries + 64);
  int64_t j = 0;
  for (int k = 0; k < 8; ++k) {
    const auto m = static_cast<__mmask8>(keep >> (8 * k));
    const __m512i i = _mm512_maskz_cvtepi32_epi64(0xFF, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx + 8 * k)));
    const __m512d v = _mm512_permutex2var_pd(lo, i, hi);
    _mm512_storeu_pd(out + j * 8, _mm512_maskz_compress_pd(m, v));
    j += std::popcount(static_cast<unsigned>(m));
  }
  return j;
}

QUIVER_AVX512 int64_t Dict8Of64Avx512(uint64_t keep, const int32_t* idx, const uint8_t* entries, uint8_t* out) {
  __m512d t[8];
  for (int r = 0; r < 8; ++r) t[r] = _mm512_loadu_pd(entries + 64 * r);
  const __m512i bit4 = _mm512_set1_epi64(16), bit5 = _mm512_set1_epi64(32);
  int64_t j = 0;
  for (int k = 0; k < 8; ++k) {
    const auto m = static_cast<__mmask8>(keep >> (8 * k));
    const __m512i i = _mm512_maskz_cvtepi32_epi64(0xFF, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx + 8 * k)));
    const __mmask8 b4 = _mm512_test_epi64_mask(i, bit4), b5 = _mm512_test_epi64_mask(i, bit5);
    const __m512d v01 = _mm512_mask_blend_pd(b4, _mm512_permutex2var_pd(t[0], i, t[1]), _mm512_permutex2var_pd(t[2], i, t[3]));
    const __m512d v23 = _mm512_mask_blend_pd(b4, _mm512_permutex2var_pd(t[4], i, t[5]), _mm512_permutex2var_pd(t[6], i, t[7]));
    _mm512_storeu_pd(out + j * 8, _mm512_maskz_compress_pd(m, _mm512_mask_blend_pd(b5, v01, v23)));
    j += std::popcount(static_cast<unsigned>(m));
  }
  return j;
}

constexpr GatherKeptKernels kScalar{SimdLevel::kScalar, &Plain4Scalar, &Plain8Scalar, &Dict4Scalar, &Dict8Scalar,
                                    &Dict8Scalar, &Dict8Scalar};
// AVX2 has no compressing store: the scalar loop.
constexpr GatherKeptKernels kAvx2{SimdLevel::kAvx2, &Plain4Scalar, &Plain8Scalar, &Dict4Scalar, &Dict8Scalar,
                                  &Dict8Scalar, &Dict8Scalar};
constexpr GatherKeptKernels kAvx512{SimdLevel::kAvx512, &Plain4Avx512, &Plain8Avx512, &Dict4Avx512, &Dict8Avx512,
                                    &Dict8Of16Avx512, &Dict8Of64Avx512};

}  // namespace

const GatherKeptKernels& GatherKeptKernelsFor(SimdLevel level) { return ForSimdLevel(level, kScalar, kAvx2, kAvx512); }

const GatherKeptKernels& ActiveGatherKeptKernels() {
  static const GatherKeptKernels& k = GatherKeptKernelsFor(ActiveSimdLevel());
  return k;
}

}  // namespace quiver::parquet::reader

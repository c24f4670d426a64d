// Dictionary indices as a data page holds them: RLE runs where 8 or more repeat, bit-packed
// groups elsewhere, packed by PEXT at the AVX-512 level.
#include "quiver/parquet/encoding/dictionary_internal.h"

#include <bit>

#include "quiver/parquet/encoding/bit_pack_internal.h"

#if defined(__x86_64__)
#include "quiver/core/intrinsics_internal.h"
#define QUIVER_X86 1
#endif

namespace quiver::parquet::encoding {

int DictionaryIndexBitWidth(int64_t dict_size) {
  if (dict_size <= 1) return 0;
  return 64 - std::countl_zero(static_cast<uint64_t>(dict_size - 1));
}

namespace {

// Packs whole groups of 8 indices of `width` (1..16) bits from idx[0, n), 16 indices a step
// while 16 are left; returns how many it packed, *dst moved past their bytes (it may write 16
// bytes past them).
using PackGroupsFn = int64_t (*)(const int32_t* idx, int64_t n, int width, uint8_t** dst);

#if QUIVER_X86
// Indices narrowed to bytes (width <= 8) or 16-bit words (up to 16) by one truncating move, then
// each word of 8 bytes or 4 words gathered to its low width bits per index by PEXT: the scalar
// packing's bytes with two instructions per 8 indices instead of a shift and an OR each.
// (AVX-512 level only: every CPU with AVX-512 has a fast PEXT, not every AVX2 one.)
__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,bmi2"))) int64_t PackGroupsAvx512(const int32_t* idx,
                                                                                              int64_t n, int width,
                                                                                              uint8_t** dst) {
  uint8_t* d = *dst;
  int64_t i = 0;
  const auto all = static_cast<__mmask16>(0xFFFF);
  const uint64_t low = (uint64_t{1} << width) - 1;
  if (width <= 8) {
    const uint64_t mask = 0x0101010101010101ULL * low;
    for (; i + 16 <= n; i += 16) {
      const __m128i b = _mm512_maskz_cvtepi32_epi8(all, _mm512_loadu_si512(idx + i));
      const uint64_t w0 = _pext_u64(static_cast<uint64_t>(_mm_cvtsi128_si64(b)), mask);
      const uint64_t w1 = _pext_u64(static_cast<uint64_t>(_mm_extract_epi64(b, 1)), mask);
      std::memcpy(d, &w0, 8);
      std::memcpy(d + width, &w1, 8);
      d += 2 * width;
    }
  } else {
    const uint64_t mask = 0x0001000100010001ULL * low;
    const int half = 4 * width;  // bits of 4 indices: 36..64
    for (; i + 16 <= n; i += 16) {
      const __m256i h = _mm512_maskz_cvtepi32_epi16(all, _mm512_loadu_si512(idx + i));
      alignas(32) uint64_t q[4];
      _mm256_store_si256(reinterpret_cast<__m256i*>(q), h);
      for (int g = 0; g < 2; ++g) {
        const uint64_t lo = _pext_u64(q[2 * g], mask);
        const uint64_t hi = _pext_u64(q[2 * g + 1], mask);
        const unsigned __int128 both = static_cast<unsigned __int128>(lo) | (static_cast<unsigned __int128>(hi) << half);
        std::memcpy(d, &both, 16);
        d += width;
      }
    }
  }
  *dst = d;
  return i;
}
#endif

// Bit-packs idx[0, n) (n a multiple of 8; `avail` of them real, the rest written as zeros) LSB
// first at `width` bits each; returns the end. `dst` has 16 bytes of slack. `groups`, when set,
// packs the leading whole groups at widths 1..16.
uint8_t* PackIndices(const int32_t* idx, int64_t n, int64_t avail, int width, uint8_t* dst,
                     PackGroupsFn groups = nullptr) {
  int64_t i = 0;
  if (groups != nullptr && width >= 1 && width <= 16) i = groups(idx, avail & ~int64_t{7}, width, &dst);
  // Whole groups of 8 at widths up to 8 fill one word each (most dictionaries: up to 256
  // entries), up to 16 two words: no carry from one group into the next.
  if (width <= 16) {
    const int64_t whole = avail & ~int64_t{7};
    const uint32_t w = static_cast<uint32_t>(width);
    for (; i < whole; i += 8) {
      const int32_t* g = idx + i;
      if (width <= 8) {
        uint64_t word = 0;
        for (uint32_t k = 0; k < 8; ++k) word |= static_cast<uint64_t>(static_cast<uint32_t>(g[k])) << (k * w);
        std::memcpy(dst, &word, 8);
      } else {
        uint64_t lo = 0, hi = 0;
        for (uint32_t k = 0; k < 4; ++k) lo |= static_cast<uint64_t>(static_cast<uint32_t>(g[k])) << (k * w);
        for (uint32_t k = 0; k < 4; ++k) hi |= static_cast<uint64_t>(static_cast<uint32_t>(g[4 + k])) << (k * w);
        // The two halves of 4 values are 4 * width bits each.
        const uint32_t half = 4 * w;
        const unsigned __int128 both = static_cast<unsigned __int128>(lo) | (static_cast<unsigned __int128>(hi) << half);
        std::memcpy(dst, &both, 16);
      }
      dst += width;
    }
  }
  return PackBitsLsb(idx, i, n, avail, width, dst);
}

// Bit k (k < 63) set where p[k] == p[k + 1]; p[0, 64) is read, nothing past it.
uint64_t EqualNext64Scalar(const int32_t* p) {
  uint64_t eq = 0;
  for (int k = 0; k < 63; ++k) eq |= static_cast<uint64_t>(p[k] == p[k + 1]) << k;
  return eq;
}

#if QUIVER_X86
// Seven blocks of 8 lanes against the lanes one further, then 55..62 against 56..63 (bit 55
// found twice), so that p[64] is never read.
__attribute__((target("avx2"))) uint64_t EqualNext64Avx2(const int32_t* p) {
  uint64_t eq = 0;
  for (int c = 0; c < 7; ++c) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 8 * c));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 8 * c + 1));
    eq |= static_cast<uint64_t>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(a, b)))) << (8 * c);
  }
  const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 55));
  const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 56));
  return eq | static_cast<uint64_t>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(a, b)))) << 55;
}
__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"))) uint64_t EqualNext64Avx512(const int32_t* p) {
  uint64_t eq = 0;
  for (int c = 0; c < 3; ++c) {
    const __m512i a = _mm512_loadu_si512(p + 16 * c);
    const __m512i b = _mm512_loadu_si512(p + 16 * c + 1);
    eq |= static_cast<uint64_t>(_mm512_cmpeq_epi32_mask(a, b)) << (16 * c);
  }
  const __m512i a = _mm512_loadu_si512(p + 47);
  const __m512i b = _mm512_loadu_si512(p + 48);
  return eq | static_cast<uint64_t>(_mm512_cmpeq_epi32_mask(a, b)) << 47;
}
#endif

using EqualNext64Fn = uint64_t (*)(const int32_t*);
EqualNext64Fn EqualNext64For(SimdLevel level) {
  if (static_cast<int>(level) > static_cast<int>(DetectedSimdLevel())) level = DetectedSimdLevel();
#if QUIVER_X86
  if (level == SimdLevel::kAvx512) return &EqualNext64Avx512;
  if (level == SimdLevel::kAvx2) return &EqualNext64Avx2;
#endif
  return &EqualNext64Scalar;
}

PackGroupsFn PackGroupsFor(SimdLevel level) {
  if (static_cast<int>(level) > static_cast<int>(DetectedSimdLevel())) level = DetectedSimdLevel();
#if QUIVER_X86
  if (level == SimdLevel::kAvx512) return &PackGroupsAvx512;
#endif
  return nullptr;
}

}  // namespace

// One pass over whole runs: a stretch of 8 or more equal indices (after the values needed to
// round the pending literals up to groups of 8) becomes an RLE run, everything else one
// bit-packed run per stretch, its group count known before it is written.
Status EncodeDictionaryIndices(const int32_t* indices, int64_t n, int bit_width, BufferBuilder* out,
                               MemoryPool* pool, SimdLevel level) {
  const EqualNext64Fn equal_next = EqualNext64For(level);
  const PackGroupsFn pack_groups = PackGroupsFor(level);
  const int64_t bound = 1 + (n / 8 + 1) * bit_width + (n / 8 + 2) * 24 + 16;  // 16: PackIndices' slack
  QUIVER_RETURN_NOT_OK(out->Reserve(bound));
  uint8_t* const begin = out->mutable_data() + out->size();
  uint8_t* dst = begin;
  *dst++ = static_cast<uint8_t>(bit_width);
  const int value_bytes = (bit_width + 7) / 8;
  auto literals = [&](int64_t from, int64_t to) {  // [from, to): to - from a multiple of 8 unless at the end
    if (to <= from) return;
    const int64_t groups = (to - from + 7) / 8;
    int k = 0;
    AppendUleb128(static_cast<uint64_t>(groups) << 1 | 1, dst, &k);
    dst += k;
    dst = PackIndices(indices + from, groups * 8, to - from, bit_width, dst, pack_groups);
  };
  int64_t lit = 0;  // first index not yet written
  int64_t i = 0;
  while (i < n) {
    // Only a run of 8 or more equal indices is written differently: windows of 64 without
    // one are skipped after one branch-free pass (bit k: index k equals index k + 1; a run of
    // 8 starts where 7 of those bits in a row are set). A run found this way starts where
    // its equal indices start, since one starting earlier would have been found first. The
    // compares are one SIMD kernel per level.
    if (n - i >= 64) {
      const uint64_t eq = equal_next(indices + i);
      uint64_t starts = eq;
      for (int k = 1; k < 7; ++k) starts &= eq >> k;
      starts &= (uint64_t{1} << 57) - 1;  // starts whose 7 bits all lie in this window
      if (starts == 0) {
        i += 57;
        continue;
      }
      i += std::countr_zero(starts);
    }
    const int32_t v = indices[i];
    int64_t j = i + 1;
    while (j < n && indices[j] == v) ++j;
    if (j - i >= 8) {
      const int64_t pad = (8 - (i - lit) % 8) % 8;  // values the pending literals borrow
      if (j - i - pad >= 8) {
        literals(lit, i + pad);
        int k = 0;
        AppendUleb128(static_cast<uint64_t>(j - i - pad) << 1, dst, &k);
        dst += k;
        const uint32_t u = static_cast<uint32_t>(v);
        std::memcpy(dst, &u, static_cast<size_t>(value_bytes));
        dst += value_bytes;
        lit = j;
      }
    }
    i = j;
  }
  literals(lit, n);
  out->UnsafeSetSize(out->size() + (dst - begin));
  return Status::OK();
}

}  // namespace quiver::parquet::encoding

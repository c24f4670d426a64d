#include "quiver/parquet/encoding/bit_unpack_internal.h"

#include <array>
#include <cstring>
#include <utility>

#include "quiver/core/bit_util.h"

#if defined(__x86_64__)
#include "quiver/core/intrinsics_internal.h"
#define QUIVER_X86 1
#endif

namespace quiver::parquet::encoding {

namespace {

using bit_util::BytesForBits;

inline uint64_t Load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// 32 values of W bits; `in` must have 4 * W + 16 readable bytes (one wide load per value).
template <int W, typename Out>
inline void Unpack32Values(const uint8_t* in, Out* out) {
  if constexpr (W == 0) {
    for (int i = 0; i < 32; ++i) out[i] = 0;
  } else {
    constexpr uint64_t mask = W == 64 ? ~uint64_t{0} : (uint64_t{1} << W) - 1;
#pragma GCC unroll 32
    for (int i = 0; i < 32; ++i) {
      const int bit = i * W;
      const uint8_t* p = in + (bit >> 3);
      const int s = bit & 7;
      uint64_t v = Load64(p) >> s;
      if (W + s > 64) v |= uint64_t{p[8]} << (64 - s);
      out[i] = static_cast<Out>(v & mask);
    }
  }
}

// The last values of a stream: copy into a zeroed buffer so the wide loads stay in bounds.
template <int W, typename Out>
void UnpackTail(const uint8_t* in, int64_t n, Out* out) {
  alignas(64) uint8_t buf[4 * 64 + 16];
  Out tmp[32];
  while (n > 0) {
    const int64_t take = n < 32 ? n : 32;
    const int64_t bytes = BytesForBits(take * W);
    std::memset(buf, 0, sizeof(buf));
    if (bytes > 0) std::memcpy(buf, in, static_cast<size_t>(bytes));
    Unpack32Values<W>(buf, tmp);
    std::memcpy(out, tmp, static_cast<size_t>(take) * sizeof(Out));
    in += bytes;
    out += take;
    n -= take;
  }
}

template <int W, typename Out>
void UnpackScalarW(const uint8_t* in, int64_t in_size, int64_t count, Out* out) {
  int64_t i = 0;
  int64_t pos = 0;
  while (count - i >= 32 && in_size - pos >= 4 * W + 16) {
    Unpack32Values<W>(in + pos, out + i);
    i += 32;
    pos += 4 * W;
  }
  if (i < count) UnpackTail<W>(in + pos, count - i, out + i);
}

template <typename Out, size_t... W>
constexpr auto MakeScalarTable(std::index_sequence<W...>) {
  using Fn = void (*)(const uint8_t*, int64_t, int64_t, Out*);
  return std::array<Fn, sizeof...(W)>{&UnpackScalarW<static_cast<int>(W), Out>...};
}

constexpr auto kScalar32 = MakeScalarTable<uint32_t>(std::make_index_sequence<33>());
constexpr auto kScalar64 = MakeScalarTable<uint64_t>(std::make_index_sequence<65>());

void Unpack32Scalar(const uint8_t* in, int64_t in_size, int w, int64_t count, uint32_t* out) {
  kScalar32[w](in, in_size, count, out);
}
void Unpack64Scalar(const uint8_t* in, int64_t in_size, int w, int64_t count, uint64_t* out) {
  kScalar64[w](in, in_size, count, out);
}

#if QUIVER_X86
// Per width, where each of 16 lanes finds its value inside a 16-byte window: 128-bit lane k holds
// values 4k..4k+3 loaded from byte (4kW)/8, so a value's bits never leave its lane's window.
// A value is (bytes[b..b+3] >> s) | (bytes[b+1..b+4] << (8 - s)): two in-lane byte shuffles and
// two variable shifts reach 39 bits without 64-bit lanes.
struct alignas(64) ShuffleTable {
  uint8_t lo[64];
  uint8_t hi[64];
  uint32_t shr[16];
  uint32_t shl[16];
};

const std::array<ShuffleTable, 33>& ShuffleTables() {
  static const std::array<ShuffleTable, 33> tables = [] {
    std::array<ShuffleTable, 33> t{};
    for (int w = 1; w <= 32; ++w) {
      for (int k = 0; k < 4; ++k) {
        const int r = (4 * k * w) & 7;
        for (int j = 0; j < 4; ++j) {
          const int lane = k * 4 + j;
          const int b = r + j * w;
          const int byte = b >> 3;
          const int s = b & 7;
          for (int q = 0; q < 4; ++q) {
            t[w].lo[lane * 4 + q] = static_cast<uint8_t>(byte + q <= 15 ? byte + q : 0x80);
            t[w].hi[lane * 4 + q] = static_cast<uint8_t>(byte + 1 + q <= 15 ? byte + 1 + q : 0x80);
          }
          t[w].shr[lane] = static_cast<uint32_t>(s);
          t[w].shl[lane] = static_cast<uint32_t>(8 - s);
        }
      }
    }
    return t;
  }();
  return tables;
}

template <typename Out>
__attribute__((target("avx2,bmi2"))) inline void StoreAvx2(Out* out, __m256i v) {
  if constexpr (sizeof(Out) == 4) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), v);
  } else {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), _mm256_cvtepu32_epi64(_mm256_castsi256_si128(v)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 4), _mm256_cvtepu32_epi64(_mm256_extracti128_si256(v, 1)));
  }
}

// Widths 1..32; returns how many values it did (a multiple of 8), the rest is the caller's.
template <typename Out>
__attribute__((target("avx2,bmi2"))) int64_t UnpackAvx2Body(const uint8_t* in, int64_t in_size, int w,
                                                            int64_t count, Out* out) {
  const ShuffleTable& t = ShuffleTables()[w];
  const __m256i lo = _mm256_load_si256(reinterpret_cast<const __m256i*>(t.lo));
  const __m256i hi = _mm256_load_si256(reinterpret_cast<const __m256i*>(t.hi));
  const __m256i shr = _mm256_load_si256(reinterpret_cast<const __m256i*>(t.shr));
  const __m256i shl = _mm256_load_si256(reinterpret_cast<const __m256i*>(t.shl));
  const __m256i mask = _mm256_set1_epi32(w == 32 ? -1 : static_cast<int>((1u << w) - 1));
  const int64_t half = (4 * w) >> 3;
  int64_t i = 0;
  int64_t pos = 0;
  while (count - i >= 8 && in_size - pos >= half + 16) {
    __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + pos));
    __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + pos + half));
    __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(a), b, 1);
    __m256i x = _mm256_or_si256(_mm256_srlv_epi32(_mm256_shuffle_epi8(v, lo), shr),
                                _mm256_sllv_epi32(_mm256_shuffle_epi8(v, hi), shl));
    StoreAvx2(out + i, _mm256_and_si256(x, mask));
    i += 8;
    pos += w;
  }
  return i;
}

__attribute__((target("avx2,bmi2"))) void Unpack32Avx2(const uint8_t* in, int64_t in_size, int w, int64_t count,
                                                       uint32_t* out) {
  if (w == 0 || w == 32) return Unpack32Scalar(in, in_size, w, count, out);  // fill / memcpy-like
  int64_t done = UnpackAvx2Body(in, in_size, w, count, out);
  if (done < count) {
    const int64_t pos = done / 8 * w;
    Unpack32Scalar(in + pos, in_size - pos, w, count - done, out + done);
  }
}

__attribute__((target("avx2,bmi2"))) void Unpack64Avx2(const uint8_t* in, int64_t in_size, int w, int64_t count,
                                                       uint64_t* out) {
  if (w == 0 || w > 32) return Unpack64Scalar(in, in_size, w, count, out);
  int64_t done = UnpackAvx2Body(in, in_size, w, count, out);
  if (done < count) {
    const int64_t pos = done / 8 * w;
    Unpack64Scalar(in + pos, in_size - pos, w, count - done, out + done);
  }
}

#define QUIVER_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx2,bmi2")))

template <typename Out>
QUIVER_AVX512 inline void StoreAvx512(Out* out, __m512i v) {
  if constexpr (sizeof(Out) == 4) {
    _mm512_storeu_si512(out, v);
  } else {
    _mm512_storeu_si512(out, _mm512_cvtepu32_epi64(_mm512_castsi512_si256(v)));
    _mm512_storeu_si512(out + 8, _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(v, 1)));
  }
}

template <typename Out>
QUIVER_AVX512 int64_t UnpackAvx512Body(const uint8_t* in, int64_t in_size, int w, int64_t count, Out* out) {
  const ShuffleTable& t = ShuffleTables()[w];
  const __m512i lo = _mm512_load_si512(t.lo);
  const __m512i hi = _mm512_load_si512(t.hi);
  const __m512i shr = _mm512_load_si512(t.shr);
  const __m512i shl = _mm512_load_si512(t.shl);
  const __m512i mask = _mm512_set1_epi32(w == 32 ? -1 : static_cast<int>((1u << w) - 1));
  const int64_t o1 = (4 * w) >> 3;
  const int64_t o2 = w;
  const int64_t o3 = (12 * w) >> 3;
  int64_t i = 0;
  int64_t pos = 0;
  while (count - i >= 16 && in_size - pos >= o3 + 16) {
    const uint8_t* p = in + pos;
    __m512i v = _mm512_castsi128_si512(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    v = _mm512_inserti32x4(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + o1)), 1);
    v = _mm512_inserti32x4(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + o2)), 2);
    v = _mm512_inserti32x4(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + o3)), 3);
    __m512i x = _mm512_or_si512(_mm512_srlv_epi32(_mm512_shuffle_epi8(v, lo), shr),
                                _mm512_sllv_epi32(_mm512_shuffle_epi8(v, hi), shl));
    StoreAvx512(out + i, _mm512_and_si512(x, mask));
    i += 16;
    pos += 2 * w;
  }
  return i;
}

// Short calls (a DELTA miniblock of 32, a short bit-packed run) stay on 256-bit code: the
// 512-bit loop only pays off over many iterations (measured: DELTA int32 decode 30% slower).
constexpr int64_t kAvx512MinCount = 128;

QUIVER_AVX512 void Unpack32Avx512(const uint8_t* in, int64_t in_size, int w, int64_t count, uint32_t* out) {
  if (w == 0 || w == 32) return Unpack32Scalar(in, in_size, w, count, out);
  if (count < kAvx512MinCount) return Unpack32Avx2(in, in_size, w, count, out);
  int64_t done = UnpackAvx512Body(in, in_size, w, count, out);
  if (done < count) {
    const int64_t pos = done / 8 * w;
    Unpack32Avx2(in + pos, in_size - pos, w, count - done, out + done);
  }
}

QUIVER_AVX512 void Unpack64Avx512(const uint8_t* in, int64_t in_size, int w, int64_t count, uint64_t* out) {
  if (w == 0 || w > 32) return Unpack64Scalar(in, in_size, w, count, out);
  if (count < kAvx512MinCount) return Unpack64Avx2(in, in_size, w, count, out);
  int64_t done = UnpackAvx512Body(in, in_size, w, count, out);
  if (done < count) {
    const int64_t pos = done / 8 * w;
    Unpack64Avx2(in + pos, in_size - pos, w, count - done, out + done);
  }
}
#endif  // QUIVER_X86

constexpr BitUnpackKernels kScalarKernels{SimdLevel::kScalar, &Unpack32Scalar, &Unpack64Scalar};
#if QUIVER_X86
constexpr BitUnpackKernels kAvx2Kernels{SimdLevel::kAvx2, &Unpack32Avx2, &Unpack64Avx2};
constexpr BitUnpackKernels kAvx512Kernels{SimdLevel::kAvx512, &Unpack32Avx512, &Unpack64Avx512};
#endif

}  // namespace

const BitUnpackKernels& BitUnpackKernelsFor(SimdLevel level) {
  if (static_cast<int>(level) > static_cast<int>(DetectedSimdLevel())) level = DetectedSimdLevel();
#if QUIVER_X86
  switch (level) {
    case SimdLevel::kAvx512: return kAvx512Kernels;
    case SimdLevel::kAvx2: return kAvx2Kernels;
    case SimdLevel::kScalar: break;
  }
#endif
  return kScalarKernels;
}

const BitUnpackKernels& ActiveBitUnpackKernels() {
  static const BitUnpackKernels& k = BitUnpackKernelsFor(ActiveSimdLevel());
  return k;
}

}  // namespace quiver::parquet::encoding

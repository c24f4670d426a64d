#include "quiver/parquet/encoding/byte_stream_split_internal.h"

#include <string>

#if defined(__x86_64__)
#include "quiver/core/intrinsics_internal.h"
#define QUIVER_X86 1
#endif

namespace quiver::parquet::encoding {

namespace {

template <int W>
void DecodeScalar(const uint8_t* in, int64_t stride, int64_t n, uint8_t* out) {
  for (int64_t i = 0; i < n; ++i) {
    for (int k = 0; k < W; ++k) out[i * W + k] = in[k * stride + i];
  }
}
template <int W>
void EncodeScalar(const uint8_t* in, int64_t n, int64_t stride, uint8_t* out) {
  for (int64_t i = 0; i < n; ++i) {
    for (int k = 0; k < W; ++k) out[k * stride + i] = in[i * W + k];
  }
}

void DecodeAny(const uint8_t* in, int64_t stride, int64_t n, int width, uint8_t* out) {
  for (int k = 0; k < width; ++k) {
    const uint8_t* s = in + k * stride;
    for (int64_t i = 0; i < n; ++i) out[i * width + k] = s[i];
  }
}

#if QUIVER_X86
// 16 values per step: byte-interleave the streams pairwise, then 16-bit (and 32-bit) pairs.
__attribute__((target("avx2"))) void Decode4Avx2(const uint8_t* in, int64_t stride, int64_t n, uint8_t* out) {
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
    __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + stride + i));
    __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 2 * stride + i));
    __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 3 * stride + i));
    __m256i ab_lo = _mm256_unpacklo_epi8(a, b), ab_hi = _mm256_unpackhi_epi8(a, b);
    __m256i cd_lo = _mm256_unpacklo_epi8(c, d), cd_hi = _mm256_unpackhi_epi8(c, d);
    __m256i v0 = _mm256_unpacklo_epi16(ab_lo, cd_lo);  // values 0-3 | 16-19
    __m256i v1 = _mm256_unpackhi_epi16(ab_lo, cd_lo);  // 4-7 | 20-23
    __m256i v2 = _mm256_unpacklo_epi16(ab_hi, cd_hi);  // 8-11 | 24-27
    __m256i v3 = _mm256_unpackhi_epi16(ab_hi, cd_hi);  // 12-15 | 28-31
    __m256i* o = reinterpret_cast<__m256i*>(out + i * 4);
    _mm256_storeu_si256(o + 0, _mm256_permute2x128_si256(v0, v1, 0x20));
    _mm256_storeu_si256(o + 1, _mm256_permute2x128_si256(v2, v3, 0x20));
    _mm256_storeu_si256(o + 2, _mm256_permute2x128_si256(v0, v1, 0x31));
    _mm256_storeu_si256(o + 3, _mm256_permute2x128_si256(v2, v3, 0x31));
  }
  DecodeScalar<4>(in + i, stride, n - i, out + i * 4);
}

__attribute__((target("avx2"))) void Decode8Avx2(const uint8_t* in, int64_t stride, int64_t n, uint8_t* out) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m128i s[8];
    for (int k = 0; k < 8; ++k) s[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + k * stride + i));
    // Stage 1: byte pairs (streams 0-1, 2-3, 4-5, 6-7) for values 0-7 (lo) and 8-15 (hi).
    __m128i p01l = _mm_unpacklo_epi8(s[0], s[1]), p01h = _mm_unpackhi_epi8(s[0], s[1]);
    __m128i p23l = _mm_unpacklo_epi8(s[2], s[3]), p23h = _mm_unpackhi_epi8(s[2], s[3]);
    __m128i p45l = _mm_unpacklo_epi8(s[4], s[5]), p45h = _mm_unpackhi_epi8(s[4], s[5]);
    __m128i p67l = _mm_unpacklo_epi8(s[6], s[7]), p67h = _mm_unpackhi_epi8(s[6], s[7]);
    // Stage 2: 4-byte groups, values 0-3, 4-7, 8-11, 12-15.
    __m128i q03a = _mm_unpacklo_epi16(p01l, p23l), q47a = _mm_unpackhi_epi16(p01l, p23l);
    __m128i q811a = _mm_unpacklo_epi16(p01h, p23h), q1215a = _mm_unpackhi_epi16(p01h, p23h);
    __m128i q03b = _mm_unpacklo_epi16(p45l, p67l), q47b = _mm_unpackhi_epi16(p45l, p67l);
    __m128i q811b = _mm_unpacklo_epi16(p45h, p67h), q1215b = _mm_unpackhi_epi16(p45h, p67h);
    // Stage 3: whole 8-byte values, two per register.
    __m128i* o = reinterpret_cast<__m128i*>(out + i * 8);
    _mm_storeu_si128(o + 0, _mm_unpacklo_epi32(q03a, q03b));
    _mm_storeu_si128(o + 1, _mm_unpackhi_epi32(q03a, q03b));
    _mm_storeu_si128(o + 2, _mm_unpacklo_epi32(q47a, q47b));
    _mm_storeu_si128(o + 3, _mm_unpackhi_epi32(q47a, q47b));
    _mm_storeu_si128(o + 4, _mm_unpacklo_epi32(q811a, q811b));
    _mm_storeu_si128(o + 5, _mm_unpackhi_epi32(q811a, q811b));
    _mm_storeu_si128(o + 6, _mm_unpacklo_epi32(q1215a, q1215b));
    _mm_storeu_si128(o + 7, _mm_unpackhi_epi32(q1215a, q1215b));
  }
  DecodeScalar<8>(in + i, stride, n - i, out + i * 8);
}

// Encoding: the inverse transpose with a byte shuffle gathering byte k of 4 values per lane.
__attribute__((target("avx2"))) void Encode4Avx2(const uint8_t* in, int64_t n, int64_t stride, uint8_t* out) {
  int64_t i = 0;
  const __m128i gather = _mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  for (; i + 16 <= n; i += 16) {
    __m128i r[4];
    for (int j = 0; j < 4; ++j) {
      r[j] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + (i + 4 * j) * 4)), gather);
    }
    // r[j] holds, for values 4j..4j+3: stream0 x4, stream1 x4, stream2 x4, stream3 x4.
    __m128i t01l = _mm_unpacklo_epi32(r[0], r[1]), t01h = _mm_unpackhi_epi32(r[0], r[1]);
    __m128i t23l = _mm_unpacklo_epi32(r[2], r[3]), t23h = _mm_unpackhi_epi32(r[2], r[3]);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), _mm_unpacklo_epi64(t01l, t23l));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + stride + i), _mm_unpackhi_epi64(t01l, t23l));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * stride + i), _mm_unpacklo_epi64(t01h, t23h));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 3 * stride + i), _mm_unpackhi_epi64(t01h, t23h));
  }
  EncodeScalar<4>(in + i * 4, n - i, stride, out + i);
}
#endif

constexpr ByteStreamSplitKernels kScalar{SimdLevel::kScalar, &DecodeScalar<4>, &DecodeScalar<8>, &EncodeScalar<4>,
                                         &EncodeScalar<8>};
#if QUIVER_X86
constexpr ByteStreamSplitKernels kAvx2{SimdLevel::kAvx2, &Decode4Avx2, &Decode8Avx2, &Encode4Avx2, &EncodeScalar<8>};
#endif

}  // namespace

const ByteStreamSplitKernels& ByteStreamSplitKernelsFor(SimdLevel level) {
  if (static_cast<int>(level) > static_cast<int>(DetectedSimdLevel())) level = DetectedSimdLevel();
#if QUIVER_X86
  // AVX-512 has no wider win here (the transposes are load/store bound): it shares AVX2's.
  if (level != SimdLevel::kScalar) return kAvx2;
#endif
  return kScalar;
}

Status ByteStreamSplitDecoder::Reset(const uint8_t* data, int64_t size, int width) {
  if (width <= 0) return Status::Corrupt("BYTE_STREAM_SPLIT value width " + std::to_string(width) + " must be positive");
  if (size % width != 0) {
    return Status::Corrupt("BYTE_STREAM_SPLIT data of " + std::to_string(size) + " bytes is not a multiple of the " +
                           std::to_string(width) + "-byte value width");
  }
  data_ = data;
  width_ = width;
  count_ = size / width;
  index_ = 0;
  return Status::OK();
}

Status ByteStreamSplitDecoder::Decode(void* out, int64_t n) {
  if (n < 0 || n > values_left()) [[unlikely]] {
    return Status::Corrupt("BYTE_STREAM_SPLIT data holds " + std::to_string(values_left()) + " more values, " +
                           std::to_string(n) + " requested");
  }
  uint8_t* dst = static_cast<uint8_t*>(out);
  const uint8_t* src = data_ + index_;
  switch (width_) {
    case 4: kernels_->decode4(src, count_, n, dst); break;
    case 8: kernels_->decode8(src, count_, n, dst); break;
    case 2: DecodeScalar<2>(src, count_, n, dst); break;
    default: DecodeAny(src, count_, n, width_, dst); break;
  }
  index_ += n;
  return Status::OK();
}

Status ByteStreamSplitDecoder::Skip(int64_t n) {
  if (n < 0 || n > values_left()) return Status::Corrupt("BYTE_STREAM_SPLIT skip past the end of the data");
  index_ += n;
  return Status::OK();
}

Status ByteStreamSplitEncode(const void* values, int64_t n, int width, BufferBuilder* out, SimdLevel level) {
  const int64_t start = out->size();
  QUIVER_RETURN_NOT_OK(out->Reserve(n * width));
  uint8_t* dst = out->mutable_data() + start;
  const uint8_t* src = static_cast<const uint8_t*>(values);
  const ByteStreamSplitKernels& k = ByteStreamSplitKernelsFor(level);
  if (width == 4) {
    k.encode4(src, n, n, dst);
  } else if (width == 8) {
    k.encode8(src, n, n, dst);
  } else {
    for (int b = 0; b < width; ++b) {
      for (int64_t i = 0; i < n; ++i) dst[b * n + i] = src[i * width + b];
    }
  }
  out->UnsafeSetSize(start + n * width);
  return Status::OK();
}

}  // namespace quiver::parquet::encoding

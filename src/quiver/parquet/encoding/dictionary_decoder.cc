// Dictionary decoding: range-checked indices and the gathers (scalar, AVX2, AVX-512) that turn
// them into values.
#include "quiver/parquet/encoding/dictionary_internal.h"

#include <algorithm>

#if defined(__x86_64__)
#include "quiver/core/intrinsics_internal.h"
#define QUIVER_X86 1
#endif

namespace quiver::parquet::encoding {

namespace {

void Gather32Scalar(const uint32_t* dict, const uint32_t* idx, int64_t n, uint32_t* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = dict[idx[i]];
}
void Gather64Scalar(const uint64_t* dict, const uint32_t* idx, int64_t n, uint64_t* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = dict[idx[i]];
}

void Gather8Scalar(const uint8_t* dict, int64_t, const int32_t* idx, int64_t n, uint8_t* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = dict[idx[i]];
}

#if QUIVER_X86
// Indices are < dict_size <= INT32_MAX (checked before any gather), so signed lanes are safe.
__attribute__((target("avx2"))) void Gather32Avx2(const uint32_t* dict, const uint32_t* idx, int64_t n,
                                                  uint32_t* out) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256i ix = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx + i));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                        _mm256_i32gather_epi32(reinterpret_cast<const int*>(dict), ix, 4));
  }
  for (; i < n; ++i) out[i] = dict[idx[i]];
}
__attribute__((target("avx2"))) void Gather64Avx2(const uint64_t* dict, const uint32_t* idx, int64_t n,
                                                  uint64_t* out) {
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    __m128i ix = _mm_loadu_si128(reinterpret_cast<const __m128i*>(idx + i));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                        _mm256_i32gather_epi64(reinterpret_cast<const long long*>(dict), ix, 8));
  }
  for (; i < n; ++i) out[i] = dict[idx[i]];
}
__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"))) void Gather32Avx512(const uint32_t* dict,
                                                                                  const uint32_t* idx, int64_t n,
                                                                                  uint32_t* out) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m512i ix = _mm512_loadu_si512(idx + i);
    _mm512_storeu_si512(out + i, _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), 0xFFFF, ix, dict, 4));
  }
  for (; i < n; ++i) out[i] = dict[idx[i]];
}
__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"))) void Gather64Avx512(const uint64_t* dict,
                                                                                  const uint32_t* idx, int64_t n,
                                                                                  uint64_t* out) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256i ix = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(idx + i));
    _mm512_storeu_si512(out + i, _mm512_mask_i32gather_epi64(_mm512_setzero_si512(), 0xFF, ix, dict, 8));
  }
  for (; i < n; ++i) out[i] = dict[idx[i]];
}
// The first 16 entries widened into the lanes of a register, 16 indices looked up by one
// permute and narrowed back to bytes; 16 rows with an index past 16 copied one by one. (Here
// and in the gathers above, the masked forms with all lanes set: GCC 12 warns that the unmasked
// ones read an uninitialized register.)
__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"))) void Gather8Avx512(const uint8_t* dict,
                                                                                 int64_t dict_readable,
                                                                                 const int32_t* idx, int64_t n,
                                                                                 uint8_t* out) {
  int64_t i = 0;
  if (dict_readable >= 16) {
    const auto all = static_cast<__mmask16>(0xFFFF);
    const __m512i table = _mm512_maskz_cvtepu8_epi32(all, _mm_loadu_si128(reinterpret_cast<const __m128i*>(dict)));
    const __m512i sixteen = _mm512_set1_epi32(16);
    for (; i + 16 <= n; i += 16) {
      const __m512i ix = _mm512_loadu_si512(idx + i);
      if (_mm512_cmpge_epu32_mask(ix, sixteen) != 0) [[unlikely]] {
        for (int k = 0; k < 16; ++k) out[i + k] = dict[idx[i + k]];
        continue;
      }
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i),
                       _mm512_maskz_cvtepi32_epi8(all, _mm512_maskz_permutexvar_epi32(all, ix, table)));
    }
  }
  for (; i < n; ++i) out[i] = dict[idx[i]];
}
#endif

constexpr GatherKernels kScalar{SimdLevel::kScalar, &Gather32Scalar, &Gather64Scalar, &Gather8Scalar};
#if QUIVER_X86
constexpr GatherKernels kAvx2{SimdLevel::kAvx2, &Gather32Avx2, &Gather64Avx2, &Gather8Scalar};
constexpr GatherKernels kAvx512{SimdLevel::kAvx512, &Gather32Avx512, &Gather64Avx512, &Gather8Avx512};
#endif

}  // namespace

const GatherKernels& GatherKernelsFor(SimdLevel level) {
  if (static_cast<int>(level) > static_cast<int>(DetectedSimdLevel())) level = DetectedSimdLevel();
#if QUIVER_X86
  if (level == SimdLevel::kAvx512) return kAvx512;
  if (level == SimdLevel::kAvx2) return kAvx2;
#endif
  return kScalar;
}

Status DictionaryDecoder::Reset(const uint8_t* data, int64_t size, int64_t dict_size) {
  if (size < 1) return Status::Corrupt("dictionary-encoded page has no bit-width byte");
  if (dict_size < 0 || dict_size > std::numeric_limits<int32_t>::max()) {
    return Status::Corrupt("dictionary size " + std::to_string(dict_size) + " is out of range");
  }
  dict_size_ = static_cast<uint32_t>(dict_size);
  const int width = data[0];
  if (width > 32) {
    return Status::Corrupt("dictionary index bit width " + std::to_string(width) + " is larger than 32");
  }
  return rle_.Reset(data + 1, size - 1, width);
}

Status DictionaryDecoder::Finish(int64_t got, int64_t n) const {
  if (bad_index_ >= 0) [[unlikely]] {
    return Status::Corrupt("dictionary index " + std::to_string(bad_index_) + " out of range: the dictionary has " +
                           std::to_string(dict_size_) + " entries");
  }
  if (got < n) [[unlikely]] return rle_.ErrorStatus(got, n).WithContext("dictionary indices");
  return Status::OK();
}

Status DictionaryDecoder::DecodeIndices(int32_t* out, int64_t n) {
  // Bit-packed runs unpack straight into `out` (not into the run decoder's buffer and then a
  // copy), and the indices are checked in one pass after: the predicate pass of a scan decodes
  // every index of its dictionary columns this way.
  bad_index_ = -1;
  const int64_t got = rle_.GetBatch(out, n);
  const auto* u = reinterpret_cast<const uint32_t*>(out);
  uint32_t max = 0;
  // Unrolled: as one 16-byte step per turn, the loop's speed depended on where the linker put
  // it (half speed with its compare and branch across a 32-byte boundary).
#pragma GCC unroll 4
  for (int64_t i = 0; i < got; ++i) max = u[i] > max ? u[i] : max;
  if (max >= dict_size_) [[unlikely]] {
    for (int64_t i = 0; i < got; ++i) {
      if (u[i] >= dict_size_) {
        bad_index_ = u[i];
        break;
      }
    }
  }
  return Finish(got, n);
}

Status DictionaryDecoder::DecodeFixed(const uint8_t* dict, int width, uint8_t* out, int64_t n) {
  const size_t w = static_cast<size_t>(width);
  return Walk(
      n,
      [&](uint32_t v, int64_t count) {
        const uint8_t* src = dict + v * w;
        for (int64_t i = 0; i < count; ++i, out += w) std::memcpy(out, src, w);
      },
      [&](const uint32_t* idx, int64_t count) {
        for (int64_t i = 0; i < count; ++i, out += w) std::memcpy(out, dict + idx[i] * w, w);
      });
}

int64_t DictionaryDecoder::ByteArrayLength(const int32_t* dict_offsets, const int32_t* idx, int64_t n) {
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) total += dict_offsets[idx[i] + 1] - dict_offsets[idx[i]];
  return total;
}

int64_t DictionaryDecoder::GatherByteArrays(const int32_t* dict_offsets, const uint8_t* dict_data,
                                            int64_t dict_readable, const int32_t* idx, int64_t n, int32_t* off,
                                            uint8_t* dst, int64_t pos) {
  for (int64_t i = 0; i < n; ++i) {
    const int32_t start = dict_offsets[idx[i]];
    const int32_t len = dict_offsets[idx[i] + 1] - start;
    // Short strings (most dictionary entries) take one or two fixed 16-byte copies when the
    // source has the bytes to read; the destination has the slack.
    if (len <= 16 && start + 16 <= dict_readable) {
      std::memcpy(dst + pos, dict_data + start, 16);
    } else if (len <= 32 && start + 32 <= dict_readable) {
      std::memcpy(dst + pos, dict_data + start, 16);
      std::memcpy(dst + pos + 16, dict_data + start + 16, 16);
    } else if (len > 0) {
      std::memcpy(dst + pos, dict_data + start, static_cast<size_t>(len));
    }
    pos += len;
    off[i] = static_cast<int32_t>(pos);
  }
  return pos;
}

template <int W>
static int64_t GatherShort(const int32_t* dict_offsets, const uint8_t* dict_data, const int32_t* idx, int64_t n,
                           int32_t* off, uint8_t* dst, int64_t pos) {
  for (int64_t i = 0; i < n; ++i) {
    const int32_t start = dict_offsets[idx[i]];
    std::memcpy(dst + pos, dict_data + start, 16);
    if constexpr (W == 32) std::memcpy(dst + pos + 16, dict_data + start + 16, 16);
    pos += dict_offsets[idx[i] + 1] - start;
    off[i] = static_cast<int32_t>(pos);
  }
  return pos;
}

int64_t DictionaryDecoder::GatherShortByteArrays(int width, const int32_t* dict_offsets, const uint8_t* dict_data,
                                                 const int32_t* idx, int64_t n, int32_t* off, uint8_t* dst,
                                                 int64_t pos) {
  return width <= 16 ? GatherShort<16>(dict_offsets, dict_data, idx, n, off, dst, pos)
                     : GatherShort<32>(dict_offsets, dict_data, idx, n, off, dst, pos);
}

int64_t DictionaryDecoder::GatherUniformByteArrays(int32_t len, const uint8_t* dict_data, int64_t dict_readable,
                                                   const int32_t* idx, int64_t n, int32_t* off, uint8_t* dst,
                                                   int64_t pos) {
  if (len == 1) {
    static const GatherKernels& kernels = GatherKernelsFor(ActiveSimdLevel());
    kernels.gather8(dict_data, dict_readable, idx, n, dst + pos);
    for (int64_t i = 0; i < n; ++i) off[i] = static_cast<int32_t>(pos + i + 1);
    return pos + n;
  }
  for (int64_t i = 0; i < n; ++i) {
    const int64_t start = static_cast<int64_t>(idx[i]) * len;
    if (len <= 16 && start + 16 <= dict_readable) {
      std::memcpy(dst + pos, dict_data + start, 16);
    } else if (len > 0) {
      std::memcpy(dst + pos, dict_data + start, static_cast<size_t>(len));
    }
    pos += len;
    off[i] = static_cast<int32_t>(pos);
  }
  return pos;
}

Status DictionaryDecoder::DecodeByteArrays(const int32_t* dict_offsets, const uint8_t* dict_data, int64_t n,
                                           BufferBuilder* offsets, BufferBuilder* values, int64_t dict_readable) {
  if (offsets->size() == 0) QUIVER_RETURN_NOT_OK(offsets->AppendValue<int32_t>(0));
  QUIVER_RETURN_NOT_OK(offsets->Reserve(n * 4));
  // Indices first, then the exact byte count, so the values grow once, to their final size.
  // Per thread, not per decoder: a decoder lives for one column chunk, and a fresh block of
  // n * 4 bytes for every chunk is fresh memory each time (about 300 MB on a lineitem file,
  // page faults included). Grows to 4 bytes per value of the largest page a thread decodes.
  thread_local std::vector<int32_t> indices;
  if (static_cast<int64_t>(indices.size()) < n) indices.resize(static_cast<size_t>(n));
  int32_t* idx = indices.data();
  QUIVER_RETURN_NOT_OK(DecodeIndices(idx, n));
  const int64_t total = ByteArrayLength(dict_offsets, idx, n);
  const int64_t pos = values->size();
  if (pos + total > std::numeric_limits<int32_t>::max()) {
    return Status::Invalid("BYTE_ARRAY values exceed the 2 GiB an int32-offset array holds");
  }
  QUIVER_RETURN_NOT_OK(values->Reserve(total + 32));  // slack for the fixed-size copies
  const int64_t readable = std::max<int64_t>(dict_readable, dict_offsets[dict_size_]);
  int32_t* off = reinterpret_cast<int32_t*>(offsets->mutable_data() + offsets->size());
  const int64_t end = GatherByteArrays(dict_offsets, dict_data, readable, idx, n, off, values->mutable_data(), pos);
  offsets->UnsafeSetSize(offsets->size() + n * 4);
  values->UnsafeSetSize(end);
  return Status::OK();
}

}  // namespace quiver::parquet::encoding

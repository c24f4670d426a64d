#include "quiver/parquet/encoding/dictionary_internal.h"

#include <algorithm>
#include <bit>

#define XXH_INLINE_ALL
#include <xxhash.h>

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

}  // namespace

const GatherKernels& GatherKernelsFor(SimdLevel level) {
  if (static_cast<int>(level) > static_cast<int>(DetectedSimdLevel())) level = DetectedSimdLevel();
#if QUIVER_X86
  if (level == SimdLevel::kAvx512) return kAvx512;
  if (level == SimdLevel::kAvx2) return kAvx2;
#endif
  return kScalar;
}

// ---- decoder ----

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

// ---- encoders ----

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
  uint64_t acc = 0;
  int bits = 0;
  for (; i < n; ++i) {
    const uint64_t v = i < avail ? static_cast<uint32_t>(idx[i]) : 0;
    acc |= v << bits;
    bits += width;
    if (bits >= 32) {
      const uint32_t word = static_cast<uint32_t>(acc);
      std::memcpy(dst, &word, 4);
      dst += 4;
      acc >>= 32;
      bits -= 32;
    }
  }
  for (; bits > 0; bits -= 8, acc >>= 8) *dst++ = static_cast<uint8_t>(acc);
  return dst;
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

template <typename T>
DictionaryEncoder<T>::DictionaryEncoder(int64_t max_dictionary_bytes, MemoryPool* pool)
    : max_bytes_(max_dictionary_bytes), pool_(pool), slots_(kDirect ? 0 : 1024, Slot{0, -1}), indices_(pool) {}

template <typename T>
void DictionaryEncoder<T>::PlaceEntries(std::vector<Slot>* slots, int shift) const {
  const size_t mask = slots->size() - 1;
  for (size_t i = 0; i < dict_.size(); ++i) {
    const Bits key = std::bit_cast<Bits>(dict_[i]);
    size_t s = SlotOf(key, shift);
    while ((*slots)[s].index >= 0) s = (s + 1) & mask;
    (*slots)[s] = Slot{key, static_cast<int32_t>(i)};
  }
}

template <typename T>
void DictionaryEncoder<T>::Rehash() {
  std::vector<Slot> slots(slots_.size() * 2, Slot{0, -1});
  --shift_;
  PlaceEntries(&slots, shift_);
  slots_.swap(slots);
}

template <typename T>
void DictionaryEncoder<T>::EmptySlots(size_t want, bool stale) {
  if (slots_.size() < want || slots_.size() > 4 * want) {
    slots_.assign(want, Slot{0, -1});
    slots_.shrink_to_fit();
  } else if (stale) {
    std::fill(slots_.begin(), slots_.end(), Slot{0, -1});
  }
  shift_ = 64 - std::countr_zero(slots_.size());
}

namespace {

// Slots for `entries` at most half full, as a power of two; never past what the size limit
// lets the dictionary hold.
size_t SlotsFor(int64_t entries, int64_t limit_entries) {
  const int64_t n = std::min(entries, std::max<int64_t>(limit_entries, 1));
  size_t slots = 1024;
  while (static_cast<int64_t>(slots) < 2 * n + 2) slots *= 2;
  return slots;
}

}  // namespace

template <typename T>
void DictionaryEncoder<T>::Reserve(int64_t entries) {
  const size_t slots = SlotsFor(entries, MaxEntries());
  if constexpr (kDirect) {
    // The hash table is only sized here: a chunk whose keys span a short range never makes it.
    if (!dict_.empty() || slots <= want_slots_) return;
    want_slots_ = slots;
    expect_entries_ = entries;
  } else {
    if (!dict_.empty() || slots <= slots_.size()) return;
    EmptySlots(slots, /*stale=*/false);  // grown: every place is new
  }
  dict_.reserve(static_cast<size_t>(std::min<int64_t>(entries, MaxEntries())));
}

template <typename T>
void DictionaryEncoder<T>::Restart(int64_t entries) {
  const size_t want = SlotsFor(entries, MaxEntries());
  // The direct table is emptied entry by entry (a chunk of l_orderkey's uses 30,000 of its
  // places), so before the entries go; the hash table of integers, when the last chunk used
  // it, only when this one does.
  if constexpr (kDirect) ClearDirect();
  dict_.clear();
  indices_.clear();
  full_ = false;
  if constexpr (kDirect) {
    want_slots_ = want;
    expect_entries_ = entries;
    hashing_ = false;
  } else {
    EmptySlots(want, /*stale=*/true);
  }
  dict_.reserve(static_cast<size_t>(std::min<int64_t>(entries, MaxEntries())));
}

// Key `key`, not found at its first slot `s`: its index further along the chain, or added as a
// new entry (-1 when the dictionary is full).
template <typename T>
int32_t DictionaryEncoder<T>::FindOrInsert(Bits key, size_t s) {
  const size_t mask = slots_.size() - 1;
  for (;; s = (s + 1) & mask) {
    const Slot& slot = slots_[s];
    if (slot.index < 0) break;
    if (slot.key == key) return slot.index;
  }
  if (static_cast<int64_t>(dict_.size() + 1) * static_cast<int64_t>(sizeof(T)) > max_bytes_) return -1;
  const int32_t index = static_cast<int32_t>(dict_.size());
  dict_.push_back(std::bit_cast<T>(key));
  slots_[s] = Slot{key, index};
  if (dict_.size() * 2 > slots_.size()) Rehash();
  return index;
}

// Values [0, n) to out[0, n); returns how many before the dictionary filled. Most values are
// found at their first slot, one compare of key and index; the rest of the chain, and new
// entries, go through FindOrInsert. kPrefetch (a table past L1: l_suppkey's, l_orderkey's):
// the slot kDistance values ahead is prefetched, so that the probes' cache misses overlap
// instead of being paid one after another. kRuns (sorted or clustered values: l_orderkey):
// a value equal to the one before takes its index without a probe; elsewhere that branch
// would be mispredicted more often than it saves a probe.
template <typename T>
template <bool kRuns, bool kPrefetch>
int64_t DictionaryEncoder<T>::PutValues(const T* values, int64_t n, int32_t* out) {
  constexpr int64_t kDistance = 16;
  const Slot* slots = slots_.data();
  int shift = shift_;
  Bits prev_key = ~std::bit_cast<Bits>(values[0]);  // never the first key
  int32_t prev_index = 0;
  const int64_t ahead = kPrefetch ? n - kDistance : n;
  for (int64_t i = 0; i < n; ++i) {
    const Bits key = std::bit_cast<Bits>(values[i]);
    if (kPrefetch && i < ahead) {
      __builtin_prefetch(&slots[SlotOf(std::bit_cast<Bits>(values[i + kDistance]), shift)]);
    }
    if constexpr (kRuns) {
      if (key == prev_key) {
        out[i] = prev_index;
        continue;
      }
      prev_key = key;
    }
    const Slot slot = slots[SlotOf(key, shift)];
    int32_t index = slot.index;
    if (slot.key != key || index < 0) [[unlikely]] {
      index = FindOrInsert(key, SlotOf(key, shift));
      if (index < 0) [[unlikely]] return i;
      slots = slots_.data();  // a rehash moves and widens the table
      shift = shift_;
    }
    out[i] = index;
    if constexpr (kRuns) prev_index = index;
  }
  return n;
}

// Adds the value at `offset` in the direct table: its entry + 1, 0 when the dictionary is full.
template <typename T>
int32_t DictionaryEncoder<T>::InsertDirect(T value, Bits offset) {
  if (static_cast<int64_t>(dict_.size() + 1) * static_cast<int64_t>(sizeof(T)) > max_bytes_) return 0;
  dict_.push_back(value);
  const auto e = static_cast<int32_t>(dict_.size());
  direct_[offset] = e;
  return e;
}

namespace {

// Values [i, n) to out[i, n) through a direct table (entry + 1 of key base + k at k) while each
// is in its range and found: a loop without calls, so that everything stays in registers.
// Returns where it stopped. kPrefetch (a table past 1 MB; smaller ones stay in L2, where the
// prefetch's own instructions cost more than they save): the place kDistance values ahead is
// prefetched.
template <bool kPrefetch, typename Bits>
int64_t DirectHits(const Bits* values, int64_t i, int64_t n, const int32_t* table, Bits base, Bits size,
                   int32_t* out) {
  constexpr int64_t kDistance = 16;
  const int64_t ahead = kPrefetch ? n - kDistance : n;
  for (; i < n; ++i) {
    if (kPrefetch && i < ahead) {
      const Bits next = static_cast<Bits>(values[i + kDistance] - base);
      __builtin_prefetch(table + std::min<Bits>(next, size - 1));
    }
    const Bits u = static_cast<Bits>(values[i] - base);
    if (u >= size) [[unlikely]] break;
    const int32_t e = table[u];
    if (e == 0) [[unlikely]] break;
    out[i] = e - 1;
  }
  return i;
}

}  // namespace

// Values [0, n) to out[0, n) through the direct table; returns how many before one outside its
// range or the dictionary filled.
template <typename T>
template <bool kPrefetch>
int64_t DictionaryEncoder<T>::PutDirect(const T* values, int64_t n, int32_t* out) {
  const auto* keys = reinterpret_cast<const Bits*>(values);
  const Bits size = static_cast<Bits>(direct_.size());
  int64_t i = 0;
  while (true) {
    i = DirectHits<kPrefetch>(keys, i, n, direct_.data(), direct_base_, size, out);
    if (i == n) return n;
    const Bits u = static_cast<Bits>(keys[i] - direct_base_);
    if (u >= size) return i;
    const int32_t e = InsertDirect(values[i], u);
    if (e == 0) return i;
    out[i++] = e - 1;
  }
}

template <typename T>
void DictionaryEncoder<T>::ClearDirect() {
  if (hashing_ || direct_.empty()) return;
  for (const T& v : dict_) direct_[static_cast<Bits>(std::bit_cast<Bits>(v) - direct_base_)] = 0;
}

template <typename T>
void DictionaryEncoder<T>::StartHashing() {
  const size_t want = std::max(want_slots_, SlotsFor(static_cast<int64_t>(dict_.size()) + 1, MaxEntries()));
  EmptySlots(want, slots_dirty_);
  PlaceEntries(&slots_, shift_);
  ClearDirect();
  hashing_ = true;
  slots_dirty_ = true;
}

template <typename T>
void DictionaryEncoder<T>::Redirect(const T* values, int64_t n) {
  T lo = values[0], hi = values[0];
  for (int64_t i = 1; i < n; ++i) {
    lo = values[i] < lo ? values[i] : lo;
    hi = hi < values[i] ? values[i] : hi;
  }
  for (const T& v : dict_) {
    lo = v < lo ? v : lo;
    hi = hi < v ? v : hi;
  }
  // Up to 8 places per entry (32 bytes, what a hash table half full of 16-byte slots takes),
  // counting the entries the last chunk had; never past 4 MB.
  constexpr uint64_t kFloor = uint64_t{1} << 16, kCeiling = uint64_t{1} << 20;
  const uint64_t entries = static_cast<uint64_t>(std::max<int64_t>(expect_entries_, static_cast<int64_t>(dict_.size())));
  const uint64_t limit = std::clamp<uint64_t>(8 * entries, kFloor, kCeiling);
  const uint64_t span = static_cast<Bits>(std::bit_cast<Bits>(hi) - std::bit_cast<Bits>(lo));  // < 2^bits
  if (span >= limit) {
    StartHashing();
    return;
  }
  uint64_t size = direct_.size();
  if (span >= size) size = std::min(limit, std::max<uint64_t>(2 * (span + 1), 4096));
  ClearDirect();
  if (direct_.size() < size) direct_.resize(static_cast<size_t>(size), 0);
  direct_base_ = std::bit_cast<Bits>(lo);
  for (size_t i = 0; i < dict_.size(); ++i) {
    direct_[static_cast<Bits>(std::bit_cast<Bits>(dict_[i]) - direct_base_)] = static_cast<int32_t>(i + 1);
  }
}

template <typename T>
Status DictionaryEncoder<T>::Put(const T* values, int64_t n, int64_t* consumed) {
  *consumed = 0;
  if (n == 0) return Status::OK();
  const int64_t start = indices_.size();
  QUIVER_ASSIGN_OR_RETURN(int32_t* out, indices_.Extend(n));
  int64_t done = 0;
  if constexpr (kDirect) {
    while (!hashing_ && done < n) {
      const bool ahead = direct_.size() * sizeof(int32_t) > (1 << 20);
      done += ahead ? PutDirect<true>(values + done, n - done, out + done)
                    : PutDirect<false>(values + done, n - done, out + done);
      if (done == n) break;
      // Stopped inside the table's range: the dictionary is full.
      if (static_cast<Bits>(std::bit_cast<Bits>(values[done]) - direct_base_) < direct_.size()) break;
      Redirect(values + done, n - done);
    }
  }
  if (hashing_ && done < n) {
    // Runs judged from the first values: a quarter of them equal to the one before.
    const T* v = values + done;
    const int64_t m = n - done;
    const int64_t sample = std::min<int64_t>(m, 64);
    int64_t repeats = 0;
    for (int64_t i = 1; i < sample; ++i) repeats += v[i] == v[i - 1] ? 1 : 0;
    const bool runs = repeats * 4 >= sample;
    const bool prefetch = slots_.size() * sizeof(Slot) > (32 << 10);
    if (runs) {
      done += prefetch ? PutValues<true, true>(v, m, out + done) : PutValues<true, false>(v, m, out + done);
    } else {
      done += prefetch ? PutValues<false, true>(v, m, out + done) : PutValues<false, false>(v, m, out + done);
    }
  }
  if (done < n) full_ = true;
  indices_.Resize(start + done);
  *consumed = done;
  return Status::OK();
}

template <typename T>
Status DictionaryEncoder<T>::WriteDictionaryPage(BufferBuilder* out) const {
  return out->Append(dict_.data(), static_cast<int64_t>(dict_.size() * sizeof(T)));
}

template <typename T>
Status DictionaryEncoder<T>::FlushIndices(BufferBuilder* out) {
  QUIVER_RETURN_NOT_OK(EncodeDictionaryIndices(indices_.data(), indices_.size(),
                                               DictionaryIndexBitWidth(dict_size()), out, pool_));
  indices_.clear();
  return Status::OK();
}

template class DictionaryEncoder<int32_t>;
template class DictionaryEncoder<int64_t>;
template class DictionaryEncoder<float>;
template class DictionaryEncoder<double>;

namespace {

int64_t ByteHitsScalar(const int32_t* offsets, const uint8_t* data, int64_t i, int64_t n, const int32_t* table,
                       int32_t* out) {
  const int64_t from = i;
  int32_t at = offsets[i];
  for (; i < n; ++i) {
    const int32_t next = offsets[i + 1];
    if (next - at != 1) break;
    const int32_t e = table[data[at]];
    if (e == 0) break;
    out[i - from] = e - 1;
    at = next;
  }
  return i;
}

#if QUIVER_X86
// 16 values a step while all 16 are one byte long (each offset one past the one before) and
// known: their bytes, contiguous, widened to lanes and looked up by one gather; the rest, and a
// step that stops, by the scalar loop.
__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"))) int64_t ByteHitsAvx512(
    const int32_t* offsets, const uint8_t* data, int64_t i, int64_t n, const int32_t* table, int32_t* out) {
  const int64_t from = i;
  const auto all = static_cast<__mmask16>(0xFFFF);
  const __m512i one = _mm512_set1_epi32(1);
  for (; i + 16 <= n; i += 16) {
    const __m512i start = _mm512_loadu_si512(offsets + i);
    const __m512i end = _mm512_loadu_si512(offsets + i + 1);
    if (_mm512_cmpneq_epi32_mask(_mm512_sub_epi32(end, start), one) != 0) break;
    const __m512i bytes =
        _mm512_maskz_cvtepu8_epi32(all, _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + offsets[i])));
    const __m512i e = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), all, bytes, table, 4);
    if (_mm512_cmpeq_epi32_mask(e, _mm512_setzero_si512()) != 0) break;
    _mm512_storeu_si512(out + (i - from), _mm512_sub_epi32(e, one));
  }
  return ByteHitsScalar(offsets, data, i, n, table, out + (i - from));
}
#endif

using ByteHitsKernel = int64_t (*)(const int32_t*, const uint8_t*, int64_t, int64_t, const int32_t*, int32_t*);
ByteHitsKernel ByteHitsFor(SimdLevel level) {
  if (static_cast<int>(level) > static_cast<int>(DetectedSimdLevel())) level = DetectedSimdLevel();
#if QUIVER_X86
  if (level == SimdLevel::kAvx512) return &ByteHitsAvx512;
#endif
  return &ByteHitsScalar;
}

}  // namespace

ByteArrayDictionaryEncoder::ByteArrayDictionaryEncoder(int64_t max_dictionary_bytes, MemoryPool* pool,
                                                       SimdLevel level)
    : max_bytes_(max_dictionary_bytes), pool_(pool), dict_data_(pool), slots_(1024, Slot{0, 0}),
      byte_hits_(ByteHitsFor(level)), indices_(pool) {}

void ByteArrayDictionaryEncoder::Rehash() {
  std::vector<Slot> slots(slots_.size() * 2, Slot{0, 0});
  const size_t mask = slots.size() - 1;
  for (size_t i = 0; i < hashes_.size(); ++i) {
    size_t s = hashes_[i] & mask;
    while (slots[s].entry != 0) s = (s + 1) & mask;
    slots[s] = Slot{static_cast<uint32_t>(hashes_[i] >> 32), static_cast<int32_t>(i + 1)};
  }
  slots_.swap(slots);
}

void ByteArrayDictionaryEncoder::Reserve(int64_t entries, int64_t bytes) {
  const size_t slots = SlotsFor(entries, max_bytes_ / 4);
  if (!hashes_.empty() || slots <= slots_.size()) return;
  slots_.assign(slots, Slot{0, 0});
  const size_t n = slots / 2;
  hashes_.reserve(n);
  dict_offsets_.reserve(n + 1);
  // Failure only means the bytes grow as they come.
  (void)dict_data_.Reserve(std::min(bytes, max_bytes_) + 16);
}

void ByteArrayDictionaryEncoder::Restart(int64_t entries, int64_t bytes) {
  const size_t want = SlotsFor(entries, max_bytes_ / 4);
  dict_data_.Clear();
  dict_offsets_.assign(1, 0);
  hashes_.clear();
  memo_.clear();  // refilled with empty entries at the next Put that uses it
  memo_max_ = 8;
  byte_entries_.fill(0);
  indices_.clear();
  full_ = false;
  if (slots_.size() < want || slots_.size() > 4 * want) {
    slots_.assign(want, Slot{0, 0});
    slots_.shrink_to_fit();
  } else {
    std::fill(slots_.begin(), slots_.end(), Slot{0, 0});
  }
  hashes_.reserve(want / 2);
  dict_offsets_.reserve(want / 2 + 1);
  (void)dict_data_.Reserve(std::min(bytes, max_bytes_) + 16);  // failure: the bytes grow as they come
}

// The entry of value `v` (`len` bytes, hash `h`, its words `sv` when short), or -1 when it is
// not in the table yet, with *slot where it goes. Entries have 16 readable bytes (slack kept by
// Insert), so short ones compare as two words.
inline int32_t ByteArrayDictionaryEncoder::Find(const uint8_t* v, int32_t len, uint64_t h, const ShortWords& sv,
                                                size_t* slot) const {
  const uint32_t tag = static_cast<uint32_t>(h >> 32);
  const size_t mask = slots_.size() - 1;
  const Slot* slots = slots_.data();
  const int32_t* offsets = dict_offsets_.data();
  const uint8_t* bytes = dict_data_.data();
  size_t s = h & mask;
  for (;; s = (s + 1) & mask) {
    const Slot slot = slots[s];
    if (slot.entry == 0) break;
    if (slot.tag != tag) continue;
    const int32_t e = slot.entry - 1;
    const int32_t at = offsets[e];
    if (offsets[e + 1] - at != len) continue;
    if (len <= 16) {
      const ShortValue x = LoadShort(bytes + at, len);
      if (x.lo == sv.lo && x.hi == sv.hi) return e;
    } else if (EqualLong(bytes + at, v, len)) {
      return e;
    }
  }
  *slot = s;
  return -1;
}

// Adds `v` at `slot` (from Find): its index, -1 when the dictionary is full, -2 out of memory.
int32_t ByteArrayDictionaryEncoder::Insert(const uint8_t* v, int32_t len, uint64_t h, size_t slot) {
  if (dictionary_bytes() + 4 + len > max_bytes_) return -1;
  if (!dict_data_.Reserve(len + 16).ok()) return -2;
  dict_data_.UnsafeAppend(v, len);
  const int32_t index = static_cast<int32_t>(hashes_.size());
  hashes_.push_back(h);
  dict_offsets_.push_back(static_cast<int32_t>(dict_data_.size()));
  slots_[slot] = Slot{static_cast<uint32_t>(h >> 32), index + 1};
  if (len == 1) byte_entries_[v[0]] = index + 1;
  if (hashes_.size() * 2 > slots_.size()) Rehash();
  return index;
}

// The hot loop of a small table: values [i, n), no nulls, while each is found in the memo (a
// short loop of its own, so that its values stay in registers). kMax (8, 16 or 32): the longest
// value the memo holds, so a loop for short values loads, hashes and compares only the words
// they can have; a longer value stops it. A memo entry of a value's length has no bytes past it
// (its other words are zero), so comparing the words a value of that length can have suffices.
template <int kMax>
int64_t ByteArrayDictionaryEncoder::MemoHits(const int32_t* offsets, const uint8_t* data, int64_t i, int64_t n,
                                             int64_t loadable, const Memo* memo, int32_t* out) {
  const int64_t from = i;
  for (; i < n; ++i) {
    const int32_t at = offsets[i];
    const int32_t len = offsets[i + 1] - at;
    if ((static_cast<uint32_t>(len) > kMax) | (at > loadable)) break;
    MemoWords w{};
    if constexpr (kMax == 8) {
      uint64_t mask;
      std::memcpy(&w.lo, data + at, 8);
      std::memcpy(&mask, kShortMask + 16 - len, 8);
      w.lo &= mask;
    } else if constexpr (kMax == 16) {
      const ShortValue x = LoadShort(data + at, len);
      w.lo = x.lo;
      w.hi = x.hi;
    } else {
      w = LoadMemoWords(data + at, len);
    }
    const Memo& mo = memo[MemoSlot(w, len)];
    uint64_t diff = (mo.lo ^ w.lo) | static_cast<uint32_t>(mo.len ^ len);
    if constexpr (kMax > 8) diff |= mo.hi ^ w.hi;
    if constexpr (kMax > 16) diff |= (mo.lo2 ^ w.lo2) | (mo.hi2 ^ w.hi2);
    if (diff != 0) break;
    out[i - from] = mo.index;
  }
  return i;
}

Status ByteArrayDictionaryEncoder::Put(const int32_t* offsets, const uint8_t* data, int64_t n, int64_t* consumed,
                                       const uint8_t* validity, int64_t validity_offset) {
  const int64_t start = indices_.size();
  QUIVER_ASSIGN_OR_RETURN(int32_t* out, indices_.Extend(n));
  int64_t k = 0;  // indices written
  // Values starting 16 (32) bytes before the end of the input's bytes load 16 (32) bytes
  // directly.
  const int64_t loadable = offsets[n] - 16;
  const int64_t loadable32 = offsets[n] - 32;
  auto hash = [&](int64_t r, ShortWords* sv) -> uint64_t {
    const int32_t len = offsets[r + 1] - offsets[r];
    if (len <= 16) {
      const ShortValue x = offsets[r] <= loadable ? LoadShort(data + offsets[r], len) : CopyShort(data + offsets[r], len);
      *sv = ShortWords{x.lo, x.hi};
      return HashShort(x, len);
    }
    return HashBytes(data + offsets[r], len);
  };
  // Value r to its entry, added when new; -1 when the dictionary is full, -2 out of memory.
  auto entry = [&](int64_t r, uint64_t h, const ShortWords& sv) __attribute__((always_inline)) -> int32_t {
    const uint8_t* v = data + offsets[r];
    const int32_t len = offsets[r + 1] - offsets[r];
    size_t slot = 0;
    const int32_t e = Find(v, len, h, sv, &slot);
    if (e >= 0) [[likely]] return e;
    return Insert(v, len, h, slot);
  };
  auto stop = [&](int32_t index, int64_t i) -> Status {
    indices_.Resize(start + k);
    *consumed = i;
    if (index == -2) return Status::OutOfMemory("dictionary entries");
    full_ = true;
    return Status::OK();
  };
  // A table that fits in L1 (lineitem's flags and modes) is probed as each value is hashed; a
  // larger one batch by batch: a batch is hashed first and its slots prefetched, so that the
  // probes' cache misses overlap instead of being paid one after another.
  constexpr size_t kSmallSlots = 4096;
  constexpr int64_t kBatch = 64;
  uint64_t hashes[kBatch];
  ShortWords shorts[kBatch];
  int64_t i = 0;
  while (i < n) {
    if (slots_.size() <= kSmallSlots) {
      // Values of up to 32 bytes first look in the memo: one compare of their words and length
      // against the last value that went to the same place, no chain of loads through the table.
      // Values without nulls go through MemoHits' loop until one is not found there; that one
      // (and each value when there are nulls) comes here.
      if (memo_.empty()) memo_.assign(kMemoSize, Memo{});
      Memo* memo = memo_.data();
      if (validity == nullptr) {
        if (offsets[i + 1] - offsets[i] == 1) {
          // One-byte values (flags) by their byte, until one is longer or new.
          const int64_t stop = byte_hits_(offsets, data, i, n, byte_entries_.data(), out + k);
          k += stop - i;
          i = stop;
          if (i == n) break;
        }
        const int64_t stop = memo_max_ == 8    ? MemoHits<8>(offsets, data, i, n, loadable, memo, out + k)
                             : memo_max_ == 16 ? MemoHits<16>(offsets, data, i, n, loadable, memo, out + k)
                                               : MemoHits<32>(offsets, data, i, n, loadable32, memo, out + k);
        k += stop - i;
        i = stop;
        if (i == n) break;
      } else if (!bit_util::GetBit(validity, validity_offset + i)) {
        ++i;
        continue;
      }
      const int32_t at = offsets[i];
      const int32_t len = offsets[i + 1] - at;
      ShortWords sv{};
      uint64_t h;
      Memo* mo = nullptr;
      MemoWords w{};
      if (len <= 32) {
        w = at <= loadable32 ? LoadMemoWords(data + at, len) : CopyMemoWords(data + at, len);
        mo = &memo[MemoSlot(w, len)];
        if (((mo->lo ^ w.lo) | (mo->hi ^ w.hi) | (mo->lo2 ^ w.lo2) | (mo->hi2 ^ w.hi2) |
             static_cast<uint32_t>(mo->len ^ len)) == 0) {
          out[k++] = mo->index;
          ++i;
          continue;
        }
      }
      if (len <= 16) {
        sv = ShortWords{w.lo, w.hi};
        h = HashShort(ShortValue{w.lo, w.hi}, len);
      } else {
        h = HashBytes(data + at, len);
      }
      const int32_t index = entry(i, h, sv);
      if (index < 0) [[unlikely]] return stop(index, i);
      if (mo != nullptr) {
        *mo = Memo{w.lo, w.hi, w.lo2, w.hi2, len, index};
        memo_max_ = std::max(memo_max_, len <= 8 ? 8 : len <= 16 ? 16 : 32);
      }
      out[k++] = index;
      ++i;
      continue;
    }
    const int64_t m = std::min(kBatch, n - i);
    const size_t pmask = slots_.size() - 1;
    for (int64_t j = 0; j < m; ++j) {
      const int64_t r = i + j;
      if (validity != nullptr && !bit_util::GetBit(validity, validity_offset + r)) continue;
      hashes[j] = hash(r, &shorts[j]);
      __builtin_prefetch(&slots_[hashes[j] & pmask]);
    }
    for (int64_t j = 0; j < m; ++j, ++i) {
      if (validity != nullptr && !bit_util::GetBit(validity, validity_offset + i)) continue;
      const int32_t index = entry(i, hashes[j], shorts[j]);
      if (index < 0) [[unlikely]] return stop(index, i);
      out[k++] = index;
    }
  }
  indices_.Resize(start + k);
  *consumed = i;
  return Status::OK();
}

Status ByteArrayDictionaryEncoder::WriteDictionaryPage(BufferBuilder* out) const {
  QUIVER_RETURN_NOT_OK(out->Reserve(dictionary_bytes()));
  for (int64_t i = 0; i < dict_size(); ++i) {
    const int32_t len = dict_offsets_[i + 1] - dict_offsets_[i];
    out->UnsafeAppendValue(len);
    out->UnsafeAppend(dict_data_.data() + dict_offsets_[i], len);
  }
  return Status::OK();
}

Status ByteArrayDictionaryEncoder::WriteDictionaryPageFixed(int width, BufferBuilder* out) const {
  for (int64_t i = 0; i < dict_size(); ++i) {
    if (dict_offsets_[i + 1] - dict_offsets_[i] != width) {
      return Status::Invalid("dictionary entry " + std::to_string(i) + " is not " + std::to_string(width) +
                             " bytes wide");
    }
  }
  return out->Append(dict_data_.data(), dict_data_.size());
}

Status ByteArrayDictionaryEncoder::FlushIndices(BufferBuilder* out) {
  QUIVER_RETURN_NOT_OK(EncodeDictionaryIndices(indices_.data(), indices_.size(),
                                               DictionaryIndexBitWidth(dict_size()), out, pool_));
  indices_.clear();
  return Status::OK();
}

}  // namespace quiver::parquet::encoding

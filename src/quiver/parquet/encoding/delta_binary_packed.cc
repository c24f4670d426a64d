#include "quiver/parquet/encoding/delta_binary_packed_internal.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <string>

#include "quiver/core/bit_util.h"
#include "quiver/parquet/encoding/rle_bitpacked_internal.h"

#if defined(__x86_64__)
#include "quiver/core/intrinsics_internal.h"
#endif

namespace quiver::parquet::encoding {

namespace {

constexpr int64_t kMaxBlockSize = int64_t{1} << 20;

inline int64_t ZigZagDecode(uint64_t z) { return static_cast<int64_t>((z >> 1) ^ (~(z & 1) + 1)); }
inline uint64_t ZigZagEncode(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}

void PutUleb(BufferBuilder* out, uint64_t v) {
  uint8_t tmp[10];
  int n = 0;
  AppendUleb128(v, tmp, &n);
  out->UnsafeAppend(tmp, n);
}

// In-place running sum d[i] = last + sum(min_delta + d[0..i]) in wrapping arithmetic; returns
// the final value. The scalar loop is bound by its carried add; the AVX2 scans do 8 (or 4)
// values per carried step.
template <typename U>
U PrefixSumScalar(U* d, int64_t n, U md, U last) {
  for (int64_t i = 0; i < n; ++i) {
    last += md + d[i];
    d[i] = last;
  }
  return last;
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) uint32_t PrefixSum32Avx2(uint32_t* d, int64_t n, uint32_t md, uint32_t last) {
  int64_t i = 0;
  __m256i acc = _mm256_set1_epi32(static_cast<int>(last));
  const __m256i vmd = _mm256_set1_epi32(static_cast<int>(md));
  const __m256i seven = _mm256_set1_epi32(7);
  for (; i + 8 <= n; i += 8) {
    __m256i x = _mm256_add_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(d + i)), vmd);
    x = _mm256_add_epi32(x, _mm256_slli_si256(x, 4));
    x = _mm256_add_epi32(x, _mm256_slli_si256(x, 8));
    // Carry the low 128-bit lane's total into the high lane.
    const __m256i low_total = _mm256_permute2x128_si256(_mm256_shuffle_epi32(x, 0xff), x, 0x08);
    x = _mm256_add_epi32(_mm256_add_epi32(x, low_total), acc);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i), x);
    acc = _mm256_permutevar8x32_epi32(x, seven);
  }
  last = static_cast<uint32_t>(_mm256_extract_epi32(acc, 0));
  return PrefixSumScalar(d + i, n - i, md, last);
}

__attribute__((target("avx2"))) uint64_t PrefixSum64Avx2(uint64_t* d, int64_t n, uint64_t md, uint64_t last) {
  int64_t i = 0;
  __m256i acc = _mm256_set1_epi64x(static_cast<long long>(last));
  const __m256i vmd = _mm256_set1_epi64x(static_cast<long long>(md));
  for (; i + 4 <= n; i += 4) {
    __m256i x = _mm256_add_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(d + i)), vmd);
    x = _mm256_add_epi64(x, _mm256_slli_si256(x, 8));
    const __m256i low_total = _mm256_blend_epi32(_mm256_setzero_si256(), _mm256_permute4x64_epi64(x, 0x55), 0xf0);
    x = _mm256_add_epi64(_mm256_add_epi64(x, low_total), acc);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i), x);
    acc = _mm256_permute4x64_epi64(x, 0xff);
  }
  last = static_cast<uint64_t>(_mm256_extract_epi64(acc, 0));
  return PrefixSumScalar(d + i, n - i, md, last);
}
#endif

template <typename U>
using PrefixSumFn = U (*)(U*, int64_t, U, U);

template <typename U>
PrefixSumFn<U> PrefixSumFor(SimdLevel level) {
#if defined(__x86_64__)
  if (static_cast<int>(level) > static_cast<int>(DetectedSimdLevel())) level = DetectedSimdLevel();
  if (level != SimdLevel::kScalar) {
    if constexpr (sizeof(U) == 4) return &PrefixSum32Avx2;
    else return &PrefixSum64Avx2;
  }
#endif
  return &PrefixSumScalar<U>;
}

}  // namespace

template <typename T>
DeltaBinaryPackedDecoder<T>::DeltaBinaryPackedDecoder(SimdLevel level)
    : kernels_(&BitUnpackKernelsFor(level)), prefix_sum_(PrefixSumFor<U>(level)) {}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::Truncated(const char* what) const {
  return Status::Corrupt(std::string("DELTA_BINARY_PACKED data truncated in ") + what + " at byte " +
                         std::to_string(pos_ - begin_) + " of " + std::to_string(end_ - begin_) + " (" +
                         std::to_string(left_) + " of " + std::to_string(total_) + " values left)");
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::Reset(const uint8_t* data, int64_t size) {
  begin_ = pos_ = data;
  end_ = data + size;
  left_ = total_ = 0;
  first_pending_ = false;
  buf_pos_ = buf_len_ = 0;
  uint64_t block_size, miniblocks, total, zfirst;
  if (!ReadUleb128(pos_, end_, &block_size) || !ReadUleb128(pos_, end_, &miniblocks) ||
      !ReadUleb128(pos_, end_, &total) || !ReadUleb128(pos_, end_, &zfirst)) {
    return Status::Corrupt("DELTA_BINARY_PACKED header is truncated or malformed");
  }
  if (block_size == 0 || block_size % 128 != 0 || block_size > static_cast<uint64_t>(kMaxBlockSize)) {
    return Status::Corrupt("DELTA_BINARY_PACKED block size " + std::to_string(block_size) +
                           " is not a positive multiple of 128 (up to 2^20)");
  }
  if (miniblocks == 0 || block_size % miniblocks != 0 || (block_size / miniblocks) % 32 != 0) {
    return Status::Corrupt("DELTA_BINARY_PACKED block of " + std::to_string(block_size) + " values cannot hold " +
                           std::to_string(miniblocks) + " miniblocks of a multiple of 32 values");
  }
  if (total > static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) {
    return Status::Corrupt("DELTA_BINARY_PACKED value count " + std::to_string(total) + " overflows a page");
  }
  // Each block costs at least its min delta and width bytes, so the bytes bound the count; a
  // hostile header cannot make callers reserve room for 2^31 values out of a few bytes.
  const uint64_t max_values = 1 + static_cast<uint64_t>(end_ - pos_) / (1 + miniblocks) * block_size;
  if (total > max_values) {
    return Status::Corrupt("DELTA_BINARY_PACKED value count " + std::to_string(total) + " cannot fit in " +
                           std::to_string(end_ - pos_) + " bytes");
  }
  const int64_t first = ZigZagDecode(zfirst);
  if constexpr (sizeof(T) == 4) {
    if (first < std::numeric_limits<int32_t>::min() || first > std::numeric_limits<int32_t>::max()) {
      return Status::Corrupt("DELTA_BINARY_PACKED first value " + std::to_string(first) + " does not fit INT32");
    }
  }
  block_size_ = static_cast<int64_t>(block_size);
  miniblocks_ = static_cast<int64_t>(miniblocks);
  mini_values_ = block_size_ / miniblocks_;
  total_ = left_ = static_cast<int64_t>(total);
  first_ = last_ = static_cast<U>(first);
  first_pending_ = total_ > 0;
  widths_.resize(static_cast<size_t>(miniblocks_));
  mini_index_ = miniblocks_;
  return Status::OK();
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::ReadBlockHeader() {
  uint64_t zmin;
  if (!ReadUleb128(pos_, end_, &zmin)) return Truncated("a block's min delta");
  min_delta_ = static_cast<U>(ZigZagDecode(zmin));
  if (end_ - pos_ < miniblocks_) return Truncated("a block's bit widths");
  std::memcpy(widths_.data(), pos_, static_cast<size_t>(miniblocks_));
  pos_ += miniblocks_;
  mini_index_ = 0;
  return Status::OK();
}

// Decodes the next miniblock's min(mini_values_, values left) values into `dst`. Only the
// miniblocks that hold values are read: in the last block, the unused ones have a bit width
// (arbitrary, per the spec) but no bytes.
template <typename T>
Status DeltaBinaryPackedDecoder<T>::NextMiniblock(T* dst, int64_t* produced) {
  if (mini_index_ == miniblocks_) QUIVER_RETURN_NOT_OK(ReadBlockHeader());
  const int width = widths_[mini_index_];
  if (width > static_cast<int>(sizeof(T) * 8)) {
    return Status::Corrupt("DELTA_BINARY_PACKED miniblock bit width " + std::to_string(width) + " exceeds " +
                           std::to_string(sizeof(T) * 8));
  }
  const int64_t m = std::min(mini_values_, left_);
  const int64_t avail = end_ - pos_;
  // The last miniblock should be padded to its full size; accept writers that stop early.
  if (bit_util::BytesForBits(m * width) > avail) return Truncated("a miniblock");
  U* d = reinterpret_cast<U*>(dst);
  if constexpr (sizeof(T) == 4) {
    kernels_->unpack32(pos_, avail, width, m, d);
  } else {
    kernels_->unpack64(pos_, avail, width, m, d);
  }
  pos_ += std::min(mini_values_ * width / 8, avail);
  ++mini_index_;
  last_ = prefix_sum_(d, m, min_delta_, last_);
  *produced = m;
  return Status::OK();
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::Decode(T* out, int64_t n) {
  if (n < 0 || n > left_) [[unlikely]] {
    return Status::Corrupt("DELTA_BINARY_PACKED data holds " + std::to_string(left_) + " more values, " +
                           std::to_string(n) + " requested");
  }
  int64_t done = 0;
  if (n > 0 && first_pending_) {
    out[0] = static_cast<T>(first_);
    first_pending_ = false;
    --left_;
    done = 1;
  }
  while (done < n) {
    if (buf_pos_ < buf_len_) {
      const int64_t k = std::min(n - done, buf_len_ - buf_pos_);
      std::memcpy(out + done, buf_.data() + buf_pos_, static_cast<size_t>(k) * sizeof(T));
      buf_pos_ += k;
      done += k;
      left_ -= k;
      continue;
    }
    const int64_t m = std::min(mini_values_, left_);
    int64_t produced = 0;
    if (n - done >= m) {
      QUIVER_RETURN_NOT_OK(NextMiniblock(out + done, &produced));
      done += produced;
      left_ -= produced;
    } else {
      buf_.resize(static_cast<size_t>(mini_values_));
      QUIVER_RETURN_NOT_OK(NextMiniblock(reinterpret_cast<T*>(buf_.data()), &produced));
      buf_pos_ = 0;
      buf_len_ = produced;
    }
  }
  return Status::OK();
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::Skip(int64_t n) {
  T tmp[512];
  while (n > 0) {
    const int64_t k = std::min<int64_t>(n, 512);
    QUIVER_RETURN_NOT_OK(Decode(tmp, k));
    n -= k;
  }
  return Status::OK();
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::ConsumeAll(int64_t* bytes) {
  QUIVER_RETURN_NOT_OK(Skip(left_));
  *bytes = pos_ - begin_;
  return Status::OK();
}

// ---- encoder ----

template <typename T>
Status DeltaBinaryPackedEncoder<T>::Put(const T* values, int64_t n) {
  int64_t i = 0;
  if (n > 0 && count_ == 0) {
    first_ = last_ = static_cast<U>(values[0]);
    count_ = 1;
    i = 1;
  }
  count_ += n - i;
  for (; i < n; ++i) {
    const U v = static_cast<U>(values[i]);
    deltas_[pending_++] = v - last_;
    last_ = v;
    if (pending_ == kBlockSize) QUIVER_RETURN_NOT_OK(FlushBlock());
  }
  return Status::OK();
}

template <typename T>
Status DeltaBinaryPackedEncoder<T>::FlushBlock() {
  if (pending_ == 0) return Status::OK();
  T min = static_cast<T>(deltas_[0]);
  for (int i = 1; i < pending_; ++i) min = std::min(min, static_cast<T>(deltas_[i]));
  const U md = static_cast<U>(min);
  QUIVER_RETURN_NOT_OK(blocks_.Reserve(10 + kMiniblocks + kBlockSize * sizeof(T) + 8));
  PutUleb(&blocks_, ZigZagEncode(static_cast<int64_t>(min)));
  uint8_t widths[kMiniblocks];
  for (int j = 0; j < kMiniblocks; ++j) {
    const int start = j * kMiniblockSize;
    U bits = 0;
    for (int i = start; i < std::min(start + kMiniblockSize, pending_); ++i) bits |= static_cast<U>(deltas_[i] - md);
    widths[j] = static_cast<uint8_t>(bits == 0 ? 0 : 64 - std::countl_zero(static_cast<uint64_t>(bits)));
  }
  blocks_.UnsafeAppend(widths, kMiniblocks);
  for (int j = 0; j < kMiniblocks; ++j) {
    const int start = j * kMiniblockSize;
    if (start >= pending_) break;  // unused miniblocks of the last block have no bytes
    uint64_t vals[kMiniblockSize];
    for (int i = 0; i < kMiniblockSize; ++i) {
      vals[i] = start + i < pending_ ? static_cast<uint64_t>(static_cast<U>(deltas_[start + i] - md)) : 0;
    }
    bit_util::PackBits(vals, widths[j], kMiniblockSize, blocks_.mutable_data() + blocks_.size());
    blocks_.UnsafeSetSize(blocks_.size() + widths[j] * kMiniblockSize / 8);
  }
  pending_ = 0;
  return Status::OK();
}

template <typename T>
Status DeltaBinaryPackedEncoder<T>::Finish(BufferBuilder* out) {
  QUIVER_RETURN_NOT_OK(FlushBlock());
  QUIVER_RETURN_NOT_OK(out->Reserve(40 + blocks_.size()));
  PutUleb(out, kBlockSize);
  PutUleb(out, kMiniblocks);
  PutUleb(out, static_cast<uint64_t>(count_));
  PutUleb(out, ZigZagEncode(static_cast<int64_t>(static_cast<T>(first_))));
  out->UnsafeAppend(blocks_.data(), blocks_.size());
  blocks_.Clear();
  count_ = 0;
  first_ = last_ = 0;
  return Status::OK();
}

template class DeltaBinaryPackedDecoder<int32_t>;
template class DeltaBinaryPackedDecoder<int64_t>;
template class DeltaBinaryPackedEncoder<int32_t>;
template class DeltaBinaryPackedEncoder<int64_t>;

}  // namespace quiver::parquet::encoding

// RLE/bit-packed hybrid (Parquet's RLE encoding): repetition/definition levels, RLE booleans
// and dictionary indices; batch decoder, encoder, and the deprecated MSB-first BIT_PACKED levels.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "quiver/core/bit_util.h"
#include "quiver/core/buffer.h"
#include "quiver/core/status.h"
#include "quiver/parquet/encoding/bit_unpack_internal.h"

namespace quiver::parquet::encoding {

// Reads an unsigned LEB128 varint of at most 10 bytes; false when truncated or too long.
inline bool ReadUleb128(const uint8_t*& p, const uint8_t* end, uint64_t* out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 70 && p < end; shift += 7) {
    const uint8_t b = *p++;
    if (shift == 63 && (b & 0x7e) != 0) return false;  // more than 64 bits
    v |= uint64_t{b & 0x7fu} << shift;
    if ((b & 0x80) == 0) {
      *out = v;
      return true;
    }
  }
  return false;
}
inline void AppendUleb128(uint64_t v, uint8_t* out, int* n) {
  int i = 0;
  while (v >= 0x80) {
    out[i++] = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  out[i++] = static_cast<uint8_t>(v);
  *n = i;
}

// Decodes a stream of runs over one byte span. Values are at most 32 bits wide. Calls take
// batches; malformed data stops a batch short and `ErrorStatus` explains why, once.
// Bit width 0 with no run headers left yields zeros without end (some writers omit the runs of a
// one-entry dictionary); every other width needs its runs.
class RleBitPackedDecoder {
 public:
  RleBitPackedDecoder() = default;
  explicit RleBitPackedDecoder(SimdLevel level) : kernels_(&BitUnpackKernelsFor(level)) {}

  // Starts over on `data`. Corrupt when bit_width is outside 0..32.
  Status Reset(const uint8_t* data, int64_t size, int bit_width) {
    if (bit_width < 0 || bit_width > 32) [[unlikely]] {
      return Status::Corrupt("RLE/bit-packed bit width " + std::to_string(bit_width) + " is outside 0..32");
    }
    begin_ = data;
    pos_ = data;
    end_ = data + size;
    bit_width_ = bit_width;
    value_bytes_ = (bit_width + 7) / 8;
    rle_left_ = 0;
    lit_left_ = 0;
    buf_pos_ = buf_len_ = 0;
    error_ = Error::kNone;
    return Status::OK();
  }

  int bit_width() const { return bit_width_; }
  // Bytes of run data consumed so far (headers and whole runs started).
  int64_t consumed_bytes() const { return pos_ - begin_; }

  // Up to `max_values` values into `out`. Fewer means the runs ended or are malformed.
  template <typename T>
  int64_t GetBatch(T* out, int64_t max_values);

  // Exactly `n` values, or Corrupt saying why not.
  template <typename T>
  Status Decode(T* out, int64_t n) {
    const int64_t got = GetBatch(out, n);
    if (got < n) [[unlikely]] return ErrorStatus(got, n);
    return Status::OK();
  }

  // Walks up to `max_values` values run by run: `on_run(uint32_t value, int64_t count)` for RLE
  // runs, `on_literals(const uint32_t* values, int64_t count)` for unpacked bit-packed values.
  // Returns the number of values visited.
  template <typename OnRun, typename OnLiterals>
  int64_t Visit(int64_t max_values, OnRun&& on_run, OnLiterals&& on_literals);

  int64_t Skip(int64_t n) {
    return Visit(n, [](uint32_t, int64_t) {}, [](const uint32_t*, int64_t) {});
  }

  // The explanation after a batch came back short: Corrupt with what was wrong and where.
  Status ErrorStatus(int64_t got, int64_t wanted) const;

 private:
  enum class Error : uint8_t { kNone, kBadHeader, kTruncatedValue };
  static constexpr int64_t kBufSize = 1024;

  bool NextRun();
  void FillBuffer() {
    const int64_t k = std::min(lit_left_, kBufSize);
    kernels_->unpack32(lit_ptr_, end_ - lit_ptr_, bit_width_, k, buf_);
    lit_ptr_ += (k * bit_width_) >> 3;  // k is a multiple of 8 unless the run ends here
    lit_left_ -= k;
    buf_pos_ = 0;
    buf_len_ = k;
  }

  const BitUnpackKernels* kernels_ = &ActiveBitUnpackKernels();
  const uint8_t* begin_ = nullptr;
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
  const uint8_t* lit_ptr_ = nullptr;
  int bit_width_ = 0;
  int value_bytes_ = 0;
  int64_t rle_left_ = 0;
  uint32_t rle_value_ = 0;
  int64_t lit_left_ = 0;  // values of the current bit-packed run not yet unpacked
  int64_t buf_pos_ = 0;
  int64_t buf_len_ = 0;
  Error error_ = Error::kNone;
  uint32_t buf_[kBufSize];
};

inline bool RleBitPackedDecoder::NextRun() {
  while (true) {
    if (pos_ >= end_) {
      if (bit_width_ == 0) {
        rle_value_ = 0;
        rle_left_ = INT64_MAX;
        return true;
      }
      return false;
    }
    const uint8_t* header_at = pos_;
    uint64_t header;
    if (!ReadUleb128(pos_, end_, &header) || header > 0xffffffffull) [[unlikely]] {
      pos_ = header_at;
      error_ = Error::kBadHeader;
      return false;
    }
    if (header & 1) {
      const int64_t groups = static_cast<int64_t>(header >> 1);
      int64_t values = groups * 8;
      const int64_t bytes = groups * bit_width_;
      const int64_t avail = end_ - pos_;
      // A last run may declare more groups than the page holds bytes for; keep what is there.
      if (bytes > avail) values = avail * 8 / bit_width_;
      lit_ptr_ = pos_;
      lit_left_ = values;
      pos_ += std::min(bytes, avail);
      if (values > 0) return true;
    } else {
      if (end_ - pos_ < value_bytes_) [[unlikely]] {
        pos_ = header_at;
        error_ = Error::kTruncatedValue;
        return false;
      }
      uint32_t v = 0;
      std::memcpy(&v, pos_, static_cast<size_t>(value_bytes_));
      pos_ += value_bytes_;
      rle_value_ = v;
      rle_left_ = static_cast<int64_t>(header >> 1);
      if (rle_left_ > 0) return true;
    }
  }
}

template <typename T>
int64_t RleBitPackedDecoder::GetBatch(T* out, int64_t n) {
  static_assert(std::is_integral_v<T>, "RLE/bit-packed values are integers");
  int64_t done = 0;
  while (done < n) {
    if (buf_pos_ < buf_len_) {
      const int64_t k = std::min(n - done, buf_len_ - buf_pos_);
      if constexpr (sizeof(T) == 4) {
        std::memcpy(out + done, buf_ + buf_pos_, static_cast<size_t>(k) * 4);
      } else {
        for (int64_t i = 0; i < k; ++i) out[done + i] = static_cast<T>(buf_[buf_pos_ + i]);
      }
      buf_pos_ += k;
      done += k;
    } else if (rle_left_ > 0) {
      const int64_t k = std::min(n - done, rle_left_);
      std::fill(out + done, out + done + k, static_cast<T>(rle_value_));
      rle_left_ -= k;
      done += k;
    } else if (lit_left_ > 0) {
      if constexpr (sizeof(T) == 4) {
        const int64_t direct = std::min(n - done, lit_left_) & ~int64_t{7};
        if (direct > 0) {
          kernels_->unpack32(lit_ptr_, end_ - lit_ptr_, bit_width_, direct, reinterpret_cast<uint32_t*>(out + done));
          lit_ptr_ += (direct * bit_width_) >> 3;
          lit_left_ -= direct;
          done += direct;
          continue;
        }
      }
      FillBuffer();
    } else if (!NextRun()) {
      break;
    }
  }
  return done;
}

template <typename OnRun, typename OnLiterals>
int64_t RleBitPackedDecoder::Visit(int64_t n, OnRun&& on_run, OnLiterals&& on_literals) {
  int64_t done = 0;
  while (done < n) {
    if (buf_pos_ < buf_len_) {
      const int64_t k = std::min(n - done, buf_len_ - buf_pos_);
      on_literals(static_cast<const uint32_t*>(buf_ + buf_pos_), k);
      buf_pos_ += k;
      done += k;
    } else if (rle_left_ > 0) {
      const int64_t k = std::min(n - done, rle_left_);
      on_run(rle_value_, k);
      rle_left_ -= k;
      done += k;
    } else if (lit_left_ > 0) {
      FillBuffer();
    } else if (!NextRun()) {
      break;
    }
  }
  return done;
}

// Decodes `n` RLE/bit-packed booleans (bit width 1) into an LSB-first bitmap at `bit_offset`.
Status DecodeBooleanBitmap(RleBitPackedDecoder* decoder, int64_t n, uint8_t* bitmap, int64_t bit_offset);

// Encodes values of a fixed bit width (0..32) as RLE/bit-packed hybrid runs: runs of 8 or more
// equal values become RLE runs, the rest bit-packed groups of 8 (at most 63 groups per run so
// the run header stays one byte, written in place).
class RleBitPackedEncoder {
 public:
  explicit RleBitPackedEncoder(int bit_width = 1, MemoryPool* pool = default_memory_pool())
      : bit_width_(bit_width), out_(pool) {}

  // Drops everything and starts over with a new width.
  void Reset(int bit_width);
  int bit_width() const { return bit_width_; }

  template <typename T>
  Status Put(const T* values, int64_t n) {
    QUIVER_RETURN_NOT_OK(ReserveFor(n));
    for (int64_t i = 0; i < n; ++i) PutOne(static_cast<uint32_t>(values[i]));
    return Status::OK();
  }
  // `count` copies of one value (a whole all-valid or all-null stretch of levels).
  Status PutRepeated(uint32_t value, int64_t count);

  // Closes the open run; appends the encoded bytes to `out` and resets for the next page.
  Status Finish(BufferBuilder* out);
  // Bytes Finish would append, give or take the open run.
  int64_t EstimatedSize() const { return out_.size() + 8 + (bit_width_ + 7) / 8 + num_buffered_ * 4; }

  // Worst-case encoded size of n values of this width (what a page writer may reserve).
  static int64_t MaxEncodedSize(int bit_width, int64_t n);

 private:
  Status ReserveFor(int64_t n);
  void PutOne(uint32_t v) {
    if (v == current_ && repeat_count_ > 0) {
      ++repeat_count_;
      if (repeat_count_ > 8) return;  // the run is already committed; nothing to buffer
    } else {
      if (repeat_count_ >= 8) FlushRepeatedRun();
      repeat_count_ = 1;
      current_ = v;
    }
    buffered_[num_buffered_++] = v;
    if (num_buffered_ == 8) FlushBuffered(false);
  }
  void FlushBuffered(bool done);
  void FlushLiteralRun(bool close);
  void FlushRepeatedRun();

  int bit_width_;
  BufferBuilder out_;
  uint32_t buffered_[8] = {};
  int num_buffered_ = 0;
  uint32_t current_ = 0;
  int64_t repeat_count_ = 0;
  int64_t literal_count_ = 0;
  int64_t indicator_at_ = -1;  // offset of the reserved header byte of the open bit-packed run
};

// Deprecated BIT_PACKED encoding (levels in old files): values packed MOST significant bit
// first, no runs, no length prefix. Reads ceil(n * bit_width / 8) bytes; Corrupt when short.
Status DecodeLegacyBitPacked(const uint8_t* data, int64_t size, int bit_width, int64_t n, int16_t* out);
Status EncodeLegacyBitPacked(const int16_t* values, int64_t n, int bit_width, BufferBuilder* out);

}  // namespace quiver::parquet::encoding

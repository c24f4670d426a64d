// ORC's run-length encodings over one decompressed stream: byte RLE, boolean RLE (byte RLE of
// MSB-first bit bytes), integer RLE v1 and v2 (short repeat, direct, patched base, delta) and
// the base-128 varints of decimals. Decoders fill caller arrays a batch at a time; a malformed
// stream makes Decode return false and error() say why (no Status per value).
#pragma once

#include <cstdint>
#include <algorithm>
#include <cstring>

namespace quiver::orc::rle {

class ByteSource;

// More than any one run takes in its stream (an RLE v2 patched base of 512 64-bit values with
// its patch list is under 4.5 KiB; a v1 literal of 128 varints 1,281 bytes): decoders Ensure
// this much before reading a run.
constexpr int64_t kMaxRunBytes = 8192;

// Supplies more of a stream to a ByteSource that ran short (ChunkedStream: the next chunks).
class Refiller {
 public:
  virtual ~Refiller() = default;
  // Makes at least `want` bytes from the source's position contiguous (fewer only at the
  // stream's end); false when the stream is damaged (error() says how).
  virtual bool Refill(ByteSource* src, int64_t want) = 0;
  // With the window consumed: expands the next chunk straight into `out` when it fits `n`
  // bytes (no copy through the window); the bytes written, 0 when it does not fit or the
  // stream ended, -1 when it is damaged.
  virtual int64_t ExpandInto(uint8_t* out, int64_t n) = 0;
  virtual const char* error() const = 0;
};

// Reads bytes of one stream with bounds checks. Over a whole stream in memory, or over a window
// that a Refiller moves along the stream: decoders call Ensure before a run (one check per run,
// not per byte), so a run never straddles the window's end.
class ByteSource {
 public:
  ByteSource() = default;
  ByteSource(const uint8_t* data, int64_t size, Refiller* more = nullptr) : p_(data), end_(data + size), more_(more) {}
  bool empty() const { return p_ >= end_; }
  // Bytes in the window (the whole rest of the stream when it is in memory).
  int64_t remaining() const { return end_ - p_; }
  const uint8_t* pos() const { return p_; }
  void advance(int64_t n) { p_ += n; }
  // At least `n` bytes contiguous from pos(), or the rest of the stream; false on damage.
  bool Ensure(int64_t n) {
    if (end_ - p_ >= n || more_ == nullptr) return true;
    return more_->Refill(this, n);
  }
  // The refiller's reason, after Ensure or Read failed (null when the stream merely ended).
  const char* refill_error() const { return more_ ? more_->error() : nullptr; }
  // Copies the next n bytes, across windows; false when the stream ends first or is damaged.
  bool Read(uint8_t* out, int64_t n) {
    while (n > 0) {
      if (p_ >= end_) {
        if (more_ == nullptr) return false;
        const int64_t direct = more_->ExpandInto(out, n);
        if (direct < 0) return false;
        if (direct > 0) {
          out += direct;
          n -= direct;
          continue;
        }
        if (!more_->Refill(this, 1) || p_ >= end_) return false;
      }
      const int64_t k = std::min<int64_t>(n, end_ - p_);
      std::memcpy(out, p_, static_cast<size_t>(k));
      p_ += k;
      out += k;
      n -= k;
    }
    return true;
  }
  bool ReadByte(uint8_t* b) {
    if (p_ >= end_) return false;
    *b = *p_++;
    return true;
  }
  bool ReadVarint(uint64_t* v) {
    uint64_t r = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p_ >= end_) return false;
      uint8_t b = *p_++;
      r |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        *v = r;
        return true;
      }
    }
    return false;
  }
  // For a Refiller: the new window.
  void Reset(const uint8_t* data, int64_t size) {
    p_ = data;
    end_ = data + size;
  }

 private:
  const uint8_t* p_ = nullptr;
  const uint8_t* end_ = nullptr;
  Refiller* more_ = nullptr;
};

// Byte RLE: a control byte 0..127 is a run of control + 3 copies of the next byte; 128..255 a
// literal of 256 - control bytes.
class ByteRleDecoder {
 public:
  ByteRleDecoder() = default;
  explicit ByteRleDecoder(ByteSource src) : src_(src) {}
  bool Decode(uint8_t* out, int64_t n);
  bool Skip(int64_t n);
  const char* error() const { return error_; }

 private:
  bool NextRun();
  ByteSource src_;
  int64_t left_ = 0;  // values left in the current run
  bool literal_ = false;
  uint8_t value_ = 0;
  const char* error_ = nullptr;
};

// Booleans: byte RLE of bytes whose bits (most significant first) are the values. Decode writes
// an LSB-first bitmap (Arrow's order) starting at bit `out_bit`.
class BoolRleDecoder {
 public:
  BoolRleDecoder() = default;
  explicit BoolRleDecoder(ByteSource src) : bytes_(src) {}
  bool Decode(uint8_t* bitmap, int64_t out_bit, int64_t n);
  bool Skip(int64_t n);
  const char* error() const { return bytes_.error() ? bytes_.error() : error_; }

 private:
  ByteRleDecoder bytes_;
  uint8_t current_ = 0;
  int bits_left_ = 0;
  const char* error_ = nullptr;
};

// Integer RLE, version 1 or 2, signed (zigzag) or not. Decode writes int64 values.
class IntRleDecoder {
 public:
  IntRleDecoder() = default;
  IntRleDecoder(ByteSource src, bool is_signed, bool v2) : src_(src), signed_(is_signed), v2_(v2) {}
  bool Decode(int64_t* out, int64_t n);
  bool Skip(int64_t n);
  const char* error() const { return error_; }

 private:
  // The next run into dst (run_, or the caller's output when it has room for 512 values);
  // its length in run_len_. v1 runs always go to run_ or are generated.
  bool NextRun(int64_t* dst);
  bool NextRunV1();
  bool ShortRepeat(uint8_t header, int64_t* dst);
  bool Direct(uint8_t header, int64_t* dst);
  bool PatchedBase(uint8_t header, int64_t* dst);
  bool Delta(uint8_t header, int64_t* dst);
  bool Fail(const char* why) {
    if (error_ == nullptr) error_ = why;
    return false;
  }

  ByteSource src_;
  bool signed_ = false, v2_ = true;
  // The current run, decoded whole (at most 512 values in v2, 130 in v1).
  int64_t run_[512];
  int run_len_ = 0, run_pos_ = 0;
  // A v1 run is generated, not stored: base + i * delta.
  int64_t v1_base_ = 0, v1_delta_ = 0;
  int v1_run_left_ = 0;
  const char* error_ = nullptr;
};

// Big-endian (most significant bit first) bit unpacking of `n` values of `width` bits
// (1..64) from `src`; false when the stream ends first.
bool UnpackBigEndian(ByteSource* src, int width, int64_t n, int64_t* out);

// RLE v2's 5-bit width codes.
int DecodeBitWidth(int code);
int ClosestFixedBits(int bits);

}  // namespace quiver::orc::rle

// ORC's run-length encodings over one decompressed stream: byte RLE, boolean RLE (byte RLE of
// MSB-first bit bytes), integer RLE v1 and v2 (short repeat, direct, patched base, delta) and
// the base-128 varints of decimals. Decoders fill caller arrays a batch at a time; a malformed
// stream makes Decode return false and error() say why (no Status per value).
#pragma once

#include <cstdint>
#include <cstring>

namespace quiver::orc::rle {

// Reads bytes of one stream with bounds checks.
class ByteSource {
 public:
  ByteSource() = default;
  ByteSource(const uint8_t* data, int64_t size) : p_(data), end_(data + size) {}
  bool empty() const { return p_ >= end_; }
  int64_t remaining() const { return end_ - p_; }
  const uint8_t* pos() const { return p_; }
  void advance(int64_t n) { p_ += n; }
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

 private:
  const uint8_t* p_ = nullptr;
  const uint8_t* end_ = nullptr;
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
  bool NextRun();
  bool NextRunV1();
  bool ShortRepeat(uint8_t header);
  bool Direct(uint8_t header);
  bool PatchedBase(uint8_t header);
  bool Delta(uint8_t header);
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

// ORC's run-length encoders as the writer feeds them: byte RLE (runs of 3..130 equal bytes,
// literal groups of up to 128), boolean RLE (bits MSB first into byte RLE) and integer RLE v2,
// which picks per block of up to 512 values the smallest of short repeat, direct, patched base
// and delta. Each writes into an OutStream and flushes at row-group boundaries, so a row index
// position is a stream position and a count of 0 (booleans: and the bits already in the byte).
#pragma once

#include <cstdint>
#include <vector>

#include "quiver/orc/writer/out_stream_internal.h"

namespace quiver::orc::writer {

class ByteRleEncoder {
 public:
  explicit ByteRleEncoder(OutStream* out) : out_(out) {}
  void Add(uint8_t v) {
    if (run_ > 0) {
      if (v == run_value_ && run_ < kMaxRun) [[likely]] {
        ++run_;
        return;
      }
      EmitRun();
    }
    tail_ = n_ > 0 && lit_[n_ - 1] == v ? tail_ + 1 : 1;
    lit_[n_++] = v;
    if (tail_ == kMinRun || n_ == kMaxLiterals) Settle();
  }
  // Writes what is buffered.
  void Flush();
  // Flushes, then the stream position and a run offset of 0.
  void RecordPosition(std::vector<uint64_t>* positions);

 private:
  static constexpr int kMinRun = 3, kMaxRun = 130, kMaxLiterals = 128;
  void Settle();  // a run of kMinRun began at the literals' end, or the literals are full
  void EmitRun();
  void EmitLiterals(int n);

  OutStream* out_;
  uint8_t lit_[kMaxLiterals];
  int n_ = 0, tail_ = 0;  // literals, and how many of the last ones are equal
  int run_ = 0;           // > 0 while in a run of run_value_
  uint8_t run_value_ = 0;
};

class BooleanRleEncoder {
 public:
  explicit BooleanRleEncoder(OutStream* out) : bytes_(out) {}
  void Add(bool v) {
    current_ = static_cast<uint8_t>(current_ | (v ? 0x80u >> bits_ : 0u));
    if (++bits_ == 8) {
      const uint8_t b = current_;
      current_ = 0;
      bits_ = 0;
      bytes_.Add(b);
    }
  }
  // `n` copies of `v`, whole bytes at a time.
  void AddRepeated(bool v, int64_t n);
  // Bits [offset, offset + n) of an Arrow (LSB-first) bitmap.
  void AddBitmap(const uint8_t* bitmap, int64_t offset, int64_t n);
  // The last byte padded with zero bits, then the byte RLE flushed.
  void Flush();
  // Byte RLE position, then the bits of the current byte already used.
  void RecordPosition(std::vector<uint64_t>* positions);

 private:
  ByteRleEncoder bytes_;
  uint8_t current_ = 0;
  int bits_ = 0;
};

class IntRleV2Encoder {
 public:
  // Signed streams zigzag their values; unsigned ones (lengths, dictionary ids, nanoseconds)
  // take values in [0, 2^63).
  IntRleV2Encoder(OutStream* out, bool is_signed) : out_(out), signed_(is_signed) {}
  void Add(int64_t v) {
    if (n_ > 0 && v == lit_[n_ - 1]) {
      ++run_;
    } else {
      if (run_ >= kMinRun) EndRun();
      run_ = 1;
    }
    lit_[n_++] = v;
    if (n_ == kMaxValues) Full();
  }
  void Flush();
  // Flushes, then the stream position and a value offset of 0.
  void RecordPosition(std::vector<uint64_t>* positions);

 private:
  static constexpr int kMinRun = 3, kMaxShortRepeat = 10, kMaxValues = 512;
  void EndRun();  // the trailing run of run_ equal values is over: literals before it, then it
  void Full();
  void EmitRun(int64_t v, int count);
  void EmitBlock(const int64_t* v, int n);  // direct, patched base or delta, the smallest

  OutStream* out_;
  bool signed_;
  int n_ = 0, run_ = 0;
  int64_t lit_[kMaxValues];
  uint64_t scratch_[kMaxValues];
  uint8_t bytes_[kMaxValues * 8 + 64 + 32 * 16];
};

}  // namespace quiver::orc::writer

#include "quiver/orc/writer/rle_internal.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace quiver::orc::writer {

// --- byte RLE

void ByteRleEncoder::Settle() {
  if (tail_ == kMinRun) {
    if (n_ > kMinRun) EmitLiterals(n_ - kMinRun);
    run_value_ = lit_[n_ - 1];
    run_ = kMinRun;
    n_ = 0;
    tail_ = 0;
    return;
  }
  EmitLiterals(n_);
  n_ = 0;
  tail_ = 0;
}

void ByteRleEncoder::EmitRun() {
  const uint8_t head[2] = {static_cast<uint8_t>(run_ - kMinRun), run_value_};
  run_ = 0;
  out_->Write(head, 2);
}

void ByteRleEncoder::EmitLiterals(int n) {
  out_->WriteByte(static_cast<uint8_t>(-n));
  out_->Write(lit_, n);
}

void ByteRleEncoder::Flush() {
  if (run_ > 0) {
    EmitRun();
    return;
  }
  if (n_ > 0) EmitLiterals(n_);
  n_ = 0;
  tail_ = 0;
}

void ByteRleEncoder::RecordPosition(std::vector<uint64_t>* positions) {
  Flush();
  out_->RecordPosition(positions);
  positions->push_back(0);
}

// --- boolean RLE

void BooleanRleEncoder::AddRepeated(bool v, int64_t n) {
  while (n > 0 && bits_ != 0) {
    Add(v);
    --n;
  }
  const uint8_t byte = v ? 0xff : 0x00;
  for (; n >= 8; n -= 8) bytes_.Add(byte);
  for (; n > 0; --n) Add(v);
}

void BooleanRleEncoder::AddBitmap(const uint8_t* bitmap, int64_t offset, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const int64_t bit = offset + i;
    Add((bitmap[bit >> 3] >> (bit & 7)) & 1);
  }
}

void BooleanRleEncoder::Flush() {
  if (bits_ > 0) {
    const uint8_t b = current_;
    current_ = 0;
    bits_ = 0;
    bytes_.Add(b);
  }
  bytes_.Flush();
}

void BooleanRleEncoder::RecordPosition(std::vector<uint64_t>* positions) {
  bytes_.RecordPosition(positions);
  positions->push_back(static_cast<uint64_t>(bits_));
}

// --- integer RLE v2

namespace {

inline int BitsOf(uint64_t v) { return 64 - std::countl_zero(v); }

// The widths the 5-bit width code can name.
inline int ClosestFixedBits(int bits) {
  if (bits <= 1) return 1;
  if (bits <= 24) return bits;
  if (bits <= 26) return 26;
  if (bits <= 28) return 28;
  if (bits <= 30) return 30;
  if (bits <= 32) return 32;
  if (bits <= 40) return 40;
  if (bits <= 48) return 48;
  if (bits <= 56) return 56;
  return 64;
}

// Byte-friendly widths, for delta blocks (as the specification's example writes them).
inline int AlignedBits(int bits) {
  if (bits <= 1) return 1;
  if (bits <= 2) return 2;
  if (bits <= 4) return 4;
  if (bits <= 8) return 8;
  return ClosestFixedBits(bits);
}

inline uint32_t WidthCode(int width) {
  if (width <= 24) return static_cast<uint32_t>(width - 1);
  switch (width) {
    case 26: return 24;
    case 28: return 25;
    case 30: return 26;
    case 32: return 27;
    case 40: return 28;
    case 48: return 29;
    case 56: return 30;
    default: return 31;
  }
}

inline uint64_t ZigZag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }

inline uint8_t* PutVarint(uint8_t* p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<uint8_t>(v);
  return p;
}

inline int VarintSize(uint64_t v) { return v == 0 ? 1 : (BitsOf(v) + 6) / 7; }

// `n` values of `width` bits, most significant bit first, the last byte padded with zeros.
uint8_t* PackBits(const uint64_t* v, int n, int width, uint8_t* p) {
  if (width % 8 == 0) {
    const int bytes = width / 8;
    for (int i = 0; i < n; ++i) {
      for (int b = bytes - 1; b >= 0; --b) *p++ = static_cast<uint8_t>(v[i] >> (8 * b));
    }
    return p;
  }
  uint64_t acc = 0;  // width <= 30 here: the pending bits never pass 38
  int bits = 0;
  const uint64_t mask = (uint64_t{1} << width) - 1;
  for (int i = 0; i < n; ++i) {
    acc = acc << width | (v[i] & mask);
    bits += width;
    while (bits >= 8) {
      bits -= 8;
      *p++ = static_cast<uint8_t>(acc >> bits);
    }
  }
  if (bits > 0) *p++ = static_cast<uint8_t>(acc << (8 - bits));
  return p;
}

}  // namespace

void IntRleV2Encoder::EmitRun(int64_t v, int count) {
  uint8_t* p = bytes_;
  const uint64_t u = signed_ ? ZigZag(v) : static_cast<uint64_t>(v);
  if (count <= kMaxShortRepeat) {
    const int width = std::max(1, (BitsOf(u) + 7) / 8);
    *p++ = static_cast<uint8_t>((width - 1) << 3 | (count - 3));
    for (int b = width - 1; b >= 0; --b) *p++ = static_cast<uint8_t>(u >> (8 * b));
  } else {  // delta with a fixed delta of 0
    *p++ = static_cast<uint8_t>(0xc0 | ((count - 1) >> 8));
    *p++ = static_cast<uint8_t>(count - 1);
    p = PutVarint(p, u);
    *p++ = 0;
  }
  out_->Write(bytes_, p - bytes_);
}

void IntRleV2Encoder::EmitBlock(const int64_t* v, int n) {
  if (n == 0) return;
  // Direct: every value (zigzagged when signed) at the width of the largest.
  uint64_t* u = scratch_;
  uint64_t all = 0;
  for (int i = 0; i < n; ++i) {
    u[i] = signed_ ? ZigZag(v[i]) : static_cast<uint64_t>(v[i]);
    all |= u[i];
  }
  const int direct_width = ClosestFixedBits(BitsOf(all));
  const int64_t direct_cost = 2 + (int64_t{n} * direct_width + 7) / 8;

  // Delta: monotone values whose differences fit int64.
  int64_t delta_cost = INT64_MAX;
  int delta_width = 0;  // 0: every difference equals the first
  int64_t delta_base = 0;
  if (n >= 2) {
    bool ok = !__builtin_sub_overflow(v[1], v[0], &delta_base);
    const bool rising = delta_base >= 0;
    bool fixed = true;
    uint64_t max_step = 0;
    for (int i = 2; ok && i < n; ++i) {
      int64_t d;
      if (__builtin_sub_overflow(v[i], v[i - 1], &d) || (rising ? d < 0 : d > 0)) {
        ok = false;
        break;
      }
      fixed &= d == delta_base;
      max_step = std::max(max_step, rising ? static_cast<uint64_t>(d) : 0 - static_cast<uint64_t>(d));
    }
    if (ok) {
      // Width code 0 means a fixed delta, so a varying delta takes at least 2 bits.
      delta_width = fixed ? 0 : std::max(2, AlignedBits(BitsOf(max_step)));
      const uint64_t base = signed_ ? ZigZag(v[0]) : static_cast<uint64_t>(v[0]);
      delta_cost = 2 + VarintSize(base) + VarintSize(ZigZag(delta_base)) + (int64_t{n - 2} * delta_width + 7) / 8;
    }
  }

  // Patched base: values less their minimum at the width that holds 95% of them, the rest
  // patched from a list of (gap, high bits) entries.
  int64_t patched_cost = INT64_MAX;
  int pb_width = 0, patch_width = 0, gap_width = 0, base_bytes = 0, patch_entries = 0;
  int64_t base = 0;
  if (n >= 8 && direct_width > 1) {
    base = *std::min_element(v, v + n);
    int histogram[65] = {};
    uint64_t max_adjusted = 0;
    for (int i = 0; i < n; ++i) {
      const uint64_t a = static_cast<uint64_t>(v[i]) - static_cast<uint64_t>(base);
      ++histogram[BitsOf(a)];
      max_adjusted = std::max(max_adjusted, a);
    }
    const int want = (n * 95 + 99) / 100;
    int covered = 0, p95 = 0;
    while (covered + histogram[p95] < want) covered += histogram[p95++];
    pb_width = ClosestFixedBits(p95);
    const int max_bits = BitsOf(max_adjusted);
    if (max_bits > pb_width && base != INT64_MIN) {
      patch_width = ClosestFixedBits(max_bits - pb_width);
      const uint64_t magnitude = base < 0 ? 0 - static_cast<uint64_t>(base) : static_cast<uint64_t>(base);
      base_bytes = (BitsOf(magnitude) + 1 + 7) / 8;  // with the sign bit
      int last = 0, max_gap = 0;
      for (int i = 0; i < n; ++i) {
        const uint64_t a = static_cast<uint64_t>(v[i]) - static_cast<uint64_t>(base);
        if (a >> pb_width == 0) continue;
        int gap = i - last;
        while (gap > 255) {  // a filler entry with no patch bits
          ++patch_entries;
          gap -= 255;
          max_gap = 255;
        }
        max_gap = std::max(max_gap, gap);
        ++patch_entries;
        last = i;
      }
      gap_width = std::max(1, BitsOf(static_cast<uint64_t>(max_gap)));
      if (base_bytes <= 8 && patch_entries <= 31 && gap_width + patch_width <= 64) {
        const int entry_width = ClosestFixedBits(gap_width + patch_width);
        patched_cost = 4 + base_bytes + (int64_t{n} * pb_width + 7) / 8 + (int64_t{patch_entries} * entry_width + 7) / 8;
      }
    }
  }

  uint8_t* p = bytes_;
  const int len = n - 1;
  if (delta_cost <= direct_cost && delta_cost <= patched_cost) {
    const uint32_t code = delta_width == 0 ? 0 : WidthCode(delta_width);
    *p++ = static_cast<uint8_t>(0xc0 | code << 1 | static_cast<uint32_t>(len >> 8));
    *p++ = static_cast<uint8_t>(len);
    p = PutVarint(p, signed_ ? ZigZag(v[0]) : static_cast<uint64_t>(v[0]));
    p = PutVarint(p, ZigZag(delta_base));
    if (delta_width > 0) {
      for (int i = 2; i < n; ++i) {
        const uint64_t d = static_cast<uint64_t>(v[i]) - static_cast<uint64_t>(v[i - 1]);
        u[i - 2] = delta_base >= 0 ? d : 0 - d;
      }
      p = PackBits(u, n - 2, delta_width, p);
    }
  } else if (direct_cost <= patched_cost) {
    *p++ = static_cast<uint8_t>(0x40 | WidthCode(direct_width) << 1 | static_cast<uint32_t>(len >> 8));
    *p++ = static_cast<uint8_t>(len);
    p = PackBits(u, n, direct_width, p);
  } else {
    *p++ = static_cast<uint8_t>(0x80 | WidthCode(pb_width) << 1 | static_cast<uint32_t>(len >> 8));
    *p++ = static_cast<uint8_t>(len);
    *p++ = static_cast<uint8_t>((base_bytes - 1) << 5 | WidthCode(patch_width));
    *p++ = static_cast<uint8_t>((gap_width - 1) << 5 | patch_entries);
    const uint64_t magnitude = base < 0 ? 0 - static_cast<uint64_t>(base) : static_cast<uint64_t>(base);
    const uint64_t stored = magnitude | (base < 0 ? uint64_t{1} << (8 * base_bytes - 1) : 0);
    for (int b = base_bytes - 1; b >= 0; --b) *p++ = static_cast<uint8_t>(stored >> (8 * b));
    const uint64_t low_mask = pb_width == 64 ? ~uint64_t{0} : (uint64_t{1} << pb_width) - 1;
    for (int i = 0; i < n; ++i) u[i] = (static_cast<uint64_t>(v[i]) - static_cast<uint64_t>(base)) & low_mask;
    p = PackBits(u, n, pb_width, p);
    // The patch list, reusing u for its entries.
    int entries = 0, last = 0;
    for (int i = 0; i < n; ++i) {
      const uint64_t a = static_cast<uint64_t>(v[i]) - static_cast<uint64_t>(base);
      if (a >> pb_width == 0) continue;
      int gap = i - last;
      while (gap > 255) {
        u[entries++] = uint64_t{255} << patch_width;
        gap -= 255;
      }
      u[entries++] = static_cast<uint64_t>(gap) << patch_width | a >> pb_width;
      last = i;
    }
    p = PackBits(u, entries, ClosestFixedBits(gap_width + patch_width), p);
  }
  out_->Write(bytes_, p - bytes_);
}

void IntRleV2Encoder::EndRun() {
  EmitBlock(lit_, n_ - run_);
  EmitRun(lit_[n_ - 1], run_);
  n_ = 0;
  run_ = 0;
}

void IntRleV2Encoder::Full() {
  if (run_ >= kMinRun) {
    EndRun();
    return;
  }
  EmitBlock(lit_, n_);
  n_ = 0;
  run_ = 0;
}

void IntRleV2Encoder::Flush() {
  if (n_ == 0) return;
  Full();
}

void IntRleV2Encoder::RecordPosition(std::vector<uint64_t>* positions) {
  Flush();
  out_->RecordPosition(positions);
  positions->push_back(0);
}

}  // namespace quiver::orc::writer

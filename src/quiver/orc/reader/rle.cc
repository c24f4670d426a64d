// ORC's run-length decoders (rle_internal.h). Runs are decoded whole into a small array and
// copied out in batches; v1 runs are generated from base and delta.
#include <algorithm>

#include "quiver/orc/reader/rle_internal.h"

namespace quiver::orc::rle {

bool ByteRleDecoder::NextRun() {
  if (!src_.Ensure(kMaxRunBytes)) {
    error_ = src_.refill_error();
    return false;
  }
  uint8_t control;
  if (!src_.ReadByte(&control)) {
    error_ = "byte RLE stream ends early";
    return false;
  }
  if (control < 0x80) {
    literal_ = false;
    left_ = control + 3;
    if (!src_.ReadByte(&value_)) {
      error_ = "byte RLE stream ends inside a run";
      return false;
    }
  } else {
    literal_ = true;
    left_ = 0x100 - control;
    if (src_.remaining() < left_) {
      error_ = "byte RLE literal runs past the end of the stream";
      return false;
    }
  }
  return true;
}

bool ByteRleDecoder::Decode(uint8_t* out, int64_t n) {
  while (n > 0) {
    if (left_ == 0 && !NextRun()) return false;
    int64_t k = std::min(left_, n);
    if (literal_) {
      std::memcpy(out, src_.pos(), static_cast<size_t>(k));
      src_.advance(k);
    } else {
      std::memset(out, value_, static_cast<size_t>(k));
    }
    out += k;
    n -= k;
    left_ -= k;
  }
  return true;
}

bool ByteRleDecoder::Skip(int64_t n) {
  while (n > 0) {
    if (left_ == 0 && !NextRun()) return false;
    int64_t k = std::min(left_, n);
    if (literal_) src_.advance(k);
    n -= k;
    left_ -= k;
  }
  return true;
}

bool BoolRleDecoder::Decode(uint8_t* bitmap, int64_t out_bit, int64_t n) {
  // Bits left over from the last byte first, then whole bytes (bit-reversed into LSB order).
  while (n > 0 && bits_left_ > 0) {
    bool v = (current_ >> (bits_left_ - 1)) & 1;
    bitmap[out_bit >> 3] = static_cast<uint8_t>((bitmap[out_bit >> 3] & ~(1u << (out_bit & 7))) | (v << (out_bit & 7)));
    ++out_bit;
    --bits_left_;
    --n;
  }
  uint8_t tmp[256];
  while (n > 0) {
    int64_t nbytes = std::min<int64_t>((n + 7) / 8, sizeof(tmp));
    if (!bytes_.Decode(tmp, nbytes)) return false;
    for (int64_t b = 0; b < nbytes; ++b) {
      uint8_t byte = tmp[b];
      int take = static_cast<int>(std::min<int64_t>(8, n));
      if (take == 8 && (out_bit & 7) == 0) {
        // MSB-first to LSB-first.
        byte = static_cast<uint8_t>(((byte * 0x0802LU & 0x22110LU) | (byte * 0x8020LU & 0x88440LU)) * 0x10101LU >> 16);
        bitmap[out_bit >> 3] = byte;
        out_bit += 8;
        n -= 8;
        continue;
      }
      for (int i = 0; i < take; ++i) {
        bool v = (byte >> (7 - i)) & 1;
        bitmap[out_bit >> 3] =
            static_cast<uint8_t>((bitmap[out_bit >> 3] & ~(1u << (out_bit & 7))) | (v << (out_bit & 7)));
        ++out_bit;
      }
      n -= take;
      if (take < 8) {
        current_ = byte;
        bits_left_ = 8 - take;
      }
    }
  }
  return true;
}

bool BoolRleDecoder::Skip(int64_t n) {
  int64_t k = std::min<int64_t>(n, bits_left_);
  bits_left_ -= static_cast<int>(k);
  n -= k;
  if (n == 0) return true;
  if (!bytes_.Skip(n / 8)) return false;
  n %= 8;
  if (n > 0) {
    if (!bytes_.Decode(&current_, 1)) return false;
    bits_left_ = 8 - static_cast<int>(n);
  }
  return true;
}

int DecodeBitWidth(int code) {
  if (code <= 23) return code + 1;
  static const int kWide[] = {26, 28, 30, 32, 40, 48, 56, 64};
  return kWide[code - 24];
}

int ClosestFixedBits(int n) {
  if (n == 0) return 1;
  if (n <= 24) return n;
  for (int w : {26, 28, 30, 32, 40, 48, 56}) {
    if (n <= w) return w;
  }
  return 64;
}

bool UnpackBigEndian(ByteSource* src, int width, int64_t n, int64_t* out) {
  const int64_t bytes = (n * width + 7) / 8;
  if (src->remaining() < bytes) return false;
  const uint8_t* p = src->pos();
  switch (width) {
    case 8:
      for (int64_t i = 0; i < n; ++i) out[i] = p[i];
      break;
    case 16:
      for (int64_t i = 0; i < n; ++i) out[i] = static_cast<int64_t>(p[2 * i]) << 8 | p[2 * i + 1];
      break;
    case 32:
      for (int64_t i = 0; i < n; ++i) {
        uint32_t v;
        std::memcpy(&v, p + 4 * i, 4);
        out[i] = __builtin_bswap32(v);
      }
      break;
    case 64:
      for (int64_t i = 0; i < n; ++i) {
        uint64_t v;
        std::memcpy(&v, p + 8 * i, 8);
        out[i] = static_cast<int64_t>(__builtin_bswap64(v));
      }
      break;
    default: {
      if (width <= 56 && src->remaining() >= bytes + 8) {
        // Each value from one unaligned 64-bit big-endian load at its first byte (a width of at
        // most 56 bits plus its bit offset fits the word); the stream holds 8 more bytes.
        for (int64_t i = 0; i < n; ++i) {
          const uint64_t bit = static_cast<uint64_t>(i) * static_cast<uint64_t>(width);
          uint64_t w;
          std::memcpy(&w, p + (bit >> 3), 8);
          out[i] = static_cast<int64_t>((__builtin_bswap64(w) << (bit & 7)) >> (64 - width));
        }
        break;
      }
      // A 64-bit window refilled a byte at a time; widths above 56 take two steps.
      uint64_t acc = 0;
      int have = 0;
      const uint8_t* q = p;
      if (width <= 56) {
        const uint64_t mask = (uint64_t{1} << width) - 1;
        for (int64_t i = 0; i < n; ++i) {
          while (have < width) {
            acc = acc << 8 | *q++;
            have += 8;
          }
          have -= width;
          out[i] = static_cast<int64_t>((acc >> have) & mask);
        }
      } else {
        for (int64_t i = 0; i < n; ++i) {
          uint64_t v = 0;
          int need = width;
          while (need > 0) {
            if (have == 0) {
              acc = *q++;
              have = 8;
            }
            int take = std::min(need, have);
            v = v << take | ((acc >> (have - take)) & ((1u << take) - 1));
            have -= take;
            need -= take;
          }
          out[i] = static_cast<int64_t>(v);
        }
      }
      break;
    }
  }
  src->advance(bytes);
  return true;
}

namespace {
inline int64_t Unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }
}  // namespace

bool IntRleDecoder::ShortRepeat(uint8_t header, int64_t* dst) {
  int width = ((header >> 3) & 7) + 1;
  int count = (header & 7) + 3;
  if (src_.remaining() < width) return Fail("integer RLE v2 short repeat runs past the end of the stream");
  uint64_t v = 0;
  for (int i = 0; i < width; ++i) v = v << 8 | src_.pos()[i];
  src_.advance(width);
  int64_t value = signed_ ? Unzigzag(v) : static_cast<int64_t>(v);
  std::fill(dst, dst + count, value);
  run_len_ = count;
  return true;
}

bool IntRleDecoder::Direct(uint8_t header, int64_t* dst) {
  uint8_t second;
  if (!src_.ReadByte(&second)) return Fail("integer RLE v2 header runs past the end of the stream");
  int width = DecodeBitWidth((header >> 1) & 0x1f);
  int count = ((header & 1) << 8 | second) + 1;
  if (!UnpackBigEndian(&src_, width, count, dst)) return Fail("integer RLE v2 direct run past the end of the stream");
  if (signed_) {
    for (int i = 0; i < count; ++i) dst[i] = Unzigzag(static_cast<uint64_t>(dst[i]));
  }
  run_len_ = count;
  return true;
}

bool IntRleDecoder::PatchedBase(uint8_t header, int64_t* dst) {
  if (src_.remaining() < 3) return Fail("integer RLE v2 header runs past the end of the stream");
  const uint8_t* h = src_.pos();
  src_.advance(3);
  int width = DecodeBitWidth((header >> 1) & 0x1f);
  int count = ((header & 1) << 8 | h[0]) + 1;
  int base_bytes = ((h[1] >> 5) & 7) + 1;
  int patch_width = DecodeBitWidth(h[1] & 0x1f);
  int gap_width = ((h[2] >> 5) & 7) + 1;
  int patches = h[2] & 0x1f;
  if (src_.remaining() < base_bytes) return Fail("integer RLE v2 patched base runs past the end of the stream");
  uint64_t b = 0;
  for (int i = 0; i < base_bytes; ++i) b = b << 8 | src_.pos()[i];
  src_.advance(base_bytes);
  // The base is sign-magnitude: its top bit is the sign.
  const uint64_t sign_bit = uint64_t{1} << (base_bytes * 8 - 1);
  int64_t base = (b & sign_bit) ? -static_cast<int64_t>(b & ~sign_bit) : static_cast<int64_t>(b);
  if (!UnpackBigEndian(&src_, width, count, dst)) return Fail("integer RLE v2 patched base run past the end of the stream");
  if (patch_width + gap_width > 64) return Fail("integer RLE v2 patch wider than 64 bits");
  int entry_width = ClosestFixedBits(patch_width + gap_width);
  int64_t entries[32];
  if (!UnpackBigEndian(&src_, entry_width, patches, entries)) return Fail("integer RLE v2 patch list past the end of the stream");
  int64_t pos = 0;
  const uint64_t patch_mask = patch_width >= 64 ? ~uint64_t{0} : (uint64_t{1} << patch_width) - 1;
  for (int i = 0; i < patches; ++i) {
    uint64_t e = static_cast<uint64_t>(entries[i]);
    pos += static_cast<int64_t>(patch_width >= 64 ? 0 : e >> patch_width);
    uint64_t patch = e & patch_mask;
    if (patch == 0) continue;  // a gap longer than 255 is written as patches of 0
    if (pos >= count) return Fail("integer RLE v2 patch past the end of its run");
    if (width < 64) dst[pos] = static_cast<int64_t>(static_cast<uint64_t>(dst[pos]) | patch << width);
  }
  for (int i = 0; i < count; ++i) dst[i] = static_cast<int64_t>(static_cast<uint64_t>(base) + static_cast<uint64_t>(dst[i]));
  run_len_ = count;
  return true;
}

bool IntRleDecoder::Delta(uint8_t header, int64_t* dst) {
  uint8_t second;
  if (!src_.ReadByte(&second)) return Fail("integer RLE v2 header runs past the end of the stream");
  int code = (header >> 1) & 0x1f;
  int width = code == 0 ? 0 : DecodeBitWidth(code);
  int count = ((header & 1) << 8 | second) + 1;
  uint64_t raw;
  if (!src_.ReadVarint(&raw)) return Fail("integer RLE v2 delta base past the end of the stream");
  int64_t base = signed_ ? Unzigzag(raw) : static_cast<int64_t>(raw);
  if (!src_.ReadVarint(&raw)) return Fail("integer RLE v2 delta past the end of the stream");
  int64_t delta = Unzigzag(raw);
  dst[0] = base;
  if (width == 0) {
    uint64_t v = static_cast<uint64_t>(base);
    for (int i = 1; i < count; ++i) {
      v += static_cast<uint64_t>(delta);
      dst[i] = static_cast<int64_t>(v);
    }
  } else {
    if (count < 2) return Fail("integer RLE v2 delta run of one value with deltas");
    dst[1] = static_cast<int64_t>(static_cast<uint64_t>(base) + static_cast<uint64_t>(delta));
    if (!UnpackBigEndian(&src_, width, count - 2, dst + 2)) return Fail("integer RLE v2 delta run past the end of the stream");
    uint64_t v = static_cast<uint64_t>(dst[1]);
    if (delta < 0) {
      for (int i = 2; i < count; ++i) dst[i] = static_cast<int64_t>(v -= static_cast<uint64_t>(dst[i]));
    } else {
      for (int i = 2; i < count; ++i) dst[i] = static_cast<int64_t>(v += static_cast<uint64_t>(dst[i]));
    }
  }
  run_len_ = count;
  return true;
}

bool IntRleDecoder::NextRunV1() {
  uint8_t control;
  if (!src_.ReadByte(&control)) return Fail("integer RLE stream ends early");
  if (control < 0x80) {
    uint8_t d;
    if (!src_.ReadByte(&d)) return Fail("integer RLE v1 run past the end of the stream");
    uint64_t raw;
    if (!src_.ReadVarint(&raw)) return Fail("integer RLE v1 run past the end of the stream");
    v1_base_ = signed_ ? Unzigzag(raw) : static_cast<int64_t>(raw);
    v1_delta_ = static_cast<int8_t>(d);
    v1_run_left_ = control + 3;
    return true;
  }
  int count = 0x100 - control;
  for (int i = 0; i < count; ++i) {
    uint64_t raw;
    if (!src_.ReadVarint(&raw)) return Fail("integer RLE v1 literal past the end of the stream");
    run_[i] = signed_ ? Unzigzag(raw) : static_cast<int64_t>(raw);
  }
  run_len_ = count;
  return true;
}

bool IntRleDecoder::NextRun(int64_t* dst) {
  run_pos_ = 0;
  run_len_ = 0;
  if (!src_.Ensure(kMaxRunBytes)) return Fail(src_.refill_error());
  if (!v2_) return NextRunV1();
  uint8_t header;
  if (!src_.ReadByte(&header)) return Fail("integer RLE stream ends early");
  switch (header >> 6) {
    case 0: return ShortRepeat(header, dst);
    case 1: return Direct(header, dst);
    case 2: return PatchedBase(header, dst);
    default: return Delta(header, dst);
  }
}

bool IntRleDecoder::Decode(int64_t* out, int64_t n) {
  while (n > 0) {
    if (run_pos_ < run_len_) {
      int64_t k = std::min<int64_t>(run_len_ - run_pos_, n);
      std::memcpy(out, run_ + run_pos_, static_cast<size_t>(k) * 8);
      run_pos_ += static_cast<int>(k);
      out += k;
      n -= k;
    } else if (v1_run_left_ > 0) {
      int64_t k = std::min<int64_t>(v1_run_left_, n);
      uint64_t v = static_cast<uint64_t>(v1_base_);
      for (int64_t i = 0; i < k; ++i, v += static_cast<uint64_t>(v1_delta_)) out[i] = static_cast<int64_t>(v);
      v1_base_ = static_cast<int64_t>(v);
      v1_run_left_ -= static_cast<int>(k);
      out += k;
      n -= k;
    } else if (v2_ && n >= 512) {
      // Room for any run: decoded straight into the output, not through run_.
      if (!NextRun(out)) return false;
      out += run_len_;
      n -= run_len_;
      run_len_ = 0;
    } else if (!NextRun(run_)) {
      return false;
    }
  }
  return true;
}

bool IntRleDecoder::Skip(int64_t n) {
  int64_t tmp[256];
  while (n > 0) {
    int64_t k = std::min<int64_t>(n, 256);
    if (!Decode(tmp, k)) return false;
    n -= k;
  }
  return true;
}

}  // namespace quiver::orc::rle

// Raw snappy decoding (snappy_decompress_internal.h). A stream is a varint length, then tags whose
// low two bits say what follows: 00 a literal (length - 1 in the upper six bits, or in the next
// 1-4 bytes when those say 60-63), 01 a copy of 4-11 bytes with an 11-bit offset, 10 and 11 a copy
// of 1-64 bytes with a 16-bit or 32-bit little-endian offset.
//
// Two loops: a fast one while every read of a tag (its byte, four more, a literal of up to 60
// bytes copied as 64) stays inside the input and every write (up to 64 bytes) inside the output,
// which copies in fixed 16-byte steps and lets the bytes past a literal or copy be overwritten by
// the next one; and a careful one for the tag the fast loop cannot take (a literal longer than 60
// bytes, a bad offset, the ends of the buffers), which checks everything and names the failure.
#include "quiver/compress/snappy_decompress_internal.h"

#include <cstring>
#include <string>

#if defined(__SSSE3__)
#include <tmmintrin.h>
#endif

namespace quiver::compress {
namespace {

constexpr ptrdiff_t kFastInput = 1 + 64;  // a tag byte and a 64-byte read of its literal
constexpr ptrdiff_t kFastOutput = 64;     // a literal or copy written in 16-byte steps

inline void Copy16(uint8_t* dst, const uint8_t* src) { std::memcpy(dst, src, 16); }

inline uint32_t LoadLE(const uint8_t* p, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint32_t{p[i]} << (8 * i);
  return v;
}
inline uint32_t Load16(const uint8_t* p) { return uint32_t{p[0]} | (uint32_t{p[1]} << 8); }
inline uint32_t Load32(const uint8_t* p) {
  return uint32_t{p[0]} | (uint32_t{p[1]} << 8) | (uint32_t{p[2]} << 16) | (uint32_t{p[3]} << 24);
}

#if defined(__SSSE3__)
// For a copy whose offset o is under 16: expand[o] spreads the o bytes before the output over 16
// (byte i takes i % o), and rotate[o] turns one 16-byte step of that pattern into the next.
struct PatternMasks {
  alignas(16) uint8_t expand[16][16];
  alignas(16) uint8_t rotate[16][16];
};
constexpr PatternMasks MakePatternMasks() {
  PatternMasks m{};
  for (int o = 1; o < 16; ++o) {
    for (int i = 0; i < 16; ++i) {
      m.expand[o][i] = static_cast<uint8_t>(i % o);
      m.rotate[o][i] = static_cast<uint8_t>((16 + i) % o);
    }
  }
  return m;
}
constexpr PatternMasks kPatternMasks = MakePatternMasks();
#endif

// A copy of len <= 64 bytes from offset bytes back, in the fast loop: up to 64 bytes written.
inline void FastCopy(uint8_t* op, size_t offset, size_t len) {
  const uint8_t* src = op - offset;
  if (offset >= 16) {
    // Each 16-byte step reads only bytes written before it, so an overlapping copy is right.
    Copy16(op, src);
    if (len > 16) {
      Copy16(op + 16, src + 16);
      if (len > 32) {
        Copy16(op + 32, src + 32);
        Copy16(op + 48, src + 48);
      }
    }
    return;
  }
#if defined(__SSSE3__)
  // The load reaches past the output position into bytes not yet written, which the shuffle
  // never picks: it only takes the first `offset` of them.
  __m128i pattern = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src)),
                                     _mm_load_si128(reinterpret_cast<const __m128i*>(kPatternMasks.expand[offset])));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(op), pattern);
  if (len > 16) {
    const __m128i rotate = _mm_load_si128(reinterpret_cast<const __m128i*>(kPatternMasks.rotate[offset]));
    for (size_t i = 16; i < len; i += 16) {
      pattern = _mm_shuffle_epi8(pattern, rotate);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(op + i), pattern);
    }
  }
#else
  for (size_t i = 0; i < len; ++i) op[i] = src[i];
#endif
}

[[gnu::cold, gnu::noinline]] Status Malformed(const std::string& what) {
  return Status::Corrupt("SNAPPY data is malformed: " + what);
}

std::string At(size_t input_byte) { return " at input byte " + std::to_string(input_byte); }
std::string OutputAt(size_t pos, size_t size) {
  return "(output byte " + std::to_string(pos) + " of " + std::to_string(size) + ")";
}

}  // namespace

bool SnappyUncompressedLength(std::span<const uint8_t> in, uint32_t* length, size_t* header_bytes) {
  uint32_t v = 0;
  for (size_t i = 0; i < 5 && i < in.size(); ++i) {
    const uint8_t b = in[i];
    // The fifth byte holds the top 4 bits of a 32-bit value.
    if (i == 4 && b >= 16) return false;
    v |= uint32_t{b & 0x7fu} << (7 * i);
    if (b < 0x80) {
      *length = v;
      *header_bytes = i + 1;
      return true;
    }
  }
  return false;
}

Status SnappyDecompress(std::span<const uint8_t> in, std::span<uint8_t> out) {
  uint32_t length = 0;
  size_t header = 0;
  if (!SnappyUncompressedLength(in, &length, &header)) {
    return Status::Corrupt("SNAPPY data has a malformed length header");
  }
  if (length != out.size()) {
    return Status::Corrupt("SNAPPY data's length header says " + std::to_string(length) + " bytes where " +
                           std::to_string(out.size()) + " are expected");
  }
  const uint8_t* const in_begin = in.data();
  const uint8_t* ip = in_begin + header;
  const uint8_t* const ip_end = in_begin + in.size();
  uint8_t* const op_begin = out.data();
  uint8_t* op = op_begin;
  uint8_t* const op_end = op_begin + out.size();

  for (;;) {
    while (ip_end - ip >= kFastInput && op_end - op >= kFastOutput) {
      const uint32_t tag = *ip;
      if ((tag & 3) == 0) {
        const size_t len = (tag >> 2) + 1;
        if (len > 60) break;  // its length is in the next bytes: the careful step
        Copy16(op, ip + 1);
        if (len > 16) {
          Copy16(op + 16, ip + 17);
          Copy16(op + 32, ip + 33);
          Copy16(op + 48, ip + 49);
        }
        ip += 1 + len;
        op += len;
        continue;
      }
      size_t len;
      size_t offset;
      size_t tag_size;
      if ((tag & 3) == 1) {
        len = 4 + ((tag >> 2) & 7);
        offset = ((tag & 0xe0) << 3) | ip[1];
        tag_size = 2;
      } else if ((tag & 3) == 2) {
        len = (tag >> 2) + 1;
        offset = Load16(ip + 1);
        tag_size = 3;
      } else {
        len = (tag >> 2) + 1;
        offset = Load32(ip + 1);
        tag_size = 5;
      }
      // Offset 0 wraps around to the largest value: one test for both bad offsets.
      if (offset - 1 >= static_cast<size_t>(op - op_begin)) break;
      FastCopy(op, offset, len);
      ip += tag_size;
      op += len;
    }

    // The careful step: one tag, every bound checked.
    if (ip == ip_end) {
      if (op == op_end) return Status::OK();
      return Malformed("the input ends at output byte " + std::to_string(op - op_begin) + " of " +
                       std::to_string(out.size()));
    }
    const size_t tag_at = static_cast<size_t>(ip - in_begin);
    if (op == op_end) {
      return Malformed(std::to_string(ip_end - ip) + " bytes at input byte " + std::to_string(tag_at) +
                       " follow the tags that fill the " + std::to_string(out.size()) + " output bytes");
    }
    const uint32_t tag = *ip;
    const size_t in_left = static_cast<size_t>(ip_end - ip) - 1;
    const size_t out_left = static_cast<size_t>(op_end - op);
    if ((tag & 3) == 0) {
      size_t len = (tag >> 2) + 1;
      size_t extra = 0;
      if (len > 60) {
        extra = len - 60;
        if (in_left < extra) return Malformed("the literal tag" + At(tag_at) + " is cut short by the input's end");
        len = size_t{LoadLE(ip + 1, extra)} + 1;
      }
      if (len > in_left - extra) {
        return Malformed("a literal of " + std::to_string(len) + " bytes" + At(tag_at) + " runs past the input's end (" +
                         std::to_string(in_left - extra) + " bytes left)");
      }
      if (len > out_left) {
        return Malformed("a literal of " + std::to_string(len) + " bytes" + At(tag_at) + " runs past the output's end " +
                         OutputAt(op - op_begin, out.size()));
      }
      std::memcpy(op, ip + 1 + extra, len);
      ip += 1 + extra + len;
      op += len;
      continue;
    }
    const size_t extra = (tag & 3) == 1 ? 1 : (tag & 3) == 2 ? 2 : 4;
    if (in_left < extra) return Malformed("the copy tag" + At(tag_at) + " is cut short by the input's end");
    size_t len;
    size_t offset;
    if ((tag & 3) == 1) {
      len = 4 + ((tag >> 2) & 7);
      offset = ((tag & 0xe0) << 3) | ip[1];
    } else {
      len = (tag >> 2) + 1;
      offset = LoadLE(ip + 1, extra);
    }
    if (offset == 0) return Malformed("the copy" + At(tag_at) + " has offset 0");
    if (offset > static_cast<size_t>(op - op_begin)) {
      return Malformed("the copy" + At(tag_at) + " reaches back " + std::to_string(offset) + " bytes from output byte " +
                       std::to_string(op - op_begin) + ", before the output's start");
    }
    if (len > out_left) {
      return Malformed("a copy of " + std::to_string(len) + " bytes" + At(tag_at) + " runs past the output's end " +
                       OutputAt(op - op_begin, out.size()));
    }
    const uint8_t* src = op - offset;
    if (offset >= len) {
      std::memcpy(op, src, len);
    } else {
      for (size_t i = 0; i < len; ++i) op[i] = src[i];  // overlapping: a repeating pattern
    }
    ip += 1 + extra;
    op += len;
  }
}

}  // namespace quiver::compress

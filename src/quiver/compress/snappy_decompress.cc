// Raw snappy decoding (snappy_decompress_internal.h). A stream is a varint length, then tags whose
// low two bits say what follows: 00 a literal (length - 1 in the upper six bits, or in the next
// 1-4 bytes when those say 60-63), 01 a copy of 4-11 bytes with an 11-bit offset, 10 and 11 a copy
// of 1-64 bytes with a 16-bit or 32-bit little-endian offset.
//
// Two loops: a fast one while every read of a tag (its byte, four more, a literal of up to 60
// bytes read as 64) stays inside the input and every write (64 bytes) inside the output; and a
// careful one for the tag the fast loop cannot take (a literal longer than 60 bytes, a bad
// offset, the ends of the buffers), which checks everything and names the failure.
//
// The fast loop branches on the tag's kind. A literal's length is in its tag byte and its source is
// the input; a copy's length and how to form its offset come from a 256-entry table, its input
// advance from its kind: each step waits for the next tag's place, and taking it from the table put
// a second load on that wait (DuckDB's lineitem prices decoded in about a fifth less time without
// it). Copies with 4-byte offsets, which libsnappy never writes, take the careful step. On the
// DuckDB-written lineitem file, whose PLAIN doubles alternate a 2-3 byte literal with a 5-6 byte
// copy, the branch is predicted and a literal step is a handful of instructions: the loop is bound
// by instructions per tag, not by the branch (25% faster than one table-driven step for both kinds,
// which formed, tested and selected an offset for literals too). A literal or a copy that does not
// overlap its own output (offset >= length) moves 16 bytes, and 48 more when longer; the bytes past
// the length are overwritten by the next step. Moving 64 bytes every time (no length branch; tried
// also as AVX2 and AVX-512 moves) measured no faster on lineitem pages, whose tags are nearly all
// under 17 bytes: a copy's loads then reach more of the stores still in flight (docs/DESIGN.md).
// Overlapping copies (runs, repeating patterns) take a predicted-rare branch that copies in
// 16-byte steps or spreads a pattern of under 16 bytes with pshufb.
#include "quiver/compress/snappy_decompress_internal.h"

#include <array>
#include <bit>
#include <cstring>
#include <string>

#if defined(__x86_64__) || defined(__i386__)
#include "quiver/core/intrinsics_internal.h"
#define QUIVER_SNAPPY_X86 1
#endif

namespace quiver::compress {
namespace {

constexpr ptrdiff_t kFastInput = 1 + 64;  // a tag byte and a 64-byte read of its literal
constexpr ptrdiff_t kFastOutput = 64;     // a literal or copy written in up to 64 bytes

inline uint32_t LoadLE(const uint8_t* p, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint32_t{p[i]} << (8 * i);
  return v;
}
inline uint32_t Load32(const uint8_t* p) {
  if constexpr (std::endian::native == std::endian::little) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  } else {
    return LoadLE(p, 4);
  }
}

// What the fast loop needs of a copy's tag byte: its offset is (the 4 bytes after the tag &
// offset_mask) + offset_high. Literal tags have no entry (all zero): the loop reads their length
// from the tag. Nor do copies with 4-byte offsets, which the fast loop leaves to the careful step.
struct TagEntry {
  uint8_t len;
  uint16_t offset_high;
  uint32_t offset_mask;
};
constexpr std::array<TagEntry, 256> MakeTagTable() {
  std::array<TagEntry, 256> t{};
  for (uint32_t tag = 0; tag < 256; ++tag) {
    TagEntry& e = t[tag];
    switch (tag & 3) {
      case 0: break;
      case 1:
        e = {static_cast<uint8_t>(4 + ((tag >> 2) & 7)), static_cast<uint16_t>((tag >> 5) << 8), 0xff};
        break;
      case 2: e = {static_cast<uint8_t>((tag >> 2) + 1), 0, 0xffff}; break;
      default: break;
    }
  }
  return t;
}
constexpr std::array<TagEntry, 256> kTags = MakeTagTable();

#if QUIVER_SNAPPY_X86
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

// Up to 64 bytes from a source that is the input or whose first `len` bytes end before `dst`,
// so the order of the loads and stores does not matter: 16 bytes, and 48 more when len > 16
// (loaded into registers first, as the source's other 48 bytes may overlap dst's). Only 16 when
// len <= 16: a wider load reaches further into stores still in flight, which cannot forward to
// it, and waits for them.
inline void MoveUpTo64(uint8_t* dst, const uint8_t* src, size_t len) {
#if QUIVER_SNAPPY_X86
  _mm_storeu_si128(reinterpret_cast<__m128i*>(dst), _mm_loadu_si128(reinterpret_cast<const __m128i*>(src)));
  if (len > 16) {
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 32));
    const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 48));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 16), b);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 32), c);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 48), d);
  }
#else
  std::memcpy(dst, src, 16);
  if (len > 16) {
    uint8_t rest[48];
    std::memcpy(rest, src + 16, 48);
    std::memcpy(dst + 16, rest, 48);
  }
#endif
}

// A copy of len <= 64 bytes from offset < len bytes back (it overlaps its own output), in the
// fast loop: up to 64 bytes written.
inline void OverlappingCopy(uint8_t* op, size_t offset, size_t len) {
  const uint8_t* src = op - offset;
  if (offset >= 16) {
    // Each 16-byte step reads only bytes written before it.
    for (size_t i = 0; i < len; i += 16) std::memmove(op + i, src + i, 16);
    return;
  }
#if QUIVER_SNAPPY_X86
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

// The careful step: one tag at `ip`, every bound checked. OK with *done set when the input and
// the output end together.
[[gnu::noinline]] Status CarefulStep(const uint8_t* in_begin, const uint8_t*& ip, const uint8_t* ip_end,
                                     uint8_t* op_begin, uint8_t*& op, uint8_t* op_end, bool* done) {
  const size_t out_size = static_cast<size_t>(op_end - op_begin);
  if (ip == ip_end) {
    if (op == op_end) {
      *done = true;
      return Status::OK();
    }
    return Malformed("the input ends at output byte " + std::to_string(op - op_begin) + " of " +
                     std::to_string(out_size));
  }
  const size_t tag_at = static_cast<size_t>(ip - in_begin);
  if (op == op_end) {
    return Malformed(std::to_string(ip_end - ip) + " bytes at input byte " + std::to_string(tag_at) +
                     " follow the tags that fill the " + std::to_string(out_size) + " output bytes");
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
                       OutputAt(op - op_begin, out_size));
    }
    std::memcpy(op, ip + 1 + extra, len);
    ip += 1 + extra + len;
    op += len;
    return Status::OK();
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
                     OutputAt(op - op_begin, out_size));
  }
  const uint8_t* src = op - offset;
  if (offset >= len) {
    std::memcpy(op, src, len);
  } else {
    for (size_t i = 0; i < len; ++i) op[i] = src[i];  // overlapping: a repeating pattern
  }
  ip += 1 + extra;
  op += len;
  return Status::OK();
}

// The length header's size, or Corrupt when it is malformed or does not declare out.size().
[[gnu::noinline]] Status ReadHeader(std::span<const uint8_t> in, std::span<uint8_t> out, size_t* header) {
  uint32_t length = 0;
  if (!SnappyUncompressedLength(in, &length, header)) {
    return Status::Corrupt("SNAPPY data has a malformed length header");
  }
  if (length != out.size()) {
    return Status::Corrupt("SNAPPY data's length header says " + std::to_string(length) + " bytes where " +
                           std::to_string(out.size()) + " are expected");
  }
  return Status::OK();
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
  size_t header = 0;
  if (Status st = ReadHeader(in, out, &header); !st.ok()) return st;
  const uint8_t* const in_begin = in.data();
  const uint8_t* ip = in_begin + header;
  const uint8_t* const ip_end = in_begin + in.size();
  uint8_t* const op_begin = out.data();
  uint8_t* op = op_begin;
  uint8_t* const op_end = op_begin + out.size();

  for (;;) {
    // The last places a fast step may start at: one pointer compare each per step.
    const uint8_t* const ip_last = ip_end - ip >= kFastInput ? ip_end - kFastInput : nullptr;
    uint8_t* const op_last = op_end - op >= kFastOutput ? op_end - kFastOutput : nullptr;
    while (ip <= ip_last && op <= op_last) {
      const uint32_t tag = *ip;
      if ((tag & 3) == 0) {
        // A literal: its source is the input, so no offset to form or check.
        const size_t len = (tag >> 2) + 1;
        if (len > 60) break;  // its length is in the next bytes: the careful step
        MoveUpTo64(op, ip + 1, len);
        ip += 1 + len;
        op += len;
        continue;
      }
      // libsnappy cuts its input in 64 KiB fragments, so it never needs a 4-byte offset: such a
      // copy is left to the careful step.
      if ((tag & 3) == 3) break;
      const TagEntry& e = kTags[tag];
      const size_t len = e.len;
      const size_t offset = size_t{Load32(ip + 1) & e.offset_mask} + e.offset_high;
      // Offset 0 wraps around to the largest value: one test for it and for reaching back
      // before the output's start.
      if (offset - 1 >= static_cast<size_t>(op - op_begin)) break;
      if (offset < len) [[unlikely]] {
        OverlappingCopy(op, offset, len);
      } else {
        MoveUpTo64(op, op - offset, len);
      }
      // The next tag's place is what every step waits for: from the kind (1 or 2 offset bytes)
      // it is one add after the tag byte's load, where the table's advance was a second load.
      ip += (tag & 3) + 1;
      op += len;
    }
    bool done = false;
    Status st = CarefulStep(in_begin, ip, ip_end, op_begin, op, op_end, &done);
    if (!st.ok() || done) return st;
  }
}

}  // namespace quiver::compress

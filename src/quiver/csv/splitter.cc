#include "quiver/csv/splitter_internal.h"

#include "quiver/core/intrinsics_internal.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace quiver::csv {

namespace {

// Everything below is inlined into the per-level entry points at the end of the file, which
// carry the target attributes and `flatten`: a template compiled on its own gets the
// baseline ISA, so it could not inline the level's kernels and would call them once per
// 64-byte block.

// The byte classes of one 64-byte block as bit masks (bit i = byte i).
struct BlockMasks {
  uint64_t quote, delim, lf, cr, escape;
};

// Bits of characters preceded by an odd run of escape characters. Escapes are rare in real
// files, so a loop over the escape bits is cheaper than the branch-free form on average.
// `last` is the index of the block's last real byte (63 except in a chunk's tail).
inline uint64_t EscapedBits(uint64_t escape, uint64_t* escape_next, int last) {
  uint64_t escaped = *escape_next;
  escape &= ~escaped;  // an escaped escape character escapes nothing
  *escape_next = 0;
  while (escape != 0) {
    int i = std::countr_zero(escape);
    if (i >= last) {
      *escape_next = 1;
      break;
    }
    escaped |= uint64_t{2} << i;
    escape &= ~(uint64_t{3} << i);
  }
  return escaped;
}

// The shared block logic: the same bit algebra for every SIMD level; levels differ in how
// the masks are loaded, how the prefix XOR is taken and how positions are written.
// `next_is_lf` / `next_is_boundary_or_quote` describe the byte after the block.
template <typename Level, bool kHasEscape>
inline void ProcessBlock(const BlockMasks& m, uint64_t next_is_lf, uint64_t next_is_boundary_or_quote,
                         uint64_t valid_bits, uint32_t base, SplitCarry* c, uint32_t*& out, int64_t* line_breaks,
                         uint64_t* cr_seen, uint64_t* anomaly) {
  uint64_t quote = m.quote;
  if constexpr (kHasEscape) quote &= ~EscapedBits(m.escape, &c->escape_next, 63 - std::countl_zero(valid_bits));
  const uint64_t inside = Level::PrefixXor(quote) ^ c->in_quote;
  c->in_quote = static_cast<uint64_t>(static_cast<int64_t>(inside) >> 63);
  const uint64_t lone_cr = m.cr & ~((m.lf >> 1) | (next_is_lf << 63));
  const uint64_t line_end = m.lf | lone_cr;
  *line_breaks += std::popcount(line_end & valid_bits);
  *cr_seen |= m.cr & valid_bits;
  const uint64_t row_end = line_end & ~inside;
  const uint64_t structural = (m.delim | line_end) & ~inside & valid_bits;

  // Quotes must open right after a boundary (or right after a closing quote: a doubled
  // quote) and close right before one (or before an opening quote).
  const uint64_t boundary = m.delim | m.lf | m.cr;
  const uint64_t openers = quote & inside;
  const uint64_t closers = quote & ~inside;
  const uint64_t prev_ok = (boundary << 1) | c->prev_boundary | (closers << 1) | c->prev_closer;
  const uint64_t next_ok = (boundary >> 1) | (openers >> 1) | (next_is_boundary_or_quote << 63);
  // Gathered without a branch and tested once per chunk: a flag set under a branch became a
  // conditional move through spare mask registers, a register the loop had too few of.
  *anomaly |= ((openers & ~prev_ok) | (closers & ~next_ok)) & valid_bits;
  c->prev_boundary = boundary >> 63;
  c->prev_closer = closers >> 63;
  Level::Write(structural, row_end, base, out);
}

inline bool IsBoundaryByte(int b, const SplitConfig& cfg) {
  return b < 0 || b == cfg.delimiter || b == '\n' || b == '\r' || (cfg.quote != 0 && b == cfg.quote);
}

// Positions are written eight at a time without checking the count (simdjson's trick): a
// branch per position is what costs, and `out` has room for the overshoot.
inline void WritePositionsScalar(uint64_t structural, uint64_t row_end, uint32_t base, uint32_t*& out) {
  uint64_t s = structural;
  const int count = std::popcount(s);
  uint32_t* o = out;
  for (int k = 0; k < count; k += 8) {
    for (int j = 0; j < 8; ++j) {
      const int i = std::countr_zero(s | (uint64_t{1} << 63));
      o[k + j] = (base + static_cast<uint32_t>(i)) | (static_cast<uint32_t>((row_end >> i) & 1) << 31);
      s &= s - 1;
    }
  }
  out += count;
}

// For AVX2, which has no compress instruction: per 8-bit group of a mask, the byte indices
// of its set bits as 32-bit lanes, and per 8 bits of gathered row-end flags, the flag bit in
// each lane. 16 KiB, in L1 while a chunk is split.
struct PositionTables {
  alignas(32) uint32_t index[256][8];
  alignas(32) uint32_t flag[256][8];
};
constexpr PositionTables MakePositionTables() {
  PositionTables t{};
  for (uint32_t m = 0; m < 256; ++m) {
    int j = 0;
    for (uint32_t i = 0; i < 8; ++i) {
      if (m >> i & 1) t.index[m][j++] = i;
      t.flag[m][i] = (m >> i & 1) ? kRowEndFlag : 0;
    }
  }
  return t;
}
constexpr PositionTables kPositionTables = MakePositionTables();

// Branch-free: each 8-byte group's positions are written as one vector of eight lanes (those
// past the group's count are overwritten by the next group, or lie in the slack), and the
// pointer moves by the count. A loop over the set bits would mispredict its exit whenever the
// count per block varies, as it does on every real file.
__attribute__((target("avx2,bmi,bmi2,popcnt"))) inline void WritePositionsAvx2(uint64_t structural, uint64_t row_end,
                                                                               uint32_t base, uint32_t*& out) {
  uint64_t flags = _pext_u64(row_end, structural);  // bit j: the j-th position is a row end
  __m256i at = _mm256_set1_epi32(static_cast<int>(base));
  const __m256i eight = _mm256_set1_epi32(8);
  uint32_t* o = out;
  for (int g = 0; g < 8; ++g) {
    const uint32_t m = static_cast<uint32_t>(structural >> (8 * g)) & 0xff;
    const __m256i index = _mm256_load_si256(reinterpret_cast<const __m256i*>(kPositionTables.index[m]));
    const __m256i flag = _mm256_load_si256(reinterpret_cast<const __m256i*>(kPositionTables.flag[flags & 0xff]));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(o), _mm256_or_si256(_mm256_add_epi32(at, index), flag));
    const int count = std::popcount(m);
    o += count;
    flags >>= count;
    at = _mm256_add_epi32(at, eight);
  }
  out = o;
}

inline uint64_t PrefixXorShifts(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

// One carry-less multiply by all ones is the prefix XOR (bit i = XOR of bits 0..i). Every
// AVX2 CPU has PCLMULQDQ (Intel since Westmere, AMD since Bulldozer).
__attribute__((target("pclmul,sse2"))) inline uint64_t PrefixXorClmul(uint64_t x) {
  const __m128i r = _mm_clmulepi64_si128(_mm_cvtsi64_si128(static_cast<int64_t>(x)), _mm_set1_epi8(-1), 0);
  return static_cast<uint64_t>(_mm_cvtsi128_si64(r));
}

// Per level: Load builds the byte-class masks of 64 bytes (Scalar byte by byte); the quote and
// escape classes only when the template says the dialect has them, so a loop compiled without
// them carries no test for them.
class ScalarLevel {
 public:
  inline explicit ScalarLevel(const SplitConfig& cfg) : cfg_(cfg) {}
  template <bool kQuote, bool kEscape>
  inline BlockMasks Load(const uint8_t* p) const {
    BlockMasks m{0, 0, 0, 0, 0};
    for (int i = 0; i < 64; ++i) {
      uint8_t b = p[i];
      uint64_t bit = uint64_t{1} << i;
      if (kQuote && b == cfg_.quote) m.quote |= bit;
      if (b == cfg_.delimiter) m.delim |= bit;
      if (b == '\n') m.lf |= bit;
      if (b == '\r') m.cr |= bit;
      if (kEscape && b == cfg_.escape) m.escape |= bit;
    }
    return m;
  }
  static inline uint64_t PrefixXor(uint64_t x) { return PrefixXorShifts(x); }
  static inline void Write(uint64_t s, uint64_t r, uint32_t base, uint32_t*& out) {
    WritePositionsScalar(s, r, base, out);
  }

 private:
  SplitConfig cfg_;
};

class Avx2Level {
 public:
  __attribute__((target("avx2"))) inline explicit Avx2Level(const SplitConfig& cfg)
      : quote_(_mm256_set1_epi8(static_cast<char>(cfg.quote))),
        delim_(_mm256_set1_epi8(static_cast<char>(cfg.delimiter))),
        escape_(_mm256_set1_epi8(static_cast<char>(cfg.escape))) {}
  __attribute__((target("avx2"))) static inline uint64_t Eq(__m256i lo, __m256i hi, __m256i v) {
    uint32_t a = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, v)));
    uint32_t b = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, v)));
    return a | (uint64_t{b} << 32);
  }
  template <bool kQuote, bool kEscape>
  __attribute__((target("avx2"))) inline BlockMasks Load(const uint8_t* p) const {
    const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
    BlockMasks m;
    m.quote = kQuote ? Eq(lo, hi, quote_) : 0;
    m.delim = Eq(lo, hi, delim_);
    m.lf = Eq(lo, hi, _mm256_set1_epi8('\n'));
    m.cr = Eq(lo, hi, _mm256_set1_epi8('\r'));
    m.escape = kEscape ? Eq(lo, hi, escape_) : 0;
    return m;
  }
  __attribute__((target("pclmul,sse2"))) static inline uint64_t PrefixXor(uint64_t x) { return PrefixXorClmul(x); }
  __attribute__((target("avx2,bmi,bmi2,popcnt"))) static inline void Write(uint64_t s, uint64_t r, uint32_t base,
                                                                    uint32_t*& out) {
    WritePositionsAvx2(s, r, base, out);
  }

 private:
  __m256i quote_, delim_, escape_;
};

class Avx512Level {
 public:
  __attribute__((target("avx512f,avx512bw"))) inline explicit Avx512Level(const SplitConfig& cfg)
      : quote_(_mm512_set1_epi8(static_cast<char>(cfg.quote))),
        delim_(_mm512_set1_epi8(static_cast<char>(cfg.delimiter))),
        escape_(_mm512_set1_epi8(static_cast<char>(cfg.escape))) {}
  template <bool kQuote, bool kEscape>
  __attribute__((target("avx512f,avx512bw"))) inline BlockMasks Load(const uint8_t* p) const {
    const __m512i v = _mm512_loadu_si512(p);
    BlockMasks m;
    m.quote = kQuote ? _mm512_cmpeq_epi8_mask(v, quote_) : 0;
    m.delim = _mm512_cmpeq_epi8_mask(v, delim_);
    m.lf = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\n'));
    m.cr = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\r'));
    m.escape = kEscape ? _mm512_cmpeq_epi8_mask(v, escape_) : 0;
    return m;
  }
  __attribute__((target("pclmul,sse2"))) static inline uint64_t PrefixXor(uint64_t x) { return PrefixXorClmul(x); }
  // Branch-free: each 16-byte quarter's positions (row ends flagged) are compressed into one
  // register and stored whole; the pointer moves by how many were real.
  __attribute__((target("avx512f,avx512bw,popcnt"))) static inline void Write(uint64_t s, uint64_t r, uint32_t base,
                                                                       uint32_t*& out) {
    const __m512i flag = _mm512_set1_epi32(static_cast<int>(kRowEndFlag));
    __m512i at = _mm512_add_epi32(_mm512_set1_epi32(static_cast<int>(base)),
                                  _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    uint32_t* o = out;
    for (int q = 0; q < 4; ++q) {
      const __mmask16 sm = static_cast<__mmask16>(s >> (16 * q));
      const __mmask16 rm = static_cast<__mmask16>(r >> (16 * q));
      const __m512i v = _mm512_mask_or_epi32(at, rm, at, flag);
      _mm512_storeu_si512(o, _mm512_maskz_compress_epi32(sm, v));
      o += std::popcount(static_cast<uint32_t>(sm));
      at = _mm512_add_epi32(at, _mm512_set1_epi32(16));
    }
    out = o;
  }

 private:
  __m512i quote_, delim_, escape_;
};

// Byte i is i, and i | 0x80 (a row end), for the byte-compress write below.
struct ByteIndexTables {
  alignas(64) uint8_t plain[64];
  alignas(64) uint8_t flagged[64];
};
constexpr ByteIndexTables MakeByteIndexTables() {
  ByteIndexTables t{};
  for (int i = 0; i < 64; ++i) {
    t.plain[i] = static_cast<uint8_t>(i);
    t.flagged[i] = static_cast<uint8_t>(i | 0x80);
  }
  return t;
}
constexpr ByteIndexTables kByteIndex = MakeByteIndexTables();

// AVX-512 with VBMI2 (byte compress): the block's positions, as byte indices with the row-end
// flag in their top bit, compressed into one register at once, then widened 16 at a time
// (sign extension carries the flag to bit 31). Blocks of up to 16 positions, nearly all of
// them in real files, take one compress and one store where the 32-bit compress took four of
// each.
class Avx512Vbmi2Level : public Avx512Level {
 public:
  using Avx512Level::Avx512Level;
  __attribute__((target("avx512f,avx512bw,avx512vbmi2,popcnt"))) static inline void Write(uint64_t s, uint64_t r,
                                                                                      uint32_t base, uint32_t*& out) {
    const __m512i index = _mm512_mask_mov_epi8(_mm512_load_si512(kByteIndex.plain), r,
                                               _mm512_load_si512(kByteIndex.flagged));
    const __m512i packed = _mm512_maskz_compress_epi8(s, index);
    const __m512i keep = _mm512_set1_epi32(static_cast<int>(kRowEndFlag | 0x7f));
    const __m512i at = _mm512_set1_epi32(static_cast<int>(base));
    const int count = std::popcount(s);
    _mm512_storeu_si512(out, Widen(_mm512_castsi512_si128(packed), keep, at));
    if (count > 16) [[unlikely]] {
      _mm512_storeu_si512(out + 16, Widen(_mm512_extracti32x4_epi32(packed, 1), keep, at));
      if (count > 32) {
        _mm512_storeu_si512(out + 32, Widen(_mm512_extracti32x4_epi32(packed, 2), keep, at));
        if (count > 48) _mm512_storeu_si512(out + 48, Widen(_mm512_extracti32x4_epi32(packed, 3), keep, at));
      }
    }
    out += count;
  }

 private:
  // 16 byte indices as positions: the flag to bit 31, the block's base added.
  __attribute__((target("avx512f"))) static inline __m512i Widen(__m128i bytes, __m512i keep, __m512i at) {
    return _mm512_add_epi32(_mm512_and_si512(_mm512_cvtepi8_epi32(bytes), keep), at);
  }
};

// The bytes `kPrefetchAhead` past a block are prefetched as it is split. The address is formed
// as an integer: it may lie past the buffer, where a prefetch does no harm (it never faults)
// but a pointer may not point.
constexpr size_t kPrefetchAhead = 2048;
inline void PrefetchAhead(const uint8_t* block) {
  _mm_prefetch(reinterpret_cast<const char*>(reinterpret_cast<uintptr_t>(block) + kPrefetchAhead), _MM_HINT_T0);
}

// Bytes per segment of a split call (a multiple of 64): see SplitImpl.
constexpr size_t kSegmentBytes = 4 << 10;

template <typename Level, bool kHasQuote, bool kHasEscape>
inline SplitResult SplitImpl(const uint8_t* data, size_t n, int next_byte, const SplitConfig& cfg, SplitCarry* carry,
                             uint32_t* out) {
  const Level level(cfg);
  SplitResult r;
  uint32_t* const begin = out;
  // The carries and counters live in locals while the blocks run: through the caller's
  // pointers they were stored and loaded again on every block (the position stores may
  // alias anything), a chain through memory on the quote state.
  SplitCarry state = *carry;
  SplitCarry* const c = &state;
  int64_t line_breaks = 0;
  uint64_t cr_seen = 0;
  uint64_t anomaly = 0;
  const size_t full = n / 64 * 64;
  // The full blocks go in segments. Blocks without a quote or a CR (every block of many files)
  // need none of the quote algebra, no lookahead and no carry but the last byte's: their
  // structural bytes are the delimiters and LFs. Each segment starts in that short loop (when
  // outside quotes) and hands its rest to the full loop at its first other block; a segment of
  // many blocks keeps the hand-over's mispredicted branch rare where quotes are frequent, and
  // a file with a quoted field here and there back in the short loop at the next segment.
  for (size_t i = 0; i < full;) {
    const size_t segment_end = std::min(full, i + kSegmentBytes);
    if constexpr (!kHasEscape) {
      if (c->in_quote == 0) {
        const size_t from = i;
        uint64_t boundary = 0;
        for (; i < segment_end; i += 64) {
          // The bytes were copied in by read() a moment before, not always on this core:
          // without the prefetch over 40% of this loop's samples sat on the block's load.
          PrefetchAhead(data + i);
          const BlockMasks m = level.template Load<kHasQuote, false>(data + i);
          if ((m.quote | m.cr) != 0) break;
          const uint64_t structural = m.delim | m.lf;
          line_breaks += std::popcount(m.lf);
          Level::Write(structural, m.lf, static_cast<uint32_t>(i), out);
          boundary = structural;
        }
        if (i > from) {
          c->prev_boundary = boundary >> 63;
          c->prev_closer = 0;
        }
      }
    }
    if (i < segment_end) {
      // The masks of the next block are loaded before this one is processed: its first bits
      // are the lookahead (CR LF pairs, closing quotes) without a separate byte test.
      BlockMasks cur = level.template Load<kHasQuote, kHasEscape>(data + i);
      for (; i + 64 < segment_end; i += 64) {
        PrefetchAhead(data + i);
        const BlockMasks next = level.template Load<kHasQuote, kHasEscape>(data + i + 64);
        ProcessBlock<Level, kHasEscape>(cur, next.lf & 1, (next.delim | next.lf | next.cr | next.quote) & 1,
                                        ~uint64_t{0}, static_cast<uint32_t>(i), c, out, &line_breaks, &cr_seen,
                                        &anomaly);
        cur = next;
      }
      const int after = segment_end < n ? data[segment_end] : next_byte;
      ProcessBlock<Level, kHasEscape>(cur, after == '\n', IsBoundaryByte(after, cfg), ~uint64_t{0},
                                      static_cast<uint32_t>(i), c, out, &line_breaks, &cr_seen, &anomaly);
      i = segment_end;
    }
  }
  if (full < n) {
    const size_t i = full;
    // The tail goes through a zero-padded copy; zero is never a structural byte.
    alignas(64) uint8_t tail[64] = {};
    std::memcpy(tail, data + i, n - i);
    BlockMasks m = level.template Load<kHasQuote, kHasEscape>(tail);
    const size_t len = n - i;
    const uint64_t valid = (uint64_t{1} << len) - 1;
    // Bits past the end must not look like boundaries for the last real byte's checks.
    const uint64_t next_bit = uint64_t{1} << len;
    const bool next_lf = next_byte == '\n';
    const bool next_bq = IsBoundaryByte(next_byte, cfg);
    m.lf |= next_lf ? next_bit : 0;
    if (next_bq) m.delim |= next_bit;  // treated as a boundary only for the closer check
    m.quote &= valid;
    m.escape &= valid;
    ProcessBlock<Level, kHasEscape>(m, 0, 0, valid, static_cast<uint32_t>(i), c, out, &line_breaks, &cr_seen, &anomaly);
    // Carries must describe the last real byte, not the padding.
    const uint8_t last = data[n - 1];
    c->prev_boundary = (last == cfg.delimiter || last == '\n' || last == '\r') ? 1 : 0;
    c->prev_closer = (cfg.quote != 0 && last == cfg.quote && c->in_quote == 0) ? 1 : 0;
  }
  *carry = state;
  r.count = static_cast<size_t>(out - begin);
  r.line_breaks = line_breaks;
  r.cr = cr_seen != 0;
  r.anomaly = anomaly != 0;
  return r;
}

template <typename Level>
inline SplitResult SplitDispatch(const uint8_t* data, size_t n, int next_byte, const SplitConfig& cfg, SplitCarry* c,
                          uint32_t* out) {
  const bool quote = cfg.quote != 0;
  if (cfg.escape != 0 && cfg.escape != cfg.quote) {
    return quote ? SplitImpl<Level, true, true>(data, n, next_byte, cfg, c, out)
                 : SplitImpl<Level, false, true>(data, n, next_byte, cfg, c, out);
  }
  SplitConfig plain = cfg;
  plain.escape = 0;
  return quote ? SplitImpl<Level, true, false>(data, n, next_byte, plain, c, out)
               : SplitImpl<Level, false, false>(data, n, next_byte, plain, c, out);
}

template <typename Level, bool kHasEscape>
inline uint64_t QuoteParityImpl(const uint8_t* data, size_t n, const SplitConfig& cfg, uint64_t* escape_next) {
  const Level level(cfg);
  uint64_t parity = 0;
  size_t i = 0;
  alignas(64) uint8_t tail[64];
  for (; i < n; i += 64) {
    const uint8_t* p = data + i;
    uint64_t valid = ~uint64_t{0};
    if (i + 64 > n) {
      std::memset(tail, 0, sizeof(tail));
      std::memcpy(tail, data + i, n - i);
      p = tail;
      valid = (uint64_t{1} << (n - i)) - 1;
    }
    BlockMasks m = level.template Load<true, kHasEscape>(p);
    uint64_t q = m.quote & valid;
    if constexpr (kHasEscape) q &= ~EscapedBits(m.escape & valid, escape_next, 63 - std::countl_zero(valid));
    parity ^= static_cast<uint64_t>(std::popcount(q)) & 1;
  }
  return parity;
}

template <typename Level>
inline uint64_t QuoteParityDispatch(const uint8_t* data, size_t n, const SplitConfig& cfg, uint64_t* escape_next) {
  if (cfg.quote == 0) return 0;
  if (cfg.escape != 0 && cfg.escape != cfg.quote) return QuoteParityImpl<Level, true>(data, n, cfg, escape_next);
  return QuoteParityImpl<Level, false>(data, n, cfg, escape_next);
}

// Instantiated per level in functions carrying the target attribute, so the compiler may use
// the level's instructions inside the inlined kernels.
__attribute__((flatten)) SplitResult SplitScalar(const uint8_t* d, size_t n, int nb, const SplitConfig& cfg, SplitCarry* c, uint32_t* o) {
  return SplitDispatch<ScalarLevel>(d, n, nb, cfg, c, o);
}
__attribute__((target("avx2,bmi,bmi2,popcnt,pclmul"), flatten)) SplitResult SplitAvx2(const uint8_t* d, size_t n, int nb,
                                                                      const SplitConfig& cfg, SplitCarry* c,
                                                                      uint32_t* o) {
  return SplitDispatch<Avx2Level>(d, n, nb, cfg, c, o);
}
__attribute__((target("avx512f,avx512bw,avx2,bmi,bmi2,popcnt,pclmul"), flatten)) SplitResult SplitAvx512(
    const uint8_t* d, size_t n, int nb, const SplitConfig& cfg, SplitCarry* c, uint32_t* o) {
  return SplitDispatch<Avx512Level>(d, n, nb, cfg, c, o);
}
__attribute__((target("avx512f,avx512bw,avx512vbmi2,avx2,bmi,bmi2,popcnt,pclmul"), flatten)) SplitResult SplitAvx512Vbmi2(
    const uint8_t* d, size_t n, int nb, const SplitConfig& cfg, SplitCarry* c, uint32_t* o) {
  return SplitDispatch<Avx512Vbmi2Level>(d, n, nb, cfg, c, o);
}
__attribute__((flatten)) uint64_t ParityScalar(const uint8_t* d, size_t n, const SplitConfig& cfg, uint64_t* e) {
  return QuoteParityDispatch<ScalarLevel>(d, n, cfg, e);
}
__attribute__((target("avx2,bmi,bmi2,popcnt,pclmul"), flatten)) uint64_t ParityAvx2(const uint8_t* d, size_t n,
                                                                   const SplitConfig& cfg, uint64_t* e) {
  return QuoteParityDispatch<Avx2Level>(d, n, cfg, e);
}
__attribute__((target("avx512f,avx512bw,avx2,bmi,bmi2,popcnt,pclmul"), flatten)) uint64_t ParityAvx512(
    const uint8_t* d, size_t n, const SplitConfig& cfg, uint64_t* e) {
  return QuoteParityDispatch<Avx512Level>(d, n, cfg, e);
}

// GCC 12's AVX-512 headers trip -Wmaybe-uninitialized on their own undefined pass-through
// operands once inlined.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#define QUIVER_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))
// Where a row's spans go: field j at cols[j] + j * stride. The sixteen column addresses come
// from two bases (columns 0-7 and 8-15) and the strides 1, 3, 5 and 7 times a column's bytes
// (2, 4 and 6 times them by the address scale), six registers: one offset per column did not
// fit in the registers beside the loop's own and was reloaded from the stack on every row.
struct ColumnAddresses {
  ptrdiff_t s1, s3, s5, s7;  // bytes
  char* lo;                  // field 0 of the current row
  char* hi;                  // field 8 of the current row
  template <size_t j>
  inline FieldSpan* at() const {
    char* const b = j < 8 ? lo : hi;
    constexpr size_t k = j % 8;
    if constexpr (k == 0) return reinterpret_cast<FieldSpan*>(b);
    if constexpr (k == 1) return reinterpret_cast<FieldSpan*>(b + s1);
    if constexpr (k == 2) return reinterpret_cast<FieldSpan*>(b + s1 * 2);
    if constexpr (k == 3) return reinterpret_cast<FieldSpan*>(b + s3);
    if constexpr (k == 4) return reinterpret_cast<FieldSpan*>(b + s1 * 4);
    if constexpr (k == 5) return reinterpret_cast<FieldSpan*>(b + s5);
    if constexpr (k == 6) return reinterpret_cast<FieldSpan*>(b + s3 * 2);
    return reinterpret_cast<FieldSpan*>(b + s7);
  }
};

// Field j's span (64-bit lane j of lo, hi: 8 per register) stored to its column straight
// from the registers. Registers stored to the stack and read back 8 bytes at a time stall at
// the first load from a register's upper half (the store is not forwarded to it on this
// Intel core): that one load held over half the kernel's samples.
template <size_t kCols, size_t q = 0>
QUIVER_AVX512 inline void StoreSpans(__m512i lo, __m512i hi, const ColumnAddresses& a) {
  if constexpr (q < (kCols + 1) / 2) {
    const __m512i v = q < 4 ? lo : hi;
    __m128i x;
    if constexpr (q % 4 == 0) {
      x = _mm512_castsi512_si128(v);
    } else {
      x = _mm512_extracti32x4_epi32(v, q % 4);
    }
    _mm_storel_epi64(reinterpret_cast<__m128i*>(a.at<2 * q>()), x);
    if constexpr (2 * q + 1 < kCols) _mm_storeh_pd(reinterpret_cast<double*>(a.at<2 * q + 1>()), _mm_castsi128_pd(x));
    StoreSpans<kCols, q + 1>(lo, hi, a);
  }
}

// A row's positions in one load, its flags checked at once (a row end exactly at the last
// field), its spans built in two registers in field order and stored to their columns with
// plain 8-byte stores (on Zen 4 two 8-lane scatters took about 17 cycles each). Compiled per
// field count, so the stores are unrolled and no register is extracted for naught.
// kCr: a CR may stand before a row end (the slice has one); without it no row's last byte is
// looked at.
template <size_t kCols, bool kCr>
QUIVER_AVX512 bool ScatterRowsN(
    const uint32_t* pos, size_t n, uint32_t offset, uint32_t limit, const uint8_t* data, FieldSpan* columns,
    size_t stride, size_t* rows_io, std::vector<RowSpan>* row_spans, int64_t* rows_seen, size_t* idx_io,
    uint32_t* row_start_io) {
  constexpr size_t nc = kCols;
  const __mmask16 lanes = static_cast<__mmask16>((1u << nc) - 1);
  const __mmask16 want = static_cast<__mmask16>(1u << (nc - 1));
  // Spans in field order: 32-bit lane 2j is field j's start, 2j + 1 its end (index 16 + j
  // picks lane j of the second operand, the ends).
  const __m512i order_lo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const __m512i order_hi = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  const __m512i flag = _mm512_set1_epi32(static_cast<int>(kRowEndFlag));
  const __m512i position = _mm512_set1_epi32(static_cast<int>(kPositionMask));
  const __m512i base = _mm512_set1_epi32(static_cast<int>(offset));
  const __m512i one = _mm512_set1_epi32(1);
  size_t idx = *idx_io;
  uint32_t row_start = *row_start_io;
  bool past = false;
  // The row spans go through a local pointer into room made for every row the positions can
  // hold (cut back at the end): push_back stored the vector's end on every row.
  const size_t had = row_spans->size();
  row_spans->resize(had + (n - std::min(idx, n)) / nc);
  RowSpan* const row_begin = row_spans->data() + had;
  // One pointer per stream (positions, spans, rows) and nothing else counted in the loop: the
  // row and index counts follow from how far the pointers moved.
  RowSpan* row_out = row_begin;
  const uint32_t* p = pos + idx;
  const uint32_t* const p_last = n >= nc ? pos + (n - nc) : pos;  // the last row's first position
  const ptrdiff_t s1 = static_cast<ptrdiff_t>(stride * sizeof(FieldSpan));
  char* const first = reinterpret_cast<char*>(columns + *rows_io);
  ColumnAddresses a{s1, 3 * s1, 5 * s1, 7 * s1, first, kCols > 8 ? first + 8 * s1 : first};
  if (idx + nc <= n) {
    while (p <= p_last) {
      const __m512i v = _mm512_maskz_loadu_epi32(lanes, p);
      if (_mm512_test_epi32_mask(v, flag) != want) break;
      const __m512i ends = _mm512_add_epi32(_mm512_and_si512(v, position), base);
      const __m512i starts =
          _mm512_alignr_epi32(_mm512_add_epi32(ends, one), _mm512_set1_epi32(static_cast<int>(row_start)), 15);
      StoreSpans<kCols>(_mm512_permutex2var_epi32(starts, order_lo, ends),
                        nc > 8 ? _mm512_permutex2var_epi32(starts, order_hi, ends) : _mm512_setzero_si512(), a);
      const uint32_t end = offset + (p[nc - 1] & kPositionMask);
      if (kCr && end > row_start && data[end - 1] == '\r') [[unlikely]] {
        FieldSpan& last = *a.at<kCols - 1>();
        last.end = std::max(last.start, end - 1);
      }
      *row_out++ = RowSpan{row_start, end};
      p += nc;
      a.lo += sizeof(FieldSpan);
      a.hi += sizeof(FieldSpan);
      row_start = end + 1;
      if (row_start >= limit) {
        past = true;
        break;
      }
    }
  }
  const size_t taken = static_cast<size_t>(row_out - row_begin);
  row_spans->resize(had + taken);
  *rows_seen += static_cast<int64_t>(taken);
  *idx_io = static_cast<size_t>(p - pos);
  *rows_io += taken;
  *row_start_io = row_start;
  return past;
}

// One call per slice: the field count chooses the loop.
bool ScatterRowsAvx512(const uint32_t* pos, size_t n, size_t nc, uint32_t offset, uint32_t limit, const uint8_t* data,
                       bool cr, FieldSpan* columns, size_t stride, size_t* rows_io, std::vector<RowSpan>* row_spans,
                       int64_t* rows_seen, size_t* idx_io, uint32_t* row_start_io) {
  switch (nc) {
#define QUIVER_SCATTER_CASE(k)                                                                                         \
    case k:                                                                                                            \
      return cr ? ScatterRowsN<k, true>(pos, n, offset, limit, data, columns, stride, rows_io, row_spans, rows_seen,   \
                                        idx_io, row_start_io)                                                          \
                : ScatterRowsN<k, false>(pos, n, offset, limit, data, columns, stride, rows_io, row_spans, rows_seen,  \
                                         idx_io, row_start_io);
    QUIVER_SCATTER_CASE(2) QUIVER_SCATTER_CASE(3) QUIVER_SCATTER_CASE(4) QUIVER_SCATTER_CASE(5) QUIVER_SCATTER_CASE(6)
    QUIVER_SCATTER_CASE(7) QUIVER_SCATTER_CASE(8) QUIVER_SCATTER_CASE(9) QUIVER_SCATTER_CASE(10) QUIVER_SCATTER_CASE(11)
    QUIVER_SCATTER_CASE(12) QUIVER_SCATTER_CASE(13) QUIVER_SCATTER_CASE(14) QUIVER_SCATTER_CASE(15) QUIVER_SCATTER_CASE(16)
#undef QUIVER_SCATTER_CASE
    default: return false;
  }
}
#undef QUIVER_AVX512
#pragma GCC diagnostic pop

const SplitKernels kScalar{SplitScalar, ParityScalar, nullptr, SimdLevel::kScalar};
const SplitKernels kAvx2{SplitAvx2, ParityAvx2, nullptr, SimdLevel::kAvx2};
const SplitKernels kAvx512{SplitAvx512, ParityAvx512, ScatterRowsAvx512, SimdLevel::kAvx512};
const SplitKernels kAvx512Vbmi2{SplitAvx512Vbmi2, ParityAvx512, ScatterRowsAvx512, SimdLevel::kAvx512};

}  // namespace

const SplitKernels& GetSplitKernels(SimdLevel level, bool compress_bytes) {
  switch (level) {
    case SimdLevel::kAvx512: return compress_bytes && CpuHasAvx512Vbmi2() ? kAvx512Vbmi2 : kAvx512;
    case SimdLevel::kAvx2: return kAvx2;
    default: return kScalar;
  }
}

const SplitKernels& ActiveSplitKernels() {
  static const SplitKernels& k = GetSplitKernels(ActiveSimdLevel());
  return k;
}

}  // namespace quiver::csv

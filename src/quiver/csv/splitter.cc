#include "quiver/csv/splitter.h"

#include <immintrin.h>

#include <bit>
#include <cstring>

namespace quiver::csv {

namespace {

// The byte classes of one 64-byte block as bit masks (bit i = byte i).
struct BlockMasks {
  uint64_t quote, delim, lf, cr, escape;
};

inline uint64_t PrefixXor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

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

// The shared block logic: the same bit algebra for every SIMD level, so that levels differ
// only in how the masks are loaded.
template <bool kHasEscape>
inline void ProcessBlock(const BlockMasks& m, uint64_t next_is_lf, uint64_t next_is_boundary_or_quote,
                         uint64_t valid_bits, uint32_t base, SplitCarry* c, uint32_t*& out, int64_t* line_breaks,
                         bool* anomaly) {
  uint64_t quote = m.quote;
  if constexpr (kHasEscape) quote &= ~EscapedBits(m.escape, &c->escape_next, 63 - std::countl_zero(valid_bits));
  const uint64_t inside = PrefixXor(quote) ^ c->in_quote;
  c->in_quote = static_cast<uint64_t>(static_cast<int64_t>(inside) >> 63);
  const uint64_t lone_cr = m.cr & ~((m.lf >> 1) | (next_is_lf << 63));
  const uint64_t line_end = m.lf | lone_cr;
  *line_breaks += std::popcount(line_end & valid_bits);
  const uint64_t row_end = line_end & ~inside;
  const uint64_t structural = (m.delim | line_end) & ~inside & valid_bits;

  // Quotes must open right after a boundary (or right after a closing quote: a doubled
  // quote) and close right before one (or before an opening quote).
  const uint64_t boundary = m.delim | m.lf | m.cr;
  const uint64_t openers = quote & inside;
  const uint64_t closers = quote & ~inside;
  const uint64_t prev_ok = (boundary << 1) | c->prev_boundary | (closers << 1) | c->prev_closer;
  const uint64_t next_ok = (boundary >> 1) | (openers >> 1) | (next_is_boundary_or_quote << 63);
  if (((openers & ~prev_ok) | (closers & ~next_ok)) & valid_bits) [[unlikely]] *anomaly = true;
  c->prev_boundary = boundary >> 63;
  c->prev_closer = closers >> 63;

  // Positions are written eight at a time without checking the count (simdjson's trick):
  // the branch per position is what costs, and `out` has room for the overshoot.
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

inline bool IsBoundaryByte(int b, const SplitConfig& cfg) {
  return b < 0 || b == cfg.delimiter || b == '\n' || b == '\r' || (cfg.quote != 0 && b == cfg.quote);
}

// Loads masks for levels: Scalar builds them byte by byte.
struct ScalarLoad {
  static BlockMasks Load(const uint8_t* p, const SplitConfig& cfg) {
    BlockMasks m{0, 0, 0, 0, 0};
    for (int i = 0; i < 64; ++i) {
      uint8_t b = p[i];
      uint64_t bit = uint64_t{1} << i;
      if (cfg.quote != 0 && b == cfg.quote) m.quote |= bit;
      if (b == cfg.delimiter) m.delim |= bit;
      if (b == '\n') m.lf |= bit;
      if (b == '\r') m.cr |= bit;
      if (cfg.escape != 0 && b == cfg.escape) m.escape |= bit;
    }
    return m;
  }
};

struct Avx2Load {
  __attribute__((target("avx2"))) static inline uint64_t Eq(__m256i lo, __m256i hi, uint8_t c) {
    const __m256i v = _mm256_set1_epi8(static_cast<char>(c));
    uint32_t a = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, v)));
    uint32_t b = static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, v)));
    return a | (uint64_t{b} << 32);
  }
  __attribute__((target("avx2"))) static BlockMasks Load(const uint8_t* p, const SplitConfig& cfg) {
    const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
    BlockMasks m;
    m.quote = cfg.quote != 0 ? Eq(lo, hi, cfg.quote) : 0;
    m.delim = Eq(lo, hi, cfg.delimiter);
    m.lf = Eq(lo, hi, '\n');
    m.cr = Eq(lo, hi, '\r');
    m.escape = cfg.escape != 0 ? Eq(lo, hi, cfg.escape) : 0;
    return m;
  }
};

struct Avx512Load {
  __attribute__((target("avx512f,avx512bw"))) static BlockMasks Load(const uint8_t* p, const SplitConfig& cfg) {
    const __m512i v = _mm512_loadu_si512(p);
    BlockMasks m;
    m.quote = cfg.quote != 0 ? _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(static_cast<char>(cfg.quote))) : 0;
    m.delim = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(static_cast<char>(cfg.delimiter)));
    m.lf = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\n'));
    m.cr = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\r'));
    m.escape = cfg.escape != 0 ? _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(static_cast<char>(cfg.escape))) : 0;
    return m;
  }
};

template <typename Loader, bool kHasEscape>
inline SplitResult SplitImpl(const uint8_t* data, size_t n, int next_byte, const SplitConfig& cfg, SplitCarry* c,
                             uint32_t* out) {
  SplitResult r;
  uint32_t* const begin = out;
  size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    // Lookahead into the next block (or past the chunk) for CR LF pairs and closing quotes.
    int next = i + 64 < n ? data[i + 64] : next_byte;
    BlockMasks m = Loader::Load(data + i, cfg);
    ProcessBlock<kHasEscape>(m, next == '\n', IsBoundaryByte(next, cfg), ~uint64_t{0}, static_cast<uint32_t>(i), c,
                             out, &r.line_breaks, &r.anomaly);
  }
  if (i < n) {
    // The tail goes through a zero-padded copy; zero is never a structural byte.
    alignas(64) uint8_t tail[64] = {};
    std::memcpy(tail, data + i, n - i);
    BlockMasks m = Loader::Load(tail, cfg);
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
    ProcessBlock<kHasEscape>(m, 0, 0, valid, static_cast<uint32_t>(i), c, out, &r.line_breaks, &r.anomaly);
    // Carries must describe the last real byte, not the padding.
    const uint8_t last = data[n - 1];
    c->prev_boundary = (last == cfg.delimiter || last == '\n' || last == '\r') ? 1 : 0;
    c->prev_closer = (cfg.quote != 0 && last == cfg.quote && c->in_quote == 0) ? 1 : 0;
  }
  r.count = static_cast<size_t>(out - begin);
  return r;
}

template <typename Loader>
SplitResult SplitDispatch(const uint8_t* data, size_t n, int next_byte, const SplitConfig& cfg, SplitCarry* c,
                          uint32_t* out) {
  if (cfg.escape != 0 && cfg.escape != cfg.quote) return SplitImpl<Loader, true>(data, n, next_byte, cfg, c, out);
  SplitConfig plain = cfg;
  plain.escape = 0;
  return SplitImpl<Loader, false>(data, n, next_byte, plain, c, out);
}

template <typename Loader>
uint64_t QuoteParityImpl(const uint8_t* data, size_t n, const SplitConfig& cfg, uint64_t* escape_next) {
  if (cfg.quote == 0) return 0;
  const bool has_escape = cfg.escape != 0 && cfg.escape != cfg.quote;
  SplitConfig c2 = cfg;
  if (!has_escape) c2.escape = 0;
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
    BlockMasks m = Loader::Load(p, c2);
    uint64_t q = m.quote & valid;
    if (has_escape) q &= ~EscapedBits(m.escape & valid, escape_next, 63 - std::countl_zero(valid));
    parity ^= static_cast<uint64_t>(std::popcount(q)) & 1;
  }
  return parity;
}

// Instantiated per level in functions carrying the target attribute, so the compiler may use
// the level's instructions inside the inlined kernels.
SplitResult SplitScalar(const uint8_t* d, size_t n, int nb, const SplitConfig& cfg, SplitCarry* c, uint32_t* o) {
  return SplitDispatch<ScalarLoad>(d, n, nb, cfg, c, o);
}
__attribute__((target("avx2,bmi,bmi2,popcnt"))) SplitResult SplitAvx2(const uint8_t* d, size_t n, int nb,
                                                                      const SplitConfig& cfg, SplitCarry* c,
                                                                      uint32_t* o) {
  return SplitDispatch<Avx2Load>(d, n, nb, cfg, c, o);
}
__attribute__((target("avx512f,avx512bw,avx2,bmi,bmi2,popcnt"))) SplitResult SplitAvx512(
    const uint8_t* d, size_t n, int nb, const SplitConfig& cfg, SplitCarry* c, uint32_t* o) {
  return SplitDispatch<Avx512Load>(d, n, nb, cfg, c, o);
}
uint64_t ParityScalar(const uint8_t* d, size_t n, const SplitConfig& cfg, uint64_t* e) {
  return QuoteParityImpl<ScalarLoad>(d, n, cfg, e);
}
__attribute__((target("avx2,bmi,bmi2,popcnt"))) uint64_t ParityAvx2(const uint8_t* d, size_t n,
                                                                   const SplitConfig& cfg, uint64_t* e) {
  return QuoteParityImpl<Avx2Load>(d, n, cfg, e);
}
__attribute__((target("avx512f,avx512bw,avx2,bmi,bmi2,popcnt"))) uint64_t ParityAvx512(
    const uint8_t* d, size_t n, const SplitConfig& cfg, uint64_t* e) {
  return QuoteParityImpl<Avx512Load>(d, n, cfg, e);
}

const SplitKernels kScalar{SplitScalar, ParityScalar, SimdLevel::kScalar};
const SplitKernels kAvx2{SplitAvx2, ParityAvx2, SimdLevel::kAvx2};
const SplitKernels kAvx512{SplitAvx512, ParityAvx512, SimdLevel::kAvx512};

}  // namespace

const SplitKernels& GetSplitKernels(SimdLevel level) {
  switch (level) {
    case SimdLevel::kAvx512: return kAvx512;
    case SimdLevel::kAvx2: return kAvx2;
    default: return kScalar;
  }
}

const SplitKernels& ActiveSplitKernels() {
  static const SplitKernels& k = GetSplitKernels(ActiveSimdLevel());
  return k;
}

}  // namespace quiver::csv

// Raw snappy compression (snappy_compress_internal.h), deciding exactly as libsnappy 1.1.9 does.
//
// The input is cut into 64 KiB fragments, each compressed alone with a table of 2^8..2^14 16-bit
// positions (the fragment's length rounded up to a power of two, within those bounds), zeroed
// per fragment, indexed by ((4 bytes * 0x1e35a7bd) >> 18) & (table size - 1). From each literal's start
// the 16 positions after it are probed one by one; then the step between probes grows by one byte
// every 32 bytes without a match. A probe matches when the 4 bytes at the table's position equal
// the 4 at the probe; the match is extended as far as the fragment's end, and after it the
// positions ip - 1 and ip are entered and ip probed again at once. Nothing is probed within 15
// bytes of the fragment's end: those bytes go out as the last literal.
//
// Speed, where libsnappy is built for baseline x86-64 and calls memcpy: literals are copied in
// 16-byte steps that may run past their end (the next tag overwrites them; the checks above keep
// every read inside the input and every write inside SnappyMaxCompressedLength), and matches are
// extended 8 bytes at a time. Most time goes to chains of short matches, each waiting on the last
// (hash, table entry, candidate's bytes, match length, next hash), so the fragment loop is
// compiled twice: for fragments over 8 KiB the table has all 2^14 entries and the hash needs no
// mask. Hit or miss stays a branch, though often mispredicted: chosen by masks, every miss would
// wait for the whole chain, where a predicted miss lets the next probe start at once (measured
// about 1.6 times slower on convert's pages). Since fragments are independent, whole fragments
// go two at a time through one loop (CompressFragmentPair) that steps both in turn, so the core
// has a second chain to run while the first waits; the second's output is written to a scratch
// buffer and moved in behind the first's. A last odd or shorter fragment goes alone.
#include "quiver/compress/snappy_compress_internal.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace quiver::compress {
namespace {

constexpr size_t kFragmentSize = size_t{1} << 16;
constexpr int kMinTableBits = 8;
constexpr int kMaxTableBits = 14;
constexpr size_t kInputMargin = 15;  // no probe reads within this many bytes of a fragment's end
constexpr uint32_t kHashMultiplier = 0x1e35a7bd;

inline uint32_t Load32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline uint64_t Load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline void Store32(uint8_t* p, uint32_t v) { std::memcpy(p, &v, 4); }
inline void Copy16(uint8_t* dst, const uint8_t* src) { std::memcpy(dst, src, 16); }

// The product's top 14 bits, masked down to the table's size. For the largest table the mask
// keeps every bit; kFull says so at compile time, taking the AND off the probe-to-probe path.
template <bool kFull>
inline uint32_t Hash(uint32_t bytes, uint32_t mask) {
  const uint32_t h = (bytes * kHashMultiplier) >> (32 - kMaxTableBits);
  return kFull ? h : h & mask;
}

// log2 of the table size for a fragment of n bytes.
int TableBits(size_t n) {
  if (n > (size_t{1} << kMaxTableBits)) return kMaxTableBits;
  if (n < (size_t{1} << kMinTableBits)) return kMinTableBits;
  return static_cast<int>(std::bit_width(n - 1));
}

// The literal tag for len >= 1 bytes: length - 1 in the tag's upper six bits below 60, else in
// the 1-4 bytes after it (tag 60-63 saying how many).
inline uint8_t* LiteralTag(uint8_t* op, size_t len) {
  size_t n = len - 1;
  if (n < 60) {
    *op++ = static_cast<uint8_t>(n << 2);
    return op;
  }
  uint8_t* tag = op++;
  int count = 0;
  while (n > 0) {
    *op++ = static_cast<uint8_t>(n);
    n >>= 8;
    ++count;
  }
  *tag = static_cast<uint8_t>((59 + count) << 2);
  return op;
}

// A literal inside the probe loop: at least 15 input bytes follow it and a copy tag comes after,
// so whole 16-byte steps stay inside both buffers.
inline uint8_t* EmitLiteralFast(uint8_t* op, const uint8_t* src, size_t len) {
  op = LiteralTag(op, len);
  Copy16(op, src);
  for (size_t i = 16; i < len; i += 16) Copy16(op + i, src + i);
  return op + len;
}

inline uint8_t* EmitLiteralExact(uint8_t* op, const uint8_t* src, size_t len) {
  op = LiteralTag(op, len);
  std::memcpy(op, src, len);
  return op + len;
}

// A copy of 4..11 bytes: a 2-byte tag (3-bit length, 11-bit offset) when the offset < 2048,
// else a 3-byte one. Four bytes are stored either way (the next tag overwrites the rest), and
// the tag is picked through a mask, not a branch: whether an offset is under 2048 is hard to
// predict.
inline uint8_t* EmitCopyUnder12(uint8_t* op, size_t offset, size_t len) {
  const auto o = static_cast<uint32_t>(offset);
  const auto l = static_cast<uint32_t>(len);
  const uint32_t near = o < 2048 ? 1 : 0;
  const uint32_t one = 1 | ((l - 4) << 2) | ((o >> 8) << 5) | (o << 8);
  const uint32_t two = 2 | ((l - 1) << 2) | (o << 8);
  Store32(op, two ^ ((one ^ two) & (0u - near)));
  return op + 3 - near;
}

// One copy of 4..64 bytes; from 12 bytes on always a 3-byte tag (6-bit length, 16-bit offset).
inline uint8_t* EmitCopyUpTo64(uint8_t* op, size_t offset, size_t len) {
  if (len < 12) return EmitCopyUnder12(op, offset, len);
  Store32(op, static_cast<uint32_t>(2 | ((len - 1) << 2) | (offset << 8)));
  return op + 3;
}

// Long matches as 64-byte copies while at least 68 remain, then 60 if more than 64 remain, so
// the last copy has at least 4 bytes.
inline uint8_t* EmitCopy(uint8_t* op, size_t offset, size_t len) {
  if (len <= 64) [[likely]] return EmitCopyUpTo64(op, offset, len);
  while (len >= 68) {
    op = EmitCopyUpTo64(op, offset, 64);
    len -= 64;
  }
  if (len > 64) {
    op = EmitCopyUpTo64(op, offset, 60);
    len -= 60;
  }
  return EmitCopyUpTo64(op, offset, len);
}

// How many bytes from s1 equal those from s2 (s1 < s2), stopping at limit.
inline size_t MatchLength(const uint8_t* s1, const uint8_t* s2, const uint8_t* limit) {
  size_t m = 0;
  while (static_cast<size_t>(limit - s2) - m >= 8) {
    const uint64_t x = Load64(s1 + m) ^ Load64(s2 + m);
    if (x != 0) return m + (static_cast<size_t>(std::countr_zero(x)) >> 3);
    m += 8;
  }
  while (s2 + m < limit && s1[m] == s2[m]) ++m;
  return m;
}

// Extends the 4-byte match at ip (equal to candidate's), writes its copy and moves ip past it;
// returns the 4 bytes at the new ip (0 once within the margin), the next probe's data. The common
// short match is found in one 8-byte compare, and the bytes after it are taken from registers
// already loaded (the second load does not wait for the match's length), which shortens the path
// to the next probe.
[[gnu::always_inline]] inline uint32_t ExtendMatch(const uint8_t*& ip, const uint8_t* candidate,
                                                   const uint8_t* ip_end, const uint8_t* ip_limit,
                                                   uint8_t*& op) {
  const size_t offset = static_cast<size_t>(ip - candidate);
  size_t matched;
  if (ip_end - ip >= 4 + 16) [[likely]] {
    const uint64_t a = Load64(candidate + 4);
    const uint64_t b = Load64(ip + 4);
    if (a != b) {
      const uint64_t x = a ^ b;
      const auto bits = static_cast<size_t>(std::countr_zero(x));
      // b, or the 8 bytes 4 further when the first 4 matched (a conditional move).
      const uint64_t c = Load64(ip + 8);
      const uint64_t after = static_cast<uint32_t>(x) == 0 ? c : b;
      matched = 4 + (bits >> 3);
      ip += matched;
      op = EmitCopyUnder12(op, offset, matched);
      return static_cast<uint32_t>(after >> (bits & 24));
    }
    matched = 12 + MatchLength(candidate + 12, ip + 12, ip_end);
  } else {
    matched = 4 + MatchLength(candidate + 4, ip + 4, ip_end);
  }
  ip += matched;
  op = EmitCopy(op, offset, matched);
  return ip < ip_limit ? Load32(ip) : 0;
}

template <bool kFull>
uint8_t* CompressFragment(const uint8_t* input, size_t n, uint8_t* op, uint16_t* table, uint32_t mask) {
  const uint8_t* ip = input;
  const uint8_t* const ip_end = input + n;
  if (n < kInputMargin) return EmitLiteralExact(op, ip, n);
  const uint8_t* const ip_limit = ip_end - kInputMargin;
  const uint8_t* candidate;
  for (;;) {
    // The bytes in [next_emit, ip) go out as a literal before the next match.
    const uint8_t* const next_emit = ip++;
    uint32_t skip = 32;
    if (ip_limit - ip >= 16) {
      const auto delta = static_cast<uint32_t>(ip - input);
      for (int j = 0; j < 4; ++j) {
        uint64_t data = Load64(ip + 4 * j);
        for (int k = 0; k < 4; ++k) {
          const int i = 4 * j + k;
          const uint32_t h = Hash<kFull>(static_cast<uint32_t>(data), mask);
          candidate = input + table[h];
          table[h] = static_cast<uint16_t>(delta + i);
          if (Load32(candidate) == static_cast<uint32_t>(data)) {
            // A literal of i + 1 <= 16 bytes.
            *op = static_cast<uint8_t>(i << 2);
            Copy16(op + 1, next_emit);
            op += i + 2;
            ip += i;
            goto emit_match;
          }
          data >>= 8;
        }
      }
      ip += 16;
      skip += 16;
    }
    for (;;) {
      const uint32_t data = Load32(ip);
      const uint32_t h = Hash<kFull>(data, mask);
      const uint32_t step = skip >> 5;
      skip += step;
      const uint8_t* next_ip = ip + step;
      if (next_ip > ip_limit) {
        ip = next_emit;
        goto emit_remainder;
      }
      candidate = input + table[h];
      table[h] = static_cast<uint16_t>(ip - input);
      if (data == Load32(candidate)) break;
      ip = next_ip;
    }
    op = EmitLiteralFast(op, next_emit, static_cast<size_t>(ip - next_emit));
  emit_match:
    for (;;) {
      const uint32_t data = ExtendMatch(ip, candidate, ip_end, ip_limit, op);
      if (ip >= ip_limit) goto emit_remainder;
      table[Hash<kFull>(Load32(ip - 1), mask)] = static_cast<uint16_t>(ip - input - 1);
      const uint32_t h = Hash<kFull>(data, mask);
      candidate = input + table[h];
      table[h] = static_cast<uint16_t>(ip - input);
      if (data != Load32(candidate)) break;
    }
  }
emit_remainder:
  if (ip < ip_end) op = EmitLiteralExact(op, ip, static_cast<size_t>(ip_end - ip));
  return op;
}

// Two whole fragments in one loop. A fragment's loop is mostly one chain of loads and compares
// per match, so the core waits; with a second fragment's chain beside it (its own table, its
// output in a scratch buffer moved behind the first's) the two overlap. The state of each lane
// is its position in the code: four blocks, one per pair of modes (probing for a match or
// extending one), each taking one step of both lanes. A step makes the decisions of one turn of
// CompressFragment's loops (its 16 first probes, at step 1, are the generic loop's 16 first).
struct Lane {
  const uint8_t* ip;
  const uint8_t* next_emit;  // the pending literal's start while probing
  const uint8_t* candidate;  // the earlier 4 bytes equal to ip's while extending a match
  uint8_t* op;
  uint32_t skip;
};

// kHit: a match at ip (extend it next). kMiss: none (probe next). kDone: ip is where the last
// literal starts.
enum class Step { kHit, kMiss, kDone };

// One probe at ip; on a hit the literal before it goes out.
[[gnu::always_inline]] inline Step ProbeStep(Lane& s, const uint8_t* input, uint16_t* table) {
  const uint8_t* const ip_limit = input + kFragmentSize - kInputMargin;
  const uint32_t data = Load32(s.ip);
  const uint32_t h = Hash<true>(data, 0);
  const uint32_t step = s.skip >> 5;
  s.skip += step;
  const uint8_t* const next_ip = s.ip + step;
  if (next_ip > ip_limit) [[unlikely]] {
    s.ip = s.next_emit;
    return Step::kDone;
  }
  s.candidate = input + table[h];
  table[h] = static_cast<uint16_t>(s.ip - input);
  if (data == Load32(s.candidate)) {
    s.op = EmitLiteralFast(s.op, s.next_emit, static_cast<size_t>(s.ip - s.next_emit));
    return Step::kHit;
  }
  s.ip = next_ip;
  return Step::kMiss;
}

// The match at ip extended and written, then ip probed: a hit continues the match chain.
[[gnu::always_inline]] inline Step MatchStep(Lane& s, const uint8_t* input, uint16_t* table) {
  const uint8_t* const ip_end = input + kFragmentSize;
  const uint8_t* const ip_limit = ip_end - kInputMargin;
  const uint8_t* ip = s.ip;
  const uint32_t data = ExtendMatch(ip, s.candidate, ip_end, ip_limit, s.op);
  if (ip >= ip_limit) [[unlikely]] {
    s.ip = ip;
    return Step::kDone;
  }
  table[Hash<true>(Load32(ip - 1), 0)] = static_cast<uint16_t>(ip - input - 1);
  const uint32_t h = Hash<true>(data, 0);
  s.candidate = input + table[h];
  table[h] = static_cast<uint16_t>(ip - input);
  if (data == Load32(s.candidate)) {
    s.ip = ip;
    return Step::kHit;
  }
  s.next_emit = ip;
  s.ip = ip + 1;
  s.skip = 32;
  return Step::kMiss;
}

// A lane's steps to its end, then its last literal.
inline uint8_t* FinishLane(Lane& s, Step r, const uint8_t* input, uint16_t* table) {
  while (r != Step::kDone) r = r == Step::kHit ? MatchStep(s, input, table) : ProbeStep(s, input, table);
  const uint8_t* const ip_end = input + kFragmentSize;
  if (s.ip < ip_end) return EmitLiteralExact(s.op, s.ip, static_cast<size_t>(ip_end - s.ip));
  return s.op;
}

// The 2 * 64 KiB at `input` as two fragments; `tables` holds 2 * 2^14 entries, `scratch`
// SnappyMaxCompressedLength(64 KiB) + 64 bytes for the second fragment's output.
uint8_t* CompressFragmentPair(const uint8_t* input, uint8_t* op, uint16_t* tables, uint8_t* scratch) {
  constexpr size_t kTable = size_t{1} << kMaxTableBits;
  const uint8_t* const in_a = input;
  const uint8_t* const in_b = input + kFragmentSize;
  uint16_t* const table_a = tables;
  uint16_t* const table_b = tables + kTable;
  std::memset(tables, 0, 2 * kTable * sizeof(uint16_t));
  Lane a{in_a + 1, in_a, nullptr, op, 32};
  Lane b{in_b + 1, in_b, nullptr, scratch, 32};
  Step ra = Step::kMiss;
  Step rb = Step::kMiss;
  // One lane's step, then a jump by its outcome: to `hit` or `miss`, or when it is done to
  // `done` with the other lane's next step in `other`.
#define QUIVER_SNAPPY_STEP(kind, lane, r, hit, miss, other_r, other_next) \
  r = kind##Step(lane, in_##lane, table_##lane);                          \
  if (r == Step::kHit) goto hit;                                          \
  if (r == Step::kMiss) [[likely]] goto miss;                             \
  other_r = other_next;                                                   \
  goto done
  // Blocks named by the lanes' modes; a_hit/a_miss parts are the second lane's step after the
  // first lane's outcome.
probe_probe:
  QUIVER_SNAPPY_STEP(Probe, a, ra, pp_a_hit, pp_a_miss, rb, Step::kMiss);
pp_a_hit:
  QUIVER_SNAPPY_STEP(Probe, b, rb, match_match, match_probe, ra, Step::kHit);
pp_a_miss:
  QUIVER_SNAPPY_STEP(Probe, b, rb, probe_match, probe_probe, ra, Step::kMiss);
probe_match:
  QUIVER_SNAPPY_STEP(Probe, a, ra, pm_a_hit, pm_a_miss, rb, Step::kHit);
pm_a_hit:
  QUIVER_SNAPPY_STEP(Match, b, rb, match_match, match_probe, ra, Step::kHit);
pm_a_miss:
  QUIVER_SNAPPY_STEP(Match, b, rb, probe_match, probe_probe, ra, Step::kMiss);
match_probe:
  QUIVER_SNAPPY_STEP(Match, a, ra, mp_a_hit, mp_a_miss, rb, Step::kMiss);
mp_a_hit:
  QUIVER_SNAPPY_STEP(Probe, b, rb, match_match, match_probe, ra, Step::kHit);
mp_a_miss:
  QUIVER_SNAPPY_STEP(Probe, b, rb, probe_match, probe_probe, ra, Step::kMiss);
match_match:
  QUIVER_SNAPPY_STEP(Match, a, ra, mm_a_hit, mm_a_miss, rb, Step::kHit);
mm_a_hit:
  QUIVER_SNAPPY_STEP(Match, b, rb, match_match, match_probe, ra, Step::kHit);
mm_a_miss:
  QUIVER_SNAPPY_STEP(Match, b, rb, probe_match, probe_probe, ra, Step::kMiss);
#undef QUIVER_SNAPPY_STEP
done:
  op = FinishLane(a, ra, in_a, table_a);
  const uint8_t* const b_end = FinishLane(b, rb, in_b, table_b);
  const auto b_size = static_cast<size_t>(b_end - scratch);
  std::memcpy(op, scratch, b_size);
  return op + b_size;
}

}  // namespace

size_t SnappyCompress(std::span<const uint8_t> in, uint8_t* out) {
  uint8_t* op = out;
  auto len = static_cast<uint32_t>(in.size());
  while (len >= 0x80) {
    *op++ = static_cast<uint8_t>(len | 0x80);
    len >>= 7;
  }
  *op++ = static_cast<uint8_t>(len);

  alignas(64) uint16_t table[2 << kMaxTableBits];
  alignas(64) uint8_t scratch[SnappyMaxCompressedLength(kFragmentSize) + 64];
  const uint8_t* p = in.data();
  size_t left = in.size();
  while (left >= 2 * kFragmentSize) {
    op = CompressFragmentPair(p, op, table, scratch);
    p += 2 * kFragmentSize;
    left -= 2 * kFragmentSize;
  }
  while (left > 0) {
    const size_t fragment = std::min(left, kFragmentSize);
    const int bits = TableBits(fragment);
    if (fragment >= kInputMargin) std::memset(table, 0, sizeof(uint16_t) << bits);
    op = bits == kMaxTableBits ? CompressFragment<true>(p, fragment, op, table, 0)
                               : CompressFragment<false>(p, fragment, op, table, (uint32_t{1} << bits) - 1);
    p += fragment;
    left -= fragment;
  }
  return static_cast<size_t>(op - out);
}

}  // namespace quiver::compress

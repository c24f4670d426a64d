#include "quiver/csv/convert_internal.h"

#include <fmt/format.h>
#include "quiver/core/intrinsics_internal.h"
#include <simdjson.h>

#include <algorithm>
#include <optional>
#include <cstring>

#include "quiver/core/bit_util.h"
#include "quiver/core/buffer.h"
#include "quiver/core/utf8.h"
#include "quiver/columnar/value_parse.h"

namespace quiver::csv {

namespace {

// Parses one non-null text for a fixed-width type into *out (storage type T).
template <typename T>
using ParseFn = bool (*)(std::string_view, const TypePtr&, const FieldSyntax&, T*);

// The `Padded` versions may read past the text (see value_parse.h): conversion uses them on
// block buffers; checks of arbitrary strings (FieldConverts) use the plain ones.
bool ParseInt64Fn(std::string_view s, const TypePtr&, const FieldSyntax&, int64_t* out) { return ParseInt64(s, out); }
bool ParseInt64PaddedFn(std::string_view s, const TypePtr&, const FieldSyntax&, int64_t* out) {
  return ParseInt64Padded(s, out);
}
bool NarrowInt32(int64_t v, int32_t* out) {
  if (v < INT32_MIN || v > INT32_MAX) return false;
  *out = static_cast<int32_t>(v);
  return true;
}
bool ParseInt32Fn(std::string_view s, const TypePtr&, const FieldSyntax&, int32_t* out) {
  int64_t v;
  return ParseInt64(s, &v) && NarrowInt32(v, out);
}
bool ParseInt32PaddedFn(std::string_view s, const TypePtr&, const FieldSyntax&, int32_t* out) {
  int64_t v;
  return ParseInt64Padded(s, &v) && NarrowInt32(v, out);
}
bool ParseDoubleFn(std::string_view s, const TypePtr&, const FieldSyntax&, double* out) { return ParseFloat64(s, out); }
bool ParseDoublePaddedFn(std::string_view s, const TypePtr&, const FieldSyntax&, double* out) {
  return ParseFloat64Padded(s, out);
}
bool ParseFloatFn(std::string_view s, const TypePtr&, const FieldSyntax&, float* out) {
  double d;
  if (!ParseFloat64(s, &d)) return false;
  *out = static_cast<float>(d);
  return true;
}
bool ParseFloatPaddedFn(std::string_view s, const TypePtr&, const FieldSyntax&, float* out) {
  double d;
  if (!ParseFloat64Padded(s, &d)) return false;
  *out = static_cast<float>(d);
  return true;
}
bool ParseDateFn(std::string_view s, const TypePtr&, const FieldSyntax&, int32_t* out) { return ParseDate(s, out); }
bool ParseDatePaddedFn(std::string_view s, const TypePtr&, const FieldSyntax&, int32_t* out) {
  return ParseDatePadded(s, out);
}
// Microseconds in a timestamp column's unit; false when nanoseconds would overflow.
bool ParseTimestampFn(std::string_view s, const TypePtr& t, const FieldSyntax&, int64_t* out) {
  ParsedTimestamp ts;
  return ParseTimestamp(s, &ts) && MicrosInUnit(ts.micros, t->unit(), out);
}
bool ParseTime64Fn(std::string_view s, const TypePtr& t, const FieldSyntax&, int64_t* out) {
  int64_t nanos;
  if (!ParseTimeOfDayNanos(s, &nanos)) return false;
  *out = t->unit() == TimeUnit::kNano ? nanos : nanos / 1000;
  return true;
}
bool ParseTime32Fn(std::string_view s, const TypePtr& t, const FieldSyntax&, int32_t* out) {
  int64_t nanos;
  if (!ParseTimeOfDayNanos(s, &nanos)) return false;
  *out = static_cast<int32_t>(t->unit() == TimeUnit::kMilli ? nanos / 1000000 : nanos / 1000000000);
  return true;
}
bool ParseDecimalFn(std::string_view s, const TypePtr& t, const FieldSyntax&, __int128* out) {
  return ParseDecimal(s, t->precision(), t->scale(), out);
}

// A value of a date32 (days) or timestamp (its unit) column read by the column's format.
bool ParseFormatted(std::string_view s, const TypePtr&, const DateFormat& f, int32_t* days) { return f.ParseDays(s, days); }
bool ParseFormatted(std::string_view s, const TypePtr& t, const DateFormat& f, int64_t* out) {
  int64_t micros;
  return f.ParseMicros(s, &micros) && MicrosInUnit(micros, t->unit(), out);
}


// ---- 8 rows at a time (AVX-512) -------------------------------------------------------------
// Each kernel takes 8 consecutive spans of a column, reads the first 8 or 16 bytes of each
// field with plain loads (fields lie in a block buffer with 64 readable bytes past its end; a
// missing field has an empty span, and its lane reads the buffer's first bytes and is never
// live), converts the lanes whose text has the common shape and stores them. It returns the mask of the lanes it stored: exactly those for which the scalar
// padded parser takes the same arithmetic path, so the results are identical; every other
// lane (signs beyond the shape, exponents, longer numbers, bad text, nulls, quotes) is left to
// the scalar path, which also reports errors.
#define QUIVER_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))
// GCC 12's AVX-512 headers trip -Wuninitialized on their own undefined pass-through operands
// (unmasked shifts and multiplies) once inlined here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

// The spans' starts and lengths, one per 64-bit lane.
QUIVER_AVX512 inline void SpanLanes(const FieldSpan* f, __m512i* start, __m512i* len) {
  const __m512i refs = _mm512_loadu_si512(f);
  *start = _mm512_and_si512(refs, _mm512_set1_epi64(0xFFFFFFFF));
  *len = _mm512_sub_epi64(_mm512_srli_epi64(refs, 32), *start);
}

// The first 16 bytes of each of 8 fields: lane i of *w0 holds bytes 0..7 of field i, of *w1
// bytes 8..15 (a missing field reads the buffer's first bytes; its lane is never live). Eight
// 16-byte loads put together: on Zen 4 this is cheaper than the two 8-lane gathers it
// replaced, which took a third of each kernel's time.
QUIVER_AVX512 inline void FieldWords(const uint8_t* data, const FieldSpan* f, __m512i* w0, __m512i* w1) {
  auto at = [&](int i) {
    const uint32_t s = f[i].start;
    return reinterpret_cast<const __m128i*>(data + (s == FieldSpan::kMissing ? 0 : s));
  };
  const __m256i x01 = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(at(0))), _mm_loadu_si128(at(1)), 1);
  const __m256i x23 = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(at(2))), _mm_loadu_si128(at(3)), 1);
  const __m256i x45 = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(at(4))), _mm_loadu_si128(at(5)), 1);
  const __m256i x67 = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(at(6))), _mm_loadu_si128(at(7)), 1);
  const __m512i lo = _mm512_inserti64x4(_mm512_castsi256_si512(x01), x23, 1);
  const __m512i hi = _mm512_inserti64x4(_mm512_castsi256_si512(x45), x67, 1);
  *w0 = _mm512_permutex2var_epi64(lo, _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14), hi);
  *w1 = _mm512_permutex2var_epi64(lo, _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15), hi);
}

// The first 8 bytes of each of 8 fields, lane i field i's (as FieldWords' *w0).
QUIVER_AVX512 inline __m512i FieldWord(const uint8_t* data, const FieldSpan* f) {
  auto pair = [&](int i) {
    const uint32_t s0 = f[i].start, s1 = f[i + 1].start;
    const __m128i lo = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(data + (s0 == FieldSpan::kMissing ? 0 : s0)));
    return _mm_castpd_si128(
        _mm_loadh_pd(_mm_castsi128_pd(lo), reinterpret_cast<const double*>(data + (s1 == FieldSpan::kMissing ? 0 : s1))));
  };
  const __m256i x0 = _mm256_inserti128_si256(_mm256_castsi128_si256(pair(0)), pair(2), 1);
  const __m256i x1 = _mm256_inserti128_si256(_mm256_castsi128_si256(pair(4)), pair(6), 1);
  return _mm512_inserti64x4(_mm512_castsi256_si512(x0), x1, 1);
}

// Lanes with lo <= v <= hi (unsigned).
QUIVER_AVX512 inline __mmask8 InRange(__m512i v, uint64_t lo, uint64_t hi) {
  return _mm512_cmp_epu64_mask(_mm512_sub_epi64(v, _mm512_set1_epi64(static_cast<long long>(lo))),
                               _mm512_set1_epi64(static_cast<long long>(hi - lo)), _MM_CMPINT_LE);
}

// Lanes whose 8 bytes are all ASCII digits.
// A byte's value less '0' plus 0x76 (saturating) reaches 0x80 exactly when it is not a digit,
// so one test of the top bits covers a lane without a round trip through a byte mask.
QUIVER_AVX512 inline __mmask8 AllDigitLanes(__m512i w) {
  const __m512i t = _mm512_adds_epu8(_mm512_sub_epi8(w, _mm512_set1_epi8('0')), _mm512_set1_epi8(0x76));
  return _mm512_testn_epi64_mask(t, _mm512_set1_epi8(static_cast<char>(0x80)));
}

// The k digits (1..8) at the low end of each lane, placed as the low digits of an 8-digit
// number (leading '0's shifted in): k = 8 needs no shift, and a shift by 64 gives 0.
QUIVER_AVX512 inline __m512i AlignDigits(__m512i w, __m512i k) {
  const __m512i eight = _mm512_set1_epi64(8);
  return _mm512_or_si512(_mm512_sllv_epi64(w, _mm512_slli_epi64(_mm512_sub_epi64(eight, k), 3)),
                         _mm512_srlv_epi64(_mm512_set1_epi64(0x3030303030303030ll), _mm512_slli_epi64(k, 3)));
}

// The value of 8 ASCII digits per lane (first digit in the low byte).
QUIVER_AVX512 inline __m512i DigitValue(__m512i w) {
  const __m512i d = _mm512_sub_epi8(w, _mm512_set1_epi8('0'));
  const __m512i pairs = _mm512_maddubs_epi16(d, _mm512_set1_epi16(0x010A));      // 10a + b
  const __m512i quads = _mm512_madd_epi16(pairs, _mm512_set1_epi32(0x00010064)); // 100ab + cd
  return _mm512_add_epi64(_mm512_mul_epu32(quads, _mm512_set1_epi64(10000)), _mm512_srli_epi64(quads, 32));
}

// [+-]D{1,8}: ParseInt64Padded's 1..8 digit path.
QUIVER_AVX512 uint32_t Int64x8(const uint8_t* data, const FieldSpan* f, int64_t* out) {
  __m512i start, len;
  SpanLanes(f, &start, &len);
  const __m512i one = _mm512_set1_epi64(1);
  __mmask8 live = InRange(len, 1, 8);
  __m512i w = FieldWord(data, f);
  const __m512i first = _mm512_and_si512(w, _mm512_set1_epi64(0xFF));
  const __mmask8 neg = _mm512_cmpeq_epi64_mask(first, _mm512_set1_epi64('-'));
  const __mmask8 sign = neg | _mm512_cmpeq_epi64_mask(first, _mm512_set1_epi64('+'));
  w = _mm512_mask_srli_epi64(w, sign, w, 8);
  const __m512i n = _mm512_mask_sub_epi64(len, sign, len, one);
  live &= _mm512_cmpge_epu64_mask(n, one);
  // A leading zero ("00501") goes to the scalar path, which refuses it in inferred columns.
  live &= ~(_mm512_cmpeq_epi64_mask(_mm512_and_si512(w, _mm512_set1_epi64(0xFF)), _mm512_set1_epi64('0')) &
            _mm512_cmpgt_epu64_mask(n, one));
  w = AlignDigits(w, n);
  const __mmask8 ok = live & AllDigitLanes(w);
  __m512i v = DigitValue(w);
  v = _mm512_mask_sub_epi64(v, neg, _mm512_setzero_si512(), v);
  _mm512_mask_storeu_epi64(out, ok, v);
  return ok;
}

// [-]D{1,7}.D{1,7}: ParseFloat64Padded's first path (at most 8 digits around a point in the
// first 8 bytes after the sign), the digits as an integer divided by an exact power of ten.
QUIVER_AVX512 uint32_t Float64x8(const uint8_t* data, const FieldSpan* f, double* out) {
  __m512i start, len;
  SpanLanes(f, &start, &len);
  const __m512i one = _mm512_set1_epi64(1);
  __mmask8 live = InRange(len, 3, 10);
  __m512i w0, w1;
  FieldWords(data, f, &w0, &w1);
  const __mmask8 neg =
      _mm512_cmpeq_epi64_mask(_mm512_and_si512(w0, _mm512_set1_epi64(0xFF)), _mm512_set1_epi64('-'));
  w0 = _mm512_mask_or_epi64(w0, neg, _mm512_srli_epi64(w0, 8), _mm512_slli_epi64(w1, 56));
  w1 = _mm512_mask_srli_epi64(w1, neg, w1, 8);
  const __m512i n = _mm512_mask_sub_epi64(len, neg, len, one);
  live &= InRange(n, 3, 9);
  // The first point among the 8 bytes: its lowest bit is bit 8 * dot.
  const __m512i dots = _mm512_movm_epi8(_mm512_cmpeq_epi8_mask(w0, _mm512_set1_epi8('.')));
  const __m512i low = _mm512_and_si512(dots, _mm512_sub_epi64(_mm512_setzero_si512(), dots));
  // 1 <= dot <= n - 2: a digit before the point and one after it.
  live &= _mm512_cmpge_epu64_mask(low, _mm512_set1_epi64(0x100)) &
          _mm512_cmple_epu64_mask(low, _mm512_sllv_epi64(one, _mm512_slli_epi64(_mm512_sub_epi64(n, _mm512_set1_epi64(2)), 3)));
  // The point squeezed out: the bytes after it move down one, byte 8 comes in at the top.
  // A leading zero ("007.5": a '0' first, the point not right after it) goes to the scalar path.
  live &= ~(_mm512_cmpeq_epi64_mask(_mm512_and_si512(w0, _mm512_set1_epi64(0xFF)), _mm512_set1_epi64('0')) &
            _mm512_cmpge_epu64_mask(low, _mm512_set1_epi64(0x10000)));
  const __m512i below = _mm512_sub_epi64(low, one);
  __m512i w = _mm512_ternarylogic_epi64(below, w0, _mm512_srli_epi64(w0, 8), 0xCA);  // below ? w0 : w0 >> 8
  w = _mm512_or_si512(_mm512_and_si512(w, _mm512_set1_epi64(0x00FFFFFFFFFFFFFFll)), _mm512_slli_epi64(w1, 56));
  const __m512i k = _mm512_sub_epi64(n, one);
  w = AlignDigits(w, k);
  const __mmask8 ok = live & AllDigitLanes(w);
  // 8 * dot from the exponent of 2^(8 * dot), then frac = k - dot.
  const __m512i dot8 = _mm512_sub_epi64(_mm512_srli_epi64(_mm512_castpd_si512(_mm512_cvtepu64_pd(low)), 52),
                                        _mm512_set1_epi64(1023));
  const __m512i frac = _mm512_sub_epi64(k, _mm512_srli_epi64(dot8, 3));
  const __m512d pow10 = _mm512_permutexvar_pd(frac, _mm512_setr_pd(1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7));
  __m512d v = _mm512_div_pd(_mm512_cvtepu64_pd(DigitValue(w)), pow10);
  v = _mm512_castsi512_pd(_mm512_mask_xor_epi64(_mm512_castpd_si512(v), neg, _mm512_castpd_si512(v),
                                                _mm512_set1_epi64(static_cast<long long>(0x8000000000000000ull))));
  _mm512_mask_storeu_pd(out, ok, v);
  return ok;
}

// YYYY-MM-DD with a year in 1970..2099: ParseDatePadded's table path.
QUIVER_AVX512 uint32_t Date32x8(const uint8_t* data, const FieldSpan* f, int32_t* out) {
  __m512i start, len;
  SpanLanes(f, &start, &len);
  __mmask8 live = _mm512_cmpeq_epi64_mask(len, _mm512_set1_epi64(10));
  __m512i a, b;
  FieldWords(data, f, &a, &b);
  const __m512i ff = _mm512_set1_epi64(0xFF);
  live &= _mm512_cmpeq_epi64_mask(_mm512_and_si512(_mm512_srli_epi64(a, 32), ff), _mm512_set1_epi64('-')) &
          _mm512_cmpeq_epi64_mask(_mm512_srli_epi64(a, 56), _mm512_set1_epi64('-'));
  // "YYYYMMDD" in one word.
  const __m512i w = _mm512_or_si512(
      _mm512_or_si512(_mm512_and_si512(a, _mm512_set1_epi64(0xFFFFFFFF)),
                      _mm512_slli_epi64(_mm512_and_si512(_mm512_srli_epi64(a, 40), _mm512_set1_epi64(0xFFFF)), 32)),
      _mm512_slli_epi64(b, 48));
  live &= AllDigitLanes(w);
  // Digit pairs: 16-bit lanes hold the year's halves, the month and the day.
  const __m512i pairs = _mm512_maddubs_epi16(_mm512_sub_epi8(w, _mm512_set1_epi8('0')), _mm512_set1_epi16(0x010A));
  // Multiplies by mul_epu32: the factors fit 32 bits in every live lane (a 64-bit mullo is three uops).
  const __m512i y = _mm512_add_epi64(_mm512_mul_epu32(_mm512_and_si512(pairs, ff), _mm512_set1_epi64(100)),
                                     _mm512_and_si512(_mm512_srli_epi64(pairs, 16), ff));
  const __m512i m = _mm512_and_si512(_mm512_srli_epi64(pairs, 32), ff);
  const __m512i d = _mm512_srli_epi64(pairs, 48);
  const __m512i one = _mm512_set1_epi64(1);
  live &= InRange(y, 1970, 2099) & InRange(m, 1, 12) & _mm512_cmpge_epu64_mask(d, one);
  const __mmask8 leap = _mm512_testn_epi64_mask(y, _mm512_set1_epi64(3));  // 2000 is one; 2100 is out of range
  const __m512i mi = _mm512_sub_epi64(m, one);
  const __m512i month_len = _mm512_permutex2var_epi64(_mm512_setr_epi64(31, 28, 31, 30, 31, 30, 31, 31), mi,
                                                      _mm512_setr_epi64(30, 31, 30, 31, 0, 0, 0, 0));
  const __m512i before = _mm512_permutex2var_epi64(_mm512_setr_epi64(0, 31, 59, 90, 120, 151, 181, 212), mi,
                                                   _mm512_setr_epi64(243, 273, 304, 334, 0, 0, 0, 0));
  const __m512i leap_day = _mm512_maskz_mov_epi64(leap & _mm512_cmpgt_epu64_mask(m, _mm512_set1_epi64(2)), one);
  const __m512i feb29 = _mm512_maskz_mov_epi64(leap & _mm512_cmpeq_epi64_mask(m, _mm512_set1_epi64(2)), one);
  const __mmask8 ok = live & _mm512_cmple_epu64_mask(d, _mm512_add_epi64(month_len, feb29));
  const __m512i yy = _mm512_sub_epi64(y, _mm512_set1_epi64(1970));
  __m512i days = _mm512_add_epi64(_mm512_mul_epu32(yy, _mm512_set1_epi64(365)), _mm512_srli_epi64(_mm512_add_epi64(yy, one), 2));
  days = _mm512_add_epi64(_mm512_add_epi64(days, before), _mm512_add_epi64(leap_day, _mm512_sub_epi64(d, one)));
  _mm256_mask_storeu_epi32(out, ok, _mm512_cvtepi64_epi32(days));
  return ok;
}

// `groups` groups of 8 rows through one kernel, inlined here so that its constants stay in
// registers across groups; each group's mask goes to masks[i]. Returns the AND of the masks.
template <typename T, uint32_t (*kernel)(const uint8_t*, const FieldSpan*, T*)>
QUIVER_AVX512 __attribute__((flatten)) uint32_t Groups8(const uint8_t* data, const FieldSpan* f, int64_t groups, T* out,
                                                        uint8_t* masks) {
  uint32_t all = 0xFF;
  for (int64_t i = 0; i < groups; ++i) {
    const uint32_t m = kernel(data, f + 8 * i, out + 8 * i);
    masks[i] = static_cast<uint8_t>(m);
    all &= m;
  }
  return all;
}

// A string column's rows [r, rows) whose values are all one byte long (lineitem's flags), 16
// at a time: their bytes gathered (8-lane gathers of 64-bit offsets, since the spans' offsets
// may pass 2 GiB; each reads 4 bytes, within the block buffer's 64 bytes of slack) and stored
// as one 16-byte move, their end offsets as one register. A one-byte field is its own text
// even when it is the quote character (an unbalanced quote), so no byte needs a look; the
// caller makes sure no null token or trimming applies (fast_end < 0 otherwise). Stops once
// the bytes near the buffer's end (size past fast_end); returns the first row left. The bytes
// stored are ORed into *high, as CopyShort does.
QUIVER_AVX512 int64_t OneByteValues(const uint8_t* data, const FieldSpan* fields, int64_t r, int64_t rows, uint8_t* dst,
                                    int64_t* size_io, int64_t fast_end, int32_t* off, __m128i* high_io) {
  int64_t size = *size_io;
  __m128i high = *high_io;
  const __m512i first16 = _mm512_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
  const __m512i low32 = _mm512_set1_epi64(0xFFFFFFFF);
  for (; r + 16 <= rows && size <= fast_end; r += 16) {
    const __m512i lo = _mm512_and_si512(_mm512_loadu_si512(fields + r), low32);  // starts, one per 64-bit lane
    const __m512i hi = _mm512_and_si512(_mm512_loadu_si512(fields + r + 8), low32);
    const __m128i b0 = _mm256_cvtepi32_epi8(_mm512_i64gather_epi32(lo, data, 1));
    const __m128i b1 = _mm256_cvtepi32_epi8(_mm512_i64gather_epi32(hi, data, 1));
    const __m128i bytes = _mm_unpacklo_epi64(b0, b1);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + size), bytes);
    high = _mm_or_si128(high, bytes);
    _mm512_storeu_si512(off + r + 1, _mm512_add_epi32(_mm512_set1_epi32(static_cast<int32_t>(size)), first16));
    size += 16;
  }
  *size_io = size;
  *high_io = high;
  return r;
}

// ColumnConverters::CopyShort with 2 or 4 moves at the AVX-512 level: the same bytes read and
// written (kBytes from each value's start), as one 32- or 64-byte move instead of 16-byte
// ones, which halved or quartered the loads and stores that bound the loop.
template <int kBytes>
QUIVER_AVX512 __attribute__((noinline)) int64_t CopyWide(const uint8_t* data, const FieldSpan* fields, int64_t r,
                                                         int64_t rows, uint8_t quote, uint8_t* dst, int64_t* size_io,
                                                         int64_t fast_end, int32_t* off, __m128i* high_io) {
  static_assert(kBytes == 32 || kBytes == 64);
  int64_t size = *size_io;
  __m512i high = _mm512_zextsi128_si512(*high_io);
  for (; r < rows; ++r) {
    const FieldSpan f = fields[r];
    const uint32_t len = f.end - f.start;  // 0 for a missing field, which is never read here
    const uint8_t* src = data + f.start;
    if (!(len - 1 < kBytes && size <= fast_end) || src[0] == quote) [[unlikely]] break;
    if constexpr (kBytes == 64) {
      const __m512i v = _mm512_loadu_si512(src);
      _mm512_storeu_si512(dst + size, v);
      high = _mm512_or_si512(high, v);
    } else {
      const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + size), v);
      high = _mm512_or_si512(high, _mm512_zextsi256_si512(v));
    }
    size += len;
    off[r + 1] = static_cast<int32_t>(size);
  }
  const __m256i h = _mm256_or_si256(_mm512_castsi512_si256(high), _mm512_extracti64x4_epi64(high, 1));
  *size_io = size;
  *high_io = _mm_or_si128(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
  return r;
}

#pragma GCC diagnostic pop
#undef QUIVER_AVX512

// Converts groups of 8 spans where it can (the kernels above, through Groups8).
template <typename T>
using BatchFn = uint32_t (*)(const uint8_t*, const FieldSpan*, int64_t, T*, uint8_t*);

// `wide` says whether there is a `batch` (a flag of its own: with sanitizers GCC does not
// treat a function's address as a constant in `if constexpr`).
template <typename T, ParseFn<T> F, ParseFn<T> FPadded = F, BatchFn<T> B = nullptr, bool W = false>
struct Parser {
  using type = T;
  static constexpr ParseFn<T> parse = F;
  static constexpr ParseFn<T> parse_padded = FPadded;  // for text inside a block buffer
  static constexpr BatchFn<T> batch = B;               // AVX-512, for text inside a block buffer
  static constexpr bool wide = W;
};

// The one mapping from a fixed-width column type to its storage type and text parser, shared
// by conversion and by on_error=skip pre-validation. False for types it does not cover.
template <typename Visit>
bool VisitFixedParser(TypeId id, Visit&& visit) {
  switch (id) {
    case TypeId::kInt64: visit(Parser<int64_t, ParseInt64Fn, ParseInt64PaddedFn, Groups8<int64_t, Int64x8>, true>{}); return true;
    case TypeId::kInt32: visit(Parser<int32_t, ParseInt32Fn, ParseInt32PaddedFn>{}); return true;
    case TypeId::kFloat64: visit(Parser<double, ParseDoubleFn, ParseDoublePaddedFn, Groups8<double, Float64x8>, true>{}); return true;
    case TypeId::kFloat32: visit(Parser<float, ParseFloatFn, ParseFloatPaddedFn>{}); return true;
    case TypeId::kDate32: visit(Parser<int32_t, ParseDateFn, ParseDatePaddedFn, Groups8<int32_t, Date32x8>, true>{}); return true;
    case TypeId::kTimestamp: visit(Parser<int64_t, ParseTimestampFn>{}); return true;
    case TypeId::kTime64: visit(Parser<int64_t, ParseTime64Fn>{}); return true;
    case TypeId::kTime32: visit(Parser<int32_t, ParseTime32Fn>{}); return true;
    case TypeId::kDecimal128: visit(Parser<__int128, ParseDecimalFn>{}); return true;
    default: return false;
  }
}

}  // namespace

// The per-type loops over one group of rows. Values are written straight into the column's
// buffers. A group that fails (on_error=fail) is not counted in the column's length; the read
// stops there, so what it left past the length is never used.
struct ColumnConverters {
  static constexpr uint32_t kMove = 64;  // the bytes String copies per value without a call

  // The parser is a template argument so that it inlines into the per-row loop.
  template <typename T, ParseFn<T> parse, BatchFn<T> batch, bool wide>
  static Status Fixed(TextColumnConverter& b, const uint8_t* data, const FieldSpan* fields, int64_t rows, const FieldSyntax& syn,
                      bool null_on_error, int64_t* nulled, ConvertError* error) {
    QUIVER_RETURN_NOT_OK(b.values_.Reserve(rows * static_cast<int64_t>(sizeof(T))));
    QUIVER_RETURN_NOT_OK(b.ExtendValidity(rows));
    T* out = reinterpret_cast<T*>(b.values_.mutable_data() + b.values_.size());
    const TypePtr& type = b.type_;
    const bool direct = syn.Direct();
    const char quote = syn.quote;
    const bool no_leading_zeros = b.no_leading_zeros_;
    Status st;
    // Row r one value at a time; false stops the group (an error recorded, or st failed).
    auto one = [&](int64_t r) -> bool {
      const FieldSpan f = fields[r];
      const uint32_t len = f.end - f.start;  // 0 for a missing field, which is never read here
      std::string_view text;
      if (direct && len != 0 && data[f.start] != static_cast<uint8_t>(quote)) [[likely]] {
        text = std::string_view(reinterpret_cast<const char*>(data) + f.start, len);
      } else {
        bool quoted;
        if (!syn.Text(data, f, false, &text, &quoted)) {
          out[r] = T{};
          st = b.SetNull(b.length_ + r);
          return st.ok();
        }
      }
      if (!parse(text, type, syn, &out[r]) || (no_leading_zeros && HasLeadingZero(text))) [[unlikely]] {
        if (!null_on_error) {
          error->row = r;
          error->failure = ConvertFailure::kBadValue;
          return false;
        }
        out[r] = T{};
        ++*nulled;
        st = b.SetNull(b.length_ + r);
        return st.ok();
      }
      return true;
    };
    int64_t r = 0;
    if constexpr (wide) {
      // Null tokens and trimming could change what a lane's text means: those columns go one by one.
      if (b.wide_ && direct) {
        // Up to 32 groups of 8 per call; then the lanes the kernel left, in row order.
        uint8_t masks[32];
        while (r + 8 <= rows) {
          const int64_t groups = std::min<int64_t>((rows - r) / 8, 32);
          if (batch(data, fields + r, groups, out + r, masks) != 0xFF) [[unlikely]] {
            for (int64_t i = 0; i < groups * 8; ++i) {
              if (!((masks[i / 8] >> (i % 8)) & 1) && !one(r + i)) return st;
            }
          }
          r += groups * 8;
        }
      }
    }
    for (; r < rows; ++r) {
      if (!one(r)) return st;
    }
    b.values_.UnsafeSetSize(b.values_.size() + rows * static_cast<int64_t>(sizeof(T)));
    b.length_ += rows;
    return Status::OK();
  }

  // Dates and timestamps read by the column's format (chosen once, when the column starts).
  template <typename T>
  static Status Formatted(TextColumnConverter& b, const uint8_t* data, const FieldSpan* fields, int64_t rows,
                          const FieldSyntax& syn, bool null_on_error, int64_t* nulled, ConvertError* error) {
    QUIVER_RETURN_NOT_OK(b.values_.Reserve(rows * static_cast<int64_t>(sizeof(T))));
    QUIVER_RETURN_NOT_OK(b.ExtendValidity(rows));
    T* out = reinterpret_cast<T*>(b.values_.mutable_data() + b.values_.size());
    const DateFormat& format = *b.format_;
    for (int64_t r = 0; r < rows; ++r) {
      std::string_view text;
      bool quoted;
      if (!syn.Text(data, fields[r], false, &text, &quoted)) {
        out[r] = T{};
        QUIVER_RETURN_NOT_OK(b.SetNull(b.length_ + r));
        continue;
      }
      if (!ParseFormatted(text, b.type_, format, &out[r])) {
        if (!null_on_error) {
          error->row = r;
          error->failure = ConvertFailure::kBadValue;
          return Status::OK();
        }
        out[r] = T{};
        ++*nulled;
        QUIVER_RETURN_NOT_OK(b.SetNull(b.length_ + r));
      }
    }
    b.values_.UnsafeSetSize(b.values_.size() + rows * static_cast<int64_t>(sizeof(T)));
    b.length_ += rows;
    return Status::OK();
  }

  static Status Bool(TextColumnConverter& b, const uint8_t* data, const FieldSpan* fields, int64_t rows, const FieldSyntax& syn,
                     bool null_on_error, int64_t* nulled, ConvertError* error) {
    // Bits past the column's length are kept zero, so a group only sets the true ones.
    const int64_t bytes = bit_util::BytesForBits(b.length_ + rows);
    const int64_t had = b.values_.size();
    if (bytes > had) {
      QUIVER_RETURN_NOT_OK(b.values_.AppendZeros(bytes - had));
    }
    QUIVER_RETURN_NOT_OK(b.ExtendValidity(rows));
    uint8_t* bits = b.values_.mutable_data();
    for (int64_t r = 0; r < rows; ++r) {
      std::string_view text;
      bool quoted, v;
      if (!syn.Text(data, fields[r], false, &text, &quoted)) {
        QUIVER_RETURN_NOT_OK(b.SetNull(b.length_ + r));
        continue;
      }
      if (!ParseBool(text, syn, &v)) {
        if (!null_on_error) {
          error->row = r;
          error->failure = ConvertFailure::kBadValue;
          return Status::OK();
        }
        ++*nulled;
        QUIVER_RETURN_NOT_OK(b.SetNull(b.length_ + r));
        continue;
      }
      if (v) bit_util::SetBit(bits, b.length_ + r);
    }
    b.length_ += rows;
    return Status::OK();
  }

  // Whether each of a group's values (bytes [first, end), value r at [off[r], off[r + 1])) is
  // UTF-8: the group's bytes are, and no value starts with a continuation byte (valid UTF-8
  // never does, so every value then ends on a character boundary too). Without that test, a
  // character cut between two values ("\xC3" then "\xA9") passed as valid.
  static bool ValuesAreUtf8(const uint8_t* bytes, const int32_t* off, int64_t first, int64_t end, int64_t rows) {
    if (!simdjson::validate_utf8(reinterpret_cast<const char*>(bytes) + first, static_cast<size_t>(end - first))) {
      return false;
    }
    uint8_t continuation = 0;
    for (int64_t r = 0; r < rows; ++r) {
      continuation |= static_cast<uint8_t>(off[r + 1] > off[r] && (bytes[off[r]] & 0xC0) == 0x80);
    }
    return continuation == 0;
  }

  // Copies fields[r, rows) to dst + *size while each is the common kind (unquoted, 1..16 *
  // kMoves bytes, with room for the moves: size <= fast_end), with kMoves fixed 16-byte moves
  // whatever its length, and sets its end offset; returns the first row it left. Every byte
  // the moves read is ORed into *high: when no byte has its top bit set, every value copied is
  // ASCII, so the group needs no UTF-8 pass (bytes read past a value belong to the next
  // fields: a non-ASCII one there only costs the full check). A function of its own, so that
  // its few pointers stay in registers (inside String they were spilled, `high` and the row
  // index going through memory on every value).
  template <int kMoves>
  __attribute__((noinline)) static int64_t CopyShort(const uint8_t* data, const FieldSpan* fields, int64_t r,
                                                     int64_t rows, uint8_t quote, uint8_t* dst, int64_t* size_io,
                                                     int64_t fast_end, int32_t* off, __m128i* high_io) {
    int64_t size = *size_io;
    __m128i high = *high_io;
    for (; r < rows; ++r) {
      const FieldSpan f = fields[r];
      const uint32_t len = f.end - f.start;  // 0 for a missing field, which is never read here
      const uint8_t* src = data + f.start;
      if (!(len - 1 < 16 * kMoves && size <= fast_end) || src[0] == quote) [[unlikely]] break;
      for (int k = 0; k < kMoves; ++k) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 16 * k));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + size + 16 * k), v);
        high = _mm_or_si128(high, v);
      }
      size += len;
      off[r + 1] = static_cast<int32_t>(size);
    }
    *size_io = size;
    *high_io = high;
    return r;
  }
  using CopyFn = int64_t (*)(const uint8_t*, const FieldSpan*, int64_t, int64_t, uint8_t, uint8_t*, int64_t*, int64_t,
                             int32_t*, __m128i*);

  // Appends one value the copy loop in String leaves (quoted, empty, missing, a null token,
  // longer than its moves, or near the buffer's end) to the column's bytes. Out of line, so
  // that the loop keeps its pointers in registers.
  __attribute__((noinline)) static Status StringValue(TextColumnConverter& b, const uint8_t* data, const FieldSpan& f,
                                                      int64_t row, const FieldSyntax& syn, bool direct,
                                                      std::string* scratch) {
    BufferBuilder& bytes = b.values_;
    std::string_view text(reinterpret_cast<const char*>(data) + f.start, f.end - f.start);
    bool quoted = false;
    if (!(direct && !text.empty() && text.front() != syn.quote) && !syn.Text(data, f, true, &text, &quoted)) {
      return b.SetNull(row);
    }
    if (quoted && text.find(syn.escape == '\0' ? syn.quote : syn.escape) != std::string_view::npos) {
      scratch->clear();
      syn.Unescape(text, scratch);
      return bytes.Append(*scratch);
    }
    return bytes.Append(text.data(), static_cast<int64_t>(text.size()));
  }

  static Status String(TextColumnConverter& b, const uint8_t* data, const FieldSpan* fields, int64_t rows, const FieldSyntax& syn,
                       bool null_on_error, int64_t* nulled, ConvertError* error) {
    QUIVER_RETURN_NOT_OK(b.offsets_.Reserve(rows * 4));
    QUIVER_RETURN_NOT_OK(b.ExtendValidity(rows));
    // Missing fields have empty spans.
    int64_t total = 0;
    uint32_t longest = 0;
    for (int64_t r = 0; r < rows; ++r) {
      const uint32_t len = fields[r].end - fields[r].start;
      total += len;
      longest = std::max(longest, len);
    }
    BufferBuilder& bytes = b.values_;
    // 64 bytes of slack let values up to 64 bytes (all but one in a thousand of lineitem's
    // comments; a third of them are longer than 32) be copied with four fixed 16-byte moves
    // instead of a memcpy call (the block buffer the fields point into has 64 readable bytes
    // past its end as well).
    int64_t want = total + kMove;
    if (b.length_ == 0 && b.expected_ > rows) want += total * (b.expected_ - rows) / rows + total / 8;
    QUIVER_RETURN_NOT_OK(bytes.Reserve(want));
    const int64_t first = bytes.size();
    int32_t* off = reinterpret_cast<int32_t*>(b.offsets_.mutable_data()) + b.length_;
    std::string scratch;
    const bool check_utf8 = b.type_->id() == TypeId::kString;
    const bool direct = syn.Direct();
    const uint8_t quote = static_cast<uint8_t>(syn.quote);
    // The common fields go through CopyShort, with as few moves as the group's longest field
    // needs (lineitem's flags and modes take one, whose bytes stay on one cache line);
    // any other through StringValue, and its group through the full UTF-8 check. Groups that
    // could pass 2 GiB check each value.
    const CopyFn copy = longest <= 16 ? &CopyShort<1>
                        : longest <= 32 ? (b.wide_ ? &CopyWide<32> : &CopyShort<2>)
                                        : (b.wide_ ? &CopyWide<64> : &CopyShort<4>);
    int64_t fast_end = direct && first + total <= INT32_MAX ? bytes.capacity() - kMove : -1;
    __m128i high = _mm_setzero_si128();
    bool all_fast = true;
    int64_t size = bytes.size();
    int64_t from = 0;
    // Values of one byte each (the longest is 1 and they add up to one per row): 16 per step at
    // the AVX-512 level, the rest through CopyShort.
    if (b.wide_ && longest == 1 && total == rows) {
      from = OneByteValues(data, fields, 0, rows, bytes.mutable_data(), &size, fast_end, off, &high);
    }
    for (int64_t r = from; r < rows; ++r) {
      r = copy(data, fields, r, rows, quote, bytes.mutable_data(), &size, fast_end, off, &high);
      if (r == rows) break;
      all_fast = false;
      bytes.UnsafeSetSize(size);
      QUIVER_RETURN_NOT_OK(StringValue(b, data, fields[r], b.length_ + r, syn, direct, &scratch));
      if (bytes.size() > INT32_MAX) return Status::Invalid("string column exceeds 2 GiB in one chunk");
      off[r + 1] = static_cast<int32_t>(bytes.size());
      size = bytes.size();
      fast_end = fast_end < 0 ? -1 : bytes.capacity() - kMove;
    }
    bytes.UnsafeSetSize(size);
    // One validation pass over the group's bytes, unless the copy loop saw only ASCII; only a
    // failure looks at single values.
    const bool ascii = all_fast && _mm_movemask_epi8(high) == 0;
    if (check_utf8 && !ascii && !ValuesAreUtf8(bytes.data(), off, first, bytes.size(), rows)) {
      if (!syn.replace_invalid_utf8 && !null_on_error) {
        for (int64_t r = 0; r < rows; ++r) {
          if (!simdjson::validate_utf8(reinterpret_cast<const char*>(bytes.data()) + off[r],
                                       static_cast<size_t>(off[r + 1] - off[r]))) {
            error->row = r;
            error->failure = ConvertFailure::kInvalidUtf8;
            bytes.UnsafeSetSize(first);
            return Status::OK();
          }
        }
      }
      // Rebuild the group with repairs (or nulls).
      std::string group(reinterpret_cast<const char*>(bytes.data()) + first, static_cast<size_t>(bytes.size() - first));
      bytes.UnsafeSetSize(first);
      int32_t prev = off[0];
      for (int64_t r = 0; r < rows; ++r) {
        std::string_view v(group.data() + (prev - first), static_cast<size_t>(off[r + 1] - prev));
        prev = off[r + 1];
        if (!simdjson::validate_utf8(v.data(), v.size())) {
          if (syn.replace_invalid_utf8) {
            QUIVER_RETURN_NOT_OK(bytes.Append(RepairUtf8(v)));
          } else {
            ++*nulled;
            QUIVER_RETURN_NOT_OK(b.SetNull(b.length_ + r));
          }
        } else {
          QUIVER_RETURN_NOT_OK(bytes.Append(v));
        }
        if (bytes.size() > INT32_MAX) return Status::Invalid("string column exceeds 2 GiB in one chunk");
        off[r + 1] = static_cast<int32_t>(bytes.size());
      }
    }
    b.offsets_.UnsafeSetSize(b.offsets_.size() + rows * 4);
    b.length_ += rows;
    return Status::OK();
  }
};

Status TextColumnConverter::Init(const TypePtr& type, MemoryPool* pool, SimdLevel level, const DateFormat* format,
                                 bool no_leading_zeros) {
  type_ = type;
  no_leading_zeros_ = no_leading_zeros && (type->id() == TypeId::kInt64 || type->id() == TypeId::kFloat64);
  format_ = format;
  wide_ = level >= SimdLevel::kAvx512;
  pool_ = pool;
  values_ = BufferBuilder(pool);
  offsets_ = BufferBuilder(pool);
  validity_ = BufferBuilder(pool);
  has_validity_ = false;
  validity_bits_ = length_ = nulls_ = pending_end_ = expected_ = 0;
  value_width_ = 0;
  append_ = nullptr;
  if (format != nullptr) {
    if (type->id() == TypeId::kDate32) {
      append_ = &ColumnConverters::Formatted<int32_t>;
      value_width_ = 4;
      return Status::OK();
    }
    if (type->id() == TypeId::kTimestamp) {
      append_ = &ColumnConverters::Formatted<int64_t>;
      value_width_ = 8;
      return Status::OK();
    }
    return Status::Invalid(fmt::format("a format ('{}') is for date and timestamp columns, not {}", format->pattern(),
                                       type->ToString()));
  }
  if (VisitFixedParser(type->id(), [&](auto parser) {
        using P = decltype(parser);
        append_ = &ColumnConverters::Fixed<typename P::type, P::parse_padded, P::batch, P::wide>;
        value_width_ = static_cast<int>(sizeof(typename P::type));
      })) {
    return Status::OK();
  }
  switch (type->id()) {
    case TypeId::kBool: append_ = &ColumnConverters::Bool; return Status::OK();
    case TypeId::kString:
    case TypeId::kBinary:
      append_ = &ColumnConverters::String;
      return offsets_.AppendValue(int32_t{0});
    default:
      return Status::NotImplemented(fmt::format("CSV columns of type {} are not supported", type->ToString()));
  }
}

Status TextColumnConverter::Reserve(int64_t rows) {
  expected_ = length_ + rows;
  if (value_width_ > 0) return values_.Reserve(rows * value_width_);
  if (append_ == &ColumnConverters::Bool) return values_.Reserve(bit_util::BytesForBits(rows) + 1);
  return offsets_.Reserve(rows * 4);
}

Status TextColumnConverter::Append(const uint8_t* data, const FieldSpan* fields, int64_t rows, const FieldSyntax& syntax,
                             bool null_on_error, int64_t* nulled, ConvertError* error) {
  return append_(*this, data, fields, rows, syntax, null_on_error, nulled, error);
}

Status TextColumnConverter::FillValidity(int64_t end) {
  const int64_t bytes = bit_util::BytesForBits(end);
  if (bytes > validity_.size()) {
    QUIVER_RETURN_NOT_OK(validity_.Reserve(bytes - validity_.size()));
    validity_.UnsafeSetSize(bytes);
  }
  if (end > validity_bits_) bit_util::SetBitsTo(validity_.mutable_data(), validity_bits_, end - validity_bits_, true);
  validity_bits_ = std::max(validity_bits_, end);
  return Status::OK();
}

Status TextColumnConverter::ExtendValidity(int64_t rows) {
  pending_end_ = length_ + rows;
  return has_validity_ ? FillValidity(pending_end_) : Status::OK();
}

Status TextColumnConverter::SetNull(int64_t row) {
  if (!has_validity_) {
    // The first null: every row before it was valid.
    has_validity_ = true;
    QUIVER_RETURN_NOT_OK(FillValidity(pending_end_));
  }
  bit_util::ClearBit(validity_.mutable_data(), row);
  ++nulls_;
  return Status::OK();
}

Result<Array> TextColumnConverter::Finish() {
  auto d = std::make_shared<ArrayData>();
  d->type = type_;
  d->length = length_;
  d->null_count = nulls_;
  std::shared_ptr<Buffer> validity;
  if (has_validity_) {
    validity_.UnsafeSetSize(bit_util::BytesForBits(length_));
    QUIVER_ASSIGN_OR_RETURN(validity, validity_.Finish());
  }
  if (append_ == &ColumnConverters::String) {
    QUIVER_ASSIGN_OR_RETURN(auto offsets, offsets_.Finish());
    QUIVER_ASSIGN_OR_RETURN(auto bytes, values_.Finish());
    d->buffers = {std::move(validity), std::move(offsets), std::move(bytes)};
    d->utf8_checked = type_->id() == TypeId::kString;  // String() checked every value
  } else {
    QUIVER_ASSIGN_OR_RETURN(auto values, values_.Finish());
    d->buffers = {std::move(validity), std::move(values)};
  }
  has_validity_ = false;
  validity_bits_ = length_ = nulls_ = pending_end_ = expected_ = 0;
  return Array(std::move(d));
}

Result<Array> ConvertColumn(const TypePtr& type, const uint8_t* data, const FieldSpan* fields, int64_t rows,
                            const FieldSyntax& syn, bool null_on_error, int64_t* nulled, ConvertError* error,
                            MemoryPool* pool, SimdLevel level) {
  TextColumnConverter b;
  QUIVER_RETURN_NOT_OK(b.Init(type, pool, level));
  QUIVER_RETURN_NOT_OK(b.Reserve(rows));
  QUIVER_RETURN_NOT_OK(b.Append(data, fields, rows, syn, null_on_error, nulled, error));
  if (error->failure != ConvertFailure::kNone) return Array();
  return b.Finish();
}

bool FieldConverts(const TypePtr& type, const uint8_t* data, const FieldSpan& f, const FieldSyntax& syn,
                   const DateFormat* format, bool no_leading_zeros) {
  std::string_view text;
  bool quoted;
  const bool is_string = type->id() == TypeId::kString || type->id() == TypeId::kBinary;
  if (!syn.Text(data, f, is_string, &text, &quoted)) return true;
  if (format != nullptr) {
    int64_t v;
    int32_t days;
    return type->id() == TypeId::kDate32 ? ParseFormatted(text, type, *format, &days)
                                         : ParseFormatted(text, type, *format, &v);
  }
  if (no_leading_zeros && (type->id() == TypeId::kInt64 || type->id() == TypeId::kFloat64) && HasLeadingZero(text)) {
    return false;
  }
  bool converts = true;
  if (VisitFixedParser(type->id(), [&](auto parser) {
        using P = decltype(parser);
        typename P::type v;
        converts = P::parse(text, type, syn, &v);
      })) {
    return converts;
  }
  switch (type->id()) {
    case TypeId::kBool: { bool v; return ParseBool(text, syn, &v); }
    case TypeId::kString:
      if (syn.replace_invalid_utf8) return true;
      if (quoted) {
        std::string s;
        syn.Unescape(text, &s);
        return simdjson::validate_utf8(s.data(), s.size());
      }
      return simdjson::validate_utf8(text.data(), text.size());
    default: return true;
  }
}

}  // namespace quiver::csv

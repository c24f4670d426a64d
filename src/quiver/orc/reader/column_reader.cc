// ORC column decoding (column_reader_internal.h). Values are decoded dense (present entries
// only), a batch of runs at a time, then spread to their rows backwards in place. Every call
// continues the streams where the last one left them.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "quiver/core/bit_util.h"
#include "quiver/orc/format.h"
#include "quiver/orc/reader/column_reader_internal.h"
#include "quiver/orc/reader/rle_internal.h"
#include "quiver/orc/reader/union_reader_internal.h"

namespace quiver::orc {
namespace {

namespace tk = format::type_kind;
namespace sk = format::stream_kind;
namespace ek = format::encoding_kind;
using rle::ByteSource;

constexpr int64_t kBatch = 1024;

struct Ctx {
  const std::vector<ColumnInfo>& columns;
  const std::vector<bool>& included;
  StripeStreams& streams;
  MemoryPool* pool;
};
using Stream = StripeStreams::Stream;

// The column is named by the caller's context (the top-level column by the stripe reader, a
// nested one as its decoding climbs out of the parent).
Status Bad(const ColumnInfo&, std::string_view what) { return Status::Corrupt(std::string(what)); }

// The stream, which the column's encoding needs.
Result<Stream*> Required(const Ctx& ctx, uint32_t id, uint32_t kind) {
  QUIVER_ASSIGN_OR_RETURN(Stream* s, ctx.streams.Get(id, kind));
  if (s == nullptr) {
    return Bad(ctx.columns[id], fmt::format("the stripe has no {} stream", format::StreamKindName(kind)));
  }
  return s;
}

// A decoder's reason: its own, or the stream's decompression failure.
template <typename D>
std::string Why(const D& dec) {
  return dec.error() ? dec.error() : "the stream is damaged";
}

Result<ColumnEncoding> EncodingOf(const Ctx& ctx, uint32_t id) {
  const auto& enc = ctx.streams.footer().columns;
  if (id >= enc.size()) {
    return Bad(ctx.columns[id], fmt::format("the stripe footer lists {} column encodings, none for column id {}",
                                            enc.size(), id));
  }
  return enc[id];
}

// v2 integer RLE for DIRECT_V2/DICTIONARY_V2, v1 otherwise; the kinds a type allows are checked.
Result<bool> IsV2(const Ctx& ctx, uint32_t id, bool dictionary_allowed) {
  QUIVER_ASSIGN_OR_RETURN(auto e, EncodingOf(ctx, id));
  switch (e.kind) {
    case ek::kDirect: return false;
    case ek::kDirectV2: return true;
    case ek::kDictionary:
    case ek::kDictionaryV2:
      if (dictionary_allowed) return e.kind == ek::kDictionaryV2;
      break;
    default: break;
  }
  const char* name = format::EncodingKindName(e.kind);
  return Bad(ctx.columns[id], fmt::format("encoding {} does not apply to a {} column",
                                          name ? std::string(name) : fmt::format("#{}", e.kind),
                                          format::TypeKindName(ctx.columns[id].kind)));
}

// A request larger than a limit on the pool's tracker or its ancestors fails before the
// allocator is asked: damaged lengths may ask for gigabytes, and the pool charges a block only
// once it has it.
Status BeyondLimit(const Ctx& ctx, int64_t bytes) {
  for (const MemoryTracker* t = ctx.pool->tracker(); t != nullptr; t = t->parent()) {
    if (t->limit() != MemoryTracker::kNoLimit && bytes > t->limit()) return Status::OutOfMemory(t->LimitReport(bytes));
  }
  return Status::OK();
}
Result<std::shared_ptr<Buffer>> Alloc(const Ctx& ctx, int64_t bytes) {
  QUIVER_RETURN_NOT_OK(BeyondLimit(ctx, bytes));
  return Buffer::Allocate(std::max<int64_t>(bytes, 1), ctx.pool);
}
Result<std::shared_ptr<Buffer>> AllocZeroed(const Ctx& ctx, int64_t bytes) {
  QUIVER_RETURN_NOT_OK(BeyondLimit(ctx, bytes));
  return Buffer::AllocateZeroed(std::max<int64_t>(bytes, 1), ctx.pool);
}

// Validity of n entries: the PRESENT stream's bits where the parent marks an entry. Null when
// every entry is present. *present gets the number present.
Result<std::shared_ptr<Buffer>> ReadValidity(const Ctx& ctx, uint32_t id, int64_t n, const uint8_t* parent_valid,
                                             int64_t* present) {
  QUIVER_ASSIGN_OR_RETURN(Stream* stream, ctx.streams.Get(id, sk::kPresent));
  if (stream == nullptr && parent_valid == nullptr) {
    *present = n;
    return std::shared_ptr<Buffer>();
  }
  QUIVER_ASSIGN_OR_RETURN(auto bits, AllocZeroed(ctx, bit_util::BytesForBits(n)));
  uint8_t* v = bits->mutable_data();
  if (stream == nullptr) {
    std::memcpy(v, parent_valid, static_cast<size_t>(bit_util::BytesForBits(n)));
  } else {
    rle::BoolRleDecoder& dec = *stream->Bools();
    if (parent_valid == nullptr) {
      if (!dec.Decode(v, 0, n)) return Bad(ctx.columns[id], fmt::format("PRESENT stream: {}", Why(dec)));
    } else {
      const int64_t k = bit_util::CountSetBits(parent_valid, 0, n);
      QUIVER_ASSIGN_OR_RETURN(auto tmp, AllocZeroed(ctx, bit_util::BytesForBits(k)));
      if (!dec.Decode(tmp->mutable_data(), 0, k)) return Bad(ctx.columns[id], fmt::format("PRESENT stream: {}", Why(dec)));
      int64_t j = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (bit_util::GetBit(parent_valid, i) && bit_util::GetBit(tmp->data(), j++)) bit_util::SetBit(v, i);
      }
    }
  }
  *present = bit_util::CountSetBits(v, 0, n);
  if (*present == n) return std::shared_ptr<Buffer>();
  return bits;
}

// Moves m dense values to their rows among n (valid bits), backwards in place; nulls get T{}.
template <typename T>
void Spread(T* v, int64_t n, int64_t m, const uint8_t* valid) {
  if (valid == nullptr || m == n) return;
  int64_t j = m - 1;
  for (int64_t i = n - 1; i >= 0; --i) v[i] = bit_util::GetBit(valid, i) ? v[j--] : T{};
}
void SpreadBits(uint8_t* bits, int64_t n, int64_t m, const uint8_t* valid) {
  if (valid == nullptr || m == n) return;
  int64_t j = m - 1;
  for (int64_t i = n - 1; i >= 0; --i) {
    const bool b = bit_util::GetBit(valid, i) ? bit_util::GetBit(bits, j--) : false;
    bit_util::SetBitTo(bits, i, b);
  }
}

std::shared_ptr<ArrayData> MakeData(TypePtr type, int64_t n, int64_t present, std::shared_ptr<Buffer> validity,
                                    std::vector<std::shared_ptr<Buffer>> rest) {
  auto d = std::make_shared<ArrayData>();
  d->type = std::move(type);
  d->length = n;
  d->null_count = n - present;
  d->buffers.push_back(std::move(validity));
  for (auto& b : rest) d->buffers.push_back(std::move(b));
  return d;
}

// Integers of any width from RLE, converted batch by batch.
template <typename T>
Status DecodeIntegers(const Ctx& ctx, uint32_t id, rle::IntRleDecoder* dec, T* out, int64_t m, const char* stream) {
  if constexpr (sizeof(T) == 8) {
    if (!dec->Decode(reinterpret_cast<int64_t*>(out), m)) return Bad(ctx.columns[id], fmt::format("{} stream: {}", stream, Why(*dec)));
  } else {
    int64_t tmp[kBatch];
    for (int64_t i = 0; i < m; i += kBatch) {
      int64_t k = std::min(kBatch, m - i);
      if (!dec->Decode(tmp, k)) return Bad(ctx.columns[id], fmt::format("{} stream: {}", stream, Why(*dec)));
      for (int64_t j = 0; j < k; ++j) out[i + j] = static_cast<T>(tmp[j]);
    }
  }
  return Status::OK();
}

Result<std::shared_ptr<ArrayData>> DecodeBoolean(const Ctx& ctx, uint32_t id, int64_t n, int64_t m, std::shared_ptr<Buffer> valid) {
  QUIVER_RETURN_NOT_OK(IsV2(ctx, id, false).status());
  QUIVER_ASSIGN_OR_RETURN(auto out, AllocZeroed(ctx, bit_util::BytesForBits(n)));
  if (m > 0) {
    QUIVER_ASSIGN_OR_RETURN(Stream* data, Required(ctx, id, sk::kData));
    rle::BoolRleDecoder& dec = *data->Bools();
    if (!dec.Decode(out->mutable_data(), 0, m)) return Bad(ctx.columns[id], fmt::format("DATA stream: {}", Why(dec)));
  }
  SpreadBits(out->mutable_data(), n, m, valid ? valid->data() : nullptr);
  return MakeData(ctx.columns[id].type, n, m, std::move(valid), {std::move(out)});
}

Result<std::shared_ptr<ArrayData>> DecodeByte(const Ctx& ctx, uint32_t id, int64_t n, int64_t m, std::shared_ptr<Buffer> valid) {
  QUIVER_RETURN_NOT_OK(IsV2(ctx, id, false).status());
  QUIVER_ASSIGN_OR_RETURN(auto out, Alloc(ctx, n));
  if (m > 0) {
    QUIVER_ASSIGN_OR_RETURN(Stream* data, Required(ctx, id, sk::kData));
    rle::ByteRleDecoder& dec = *data->Bytes();
    if (!dec.Decode(out->mutable_data(), m)) return Bad(ctx.columns[id], fmt::format("DATA stream: {}", Why(dec)));
  }
  Spread(out->mutable_data(), n, m, valid ? valid->data() : nullptr);
  return MakeData(ctx.columns[id].type, n, m, std::move(valid), {std::move(out)});
}

template <typename T>
Result<std::shared_ptr<ArrayData>> DecodeInt(const Ctx& ctx, uint32_t id, int64_t n, int64_t m, std::shared_ptr<Buffer> valid) {
  QUIVER_ASSIGN_OR_RETURN(bool v2, IsV2(ctx, id, false));
  QUIVER_ASSIGN_OR_RETURN(auto out, Alloc(ctx, n * static_cast<int64_t>(sizeof(T))));
  T* v = out->mutable_data_as<T>();
  if (m > 0) {
    QUIVER_ASSIGN_OR_RETURN(Stream* data, Required(ctx, id, sk::kData));
    QUIVER_RETURN_NOT_OK(DecodeIntegers(ctx, id, data->Ints(true, v2), v, m, "DATA"));
  }
  Spread(v, n, m, valid ? valid->data() : nullptr);
  return MakeData(ctx.columns[id].type, n, m, std::move(valid), {std::move(out)});
}

template <typename T>
Result<std::shared_ptr<ArrayData>> DecodeFloat(const Ctx& ctx, uint32_t id, int64_t n, int64_t m, std::shared_ptr<Buffer> valid) {
  QUIVER_RETURN_NOT_OK(IsV2(ctx, id, false).status());
  const int64_t bytes = m * static_cast<int64_t>(sizeof(T));
  QUIVER_ASSIGN_OR_RETURN(auto out, Alloc(ctx, n * static_cast<int64_t>(sizeof(T))));
  if (m > 0) {
    QUIVER_ASSIGN_OR_RETURN(Stream* data, Required(ctx, id, sk::kData));
    if (!data->raw.Read(out->mutable_data(), bytes)) {
      const char* why = data->raw.refill_error();
      return Bad(ctx.columns[id], why ? fmt::format("DATA stream: {}", why)
                                      : fmt::format("DATA stream ends before its {} values of {} bytes", m, sizeof(T)));
    }
  }
  Spread(out->mutable_data_as<T>(), n, m, valid ? valid->data() : nullptr);
  return MakeData(ctx.columns[id].type, n, m, std::move(valid), {std::move(out)});
}

// Offsets (n + 1) from m lengths, nulls empty; the total must fit int32 and `limit` bytes (the
// data's size, or -1 when it is not known before reading it).
Result<std::shared_ptr<Buffer>> OffsetsFromLengths(const Ctx& ctx, uint32_t id, rle::IntRleDecoder* dec, int64_t n, int64_t m,
                                                   const uint8_t* valid, int64_t limit, int64_t* total, const char* what) {
  QUIVER_ASSIGN_OR_RETURN(auto offsets, Alloc(ctx, (n + 1) * 4));
  int32_t* o = offsets->mutable_data_as<int32_t>();
  int64_t lens[kBatch];
  int64_t sum = 0;
  const int64_t bound = limit < 0 ? INT64_MAX - 1 : limit;
  o[0] = 0;
  int64_t row = 0;
  for (int64_t i = 0; i < m && sum <= bound; i += kBatch) {
    const int64_t k = std::min(kBatch, m - i);
    if (!dec->Decode(lens, k)) return Bad(ctx.columns[id], fmt::format("LENGTH stream: {}", Why(*dec)));
    uint64_t bad = 0;
    if (valid == nullptr) {
      for (int64_t j = 0; j < k; ++j) {
        bad |= static_cast<uint64_t>(lens[j]) >> 31;  // negative or 2^31 and over: refused below
        sum += lens[j] & 0x7fffffff;
        o[row + j + 1] = static_cast<int32_t>(std::min<int64_t>(sum, INT32_MAX));
      }
      row += k;
    } else {
      for (int64_t j = 0; j < k; ++j) {
        while (!bit_util::GetBit(valid, row)) {
          o[row + 1] = static_cast<int32_t>(std::min<int64_t>(sum, INT32_MAX));
          ++row;
        }
        bad |= static_cast<uint64_t>(lens[j]) >> 31;
        sum += lens[j] & 0x7fffffff;
        o[row + 1] = static_cast<int32_t>(std::min<int64_t>(sum, INT32_MAX));
        ++row;
      }
    }
    if (bad != 0) sum = INT64_MAX;
  }
  if (sum > bound) {
    if (limit < 0) return Bad(ctx.columns[id], fmt::format("a {} length is negative or too large", what));
    return Bad(ctx.columns[id], fmt::format("{} lengths add up past the {} bytes of their data (a length is negative or too large)",
                                            what, limit));
  }
  if (sum > INT32_MAX) {
    return Status::NotImplemented(fmt::format("a stripe's {} hold {} bytes, more than quiver's 32-bit offsets address", what, sum));
  }
  for (; row < n; ++row) o[row + 1] = static_cast<int32_t>(sum);  // null rows after the last value
  *total = sum;
  return offsets;
}

// A dictionary entry or a gathered value may be moved 16 bytes at a time: the dictionary's
// bytes and a batch's values are followed by this much room.
constexpr int64_t kGatherPad = 16;

// A string column's dictionary: its entries' lengths into offsets, and its bytes as they were
// decompressed, padded so that the gather may copy 16 bytes at a time.
Status LoadDictionary(const Ctx& ctx, uint32_t id, bool v2, int64_t dict_size, StripeStreams::Dictionary* d) {
  const ColumnInfo& c = ctx.columns[id];
  QUIVER_ASSIGN_OR_RETURN(auto dict_data, ctx.streams.Whole(id, sk::kDictionaryData, kGatherPad));
  QUIVER_ASSIGN_OR_RETURN(auto dict_len, ctx.streams.Whole(id, sk::kLength));
  if (dict_size > 0 && dict_len == nullptr) return Bad(c, "a dictionary of entries has no LENGTH stream");
  if (dict_size > 0 && dict_data == nullptr) return Bad(c, "a dictionary of entries has no DICTIONARY_DATA stream");
  // RLE packs at most 512 lengths in 4 bytes: a larger dictionary than its LENGTH stream could
  // describe is refused before anything is allocated for it.
  if (dict_size > 0 && dict_len != nullptr && dict_size > dict_len->size() * 128 + 512) {
    return Bad(c, fmt::format("a dictionary of {} entries has a LENGTH stream of {} bytes", dict_size, dict_len->size()));
  }
  const int64_t limit = dict_data ? dict_data->size() : 0;
  rle::IntRleDecoder len_dec(dict_len ? ByteSource(dict_len->data(), dict_len->size()) : ByteSource(), false, v2);
  int64_t dict_total = 0;
  QUIVER_ASSIGN_OR_RETURN(d->offsets, OffsetsFromLengths(ctx, id, &len_dec, dict_size, dict_size, nullptr, limit, &dict_total,
                                                         "dictionary entry"));
  if (dict_data != nullptr) {
    d->bytes = std::move(dict_data);  // entries past dict_total are unused; kGatherPad zeros follow
  } else {
    QUIVER_ASSIGN_OR_RETURN(d->bytes, Alloc(ctx, kGatherPad));
    std::memset(d->bytes->mutable_data(), 0, kGatherPad);
  }
  const int32_t* doff = d->offsets->data_as<int32_t>();
  int32_t longest = 0;
  for (int64_t e = 0; e < dict_size; ++e) longest = std::max(longest, doff[e + 1] - doff[e]);
  d->size = dict_size;
  d->longest = longest;
  d->loaded = true;
  return Status::OK();
}

// Copies a dictionary entry of `len` bytes 16 at a time: up to 15 bytes past its end are read
// from the dictionary's padding and written into the room after the batch's values, or under
// the next value, which overwrites them.
inline void CopyEntry(uint8_t* dst, const uint8_t* src, int32_t len) {
  int32_t k = 0;
  do {
    std::memcpy(dst + k, src + k, 16);
    k += 16;
  } while (k < len);
}

// The entries (start << 32 | length) of `n` rows without nulls gathered from the dictionary,
// and their offsets (o[0] set). `Short`: no entry is longer than 16 bytes, so each is one
// 16-byte move.
template <bool Short>
void GatherEntries(const int64_t* entries, int64_t n, const uint8_t* dbytes, uint8_t* dst, int32_t* o) {
  constexpr int64_t kAhead = 16;  // a large dictionary's entries are cache misses: load them early
  int32_t pos = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (i + kAhead < n) __builtin_prefetch(dbytes + (static_cast<uint64_t>(entries[i + kAhead]) >> 32));
    const uint64_t e = static_cast<uint64_t>(entries[i]);
    const uint32_t start = static_cast<uint32_t>(e >> 32);
    const int32_t len = static_cast<int32_t>(e & 0xffffffff);
    if constexpr (Short) {
      std::memcpy(dst + pos, dbytes + start, 16);
    } else {
      CopyEntry(dst + pos, dbytes + start, len);
    }
    pos += len;
    o[i + 1] = pos;
  }
}

Result<std::shared_ptr<ArrayData>> DecodeString(const Ctx& ctx, uint32_t id, int64_t n, int64_t m, std::shared_ptr<Buffer> valid) {
  const ColumnInfo& c = ctx.columns[id];
  QUIVER_ASSIGN_OR_RETURN(auto enc, EncodingOf(ctx, id));
  QUIVER_ASSIGN_OR_RETURN(bool v2, IsV2(ctx, id, c.kind != tk::kBinary));
  const uint8_t* vbits = valid ? valid->data() : nullptr;
  if (enc.kind == ek::kDirect || enc.kind == ek::kDirectV2) {
    QUIVER_ASSIGN_OR_RETURN(Stream* data, ctx.streams.Get(id, sk::kData));
    QUIVER_ASSIGN_OR_RETURN(Stream* length, Required(ctx, id, sk::kLength));
    int64_t total = 0;
    QUIVER_ASSIGN_OR_RETURN(auto offsets, OffsetsFromLengths(ctx, id, length->Ints(false, v2), n, m, vbits, data ? -1 : 0, &total, "value"));
    std::shared_ptr<Buffer> bytes;
    // total > 0: before its first refill an uncompressed stream's window is empty (no position).
    if (total > 0 && data != nullptr && data->chunks.is_stored() && data->raw.Ensure(total) && data->raw.remaining() >= total) {
      // Uncompressed: the values are the stored bytes as they are (no copy).
      const std::shared_ptr<Buffer>& owner = data->chunks.owner();
      bytes = Buffer::Slice(owner, data->raw.pos() - owner->data(), total);
      data->raw.advance(total);
    } else {
      QUIVER_ASSIGN_OR_RETURN(bytes, Alloc(ctx, total));
      if (total > 0 && !data->raw.Read(bytes->mutable_data(), total)) {
        const char* why = data->raw.refill_error();
        return Bad(c, why ? fmt::format("DATA stream: {}", why)
                          : fmt::format("value lengths add up past the bytes of their DATA stream ({} bytes wanted)", total));
      }
    }
    return MakeData(c.type, n, m, std::move(valid), {std::move(offsets), std::move(bytes)});
  }
  // Dictionary: entries' lengths and bytes once a stripe, then one index per present value.
  StripeStreams::Dictionary& dict = ctx.streams.dictionary(id);
  if (!dict.loaded) QUIVER_RETURN_NOT_OK(LoadDictionary(ctx, id, v2, enc.dictionary_size, &dict));
  const int64_t dict_size = dict.size;
  const int32_t* doff = dict.offsets->data_as<int32_t>();
  const uint8_t* dbytes = dict.bytes->data();
  int64_t* idx = nullptr;
  if (m > 0) {
    QUIVER_ASSIGN_OR_RETURN(Stream* data, Required(ctx, id, sk::kData));
    if (dict.indices == nullptr || dict.indices->size() < m * 8) {
      QUIVER_ASSIGN_OR_RETURN(dict.indices, Alloc(ctx, m * 8));
    }
    idx = dict.indices->mutable_data_as<int64_t>();
    rle::IntRleDecoder& idx_dec = *data->Ints(false, v2);
    if (!idx_dec.Decode(idx, m)) return Bad(c, fmt::format("DATA stream: {}", Why(idx_dec)));
  }
  // Each index becomes its entry's start and length (start << 32 | length), so that the gather
  // reads the dictionary's offsets once: a large dictionary's are cache misses.
  int64_t total = 0;
  bool out_of_range = m > 0 && dict_size == 0;  // (entry 0 below must exist)
  for (int64_t i = 0; i < m && dict_size > 0; ++i) {
    // An index out of range counts entry 0 (no branch per value) and fails below.
    const uint64_t e = static_cast<uint64_t>(idx[i]);
    const bool bad = e >= static_cast<uint64_t>(dict_size);
    out_of_range |= bad;
    const uint64_t k = bad ? 0 : e;
    const uint32_t start = static_cast<uint32_t>(doff[k]);
    const uint32_t len = static_cast<uint32_t>(doff[k + 1]) - start;
    idx[i] = static_cast<int64_t>(uint64_t{start} << 32 | len);
    total += len;
  }
  if (out_of_range) return Bad(c, fmt::format("a dictionary index is outside the dictionary of {} entries", dict_size));
  if (total > INT32_MAX) {
    return Status::NotImplemented(fmt::format("a stripe's values hold {} bytes, more than quiver's 32-bit offsets address", total));
  }
  QUIVER_ASSIGN_OR_RETURN(auto offsets, Alloc(ctx, (n + 1) * 4));
  QUIVER_ASSIGN_OR_RETURN(auto bytes, Alloc(ctx, total + kGatherPad));
  int32_t* o = offsets->mutable_data_as<int32_t>();
  uint8_t* dst = bytes->mutable_data();
  o[0] = 0;
  if (vbits == nullptr) {
    if (dict.longest <= 16) {
      GatherEntries<true>(idx, n, dbytes, dst, o);
    } else {
      GatherEntries<false>(idx, n, dbytes, dst, o);
    }
  } else {
    int32_t pos = 0;
    int64_t j = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (bit_util::GetBit(vbits, i)) {
        const uint64_t e = static_cast<uint64_t>(idx[j++]);
        const int32_t len = static_cast<int32_t>(e & 0xffffffff);
        CopyEntry(dst + pos, dbytes + (e >> 32), len);
        pos += len;
      }
      o[i + 1] = pos;
    }
  }
  return MakeData(c.type, n, m, std::move(valid), {std::move(offsets), Buffer::Slice(bytes, 0, total)});
}

Result<std::shared_ptr<ArrayData>> DecodeTimestamp(const Ctx& ctx, uint32_t id, int64_t n, int64_t m, std::shared_ptr<Buffer> valid) {
  const ColumnInfo& c = ctx.columns[id];
  QUIVER_ASSIGN_OR_RETURN(bool v2, IsV2(ctx, id, false));
  QUIVER_ASSIGN_OR_RETURN(Stream* data, Required(ctx, id, sk::kData));
  QUIVER_ASSIGN_OR_RETURN(Stream* secondary, Required(ctx, id, sk::kSecondary));
  QUIVER_ASSIGN_OR_RETURN(auto out, Alloc(ctx, n * 8));
  int64_t* v = out->mutable_data_as<int64_t>();
  rle::IntRleDecoder& secs = *data->Ints(true, v2);
  rle::IntRleDecoder& nanos = *secondary->Ints(false, v2);
  // TIMESTAMP is the writer's wall clock: the instant (seconds from 2015-01-01 in the writer's
  // zone) plus that zone's offset then; TIMESTAMP_INSTANT is UTC.
  static const std::shared_ptr<const TimeZone> kUtc = *TimeZone::Load("UTC");
  const TimeZone& zone = c.kind == tk::kTimestampInstant ? *kUtc : ctx.streams.writer_zone();
  const int64_t epoch = zone.OrcEpoch();
  int64_t s[kBatch], ns[kBatch];
  for (int64_t i = 0; i < m; i += kBatch) {
    int64_t k = std::min(kBatch, m - i);
    if (!secs.Decode(s, k)) return Bad(c, fmt::format("DATA stream: {}", Why(secs)));
    if (!nanos.Decode(ns, k)) return Bad(c, fmt::format("SECONDARY stream: {}", Why(nanos)));
    for (int64_t j = 0; j < k; ++j) {
      uint64_t raw = static_cast<uint64_t>(ns[j]);
      int zeros = static_cast<int>(raw & 7);
      int64_t nano = static_cast<int64_t>(raw >> 3);
      if (raw >> 3 > 999999999) return Bad(c, fmt::format("SECONDARY stream: nanoseconds {} out of range", raw >> 3));
      for (int z = 0; z < (zeros ? zeros + 1 : 0); ++z) nano *= 10;
      if (nano > 999999999) return Bad(c, fmt::format("SECONDARY stream: nanoseconds {} out of range", nano));
      int64_t t;
      bool overflow = __builtin_add_overflow(s[j], epoch, &t);
      if (!zone.is_utc() && !overflow) overflow = __builtin_add_overflow(t, zone.OffsetAt(t), &t);
      // The writers truncate negative milliseconds toward zero; readers take a second back.
      if (t < 0 && nano > 999999) --t;
      int64_t r;
      overflow = overflow || __builtin_mul_overflow(t, int64_t{1000000000}, &r) || __builtin_add_overflow(r, nano, &r);
      if (overflow) {
        return Status::Invalid(fmt::format("timestamp {} s from 2015-01-01 is outside the range of nanoseconds since 1970 (years 1677 to 2262)",
                                           s[j]));
      }
      v[i + j] = r;
    }
  }
  Spread(v, n, m, valid ? valid->data() : nullptr);
  return MakeData(c.type, n, m, std::move(valid), {std::move(out)});
}

__int128 Pow10(int e) {
  __int128 r = 1;
  for (int i = 0; i < e; ++i) r *= 10;
  return r;
}

Result<std::shared_ptr<ArrayData>> DecodeDecimal(const Ctx& ctx, uint32_t id, int64_t n, int64_t m, std::shared_ptr<Buffer> valid) {
  const ColumnInfo& c = ctx.columns[id];
  QUIVER_ASSIGN_OR_RETURN(bool v2, IsV2(ctx, id, false));
  QUIVER_ASSIGN_OR_RETURN(Stream* data, Required(ctx, id, sk::kData));
  QUIVER_ASSIGN_OR_RETURN(auto out, Alloc(ctx, n * 16));
  __int128* v = out->mutable_data_as<__int128>();
  if (c.decimal64_v2) {
    // Always RLE v2, whatever the encoding says (the Java writer of format 1.9999 says DIRECT).
    rle::IntRleDecoder& dec = *data->Ints(true, true);
    int64_t tmp[kBatch];
    for (int64_t i = 0; i < m; i += kBatch) {
      int64_t k = std::min(kBatch, m - i);
      if (!dec.Decode(tmp, k)) return Bad(c, fmt::format("DATA stream: {}", Why(dec)));
      for (int64_t j = 0; j < k; ++j) v[i + j] = tmp[j];
    }
  } else {
    QUIVER_ASSIGN_OR_RETURN(Stream* secondary, Required(ctx, id, sk::kSecondary));
    rle::IntRleDecoder& scales = *secondary->Ints(true, v2);
    ByteSource& src = data->raw;
    int64_t sc[kBatch];
    const __int128 limit = Pow10(38);
    for (int64_t i = 0; i < m; i += kBatch) {
      int64_t k = std::min(kBatch, m - i);
      if (!scales.Decode(sc, k)) return Bad(c, fmt::format("SECONDARY stream: {}", Why(scales)));
      for (int64_t j = 0; j < k; ++j) {
        // A 128-bit varint takes at most 19 bytes: one window check per value.
        if (!src.Ensure(20)) return Bad(c, fmt::format("DATA stream: {}", src.refill_error()));
        // An unbounded base-128 varint, zigzag signed; 128 bits are enough for 38 digits.
        unsigned __int128 u = 0;
        int shift = 0;
        uint8_t b;
        do {
          if (!src.ReadByte(&b)) return Bad(c, "DATA stream ends inside a decimal");
          if (shift >= 128 || (shift == 126 && (b & 0x7f) > 3)) return Bad(c, "DATA stream: a decimal wider than 128 bits");
          u |= static_cast<unsigned __int128>(b & 0x7f) << shift;
          shift += 7;
        } while (b & 0x80);
        __int128 x = static_cast<__int128>(u >> 1) ^ -static_cast<__int128>(u & 1);
        int64_t scale = sc[j];
        if (scale < c.scale) {
          if (c.scale - scale > 38) return Bad(c, fmt::format("SECONDARY stream: scale {} out of range", scale));
          const __int128 room = Pow10(38 - static_cast<int>(c.scale - scale));
          if (x >= room || x <= -room) return Bad(c, "DATA stream: a decimal of more than 38 digits");
          x *= Pow10(static_cast<int>(c.scale - scale));
        } else if (scale > c.scale) {
          if (scale - c.scale > 38) return Bad(c, fmt::format("SECONDARY stream: scale {} out of range", scale));
          // Truncated toward zero, as Apache ORC rescales Hive 0.11 decimals.
          x /= Pow10(static_cast<int>(scale - c.scale));
        }
        if (x >= limit || x <= -limit) return Bad(c, "DATA stream: a decimal of more than 38 digits");
        v[i + j] = x;
      }
    }
  }
  Spread(v, n, m, valid ? valid->data() : nullptr);
  return MakeData(c.type, n, m, std::move(valid), {std::move(out)});
}

Result<std::shared_ptr<ArrayData>> Decode(const Ctx& ctx, uint32_t id, int64_t n, const uint8_t* parent_valid);

// A nested column's errors name it.
Result<std::shared_ptr<ArrayData>> DecodeChild(const Ctx& ctx, uint32_t id, int64_t n, const uint8_t* parent_valid) {
  auto r = Decode(ctx, id, n, parent_valid);
  if (!r.ok()) return r.status().WithContext(fmt::format("column '{}'", ctx.columns[id].name));
  return r;
}

Result<std::shared_ptr<ArrayData>> DecodeList(const Ctx& ctx, uint32_t id, int64_t n, int64_t m, std::shared_ptr<Buffer> valid,
                                              TypePtr type) {
  const ColumnInfo& c = ctx.columns[id];
  QUIVER_ASSIGN_OR_RETURN(bool v2, IsV2(ctx, id, false));
  rle::IntRleDecoder none;
  rle::IntRleDecoder* dec = &none;
  if (m > 0) {
    QUIVER_ASSIGN_OR_RETURN(Stream* length, Required(ctx, id, sk::kLength));
    dec = length->Ints(false, v2);
  }
  int64_t total = 0;
  // A child's entries are bounded by what its streams could hold, not known here: 2^31 - 1.
  QUIVER_ASSIGN_OR_RETURN(auto offsets, OffsetsFromLengths(ctx, id, dec, n, m, valid ? valid->data() : nullptr, INT32_MAX, &total, "list"));
  auto d = MakeData(std::move(type), n, m, std::move(valid), {std::move(offsets)});
  if (c.kind == tk::kList) {
    QUIVER_ASSIGN_OR_RETURN(auto child, DecodeChild(ctx, c.children[0], total, nullptr));
    d->children.push_back(std::move(child));
  } else {
    QUIVER_ASSIGN_OR_RETURN(auto keys, DecodeChild(ctx, c.children[0], total, nullptr));
    QUIVER_ASSIGN_OR_RETURN(auto values, DecodeChild(ctx, c.children[1], total, nullptr));
    if (keys->null_count != 0) return Bad(c, "a map key is null");
    auto entries = MakeData(d->type->field(0).type, total, total, nullptr, {});
    entries->children = {std::move(keys), std::move(values)};
    d->children.push_back(std::move(entries));
  }
  return d;
}

Result<std::shared_ptr<ArrayData>> Decode(const Ctx& ctx, uint32_t id, int64_t n, const uint8_t* parent_valid) {
  const ColumnInfo& c = ctx.columns[id];
  int64_t m = 0;
  QUIVER_ASSIGN_OR_RETURN(auto valid, ReadValidity(ctx, id, n, parent_valid, &m));
  switch (c.kind) {
    case tk::kBoolean: return DecodeBoolean(ctx, id, n, m, std::move(valid));
    case tk::kByte: return DecodeByte(ctx, id, n, m, std::move(valid));
    case tk::kShort: return DecodeInt<int16_t>(ctx, id, n, m, std::move(valid));
    case tk::kInt: return DecodeInt<int32_t>(ctx, id, n, m, std::move(valid));
    case tk::kLong: return DecodeInt<int64_t>(ctx, id, n, m, std::move(valid));
    case tk::kDate: return DecodeInt<int32_t>(ctx, id, n, m, std::move(valid));
    case tk::kFloat: return DecodeFloat<float>(ctx, id, n, m, std::move(valid));
    case tk::kDouble: return DecodeFloat<double>(ctx, id, n, m, std::move(valid));
    case tk::kString:
    case tk::kVarchar:
    case tk::kChar:
    case tk::kBinary: return DecodeString(ctx, id, n, m, std::move(valid));
    case tk::kTimestamp:
    case tk::kTimestampInstant: return DecodeTimestamp(ctx, id, n, m, std::move(valid));
    case tk::kDecimal: return DecodeDecimal(ctx, id, n, m, std::move(valid));
    case tk::kList:
    case tk::kMap: return DecodeList(ctx, id, n, m, std::move(valid), IncludedType(ctx.columns, ctx.included, id));
    case tk::kStruct: {
      QUIVER_RETURN_NOT_OK(IsV2(ctx, id, false).status());
      auto d = MakeData(IncludedType(ctx.columns, ctx.included, id), n, m, valid, {});
      for (uint32_t child : c.children) {
        if (!ctx.included[child]) continue;
        QUIVER_ASSIGN_OR_RETURN(auto a, DecodeChild(ctx, child, n, valid ? valid->data() : parent_valid));
        d->children.push_back(std::move(a));
      }
      return d;
    }
    case tk::kUnion: {
      QUIVER_RETURN_NOT_OK(IsV2(ctx, id, false).status());
      rle::ByteRleDecoder* tags = nullptr;
      if (m > 0) {
        QUIVER_ASSIGN_OR_RETURN(Stream* data, Required(ctx, id, sk::kData));
        tags = data->Bytes();
      }
      return DecodeUnion(c, n, m, std::move(valid), tags, ctx.pool,
                         [&](uint32_t member, int64_t k, const uint8_t* exists) { return DecodeChild(ctx, member, k, exists); });
    }
    default:
      return Status::NotImplemented(fmt::format("ORC {} columns are not read by quiver",
                                                format::TypeKindName(c.kind) ? format::TypeKindName(c.kind) : "unknown"));
  }
}

}  // namespace

TypePtr IncludedType(const std::vector<ColumnInfo>& columns, const std::vector<bool>& included, uint32_t id) {
  const ColumnInfo& c = columns[id];
  if (c.kind != tk::kStruct) return c.type;
  std::vector<Field> fields;
  for (size_t i = 0; i < c.children.size(); ++i) {
    if (included[c.children[i]]) fields.push_back(field(c.child_names[i], IncludedType(columns, included, c.children[i])));
  }
  return struct_(std::move(fields));
}

Result<std::shared_ptr<ArrayData>> DecodeColumn(const std::vector<ColumnInfo>& columns, const std::vector<bool>& included,
                                                StripeStreams& streams, uint32_t id, int64_t n,
                                                const uint8_t* parent_valid, MemoryPool* pool) {
  Ctx ctx{columns, included, streams, pool};
  return Decode(ctx, id, n, parent_valid);
}

Result<StripeStreams::Stream*> StripeStreams::Get(uint32_t column, uint32_t kind) {
  const uint64_t key = uint64_t{column} << 32 | kind;
  auto it = streams_.find(key);
  if (it != streams_.end()) return it->second.get();
  QUIVER_ASSIGN_OR_RETURN(auto stored, fetch_(column, kind));
  std::unique_ptr<Stream> s;
  if (stored != nullptr) {
    s = std::make_unique<Stream>();
    Status st = s->chunks.Open(compression_, block_size_, stored->span(), stored, pool_);
    if (!st.ok()) return st.WithContext(format::StreamKindName(kind) ? format::StreamKindName(kind) : "stream");
    s->raw = s->chunks.Source();
  }
  Stream* p = s.get();
  streams_.emplace(key, std::move(s));
  return p;
}

Result<std::shared_ptr<Buffer>> StripeStreams::Whole(uint32_t column, uint32_t kind, int64_t pad) {
  QUIVER_ASSIGN_OR_RETURN(auto stored, fetch_(column, kind));
  if (stored == nullptr) return stored;
  auto r = DecompressStream(compression_, block_size_, stored->span(), stored, pool_, pad);
  if (!r.ok()) return r.status().WithContext(format::StreamKindName(kind) ? format::StreamKindName(kind) : "stream");
  return r;
}

}  // namespace quiver::orc

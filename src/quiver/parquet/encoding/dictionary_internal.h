// Dictionary encoding (PLAIN_DICTIONARY / RLE_DICTIONARY): data pages hold a bit-width byte then
// RLE/bit-packed indices into the dictionary page's PLAIN values. Decoder with range-checked,
// vectorized gathers; encoders with a value -> index hash table and a size limit for fallback.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <span>
#include <vector>

#include "quiver/core/buffer.h"
#include "quiver/core/simd_dispatch.h"
#include "quiver/core/status.h"
#include "quiver/parquet/encoding/rle_bitpacked_internal.h"

namespace quiver::parquet::encoding {

struct GatherKernels {
  SimdLevel level;
  // out[i] = dict[idx[i]] for i < n; indices already checked against the dictionary size.
  void (*gather32)(const uint32_t* dict, const uint32_t* idx, int64_t n, uint32_t* out);
  void (*gather64)(const uint64_t* dict, const uint32_t* idx, int64_t n, uint64_t* out);
  // The same for one-byte entries (flags, codes); `dict_readable` bytes may be read at `dict`.
  // AVX-512 looks up 16 indices at once in a register holding the first 16 entries.
  void (*gather8)(const uint8_t* dict, int64_t dict_readable, const int32_t* idx, int64_t n, uint8_t* out);
};
const GatherKernels& GatherKernelsFor(SimdLevel level);

class DictionaryDecoder {
 public:
  explicit DictionaryDecoder(SimdLevel level = ActiveSimdLevel())
      : rle_(level), gather_(&GatherKernelsFor(level)) {}

  // `data` is a data page's values section: the bit-width byte, then the runs.
  // `dict_size` is the number of dictionary entries indices may refer to.
  Status Reset(const uint8_t* data, int64_t size, int64_t dict_size);

  // `n` indices, each checked to be < dict_size.
  Status DecodeIndices(int32_t* out, int64_t n);
  // `n` values of a 4- or 8-byte type (INT32, INT64, FLOAT, DOUBLE) gathered from `dict`.
  template <typename T>
  Status Decode(const T* dict, T* out, int64_t n);
  // `n` values of `width` bytes (INT96, FIXED_LEN_BYTE_ARRAY) from a packed dictionary.
  Status DecodeFixed(const uint8_t* dict, int width, uint8_t* out, int64_t n);
  // `n` BYTE_ARRAY values appended Arrow-style (see PlainByteArrayDecoder::Decode) from a
  // dictionary held as int32 offsets (dict_size + 1 of them) and bytes. `dict_readable`: bytes
  // that may be read at dict_data (at least the dictionary's; 32 more let every short value be
  // copied in fixed 16-byte steps).
  Status DecodeByteArrays(const int32_t* dict_offsets, const uint8_t* dict_data, int64_t n, BufferBuilder* offsets,
                          BufferBuilder* values, int64_t dict_readable = 0);

  // The two halves of DecodeByteArrays, for a caller that gathers the indices of several pages
  // at once (one exactly sized values buffer per column chunk, not one growth step per page).
  // Total bytes of the entries `idx[0, n)` name (indices already range-checked, e.g. by
  // DecodeIndices).
  static int64_t ByteArrayLength(const int32_t* dict_offsets, const int32_t* idx, int64_t n);
  // Copies the entries `idx[0, n)` name to `dst + pos`, writing their end offsets to
  // `offsets[0, n)`. `dst` has room for pos + ByteArrayLength(...) + 32 bytes (the slack lets
  // short values be copied in fixed 16-byte steps); the caller checked the end fits an int32.
  // Returns the new end position.
  static int64_t GatherByteArrays(const int32_t* dict_offsets, const uint8_t* dict_data, int64_t dict_readable,
                                  const int32_t* idx, int64_t n, int32_t* offsets, uint8_t* dst, int64_t pos);
  // GatherByteArrays for a dictionary whose entries hold at most `width` (16 or 32) bytes, each
  // with `width` bytes readable from its start: every value one fixed copy of `width` bytes, no
  // branch on its length (l_shipinstruct's entries of 4-17 bytes chose between one and two
  // 16-byte copies at random). Same room and result.
  static int64_t GatherShortByteArrays(int width, const int32_t* dict_offsets, const uint8_t* dict_data,
                                       const int32_t* idx, int64_t n, int32_t* offsets, uint8_t* dst, int64_t pos);
  // GatherByteArrays for a dictionary whose entries all hold `len` bytes (entry e at e * len):
  // no offsets read per value, one-byte entries (flags, codes) through the active level's
  // gather8. Same room and result.
  static int64_t GatherUniformByteArrays(int32_t len, const uint8_t* dict_data, int64_t dict_readable,
                                         const int32_t* idx, int64_t n, int32_t* off, uint8_t* dst, int64_t pos);

 private:
  Status Finish(int64_t got, int64_t n) const;
  template <typename OnRun, typename OnIndices>
  Status Walk(int64_t n, OnRun&& on_run, OnIndices&& on_indices);

  RleBitPackedDecoder rle_;
  const GatherKernels* gather_;
  uint32_t dict_size_ = 0;
  int64_t bad_index_ = -1;  // the first out-of-range index seen, reported once
};

template <typename OnRun, typename OnIndices>
Status DictionaryDecoder::Walk(int64_t n, OnRun&& on_run, OnIndices&& on_indices) {
  bad_index_ = -1;
  const uint32_t limit = dict_size_;
  const int64_t got = rle_.Visit(
      n,
      [&](uint32_t value, int64_t count) {
        if (value >= limit) [[unlikely]] {
          if (bad_index_ < 0) bad_index_ = value;
          return;
        }
        if (bad_index_ < 0) on_run(value, count);
      },
      [&](const uint32_t* idx, int64_t count) {
        uint32_t max = 0;
        for (int64_t i = 0; i < count; ++i) max = idx[i] > max ? idx[i] : max;
        if (max >= limit) [[unlikely]] {
          if (bad_index_ < 0) {
            for (int64_t i = 0; i < count; ++i) {
              if (idx[i] >= limit) {
                bad_index_ = idx[i];
                break;
              }
            }
          }
          return;
        }
        if (bad_index_ < 0) on_indices(idx, count);
      });
  return Finish(got, n);
}

template <typename T>
Status DictionaryDecoder::Decode(const T* dict, T* out, int64_t n) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "Decode gathers 4- and 8-byte values; use DecodeFixed");
  return Walk(
      n,
      [&](uint32_t v, int64_t count) {
        const T value = dict[v];
        for (int64_t i = 0; i < count; ++i) out[i] = value;
        out += count;
      },
      [&](const uint32_t* idx, int64_t count) {
        if constexpr (sizeof(T) == 4) {
          gather_->gather32(reinterpret_cast<const uint32_t*>(dict), idx, count, reinterpret_cast<uint32_t*>(out));
        } else {
          gather_->gather64(reinterpret_cast<const uint64_t*>(dict), idx, count, reinterpret_cast<uint64_t*>(out));
        }
        out += count;
      });
}

// ---- encoders ----

// Values -> indices for 4- and 8-byte types (INT32, INT64, FLOAT, DOUBLE hashed and compared as
// bit patterns, so NaN and -0.0 keep their identity). Indices accumulate until FlushIndices writes
// a data page; the dictionary page is written once. INT96 and FIXED_LEN_BYTE_ARRAY go through
// ByteArrayDictionaryEncoder with WriteDictionaryPageFixed.
// A page's buffered dictionary indices, in the encoder's pool (the Parquet writer's recycles
// them from chunk to chunk) and grown without being zero-filled first.
class IndexBuffer {
 public:
  explicit IndexBuffer(MemoryPool* pool) : bytes_(pool) {}
  // Room for `n` indices in all; failure only means they grow later.
  void Reserve(int64_t n) { (void)bytes_.Reserve(n * 4 - bytes_.size()); }
  // `n` more indices, to be written through the pointer returned (then cut back by Resize).
  Result<int32_t*> Extend(int64_t n) {
    QUIVER_RETURN_NOT_OK(bytes_.Reserve(n * 4));
    int32_t* at = reinterpret_cast<int32_t*>(bytes_.mutable_data() + bytes_.size());
    bytes_.UnsafeSetSize(bytes_.size() + n * 4);
    return at;
  }
  void Resize(int64_t n) { bytes_.UnsafeSetSize(n * 4); }  // n at most size()
  int64_t size() const { return bytes_.size() / 4; }
  const int32_t* data() const { return reinterpret_cast<const int32_t*>(bytes_.data()); }
  std::span<const int32_t> span() const { return {data(), static_cast<size_t>(size())}; }
  void clear() { bytes_.Clear(); }

 private:
  BufferBuilder bytes_;
};

template <typename T>
class DictionaryEncoder {
 public:
  // `max_dictionary_bytes`: once the PLAIN dictionary would pass it, Put stops early and
  // full() turns true; the writer then closes the page and falls back to PLAIN.
  explicit DictionaryEncoder(int64_t max_dictionary_bytes = 1 << 20, MemoryPool* pool = default_memory_pool());

  // Sizes the table for `entries` distinct values up front (a column's previous chunk tells),
  // so that it does not grow by rehashing; only before the first Put.
  void Reserve(int64_t entries);
  // Empties the encoder for the next column chunk and reserves for `entries`, keeping its
  // table and buffers: a fresh table's pages would be faulted in and zeroed again for every
  // chunk (l_orderkey's is 2 MB). The table is replaced only when it is smaller than `entries`
  // need or more than 4x what they need, so what is kept is bounded by the size limit and by
  // the chunk being written. Entries, indices and the bytes written are those of a new encoder.
  void Restart(int64_t entries);
  // Room for `n` buffered indices (a page's), so that they do not grow by copies.
  void ReserveIndices(int64_t n) { indices_.Reserve(n); }
  // Encodes values from the front; `*consumed` (< n only when full) says how many.
  Status Put(const T* values, int64_t n, int64_t* consumed);
  bool full() const { return full_; }
  int64_t dict_size() const { return static_cast<int64_t>(dict_.size()); }
  int64_t dictionary_bytes() const { return dict_size() * static_cast<int64_t>(sizeof(T)); }
  int64_t buffered_indices() const { return static_cast<int64_t>(indices_.size()); }
  // The indices Put since the last FlushIndices.
  std::span<const int32_t> indices() const { return indices_.span(); }
  const std::vector<T>& dictionary() const { return dict_; }

  // The dictionary page body: PLAIN values in index order.
  Status WriteDictionaryPage(BufferBuilder* out) const;
  // A data page body: bit-width byte then RLE/bit-packed indices; clears the buffered indices.
  Status FlushIndices(BufferBuilder* out);

 private:
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  // Integers whose keys span a short range (dates, l_suppkey, a chunk of l_orderkey) are
  // looked up in a table indexed by key - base instead of hashed: no multiply, no key compare,
  // and 4 bytes per key of the range rather than 32-64 bytes of slots per entry.
  static constexpr bool kDirect = std::is_integral_v<T>;
  // The key sits in the slot, so a probe touches one cache line, not the dictionary too.
  struct Slot {
    Bits key;
    int32_t index;  // -1 = empty
  };
  template <bool kRuns, bool kPrefetch>
  int64_t PutValues(const T* values, int64_t n, int32_t* out);
  template <bool kPrefetch>
  int64_t PutDirect(const T* values, int64_t n, int32_t* out);
  [[gnu::noinline]] int32_t InsertDirect(T value, Bits offset);
  // Values from `values[0, n)` on fall outside the direct table: widens it over them and the
  // entries, or moves the entries to the hash table when that range is too wide.
  [[gnu::noinline]] void Redirect(const T* values, int64_t n);
  // The entries into the hash table (sized for them and for what Restart expected), which
  // takes the rest of the chunk.
  void StartHashing();
  void ClearDirect();
  [[gnu::noinline]] int32_t FindOrInsert(Bits key, size_t s);
  // Every entry into an empty place of `slots` (sized for shift), by linear probing.
  void PlaceEntries(std::vector<Slot>* slots, int shift) const;
  void Rehash();
  // slots_ made `want` places (or kept, when within 4x of it) with none taken, and shift_ to
  // match; `stale`: the kept places may still hold a previous chunk's entries.
  void EmptySlots(size_t want, bool stale);
  // The most entries the byte limit allows.
  int64_t MaxEntries() const { return max_bytes_ / static_cast<int64_t>(sizeof(T)); }
  int64_t max_bytes_;
  MemoryPool* pool_;
  std::vector<T> dict_;
  std::vector<Slot> slots_;  // power-of-two size, linear probing, at most half full; when hashing_
  int shift_ = 64 - 10;      // 64 - log2(slots_.size())
  size_t want_slots_ = 1024;   // the table's size when the chunk starts hashing
  int64_t expect_entries_ = 0; // what Restart or Reserve expected
  bool hashing_ = !kDirect;  // the entries are in slots_, not direct_
  bool slots_dirty_ = false; // slots_ holds a previous chunk's entries
  // entry + 1 of the key base + i at i, 0 when none; all zero except the entries' keys.
  std::vector<int32_t> direct_;
  Bits direct_base_ = 0;
  IndexBuffer indices_;
  bool full_ = false;
};

// The BYTE_ARRAY variant: values given Arrow-style (offsets + bytes).
class ByteArrayDictionaryEncoder {
 public:
  // `level`: the SIMD level of the one-byte values' loop (the indices are the same at every level).
  explicit ByteArrayDictionaryEncoder(int64_t max_dictionary_bytes = 1 << 20,
                                      MemoryPool* pool = default_memory_pool(), SimdLevel level = ActiveSimdLevel());

  // As DictionaryEncoder::Reserve; `bytes`: the entries' total length.
  void Reserve(int64_t entries, int64_t bytes);
  // As DictionaryEncoder::Restart.
  void Restart(int64_t entries, int64_t bytes);
  void ReserveIndices(int64_t n) { indices_.Reserve(n); }
  // values[i] = data[offsets[i], offsets[i+1]); validity (optional) skips nulls.
  Status Put(const int32_t* offsets, const uint8_t* data, int64_t n, int64_t* consumed,
             const uint8_t* validity = nullptr, int64_t validity_offset = 0);
  bool full() const { return full_; }
  int64_t dict_size() const { return static_cast<int64_t>(dict_offsets_.size()) - 1; }
  // PLAIN size of the dictionary: 4 bytes of length per entry plus the bytes.
  int64_t dictionary_bytes() const { return dict_data_.size() + 4 * dict_size(); }
  int64_t buffered_indices() const { return static_cast<int64_t>(indices_.size()); }
  std::span<const int32_t> indices() const { return indices_.span(); }
  std::string_view entry(int64_t i) const {
    return {reinterpret_cast<const char*>(dict_data_.data()) + dict_offsets_[i],
            static_cast<size_t>(dict_offsets_[i + 1] - dict_offsets_[i])};
  }

  Status WriteDictionaryPage(BufferBuilder* out) const;
  // For fixed-width values (FLBA, INT96) put through this encoder: entries without length
  // prefixes; Invalid when an entry is not `width` bytes.
  Status WriteDictionaryPageFixed(int width, BufferBuilder* out) const;
  Status FlushIndices(BufferBuilder* out);

 private:
  // The hash's high half sits in the slot beside the entry, so a probe reads the entry's bytes
  // only when the tags match (almost always a hit).
  struct Slot {
    uint32_t tag;
    int32_t entry;  // index + 1; 0 = empty
  };
  // A value of up to 16 bytes as two zero-padded little-endian words.
  struct ShortWords {
    uint64_t lo = 0, hi = 0;
  };
  // The last value of up to 32 bytes seen at each of kMemoSize places chosen by its words (its
  // bytes, zero-padded: MemoWords in dictionary.cc), with its index; len -1 when empty (no value
  // has it).
  struct Memo {
    uint64_t lo = 0, hi = 0, lo2 = 0, hi2 = 0;
    int32_t len = -1;
    int32_t index = 0;
  };
  static constexpr size_t kMemoSize = 256;
  int32_t Find(const uint8_t* v, int32_t len, uint64_t h, const ShortWords& sv, size_t* slot) const;
  [[gnu::noinline]] int32_t Insert(const uint8_t* v, int32_t len, uint64_t h, size_t slot);
  // The hot loop of one-byte values (flags: l_returnflag, l_linestatus): values [i, n) to
  // out[0, ...), no nulls, while each is one byte long and `table` (byte_entries_) has it;
  // returns where it stopped. Scalar, or 16 values a step at AVX-512 (ByteHitsFor in
  // dictionary.cc).
  using ByteHitsFn = int64_t (*)(const int32_t* offsets, const uint8_t* data, int64_t i, int64_t n,
                                 const int32_t* table, int32_t* out);
  template <int kMax>
  [[gnu::noinline]] static int64_t MemoHits(const int32_t* offsets, const uint8_t* data, int64_t i, int64_t n,
                                            int64_t loadable, const Memo* memo, int32_t* out);
  void Rehash();
  int64_t max_bytes_;
  MemoryPool* pool_;
  BufferBuilder dict_data_;
  std::vector<int32_t> dict_offsets_{0};
  std::vector<uint64_t> hashes_;  // per entry, for Rehash
  std::vector<Slot> slots_;       // power-of-two size, linear probing, at most half full
  std::vector<Memo> memo_;        // while the table is small
  int memo_max_ = 8;              // the longest value in the memo: 8, 16 or 32 bytes
  // Entry + 1 of each one-byte value in the dictionary, at its byte (0: none): such a value is
  // found by one load, without the memo's words and multiply.
  std::array<int32_t, 256> byte_entries_{};
  ByteHitsFn byte_hits_;
  IndexBuffer indices_;
  bool full_ = false;
};

// Bit width of the largest index of a dictionary with `dict_size` entries (0 for one entry).
int DictionaryIndexBitWidth(int64_t dict_size);
// Writes the bit-width byte and RLE/bit-packed `indices` (what FlushIndices does).
// `level`: the SIMD level of the run search (the bytes are the same at every level).
Status EncodeDictionaryIndices(const int32_t* indices, int64_t n, int bit_width, BufferBuilder* out,
                               MemoryPool* pool = default_memory_pool(), SimdLevel level = ActiveSimdLevel());

}  // namespace quiver::parquet::encoding

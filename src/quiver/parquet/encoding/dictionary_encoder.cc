// Dictionary encoders: a value -> index hash table per column chunk (direct-mapped for small
// integer ranges), with the size limit that makes the writer fall back to plain values.
#include "quiver/parquet/encoding/dictionary_internal.h"

#include <algorithm>
#include <bit>

#include "quiver/parquet/encoding/dictionary_hash_internal.h"

#if defined(__x86_64__)
#include "quiver/core/intrinsics_internal.h"
#define QUIVER_X86 1
#endif

namespace quiver::parquet::encoding {

using namespace dict_hash;  // NOLINT: this file's own helpers, kept apart only for size

template <typename T>
DictionaryEncoder<T>::DictionaryEncoder(int64_t max_dictionary_bytes, MemoryPool* pool)
    : max_bytes_(max_dictionary_bytes), pool_(pool), slots_(kDirect ? 0 : 1024, Slot{0, -1}), indices_(pool) {}

template <typename T>
void DictionaryEncoder<T>::PlaceEntries(std::vector<Slot>* slots, int shift) const {
  const size_t mask = slots->size() - 1;
  for (size_t i = 0; i < dict_.size(); ++i) {
    const Bits key = std::bit_cast<Bits>(dict_[i]);
    size_t s = SlotOf(key, shift);
    while ((*slots)[s].index >= 0) s = (s + 1) & mask;
    (*slots)[s] = Slot{key, static_cast<int32_t>(i)};
  }
}

template <typename T>
void DictionaryEncoder<T>::Rehash() {
  std::vector<Slot> slots(slots_.size() * 2, Slot{0, -1});
  --shift_;
  PlaceEntries(&slots, shift_);
  slots_.swap(slots);
}

template <typename T>
void DictionaryEncoder<T>::EmptySlots(size_t want, bool stale) {
  if (slots_.size() < want || slots_.size() > 4 * want) {
    slots_.assign(want, Slot{0, -1});
    slots_.shrink_to_fit();
  } else if (stale) {
    std::fill(slots_.begin(), slots_.end(), Slot{0, -1});
  }
  shift_ = 64 - std::countr_zero(slots_.size());
}

namespace {

// Slots for `entries` at most half full, as a power of two; never past what the size limit
// lets the dictionary hold.
size_t SlotsFor(int64_t entries, int64_t limit_entries) {
  const int64_t n = std::min(entries, std::max<int64_t>(limit_entries, 1));
  size_t slots = 1024;
  while (static_cast<int64_t>(slots) < 2 * n + 2) slots *= 2;
  return slots;
}

}  // namespace

template <typename T>
void DictionaryEncoder<T>::Reserve(int64_t entries) {
  const size_t slots = SlotsFor(entries, MaxEntries());
  if constexpr (kDirect) {
    // The hash table is only sized here: a chunk whose keys span a short range never makes it.
    if (!dict_.empty() || slots <= want_slots_) return;
    want_slots_ = slots;
    expect_entries_ = entries;
  } else {
    if (!dict_.empty() || slots <= slots_.size()) return;
    EmptySlots(slots, /*stale=*/false);  // grown: every place is new
  }
  dict_.reserve(static_cast<size_t>(std::min<int64_t>(entries, MaxEntries())));
}

template <typename T>
void DictionaryEncoder<T>::Restart(int64_t entries) {
  const size_t want = SlotsFor(entries, MaxEntries());
  // The direct table is emptied entry by entry (a chunk of l_orderkey's uses 30,000 of its
  // places), so before the entries go; the hash table of integers, when the last chunk used
  // it, only when this one does.
  if constexpr (kDirect) ClearDirect();
  dict_.clear();
  indices_.clear();
  full_ = false;
  if constexpr (kDirect) {
    want_slots_ = want;
    expect_entries_ = entries;
    hashing_ = false;
  } else {
    EmptySlots(want, /*stale=*/true);
  }
  dict_.reserve(static_cast<size_t>(std::min<int64_t>(entries, MaxEntries())));
}

// Key `key`, not found at its first slot `s`: its index further along the chain, or added as a
// new entry (-1 when the dictionary is full).
template <typename T>
int32_t DictionaryEncoder<T>::FindOrInsert(Bits key, size_t s) {
  const size_t mask = slots_.size() - 1;
  for (;; s = (s + 1) & mask) {
    const Slot& slot = slots_[s];
    if (slot.index < 0) break;
    if (slot.key == key) return slot.index;
  }
  if (static_cast<int64_t>(dict_.size() + 1) * static_cast<int64_t>(sizeof(T)) > max_bytes_) return -1;
  const int32_t index = static_cast<int32_t>(dict_.size());
  dict_.push_back(std::bit_cast<T>(key));
  slots_[s] = Slot{key, index};
  if (dict_.size() * 2 > slots_.size()) Rehash();
  return index;
}

// Values [0, n) to out[0, n); returns how many before the dictionary filled. Most values are
// found at their first slot, one compare of key and index; the rest of the chain, and new
// entries, go through FindOrInsert. kPrefetch (a table past L1: l_suppkey's, l_orderkey's):
// the slot kDistance values ahead is prefetched, so that the probes' cache misses overlap
// instead of being paid one after another. kRuns (sorted or clustered values: l_orderkey):
// a value equal to the one before takes its index without a probe; elsewhere that branch
// would be mispredicted more often than it saves a probe.
template <typename T>
template <bool kRuns, bool kPrefetch>
int64_t DictionaryEncoder<T>::PutValues(const T* values, int64_t n, int32_t* out) {
  constexpr int64_t kDistance = 16;
  const Slot* slots = slots_.data();
  int shift = shift_;
  Bits prev_key = ~std::bit_cast<Bits>(values[0]);  // never the first key
  int32_t prev_index = 0;
  const int64_t ahead = kPrefetch ? n - kDistance : n;
  for (int64_t i = 0; i < n; ++i) {
    const Bits key = std::bit_cast<Bits>(values[i]);
    if (kPrefetch && i < ahead) {
      __builtin_prefetch(&slots[SlotOf(std::bit_cast<Bits>(values[i + kDistance]), shift)]);
    }
    if constexpr (kRuns) {
      if (key == prev_key) {
        out[i] = prev_index;
        continue;
      }
      prev_key = key;
    }
    const Slot slot = slots[SlotOf(key, shift)];
    int32_t index = slot.index;
    if (slot.key != key || index < 0) [[unlikely]] {
      index = FindOrInsert(key, SlotOf(key, shift));
      if (index < 0) [[unlikely]] return i;
      slots = slots_.data();  // a rehash moves and widens the table
      shift = shift_;
    }
    out[i] = index;
    if constexpr (kRuns) prev_index = index;
  }
  return n;
}

// Adds the value at `offset` in the direct table: its entry + 1, 0 when the dictionary is full.
template <typename T>
int32_t DictionaryEncoder<T>::InsertDirect(T value, Bits offset) {
  if (static_cast<int64_t>(dict_.size() + 1) * static_cast<int64_t>(sizeof(T)) > max_bytes_) return 0;
  dict_.push_back(value);
  const auto e = static_cast<int32_t>(dict_.size());
  direct_[offset] = e;
  return e;
}

namespace {

// Values [i, n) to out[i, n) through a direct table (entry + 1 of key base + k at k) while each
// is in its range and found: a loop without calls, so that everything stays in registers.
// Returns where it stopped. kPrefetch (a table past 1 MB; smaller ones stay in L2, where the
// prefetch's own instructions cost more than they save): the place kDistance values ahead is
// prefetched.
template <bool kPrefetch, typename Bits>
int64_t DirectHits(const Bits* values, int64_t i, int64_t n, const int32_t* table, Bits base, Bits size,
                   int32_t* out) {
  constexpr int64_t kDistance = 16;
  const int64_t ahead = kPrefetch ? n - kDistance : n;
  for (; i < n; ++i) {
    if (kPrefetch && i < ahead) {
      const Bits next = static_cast<Bits>(values[i + kDistance] - base);
      __builtin_prefetch(table + std::min<Bits>(next, size - 1));
    }
    const Bits u = static_cast<Bits>(values[i] - base);
    if (u >= size) [[unlikely]] break;
    const int32_t e = table[u];
    if (e == 0) [[unlikely]] break;
    out[i] = e - 1;
  }
  return i;
}

}  // namespace

// Values [0, n) to out[0, n) through the direct table; returns how many before one outside its
// range or the dictionary filled.
template <typename T>
template <bool kPrefetch>
int64_t DictionaryEncoder<T>::PutDirect(const T* values, int64_t n, int32_t* out) {
  const auto* keys = reinterpret_cast<const Bits*>(values);
  const Bits size = static_cast<Bits>(direct_.size());
  int64_t i = 0;
  while (true) {
    i = DirectHits<kPrefetch>(keys, i, n, direct_.data(), direct_base_, size, out);
    if (i == n) return n;
    const Bits u = static_cast<Bits>(keys[i] - direct_base_);
    if (u >= size) return i;
    const int32_t e = InsertDirect(values[i], u);
    if (e == 0) return i;
    out[i++] = e - 1;
  }
}

template <typename T>
void DictionaryEncoder<T>::ClearDirect() {
  if (hashing_ || direct_.empty()) return;
  for (const T& v : dict_) direct_[static_cast<Bits>(std::bit_cast<Bits>(v) - direct_base_)] = 0;
}

template <typename T>
void DictionaryEncoder<T>::StartHashing() {
  const size_t want = std::max(want_slots_, SlotsFor(static_cast<int64_t>(dict_.size()) + 1, MaxEntries()));
  EmptySlots(want, slots_dirty_);
  PlaceEntries(&slots_, shift_);
  ClearDirect();
  hashing_ = true;
  slots_dirty_ = true;
}

template <typename T>
void DictionaryEncoder<T>::Redirect(const T* values, int64_t n) {
  T lo = values[0], hi = values[0];
  for (int64_t i = 1; i < n; ++i) {
    lo = values[i] < lo ? values[i] : lo;
    hi = hi < values[i] ? values[i] : hi;
  }
  for (const T& v : dict_) {
    lo = v < lo ? v : lo;
    hi = hi < v ? v : hi;
  }
  // Up to 8 places per entry (32 bytes, what a hash table half full of 16-byte slots takes),
  // counting the entries the last chunk had; never past 4 MB.
  constexpr uint64_t kFloor = uint64_t{1} << 16, kCeiling = uint64_t{1} << 20;
  const uint64_t entries = static_cast<uint64_t>(std::max<int64_t>(expect_entries_, static_cast<int64_t>(dict_.size())));
  const uint64_t limit = std::clamp<uint64_t>(8 * entries, kFloor, kCeiling);
  const uint64_t span = static_cast<Bits>(std::bit_cast<Bits>(hi) - std::bit_cast<Bits>(lo));  // < 2^bits
  if (span >= limit) {
    StartHashing();
    return;
  }
  uint64_t size = direct_.size();
  if (span >= size) size = std::min(limit, std::max<uint64_t>(2 * (span + 1), 4096));
  ClearDirect();
  if (direct_.size() < size) direct_.resize(static_cast<size_t>(size), 0);
  direct_base_ = std::bit_cast<Bits>(lo);
  for (size_t i = 0; i < dict_.size(); ++i) {
    direct_[static_cast<Bits>(std::bit_cast<Bits>(dict_[i]) - direct_base_)] = static_cast<int32_t>(i + 1);
  }
}

template <typename T>
Status DictionaryEncoder<T>::Put(const T* values, int64_t n, int64_t* consumed) {
  *consumed = 0;
  if (n == 0) return Status::OK();
  const int64_t start = indices_.size();
  QUIVER_ASSIGN_OR_RETURN(int32_t* out, indices_.Extend(n));
  int64_t done = 0;
  if constexpr (kDirect) {
    while (!hashing_ && done < n) {
      const bool ahead = direct_.size() * sizeof(int32_t) > (1 << 20);
      done += ahead ? PutDirect<true>(values + done, n - done, out + done)
                    : PutDirect<false>(values + done, n - done, out + done);
      if (done == n) break;
      // Stopped inside the table's range: the dictionary is full.
      if (static_cast<Bits>(std::bit_cast<Bits>(values[done]) - direct_base_) < direct_.size()) break;
      Redirect(values + done, n - done);
    }
  }
  if (hashing_ && done < n) {
    // Runs judged from the first values: a quarter of them equal to the one before.
    const T* v = values + done;
    const int64_t m = n - done;
    const int64_t sample = std::min<int64_t>(m, 64);
    int64_t repeats = 0;
    for (int64_t i = 1; i < sample; ++i) repeats += v[i] == v[i - 1] ? 1 : 0;
    const bool runs = repeats * 4 >= sample;
    const bool prefetch = slots_.size() * sizeof(Slot) > (32 << 10);
    if (runs) {
      done += prefetch ? PutValues<true, true>(v, m, out + done) : PutValues<true, false>(v, m, out + done);
    } else {
      done += prefetch ? PutValues<false, true>(v, m, out + done) : PutValues<false, false>(v, m, out + done);
    }
  }
  if (done < n) full_ = true;
  indices_.Resize(start + done);
  *consumed = done;
  return Status::OK();
}

template <typename T>
Status DictionaryEncoder<T>::WriteDictionaryPage(BufferBuilder* out) const {
  return out->Append(dict_.data(), static_cast<int64_t>(dict_.size() * sizeof(T)));
}

template <typename T>
Status DictionaryEncoder<T>::FlushIndices(BufferBuilder* out) {
  QUIVER_RETURN_NOT_OK(EncodeDictionaryIndices(indices_.data(), indices_.size(),
                                               DictionaryIndexBitWidth(dict_size()), out, pool_));
  indices_.clear();
  return Status::OK();
}

template class DictionaryEncoder<int32_t>;
template class DictionaryEncoder<int64_t>;
template class DictionaryEncoder<float>;
template class DictionaryEncoder<double>;

namespace {

int64_t ByteHitsScalar(const int32_t* offsets, const uint8_t* data, int64_t i, int64_t n, const int32_t* table,
                       int32_t* out) {
  const int64_t from = i;
  int32_t at = offsets[i];
  for (; i < n; ++i) {
    const int32_t next = offsets[i + 1];
    if (next - at != 1) break;
    const int32_t e = table[data[at]];
    if (e == 0) break;
    out[i - from] = e - 1;
    at = next;
  }
  return i;
}

#if QUIVER_X86
// 16 values a step while all 16 are one byte long (each offset one past the one before) and
// known: their bytes, contiguous, widened to lanes and looked up by one gather; the rest, and a
// step that stops, by the scalar loop.
__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"))) int64_t ByteHitsAvx512(
    const int32_t* offsets, const uint8_t* data, int64_t i, int64_t n, const int32_t* table, int32_t* out) {
  const int64_t from = i;
  const auto all = static_cast<__mmask16>(0xFFFF);
  const __m512i one = _mm512_set1_epi32(1);
  for (; i + 16 <= n; i += 16) {
    const __m512i start = _mm512_loadu_si512(offsets + i);
    const __m512i end = _mm512_loadu_si512(offsets + i + 1);
    if (_mm512_cmpneq_epi32_mask(_mm512_sub_epi32(end, start), one) != 0) break;
    const __m512i bytes =
        _mm512_maskz_cvtepu8_epi32(all, _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + offsets[i])));
    const __m512i e = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), all, bytes, table, 4);
    if (_mm512_cmpeq_epi32_mask(e, _mm512_setzero_si512()) != 0) break;
    _mm512_storeu_si512(out + (i - from), _mm512_sub_epi32(e, one));
  }
  return ByteHitsScalar(offsets, data, i, n, table, out + (i - from));
}
#endif

using ByteHitsKernel = int64_t (*)(const int32_t*, const uint8_t*, int64_t, int64_t, const int32_t*, int32_t*);
ByteHitsKernel ByteHitsFor(SimdLevel level) {
  if (static_cast<int>(level) > static_cast<int>(DetectedSimdLevel())) level = DetectedSimdLevel();
#if QUIVER_X86
  if (level == SimdLevel::kAvx512) return &ByteHitsAvx512;
#endif
  return &ByteHitsScalar;
}

}  // namespace

ByteArrayDictionaryEncoder::ByteArrayDictionaryEncoder(int64_t max_dictionary_bytes, MemoryPool* pool,
                                                       SimdLevel level)
    : max_bytes_(max_dictionary_bytes), pool_(pool), dict_data_(pool), slots_(1024, Slot{0, 0}),
      byte_hits_(ByteHitsFor(level)), indices_(pool) {}

void ByteArrayDictionaryEncoder::Rehash() {
  std::vector<Slot> slots(slots_.size() * 2, Slot{0, 0});
  const size_t mask = slots.size() - 1;
  for (size_t i = 0; i < hashes_.size(); ++i) {
    size_t s = hashes_[i] & mask;
    while (slots[s].entry != 0) s = (s + 1) & mask;
    slots[s] = Slot{static_cast<uint32_t>(hashes_[i] >> 32), static_cast<int32_t>(i + 1)};
  }
  slots_.swap(slots);
}

void ByteArrayDictionaryEncoder::Reserve(int64_t entries, int64_t bytes) {
  const size_t slots = SlotsFor(entries, max_bytes_ / 4);
  if (!hashes_.empty() || slots <= slots_.size()) return;
  slots_.assign(slots, Slot{0, 0});
  const size_t n = slots / 2;
  hashes_.reserve(n);
  dict_offsets_.reserve(n + 1);
  // Failure only means the bytes grow as they come.
  (void)dict_data_.Reserve(std::min(bytes, max_bytes_) + 16);
}

void ByteArrayDictionaryEncoder::Restart(int64_t entries, int64_t bytes) {
  const size_t want = SlotsFor(entries, max_bytes_ / 4);
  dict_data_.Clear();
  dict_offsets_.assign(1, 0);
  hashes_.clear();
  memo_.clear();  // refilled with empty entries at the next Put that uses it
  memo_max_ = 8;
  byte_entries_.fill(0);
  indices_.clear();
  full_ = false;
  if (slots_.size() < want || slots_.size() > 4 * want) {
    slots_.assign(want, Slot{0, 0});
    slots_.shrink_to_fit();
  } else {
    std::fill(slots_.begin(), slots_.end(), Slot{0, 0});
  }
  hashes_.reserve(want / 2);
  dict_offsets_.reserve(want / 2 + 1);
  (void)dict_data_.Reserve(std::min(bytes, max_bytes_) + 16);  // failure: the bytes grow as they come
}

// The entry of value `v` (`len` bytes, hash `h`, its words `sv` when short), or -1 when it is
// not in the table yet, with *slot where it goes. Entries have 16 readable bytes (slack kept by
// Insert), so short ones compare as two words.
inline int32_t ByteArrayDictionaryEncoder::Find(const uint8_t* v, int32_t len, uint64_t h, const ShortWords& sv,
                                                size_t* slot) const {
  const uint32_t tag = static_cast<uint32_t>(h >> 32);
  const size_t mask = slots_.size() - 1;
  const Slot* slots = slots_.data();
  const int32_t* offsets = dict_offsets_.data();
  const uint8_t* bytes = dict_data_.data();
  size_t s = h & mask;
  for (;; s = (s + 1) & mask) {
    const Slot slot = slots[s];
    if (slot.entry == 0) break;
    if (slot.tag != tag) continue;
    const int32_t e = slot.entry - 1;
    const int32_t at = offsets[e];
    if (offsets[e + 1] - at != len) continue;
    if (len <= 16) {
      const ShortValue x = LoadShort(bytes + at, len);
      if (x.lo == sv.lo && x.hi == sv.hi) return e;
    } else if (EqualLong(bytes + at, v, len)) {
      return e;
    }
  }
  *slot = s;
  return -1;
}

// Adds `v` at `slot` (from Find): its index, -1 when the dictionary is full, -2 out of memory.
int32_t ByteArrayDictionaryEncoder::Insert(const uint8_t* v, int32_t len, uint64_t h, size_t slot) {
  if (dictionary_bytes() + 4 + len > max_bytes_) return -1;
  if (!dict_data_.Reserve(len + 16).ok()) return -2;
  dict_data_.UnsafeAppend(v, len);
  const int32_t index = static_cast<int32_t>(hashes_.size());
  hashes_.push_back(h);
  dict_offsets_.push_back(static_cast<int32_t>(dict_data_.size()));
  slots_[slot] = Slot{static_cast<uint32_t>(h >> 32), index + 1};
  if (len == 1) byte_entries_[v[0]] = index + 1;
  if (hashes_.size() * 2 > slots_.size()) Rehash();
  return index;
}

// The hot loop of a small table: values [i, n), no nulls, while each is found in the memo (a
// short loop of its own, so that its values stay in registers). kMax (8, 16 or 32): the longest
// value the memo holds, so a loop for short values loads, hashes and compares only the words
// they can have; a longer value stops it. A memo entry of a value's length has no bytes past it
// (its other words are zero), so comparing the words a value of that length can have suffices.
template <int kMax>
int64_t ByteArrayDictionaryEncoder::MemoHits(const int32_t* offsets, const uint8_t* data, int64_t i, int64_t n,
                                             int64_t loadable, const Memo* memo, int32_t* out) {
  const int64_t from = i;
  for (; i < n; ++i) {
    const int32_t at = offsets[i];
    const int32_t len = offsets[i + 1] - at;
    if ((static_cast<uint32_t>(len) > kMax) | (at > loadable)) break;
    MemoWords w{};
    if constexpr (kMax == 8) {
      uint64_t mask;
      std::memcpy(&w.lo, data + at, 8);
      std::memcpy(&mask, kShortMask + 16 - len, 8);
      w.lo &= mask;
    } else if constexpr (kMax == 16) {
      const ShortValue x = LoadShort(data + at, len);
      w.lo = x.lo;
      w.hi = x.hi;
    } else {
      w = LoadMemoWords(data + at, len);
    }
    const Memo& mo = memo[MemoSlot(w, len)];
    uint64_t diff = (mo.lo ^ w.lo) | static_cast<uint32_t>(mo.len ^ len);
    if constexpr (kMax > 8) diff |= mo.hi ^ w.hi;
    if constexpr (kMax > 16) diff |= (mo.lo2 ^ w.lo2) | (mo.hi2 ^ w.hi2);
    if (diff != 0) break;
    out[i - from] = mo.index;
  }
  return i;
}

Status ByteArrayDictionaryEncoder::Put(const int32_t* offsets, const uint8_t* data, int64_t n, int64_t* consumed,
                                       const uint8_t* validity, int64_t validity_offset) {
  const int64_t start = indices_.size();
  QUIVER_ASSIGN_OR_RETURN(int32_t* out, indices_.Extend(n));
  int64_t k = 0;  // indices written
  // Values starting 16 (32) bytes before the end of the input's bytes load 16 (32) bytes
  // directly.
  const int64_t loadable = offsets[n] - 16;
  const int64_t loadable32 = offsets[n] - 32;
  auto hash = [&](int64_t r, ShortWords* sv) -> uint64_t {
    const int32_t len = offsets[r + 1] - offsets[r];
    if (len <= 16) {
      const ShortValue x = offsets[r] <= loadable ? LoadShort(data + offsets[r], len) : CopyShort(data + offsets[r], len);
      *sv = ShortWords{x.lo, x.hi};
      return HashShort(x, len);
    }
    return HashBytes(data + offsets[r], len);
  };
  // Value r to its entry, added when new; -1 when the dictionary is full, -2 out of memory.
  auto entry = [&](int64_t r, uint64_t h, const ShortWords& sv) __attribute__((always_inline)) -> int32_t {
    const uint8_t* v = data + offsets[r];
    const int32_t len = offsets[r + 1] - offsets[r];
    size_t slot = 0;
    const int32_t e = Find(v, len, h, sv, &slot);
    if (e >= 0) [[likely]] return e;
    return Insert(v, len, h, slot);
  };
  auto stop = [&](int32_t index, int64_t i) -> Status {
    indices_.Resize(start + k);
    *consumed = i;
    if (index == -2) return Status::OutOfMemory("dictionary entries");
    full_ = true;
    return Status::OK();
  };
  // A table that fits in L1 (lineitem's flags and modes) is probed as each value is hashed; a
  // larger one batch by batch: a batch is hashed first and its slots prefetched, so that the
  // probes' cache misses overlap instead of being paid one after another.
  constexpr size_t kSmallSlots = 4096;
  constexpr int64_t kBatch = 64;
  uint64_t hashes[kBatch];
  ShortWords shorts[kBatch];
  int64_t i = 0;
  while (i < n) {
    if (slots_.size() <= kSmallSlots) {
      // Values of up to 32 bytes first look in the memo: one compare of their words and length
      // against the last value that went to the same place, no chain of loads through the table.
      // Values without nulls go through MemoHits' loop until one is not found there; that one
      // (and each value when there are nulls) comes here.
      if (memo_.empty()) memo_.assign(kMemoSize, Memo{});
      Memo* memo = memo_.data();
      if (validity == nullptr) {
        if (offsets[i + 1] - offsets[i] == 1) {
          // One-byte values (flags) by their byte, until one is longer or new.
          const int64_t stop = byte_hits_(offsets, data, i, n, byte_entries_.data(), out + k);
          k += stop - i;
          i = stop;
          if (i == n) break;
        }
        const int64_t stop = memo_max_ == 8    ? MemoHits<8>(offsets, data, i, n, loadable, memo, out + k)
                             : memo_max_ == 16 ? MemoHits<16>(offsets, data, i, n, loadable, memo, out + k)
                                               : MemoHits<32>(offsets, data, i, n, loadable32, memo, out + k);
        k += stop - i;
        i = stop;
        if (i == n) break;
      } else if (!bit_util::GetBit(validity, validity_offset + i)) {
        ++i;
        continue;
      }
      const int32_t at = offsets[i];
      const int32_t len = offsets[i + 1] - at;
      ShortWords sv{};
      uint64_t h;
      Memo* mo = nullptr;
      MemoWords w{};
      if (len <= 32) {
        w = at <= loadable32 ? LoadMemoWords(data + at, len) : CopyMemoWords(data + at, len);
        mo = &memo[MemoSlot(w, len)];
        if (((mo->lo ^ w.lo) | (mo->hi ^ w.hi) | (mo->lo2 ^ w.lo2) | (mo->hi2 ^ w.hi2) |
             static_cast<uint32_t>(mo->len ^ len)) == 0) {
          out[k++] = mo->index;
          ++i;
          continue;
        }
      }
      if (len <= 16) {
        sv = ShortWords{w.lo, w.hi};
        h = HashShort(ShortValue{w.lo, w.hi}, len);
      } else {
        h = HashBytes(data + at, len);
      }
      const int32_t index = entry(i, h, sv);
      if (index < 0) [[unlikely]] return stop(index, i);
      if (mo != nullptr) {
        *mo = Memo{w.lo, w.hi, w.lo2, w.hi2, len, index};
        memo_max_ = std::max(memo_max_, len <= 8 ? 8 : len <= 16 ? 16 : 32);
      }
      out[k++] = index;
      ++i;
      continue;
    }
    const int64_t m = std::min(kBatch, n - i);
    const size_t pmask = slots_.size() - 1;
    for (int64_t j = 0; j < m; ++j) {
      const int64_t r = i + j;
      if (validity != nullptr && !bit_util::GetBit(validity, validity_offset + r)) continue;
      hashes[j] = hash(r, &shorts[j]);
      __builtin_prefetch(&slots_[hashes[j] & pmask]);
    }
    for (int64_t j = 0; j < m; ++j, ++i) {
      if (validity != nullptr && !bit_util::GetBit(validity, validity_offset + i)) continue;
      const int32_t index = entry(i, hashes[j], shorts[j]);
      if (index < 0) [[unlikely]] return stop(index, i);
      out[k++] = index;
    }
  }
  indices_.Resize(start + k);
  *consumed = i;
  return Status::OK();
}

Status ByteArrayDictionaryEncoder::WriteDictionaryPage(BufferBuilder* out) const {
  QUIVER_RETURN_NOT_OK(out->Reserve(dictionary_bytes()));
  for (int64_t i = 0; i < dict_size(); ++i) {
    const int32_t len = dict_offsets_[i + 1] - dict_offsets_[i];
    out->UnsafeAppendValue(len);
    out->UnsafeAppend(dict_data_.data() + dict_offsets_[i], len);
  }
  return Status::OK();
}

Status ByteArrayDictionaryEncoder::WriteDictionaryPageFixed(int width, BufferBuilder* out) const {
  for (int64_t i = 0; i < dict_size(); ++i) {
    if (dict_offsets_[i + 1] - dict_offsets_[i] != width) {
      return Status::Invalid("dictionary entry " + std::to_string(i) + " is not " + std::to_string(width) +
                             " bytes wide");
    }
  }
  return out->Append(dict_data_.data(), dict_data_.size());
}

Status ByteArrayDictionaryEncoder::FlushIndices(BufferBuilder* out) {
  QUIVER_RETURN_NOT_OK(EncodeDictionaryIndices(indices_.data(), indices_.size(),
                                               DictionaryIndexBitWidth(dict_size()), out, pool_));
  indices_.clear();
  return Status::OK();
}

}  // namespace quiver::parquet::encoding


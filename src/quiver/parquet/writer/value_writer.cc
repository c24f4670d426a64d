// One value writer per physical type (value_writer_internal.h): its dictionary and value encoder.
#include "quiver/parquet/writer/value_writer_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "quiver/core/bit_util.h"
#include "quiver/core/utf8.h"
#include "quiver/parquet/encoding/byte_stream_split_internal.h"
#include "quiver/parquet/encoding/delta_binary_packed_internal.h"
#include "quiver/parquet/encoding/delta_byte_array_internal.h"
#include "quiver/parquet/encoding/delta_length_byte_array_internal.h"
#include "quiver/parquet/encoding/dictionary_internal.h"
#include "quiver/parquet/encoding/plain_internal.h"
#include "quiver/parquet/writer/physical_values_internal.h"

namespace quiver::parquet::writer {

namespace {

// A page's PLAIN values gathered as they come, then written as they are (PLAIN) or as
// `width` byte streams (BYTE_STREAM_SPLIT). The values sit after kHeadroom bytes of room, where
// the page's levels (a few bytes when the page has no nulls) are copied at Finish, so that the
// page is compressed from here rather than from a copy of the values behind its levels.
class PlainValues {
 public:
  static constexpr int64_t kHeadroom = 64;

  PlainValues(int width, bool split, MemoryPool* pool, int64_t reserve = 0)
      : bytes_(pool), width_(width), split_(split), reserve_(reserve) {}
  Status Put(const uint8_t* values, int64_t k) {
    QUIVER_RETURN_NOT_OK(Open());
    return bytes_.Append(values, k * width_);
  }
  // `page_bytes`: what the page these values open will hold, about (byte arrays have no width to
  // size it by up front); the buffer then does not grow by copies as the page fills. `visit`
  // sees each value as it is copied (PlainEncodeByteArraysVisiting).
  template <typename Visit>
  Status Put(const int32_t* offsets, const uint8_t* data, int64_t n, const uint8_t* validity, int64_t bit,
             int64_t page_bytes, Visit&& visit) {
    QUIVER_RETURN_NOT_OK(Open(page_bytes));
    return encoding::PlainEncodeByteArraysVisiting(offsets, data, n, &bytes_, validity, bit, visit);
  }
  Status Finish(BufferBuilder* body, std::span<const uint8_t>* page) {
    const int64_t levels = body->size();
    const int64_t values = bytes_.size() - kHeadroom;
    if (!split_ && values > 0 && levels <= kHeadroom) {
      uint8_t* start = bytes_.mutable_data() + kHeadroom - levels;
      if (levels > 0) std::memcpy(start, body->data(), static_cast<size_t>(levels));
      *page = std::span<const uint8_t>(start, static_cast<size_t>(levels + values));
      bytes_.Clear();  // the bytes stay where they are until the next Put
      return Status::OK();
    }
    Status st;
    if (values > 0) {
      st = split_ ? encoding::ByteStreamSplitEncode(bytes_.data() + kHeadroom, values / width_, width_, body)
                  : body->Append(bytes_.data() + kHeadroom, values);
    }
    bytes_.Clear();
    *page = std::span<const uint8_t>(body->data(), static_cast<size_t>(body->size()));
    return st;
  }

 private:
  // The room in front of a page's first values; the buffer sized for a page of them when known.
  Status Open(int64_t page_bytes = 0) {
    if (bytes_.size() > 0) [[likely]] return Status::OK();
    QUIVER_RETURN_NOT_OK(bytes_.Reserve(kHeadroom + std::max(reserve_, page_bytes)));
    bytes_.UnsafeSetSize(kHeadroom);
    return Status::OK();
  }

  BufferBuilder bytes_;
  int width_;
  bool split_;
  int64_t reserve_;  // bytes of a page's values, when known (fixed-width types)
};

struct NoDictionary {};

// What each physical type is written with: its dictionary, and its value encoder, one of the
// encodings the spec allows it (BYTE_STREAM_SPLIT is PlainValues transposed).
template <Type P>
struct Physical;
template <>
struct Physical<Type::BOOLEAN> {
  using Value = uint8_t;  // one byte per value, nonzero = true
  using Dictionary = NoDictionary;
  using Encoder = std::variant<encoding::PlainBooleanEncoder>;
};
template <>
struct Physical<Type::INT32> {
  using Value = int32_t;
  using Dictionary = encoding::DictionaryEncoder<int32_t>;
  using Encoder = std::variant<PlainValues, encoding::DeltaBinaryPackedEncoder<int32_t>>;
};
template <>
struct Physical<Type::INT64> {
  using Value = int64_t;
  using Dictionary = encoding::DictionaryEncoder<int64_t>;
  using Encoder = std::variant<PlainValues, encoding::DeltaBinaryPackedEncoder<int64_t>>;
};
template <>
struct Physical<Type::FLOAT> {
  using Value = float;
  using Dictionary = encoding::DictionaryEncoder<float>;
  using Encoder = std::variant<PlainValues>;
};
template <>
struct Physical<Type::DOUBLE> {
  using Value = double;
  using Dictionary = encoding::DictionaryEncoder<double>;
  using Encoder = std::variant<PlainValues>;
};
template <>
struct Physical<Type::BYTE_ARRAY> {
  using Value = uint8_t;
  using Dictionary = encoding::ByteArrayDictionaryEncoder;
  using Encoder =
      std::variant<PlainValues, encoding::DeltaLengthByteArrayEncoder, encoding::DeltaByteArrayEncoder>;
};
template <>
struct Physical<Type::FIXED_LEN_BYTE_ARRAY> {
  using Value = uint8_t;
  using Dictionary = encoding::ByteArrayDictionaryEncoder;
  using Encoder = std::variant<PlainValues, encoding::DeltaByteArrayEncoder>;
};

// The least and greatest byte strings of a run, as views: the page's bounds (strings) are then
// updated twice per run instead of once per value. The bounds' first 8 bytes are kept as
// big-endian words (Prefix8), so a value costs one load and two integer compares: a prefix
// strictly between them cannot move either bound (a smaller or greater zero-padded prefix means
// a smaller or greater string, in unsigned order); only a prefix at or past a bound is compared
// in full.
struct ByteBounds {
  std::string_view min, max;
  uint64_t min_prefix = 0, max_prefix = 0;
  bool any = false;
  void Add(std::string_view s) {
    const uint64_t p = Prefix8(s);
    if (p > min_prefix && p < max_prefix) [[likely]] return;
    AddSlow(s, p);
  }
  void AddTo(PageBounds* bounds) const {
    if (!any) return;
    bounds->Add(min);
    bounds->Add(max);
  }

 private:
  [[gnu::noinline]] void AddSlow(std::string_view s, uint64_t p) {
    if (!any) {
      min = max = s;
      min_prefix = max_prefix = p;
      any = true;
      return;
    }
    if (p < min_prefix || (p == min_prefix && BytesLess(s, min))) {
      min = s;
      min_prefix = p;
    }
    if (p > max_prefix || (p == max_prefix && BytesLess(max, s))) {
      max = s;
      max_prefix = p;
    }
  }
};

// STRING values must be UTF-8 (other engines refuse the file otherwise); arrays whose producer
// checked them (ArrayData::utf8_checked, the CSV reader's) are not checked again. The slice's bytes are
// validated at once; since valid UTF-8 never starts with a continuation byte, values that do
// not either end on character boundaries, so each value is valid. Only a failure looks at
// values one by one, to name the first bad one (the bytes of null slots do not count).
Status CheckUtf8(const int32_t* offsets, const uint8_t* data, int64_t n, const uint8_t* validity, int64_t bit) {
  const char* text = reinterpret_cast<const char*>(data);
  bool ok = IsValidUtf8(std::string_view(text + offsets[0], static_cast<size_t>(offsets[n] - offsets[0])));
  if (ok) {
    uint8_t continuation = 0;
    for (int64_t i = 0; i < n; ++i) {
      continuation |= static_cast<uint8_t>(offsets[i + 1] > offsets[i] && (data[offsets[i]] & 0xC0) == 0x80);
    }
    if (continuation == 0) return Status::OK();
  }
  for (int64_t i = 0; i < n; ++i) {
    if (validity != nullptr && !bit_util::GetBit(validity, bit + i)) continue;
    const std::string_view value(text + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]));
    if (!IsValidUtf8(value)) {
      return Status::Invalid(fmt::format(
          "a string value is not valid UTF-8: \"{}\" (Parquet STRING holds UTF-8; store other bytes as binary)",
          EscapeForMessage(value)));
    }
  }
  return Status::OK();
}

template <Type P>
class TypedValueWriter final : public ValueWriter {
  using Dictionary = typename Physical<P>::Dictionary;
  using Encoder = typename Physical<P>::Encoder;
  using Value = typename Physical<P>::Value;
  static constexpr bool kHasDictionary = !std::is_same_v<Dictionary, NoDictionary>;
  static constexpr bool kByteArray = P == Type::BYTE_ARRAY;
  static constexpr bool kFixedBytes = P == Type::FIXED_LEN_BYTE_ARRAY;
  static constexpr bool kNumericDictionary = kHasDictionary && !kByteArray && !kFixedBytes;

 public:
  TypedValueWriter(const Field& field, const LeafType& leaf, const ColumnWriterOptions& o, PageBounds* bounds,
                   EncodedColumnChunk* out)
      : field_(field), leaf_(leaf), o_(o), bounds_(bounds), out_(out), width_(WidthOf(leaf)),
        utf8_(field.type->id() == TypeId::kString), scratch_(o.pool), encoder_(MakePlain()) {}

  Status Start(bool dictionary, int64_t values, int64_t reserve_entries, int64_t reserve_bytes) override {
    dictionary_ = kHasDictionary && dictionary && !o_.encoding;
    if constexpr (kHasDictionary) {
      if (dictionary_) {
        // A margin over the last chunk's count, so that a few more values do not rehash. The
        // column's encoder from its previous chunk (ColumnChunkHistory) is restarted rather than
        // replaced: its table's pages stay faulted in.
        const int64_t n = reserve_entries + reserve_entries / 8;
        if (kept_ != nullptr) {
          if (!std::holds_alternative<Dictionary>(*kept_)) kept_->template emplace<Dictionary>(o_.dictionary_size_limit, o_.pool);
          dict_ = &std::get<Dictionary>(*kept_);
        } else {
          dict_ = &own_dict_.emplace(o_.dictionary_size_limit, o_.pool);
        }
        if constexpr (kByteArray || kFixedBytes) {
          dict_->Restart(n, reserve_bytes + reserve_bytes / 8);
        } else {
          dict_->Restart(n);
        }
        // A page's indices at most: the chunk's values, or what a page of PLAIN bytes holds.
        dict_->ReserveIndices(std::min(values, o_.page_size / std::max(width_, 4) + kSliceRows));
      }
    }
    chunk_values_ = values;
    bounds_from_dictionary_ = kNumericDictionary && dictionary_;
    encoding_ = dictionary_ ? Encoding::RLE_DICTIONARY : o_.encoding.value_or(Encoding::PLAIN);
    if (!dictionary_) QUIVER_RETURN_NOT_OK(StartEncoder(values));
    return StartBloomFilter(values);
  }

  Status Put(const ArrayData& a, int64_t r, int64_t n, int64_t nulls) override {
    if constexpr (kByteArray) {
      return PutByteArrays(a, r, n, nulls);
    } else {
      // Values already in their physical form with no null among them are read in place.
      const uint8_t* d = nulls == 0 ? PlainInPlace(a, r) : nullptr;
      int64_t k = n;
      if (d == nullptr) {
        QUIVER_ASSIGN_OR_RETURN(k, GatherPhysical(a, r, n, leaf_, width_, field_.name, &scratch_));
        d = scratch_.data();
      }
      page_plain_bytes_ += k * width_;
      if (P != Type::BOOLEAN && bloom_ != nullptr) bloom_->InsertFixed(d, k, width_);
      if (!bounds_from_dictionary_) AddBounds(d, k);
      if constexpr (kHasDictionary) {
        if (dictionary_) return PutDictionary(d, k);
      }
      return std::visit(
          [&](auto& e) -> Status {
            using E = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<E, encoding::DeltaByteArrayEncoder>) {
              return e.PutFixed(d, width_, k);
            } else if constexpr (std::is_same_v<E, encoding::PlainBooleanEncoder> || std::is_same_v<E, PlainValues>) {
              return e.Put(d, k);
            } else {
              return e.Put(reinterpret_cast<const Value*>(d), k);
            }
          },
          encoder_);
    }
  }

  Status FlushValues(BufferBuilder* body, std::span<const uint8_t>* page) override {
    page_plain_bytes_ = 0;
    ++page_epoch_;
    page_marked_ = 0;
    *page = {};
    Status st;
    if constexpr (kNumericDictionary) {
      if (bounds_from_dictionary_) {
        // The chunk's first page: every entry was added by one of its values, so the entries'
        // bounds are the page's (a zero's sign is widened by the assembler either way).
        const auto& entries = dict_->dictionary();
        AddBounds(reinterpret_cast<const uint8_t*>(entries.data()), static_cast<int64_t>(entries.size()));
        bounds_from_dictionary_ = false;
      }
    }
    if constexpr (kHasDictionary) {
      if (dictionary_) st = dict_->FlushIndices(body);
    }
    if (!dictionary_) {
      st = std::visit(
          [&](auto& e) -> Status {
            using E = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<E, PlainValues>) {
              return e.Finish(body, page);
            } else {
              return e.Finish(body);
            }
          },
          encoder_);
    }
    if (page->data() == nullptr) *page = std::span<const uint8_t>(body->data(), static_cast<size_t>(body->size()));
    return st;
  }

  Status WriteDictionaryPage(BufferBuilder* body, int64_t* entries) override {
    if constexpr (kHasDictionary) {
      if constexpr (kFixedBytes) {
        QUIVER_RETURN_NOT_OK(dict_->WriteDictionaryPageFixed(width_, body));
      } else {
        QUIVER_RETURN_NOT_OK(dict_->WriteDictionaryPage(body));
      }
      *entries = dict_->dict_size();
      return BloomFromDictionary(*body, *entries);
    } else {
      return Status::Invalid("BOOLEAN values have no dictionary");
    }
  }

  void KeepDictionaryIn(KeptDictionary* kept) override { kept_ = kept; }

  int64_t dictionary_entries() const override {
    if constexpr (kHasDictionary) return dict_ ? dict_->dict_size() : 0;
    return 0;
  }
  int64_t dictionary_value_bytes() const override {
    if constexpr (kByteArray || kFixedBytes) return dict_ ? dict_->dictionary_bytes() - 4 * dict_->dict_size() : 0;
    return 0;
  }
  bool dictionary_full() const override {
    if constexpr (kHasDictionary) return dict_ && dict_->full();
    return false;
  }

 private:
  // Bytes of a PLAIN value; 0 for BYTE_ARRAY, whose values have a length each.
  static int WidthOf(const LeafType& leaf) {
    switch (P) {
      case Type::BOOLEAN: return 1;
      case Type::INT32:
      case Type::FLOAT: return 4;
      case Type::INT64:
      case Type::DOUBLE: return 8;
      case Type::FIXED_LEN_BYTE_ARRAY: return leaf.type_length;
      default: return 0;
    }
  }
  Encoder MakePlain() {
    if constexpr (P == Type::BOOLEAN) {
      return Encoder(std::in_place_index<0>, o_.pool);
    } else {
      return Encoder(std::in_place_index<0>, width_, false, o_.pool);
    }
  }

  // The encoder of encoding_, one the spec allows this physical type (the file writer narrows
  // them further at Open, CheckEncoding).
  // `values`: the chunk's values at most, which with the page size bound a page's PLAIN bytes.
  Status StartEncoder(int64_t values) {
    const Encoding e = encoding_;
    if constexpr (P != Type::BOOLEAN) {
      if (e == Encoding::PLAIN || (e == Encoding::BYTE_STREAM_SPLIT && !kByteArray)) {
        const int64_t reserve = width_ * std::min(values, o_.page_size / std::max(width_, 1) + kSliceRows);
        encoder_.template emplace<PlainValues>(width_, e == Encoding::BYTE_STREAM_SPLIT, o_.pool, reserve);
        return Status::OK();
      }
    } else if (e == Encoding::PLAIN) {
      encoder_.template emplace<0>(o_.pool);
      return Status::OK();
    }
    if constexpr (P == Type::INT32 || P == Type::INT64) {
      if (e == Encoding::DELTA_BINARY_PACKED) {
        encoder_.template emplace<1>(o_.pool);
        return Status::OK();
      }
    }
    if constexpr (kByteArray) {
      if (e == Encoding::DELTA_LENGTH_BYTE_ARRAY) {
        encoder_.template emplace<encoding::DeltaLengthByteArrayEncoder>(o_.pool);
        return Status::OK();
      }
    }
    if constexpr (kByteArray || kFixedBytes) {
      if (e == Encoding::DELTA_BYTE_ARRAY) {
        encoder_.template emplace<encoding::DeltaByteArrayEncoder>(o_.pool);
        return Status::OK();
      }
    }
    return Status::Invalid(fmt::format("column '{}': encoding {} does not apply to {} values", field_.name,
                                       EncodingName(e), TypeName(P)));
  }

  // Bloom filter: without a dictionary every non-null value is inserted as it is put, into a
  // filter sized up front for `values` distinct ones at most; with one, the finished
  // dictionary (the chunk's distinct values) is inserted instead (BloomFromDictionary).
  Status StartBloomFilter(int64_t values) {
    if (!o_.bloom_filter || dictionary_) return Status::OK();
    const int64_t ndv = o_.bloom_filter->ndv > 0 ? o_.bloom_filter->ndv : values;
    QUIVER_ASSIGN_OR_RETURN(BloomFilter f,
                            BloomFilter::Make(BloomFilter::OptimalBytes(ndv, o_.bloom_filter->fpp), o_.pool));
    out_->bloom_filter = std::move(f);
    bloom_ = &*out_->bloom_filter;
    return Status::OK();
  }
  Status BloomFromDictionary(const BufferBuilder& plain_dictionary, int64_t entries) {
    if (!o_.bloom_filter) return Status::OK();
    const int64_t ndv = o_.bloom_filter->ndv > 0 ? o_.bloom_filter->ndv : entries;
    QUIVER_ASSIGN_OR_RETURN(BloomFilter f,
                            BloomFilter::Make(BloomFilter::OptimalBytes(ndv, o_.bloom_filter->fpp), o_.pool));
    QUIVER_RETURN_NOT_OK(f.InsertPlain(
        leaf_.physical, width_,
        std::span<const uint8_t>(plain_dictionary.data(), static_cast<size_t>(plain_dictionary.size())), entries));
    out_->bloom_filter = std::move(f);
    return Status::OK();
  }

  // The bounds of `k` dense values.
  void AddBounds(const uint8_t* d, int64_t k) {
    if constexpr (P == Type::BOOLEAN) {
      SliceBounds(d, k);
    } else if constexpr (P == Type::INT32) {
      if (bounds_->order() == SortOrder::kUnsigned) SliceBounds(reinterpret_cast<const uint32_t*>(d), k);
      else SliceBounds(reinterpret_cast<const int32_t*>(d), k);
    } else if constexpr (P == Type::INT64) {
      if (bounds_->order() == SortOrder::kUnsigned) SliceBounds(reinterpret_cast<const uint64_t*>(d), k);
      else SliceBounds(reinterpret_cast<const int64_t*>(d), k);
    } else if constexpr (P == Type::FLOAT) {
      SliceBounds(reinterpret_cast<const float*>(d), k);
    } else if constexpr (P == Type::DOUBLE) {
      SliceBounds(reinterpret_cast<const double*>(d), k);
    } else {
      for (int64_t i = 0; i < k; ++i) {
        bounds_->Add(std::string_view(reinterpret_cast<const char*>(d) + i * width_, static_cast<size_t>(width_)));
      }
    }
  }

  // Typed min/max over one slice first, so the common case compares values, not strings. Four
  // independent accumulators, so the compares do not wait on each other; a NaN never wins
  // `x < m` or `m < x`, so once the accumulators start from a number no value needs a NaN test.
  template <typename T>
  void SliceBounds(const T* v, int64_t k) {
    if (k == 0 || bounds_->order() == SortOrder::kNone) return;
    int64_t i = 0;
    if constexpr (std::is_floating_point_v<T>) {
      while (i < k && std::isnan(v[i])) ++i;
      if (i == k) return;
    }
    T mn[4], mx[4];
    for (int j = 0; j < 4; ++j) mn[j] = mx[j] = v[i];
    for (; i + 4 <= k; i += 4) {
      for (int j = 0; j < 4; ++j) {
        const T x = v[i + j];
        mn[j] = x < mn[j] ? x : mn[j];
        mx[j] = mx[j] < x ? x : mx[j];
      }
    }
    for (; i < k; ++i) {
      const T x = v[i];
      mn[0] = x < mn[0] ? x : mn[0];
      mx[0] = mx[0] < x ? x : mx[0];
    }
    T lo = mn[0], hi = mx[0];
    for (int j = 1; j < 4; ++j) {
      lo = mn[j] < lo ? mn[j] : lo;
      hi = hi < mx[j] ? mx[j] : hi;
    }
    bounds_->Add(std::string_view(reinterpret_cast<const char*>(&lo), sizeof(T)));
    bounds_->Add(std::string_view(reinterpret_cast<const char*>(&hi), sizeof(T)));
  }

  Status PutDictionary(const uint8_t* d, int64_t k) {
    int64_t consumed = 0;
    if constexpr (kFixedBytes) {
      fixed_offsets_.resize(static_cast<size_t>(k + 1));
      for (int64_t i = 0; i <= k; ++i) fixed_offsets_[static_cast<size_t>(i)] = static_cast<int32_t>(i * width_);
      return dict_->Put(fixed_offsets_.data(), d, k, &consumed);
    } else if constexpr (kHasDictionary && !kByteArray) {
      return dict_->Put(reinterpret_cast<const Value*>(d), k, &consumed);
    } else {
      return Status::OK();
    }
  }

  Status PutByteArrays(const ArrayData& a, int64_t r, int64_t n, int64_t nulls) {
    // A slice without nulls skips the bitmap (the dictionary's fast loop takes no validity).
    const uint8_t* v = nulls == 0 ? nullptr : a.validity();
    const int64_t bit = a.offset + r;
    const int32_t* offsets = a.values<int32_t>(1) + r;
    const uint8_t* data = a.buffers[2]->data();
    const int64_t slice_bytes = offsets[n] - offsets[0] + 4 * (n - nulls);
    page_plain_bytes_ += slice_bytes;
    if (utf8_ && !a.utf8_checked) QUIVER_RETURN_NOT_OK(CheckUtf8(offsets, data, n, v, bit));
    if (dictionary_) return PutDictionaryStrings(offsets, data, n, v, bit);
    if (bloom_ != nullptr) bloom_->InsertByteArrays(offsets, data, n, v, bit);
    ByteBounds bounds;
    auto add = [&bounds](const uint8_t* value, int32_t len) {
      bounds.Add(std::string_view(reinterpret_cast<const char*>(value), static_cast<size_t>(len)));
    };
    const Status st = std::visit(
        [&](auto& e) {
          if constexpr (std::is_same_v<std::decay_t<decltype(e)>, PlainValues>) {
            // A page closes after the slice that takes it to page_size, so it holds less than
            // page_size and one slice; a short chunk, about its values at this slice's mean size.
            const int64_t mean = slice_bytes / std::max<int64_t>(n - nulls, 1) + 1;
            const int64_t page = std::min(o_.page_size, chunk_values_ * mean) + slice_bytes;
            // The bounds taken as the values are copied: one pass over them, not two.
            return e.Put(offsets, data, n, v, bit, page, add);
          } else {
            for (int64_t i = 0; i < n; ++i) {
              if (v == nullptr || bit_util::GetBit(v, bit + i)) add(data + offsets[i], offsets[i + 1] - offsets[i]);
            }
            return e.Put(offsets, data, n, v, bit);
          }
        },
        encoder_);
    bounds.AddTo(bounds_);
    return st;
  }

  // Strings through the dictionary: the page's bounds come from the entries its indices name,
  // each compared once per page (a page marks the entries it has seen), not from every value.
  Status PutDictionaryStrings(const int32_t* offsets, const uint8_t* data, int64_t n, const uint8_t* validity,
                              int64_t validity_offset) {
    if constexpr (kByteArray) {
      const int64_t before = dict_->buffered_indices();
      int64_t consumed = 0;
      QUIVER_RETURN_NOT_OK(dict_->Put(offsets, data, n, &consumed, validity, validity_offset));
      if (dict_->full()) return Status::OK();  // the chunk starts over without it
      if (static_cast<int64_t>(page_marks_.size()) < dict_->dict_size()) {
        page_marks_.resize(static_cast<size_t>(dict_->dict_size()) * 2, 0);
      }
      const std::span<const int32_t> idx = dict_->indices();
      ByteBounds bounds;
      // Once the page has used every entry (a small dictionary, early in the page), the rest of
      // the indices can name no new one.
      const int64_t entries = dict_->dict_size();
      for (size_t k = static_cast<size_t>(before); k < idx.size() && page_marked_ < entries; ++k) {
        const int32_t e = idx[k];
        if (page_marks_[static_cast<size_t>(e)] == page_epoch_) continue;
        page_marks_[static_cast<size_t>(e)] = page_epoch_;
        ++page_marked_;
        bounds.Add(dict_->entry(e));
      }
      bounds.AddTo(bounds_);
    }
    return Status::OK();
  }

  const Field& field_;
  const LeafType& leaf_;
  const ColumnWriterOptions& o_;
  PageBounds* bounds_;
  EncodedColumnChunk* out_;
  const int width_;
  const bool utf8_;  // STRING: values must be UTF-8
  BufferBuilder scratch_;  // dense values of the slice being put
  using DictionaryOrNone = std::conditional_t<kHasDictionary, Dictionary, int>;
  DictionaryOrNone* dict_ = nullptr;  // own_dict_'s or *kept_'s, from the first Start with a dictionary
  std::optional<DictionaryOrNone> own_dict_;
  KeptDictionary* kept_ = nullptr;
  Encoder encoder_;
  BloomFilter* bloom_ = nullptr;  // in out_, when values are inserted one by one
  std::vector<int32_t> fixed_offsets_;
  std::vector<uint32_t> page_marks_;  // per dictionary entry: the last page (epoch) that used it
  uint32_t page_epoch_ = 1;
  int64_t page_marked_ = 0;  // entries marked in the open page
  int64_t chunk_values_ = 0;  // the chunk's non-null values at most (Start)
  // The open page is a dictionary chunk's first (numbers only): its bounds are taken from the
  // dictionary's entries when it is flushed rather than from every value as it is put.
  bool bounds_from_dictionary_ = false;
};

}  // namespace

std::unique_ptr<ValueWriter> MakeValueWriter(const Field& field, const LeafType& leaf,
                                             const ColumnWriterOptions& options, PageBounds* bounds,
                                             EncodedColumnChunk* out) {
  switch (leaf.physical) {
    case Type::BOOLEAN: return std::make_unique<TypedValueWriter<Type::BOOLEAN>>(field, leaf, options, bounds, out);
    case Type::INT32: return std::make_unique<TypedValueWriter<Type::INT32>>(field, leaf, options, bounds, out);
    case Type::INT64: return std::make_unique<TypedValueWriter<Type::INT64>>(field, leaf, options, bounds, out);
    case Type::FLOAT: return std::make_unique<TypedValueWriter<Type::FLOAT>>(field, leaf, options, bounds, out);
    case Type::DOUBLE: return std::make_unique<TypedValueWriter<Type::DOUBLE>>(field, leaf, options, bounds, out);
    case Type::BYTE_ARRAY: return std::make_unique<TypedValueWriter<Type::BYTE_ARRAY>>(field, leaf, options, bounds, out);
    case Type::FIXED_LEN_BYTE_ARRAY:
      return std::make_unique<TypedValueWriter<Type::FIXED_LEN_BYTE_ARRAY>>(field, leaf, options, bounds, out);
    default: return nullptr;  // INT96: LeafTypeFor never maps a type to it
  }
}

}  // namespace quiver::parquet::writer

#include "quiver/parquet/writer/column_writer.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstring>
#include <memory>

#include "quiver/core/bit_util.h"
#include "quiver/core/utf8.h"
#include "quiver/parquet/encoding/byte_stream_split_internal.h"
#include "quiver/parquet/encoding/delta_binary_packed_internal.h"
#include "quiver/parquet/encoding/delta_byte_array_internal.h"
#include "quiver/parquet/encoding/delta_length_byte_array_internal.h"
#include "quiver/parquet/encoding/dictionary_internal.h"
#include "quiver/parquet/encoding/page_internal.h"
#include "quiver/parquet/encoding/plain_internal.h"
#include "quiver/parquet/encoding/rle_bitpacked_internal.h"
#include "quiver/parquet/footer.h"

namespace quiver::parquet {

namespace {

LogicalType IntLogical(int bits, bool is_signed) {
  LogicalType t;
  t.INTEGER = IntType{static_cast<int8_t>(bits), is_signed};
  return t;
}

TimeUnit ParquetUnit(quiver::TimeUnit u) {
  TimeUnit t;
  switch (u) {
    case quiver::TimeUnit::kSecond:  // stored as milliseconds
    case quiver::TimeUnit::kMilli: t.MILLIS = MilliSeconds{}; break;
    case quiver::TimeUnit::kMicro: t.MICROS = MicroSeconds{}; break;
    case quiver::TimeUnit::kNano: t.NANOS = NanoSeconds{}; break;
  }
  return t;
}

// Smallest two's complement width that holds every decimal of `precision` digits.
int32_t DecimalBytes(int32_t precision) {
  for (int32_t n = 1; n < 16; ++n) {
    // 10^precision - 1 <= 2^(8n-1) - 1  <=>  precision <= log10(2^(8n-1))
    if (precision <= static_cast<int32_t>(std::floor((8.0 * n - 1) * std::log10(2.0)))) return n;
  }
  return 16;
}

}  // namespace

Result<LeafType> LeafTypeFor(const DataType& type) {
  LeafType l;
  switch (type.id()) {
    case TypeId::kBool: l.physical = Type::BOOLEAN; break;
    case TypeId::kInt8: l.physical = Type::INT32; l.logical = IntLogical(8, true); l.converted = ConvertedType::INT_8; break;
    case TypeId::kInt16: l.physical = Type::INT32; l.logical = IntLogical(16, true); l.converted = ConvertedType::INT_16; break;
    case TypeId::kInt32: l.physical = Type::INT32; l.logical = IntLogical(32, true); l.converted = ConvertedType::INT_32; break;
    case TypeId::kInt64: l.physical = Type::INT64; l.logical = IntLogical(64, true); l.converted = ConvertedType::INT_64; break;
    case TypeId::kUInt8: l.physical = Type::INT32; l.logical = IntLogical(8, false); l.converted = ConvertedType::UINT_8; break;
    case TypeId::kUInt16: l.physical = Type::INT32; l.logical = IntLogical(16, false); l.converted = ConvertedType::UINT_16; break;
    case TypeId::kUInt32: l.physical = Type::INT32; l.logical = IntLogical(32, false); l.converted = ConvertedType::UINT_32; break;
    case TypeId::kUInt64: l.physical = Type::INT64; l.logical = IntLogical(64, false); l.converted = ConvertedType::UINT_64; break;
    case TypeId::kFloat16: {
      l.physical = Type::FIXED_LEN_BYTE_ARRAY;
      l.type_length = 2;
      LogicalType t;
      t.FLOAT16 = Float16Type{};
      l.logical = t;
      break;
    }
    case TypeId::kFloat32: l.physical = Type::FLOAT; break;
    case TypeId::kFloat64: l.physical = Type::DOUBLE; break;
    case TypeId::kDecimal128: {
      const int32_t p = type.precision();
      if (p <= 9) l.physical = Type::INT32;
      else if (p <= 18) l.physical = Type::INT64;
      else {
        l.physical = Type::FIXED_LEN_BYTE_ARRAY;
        l.type_length = DecimalBytes(p);
      }
      LogicalType t;
      t.DECIMAL = DecimalType{type.scale(), p};
      l.logical = t;
      l.converted = ConvertedType::DECIMAL;
      l.scale = type.scale();
      l.precision = p;
      break;
    }
    case TypeId::kDate32: {
      l.physical = Type::INT32;
      LogicalType t;
      t.DATE = DateType{};
      l.logical = t;
      l.converted = ConvertedType::DATE;
      break;
    }
    case TypeId::kTime32:
    case TypeId::kTime64: {
      l.physical = type.id() == TypeId::kTime32 ? Type::INT32 : Type::INT64;
      // Local times: DuckDB reads an adjusted-to-UTC TIME as TIME WITH TIME ZONE.
      LogicalType t;
      t.TIME = TimeType{false, ParquetUnit(type.unit())};
      l.logical = t;
      break;
    }
    case TypeId::kTimestamp: {
      l.physical = Type::INT64;
      const bool utc = !type.timezone().empty();
      LogicalType t;
      t.TIMESTAMP = TimestampType{utc, ParquetUnit(type.unit())};
      l.logical = t;
      // The legacy annotations mean instants, so only adjusted timestamps carry them.
      if (utc && type.unit() != quiver::TimeUnit::kNano) {
        l.converted = type.unit() == quiver::TimeUnit::kMicro ? ConvertedType::TIMESTAMP_MICROS
                                                               : ConvertedType::TIMESTAMP_MILLIS;
      }
      break;
    }
    case TypeId::kString: {
      l.physical = Type::BYTE_ARRAY;
      LogicalType t;
      t.STRING = StringType{};
      l.logical = t;
      l.converted = ConvertedType::UTF8;
      break;
    }
    case TypeId::kBinary: l.physical = Type::BYTE_ARRAY; break;
    case TypeId::kFixedSizeBinary:
      l.physical = Type::FIXED_LEN_BYTE_ARRAY;
      l.type_length = type.fixed_size();
      if (l.type_length <= 0) return Status::NotImplemented("fixed_size_binary of width 0 has no Parquet form");
      break;
    case TypeId::kList:
    case TypeId::kStruct:
    case TypeId::kMap:
    case TypeId::kDenseUnion:
      return Status::NotImplemented(fmt::format("the Parquet writer takes flat columns; {} is nested", type.ToString()));
  }
  return l;
}

namespace {

// The least and greatest byte strings of a run, as views: the chunk's own bounds (strings) are
// then updated twice per run instead of once per value.
struct ByteBounds {
  std::string_view min, max;
  bool any = false;
  void Add(std::string_view s) {
    if (!any) {
      min = max = s;
      any = true;
      return;
    }
    if (BytesLess(s, min)) min = s;
    if (BytesLess(max, s)) max = s;
  }
};

int BitWidth(int16_t max_level) {
  int w = 0;
  while ((1 << w) <= max_level) ++w;
  return w;
}

class ChunkWriter {
 public:
  // Flat columns have max_rep 0 and max_def 1 when nullable.
  ChunkWriter(const Field& field, const LeafType& leaf, const ColumnWriterOptions& o, EncodedChunk* out,
              int16_t max_def, int16_t max_rep)
      : field_(field), leaf_(leaf), o_(o), out_(out), order_(SortOrderFor(*field.type)), max_def_(max_def),
        max_rep_(max_rep), levels_(BitWidth(max_def), o.pool), rep_levels_(BitWidth(max_rep), o.pool),
        scratch_(o.pool), plain_(o.pool), body_(o.pool), compressed_(o.pool), bools_(o.pool), codec_(o.codec) {
    switch (leaf.physical) {
      case Type::BOOLEAN: width_ = 1; break;
      case Type::INT32:
      case Type::FLOAT: width_ = 4; break;
      case Type::INT64:
      case Type::DOUBLE: width_ = 8; break;
      case Type::FIXED_LEN_BYTE_ARRAY: width_ = leaf.type_length; break;
      default: width_ = 0; break;  // BYTE_ARRAY
    }
    utf8_ = field.type->id() == TypeId::kString;
  }

  // False in *fits when the dictionary outgrew its limit: the caller starts over with PLAIN.
  static constexpr int64_t kSlice = 4096;  // page sizes are checked this often

  Status Run(const std::vector<Array>& pieces, bool dictionary, bool* fits) {
    Start(dictionary, fits);
    int64_t values = 0;
    for (const Array& p : pieces) values += p.length() - p.null_count();
    ReserveIndices(values);
    QUIVER_RETURN_NOT_OK(StartBloomFilter(values));
    for (const Array& piece : pieces) {
      const ArrayData& a = *piece.data();
      for (int64_t r = 0; r < a.length; r += kSlice) {
        const int64_t n = std::min(kSlice, a.length - r);
        QUIVER_RETURN_NOT_OK(PutSlice(a, r, n));
        QUIVER_RETURN_NOT_OK(AfterSlice(fits));
        if (!*fits) return Status::OK();
      }
    }
    return Finish();
  }

  // Sizes the dictionary's table (taken when Run starts one) for the previous chunk's entries.
  void ReserveDictionary(int64_t entries, int64_t value_bytes) {
    reserve_entries_ = entries;
    reserve_bytes_ = value_bytes;
  }
  // A dictionary retried after giving up (ColumnChunkHistory) shows sooner that it still does.
  void set_dictionary_retry(bool retry) { dictionary_retry_ = retry; }
  // The pages' codec instead of the file's (none, for a column that does not compress).
  void set_codec(compress::Codec codec) { codec_ = codec; }
  bool dictionary_used() const { return dictionary_; }
  int64_t dictionary_entries() const { return DictionaryEntries(); }
  int64_t dictionary_value_bytes() const { return dictb_ ? dictb_->dictionary_bytes() - 4 * dictb_->dict_size() : 0; }

  // Nested leaves: slices of about kSlice levels, extended to the next row start.
  Status RunLeaf(const std::vector<LeafPiece>& pieces, bool dictionary, bool* fits) {
    Start(dictionary, fits);
    int64_t values = 0;
    for (const LeafPiece& p : pieces) values += p.values.length();
    ReserveIndices(values);
    QUIVER_RETURN_NOT_OK(StartBloomFilter(values));
    for (const LeafPiece& p : pieces) {
      const int64_t n = static_cast<int64_t>(p.def.size());
      int64_t a = 0;
      while (a < n) {
        int64_t b = std::min(a + kSlice, n);
        if (max_rep_ > 0) {
          while (b < n && p.rep[static_cast<size_t>(b)] != 0) ++b;
        }
        QUIVER_RETURN_NOT_OK(PutLevels(p, a, b));
        QUIVER_RETURN_NOT_OK(AfterSlice(fits));
        if (!*fits) return Status::OK();
        a = b;
      }
    }
    return Finish();
  }

 private:
  void Start(bool dictionary, bool* fits) {
    *fits = true;
    out_->codec = codec_;
    dictionary_ = dictionary && leaf_.physical != Type::BOOLEAN && !o_.encoding;
    if (dictionary_) MakeDictionary();
    encoding_ = dictionary_ ? Encoding::RLE_DICTIONARY : o_.encoding.value_or(Encoding::PLAIN);
    switch (encoding_) {
      case Encoding::DELTA_BINARY_PACKED:
        if (leaf_.physical == Type::INT32) delta32_ = std::make_unique<encoding::DeltaBinaryPackedEncoder<int32_t>>(o_.pool);
        else delta64_ = std::make_unique<encoding::DeltaBinaryPackedEncoder<int64_t>>(o_.pool);
        break;
      case Encoding::DELTA_LENGTH_BYTE_ARRAY: dlba_ = std::make_unique<encoding::DeltaLengthByteArrayEncoder>(o_.pool); break;
      case Encoding::DELTA_BYTE_ARRAY: dba_ = std::make_unique<encoding::DeltaByteArrayEncoder>(o_.pool); break;
      default: break;  // PLAIN and BYTE_STREAM_SPLIT gather PLAIN bytes
    }
  }
  // Bloom filter hooks. Without a dictionary every non-null value is inserted as it is put
  // (PutValues), into a filter sized up front for `values` distinct ones at most; with one, the
  // finished dictionary (the chunk's distinct values) is inserted instead (BloomFromDictionary).
  Status StartBloomFilter(int64_t values) {
    if (!o_.bloom_filter || dictionary_) return Status::OK();
    const int64_t ndv = o_.bloom_filter->ndv > 0 ? o_.bloom_filter->ndv : values;
    QUIVER_ASSIGN_OR_RETURN(BloomFilter f, BloomFilter::Make(BloomFilter::OptimalBytes(ndv, o_.bloom_filter->fpp), o_.pool));
    out_->bloom_filter = std::move(f);
    bloom_ = &*out_->bloom_filter;
    return Status::OK();
  }
  Status BloomFromDictionary(const BufferBuilder& plain_dictionary, int64_t entries) {
    if (!o_.bloom_filter) return Status::OK();
    const int64_t ndv = o_.bloom_filter->ndv > 0 ? o_.bloom_filter->ndv : entries;
    QUIVER_ASSIGN_OR_RETURN(BloomFilter f, BloomFilter::Make(BloomFilter::OptimalBytes(ndv, o_.bloom_filter->fpp), o_.pool));
    QUIVER_RETURN_NOT_OK(f.InsertPlain(leaf_.physical, width_,
                                       std::span<const uint8_t>(plain_dictionary.data(), static_cast<size_t>(plain_dictionary.size())),
                                       entries));
    out_->bloom_filter = std::move(f);
    return Status::OK();
  }

  // *fits false when the dictionary gave up (the chunk starts over PLAIN).
  Status AfterSlice(bool* fits) {
    if (dictionary_ && (DictionaryFull() || MostlyDistinct())) {
      *fits = false;
      return Status::OK();
    }
    if (page_plain_bytes_ >= o_.page_size) return FlushPage();
    return Status::OK();
  }
  Status Finish() {
    QUIVER_RETURN_NOT_OK(FlushPage());
    if (dictionary_) QUIVER_RETURN_NOT_OK(PrependDictionaryPage());
    out_->data_encoding = encoding_;
    FinishStats();
    return Status::OK();
  }

  void MakeDictionary() {
    const int64_t lim = o_.dictionary_size_limit;
    // A margin over the last chunk's count, so that a few more values do not rehash.
    const int64_t n = reserve_entries_ + reserve_entries_ / 8;
    switch (leaf_.physical) {
      case Type::INT32: dict32_ = std::make_unique<encoding::DictionaryEncoder<int32_t>>(lim, o_.pool); dict32_->Reserve(n); break;
      case Type::INT64: dict64_ = std::make_unique<encoding::DictionaryEncoder<int64_t>>(lim, o_.pool); dict64_->Reserve(n); break;
      case Type::FLOAT: dictf_ = std::make_unique<encoding::DictionaryEncoder<float>>(lim, o_.pool); dictf_->Reserve(n); break;
      case Type::DOUBLE: dictd_ = std::make_unique<encoding::DictionaryEncoder<double>>(lim, o_.pool); dictd_->Reserve(n); break;
      default:
        dictb_ = std::make_unique<encoding::ByteArrayDictionaryEncoder>(lim, o_.pool);
        dictb_->Reserve(n, reserve_bytes_ + reserve_bytes_ / 8);
        break;
    }
  }
  // A page's indices at most: the chunk's values, or what a page of PLAIN bytes holds.
  void ReserveIndices(int64_t values) {
    const int64_t n = std::min(values, o_.page_size / std::max(width_, 4) + kSlice);
    if (dict32_) dict32_->ReserveIndices(n);
    if (dict64_) dict64_->ReserveIndices(n);
    if (dictf_) dictf_->ReserveIndices(n);
    if (dictd_) dictd_->ReserveIndices(n);
    if (dictb_) dictb_->ReserveIndices(n);
  }
  int64_t DictionaryEntries() const {
    if (dict32_) return dict32_->dict_size();
    if (dict64_) return dict64_->dict_size();
    if (dictf_) return dictf_->dict_size();
    if (dictd_) return dictd_->dict_size();
    if (dictb_) return dictb_->dict_size();
    return 0;
  }
  // A column whose first values are mostly distinct would fill the dictionary late and be
  // written twice; it is written PLAIN as soon as that shows.
  bool MostlyDistinct() const {
    const int64_t kProbe = dictionary_retry_ ? int64_t{1} << 13 : int64_t{1} << 16;
    const int64_t seen = out_->num_values - out_->null_count;
    if (seen < kProbe || seen > 2 * kProbe) return false;
    return DictionaryEntries() * 2 > seen;
  }
  bool DictionaryFull() const {
    return (dict32_ && dict32_->full()) || (dict64_ && dict64_->full()) || (dictf_ && dictf_->full()) ||
           (dictd_ && dictd_->full()) || (dictb_ && dictb_->full());
  }

  // Non-null values of rows [r, r + n) in their physical form, into scratch_; returns the count.
  template <typename Out, typename In, typename F>
  Result<int64_t> Dense(const ArrayData& a, int64_t r, int64_t n, F&& convert) {
    QUIVER_RETURN_NOT_OK(scratch_.Reserve(n * static_cast<int64_t>(sizeof(Out))));
    scratch_.Clear();
    Out* out = reinterpret_cast<Out*>(scratch_.mutable_data());
    const In* in = a.values<In>() + r;
    const uint8_t* v = a.validity();
    int64_t k = 0;
    if (v == nullptr) {
      for (int64_t i = 0; i < n; ++i) out[i] = convert(in[i]);
      k = n;
    } else {
      for (int64_t i = 0; i < n; ++i) {
        if (bit_util::GetBit(v, a.offset + r + i)) out[k++] = convert(in[i]);
      }
    }
    scratch_.UnsafeSetSize(k * static_cast<int64_t>(sizeof(Out)));
    return k;
  }

  template <typename Out, typename In>
  Result<int64_t> DenseCast(const ArrayData& a, int64_t r, int64_t n) {
    return Dense<Out, In>(a, r, n, [](In x) { return static_cast<Out>(x); });
  }

  // Seconds become milliseconds (Parquet has no seconds unit); overflow is an error, not a wrap.
  template <typename Out, typename In>
  Result<int64_t> DenseSecondsToMillis(const ArrayData& a, int64_t r, int64_t n) {
    bool overflow = false;
    In first_bad = 0;
    QUIVER_ASSIGN_OR_RETURN(int64_t k, (Dense<Out, In>(a, r, n, [&](In x) {
                              Out y;
                              if (__builtin_mul_overflow(static_cast<Out>(x), Out{1000}, &y) && !overflow) {
                                overflow = true;
                                first_bad = x;
                              }
                              return y;
                            })));
    if (overflow) {
      return Status::Invalid(fmt::format("{} seconds do not fit in 64-bit milliseconds (Parquet has no seconds unit)",
                                         first_bad));
    }
    return k;
  }

  Result<int64_t> DenseValues(const ArrayData& a, int64_t r, int64_t n) {
    const DataType& t = *a.type;
    switch (t.id()) {
      case TypeId::kBool: {
        QUIVER_RETURN_NOT_OK(scratch_.Reserve(n));
        scratch_.Clear();
        uint8_t* out = scratch_.mutable_data();
        const uint8_t* bits = a.buffers[1]->data();
        const uint8_t* v = a.validity();
        int64_t k = 0;
        for (int64_t i = 0; i < n; ++i) {
          const int64_t j = a.offset + r + i;
          if (v == nullptr || bit_util::GetBit(v, j)) out[k++] = bit_util::GetBit(bits, j) ? 1 : 0;
        }
        scratch_.UnsafeSetSize(k);
        return k;
      }
      case TypeId::kInt8: return DenseCast<int32_t, int8_t>(a, r, n);
      case TypeId::kInt16: return DenseCast<int32_t, int16_t>(a, r, n);
      case TypeId::kUInt8: return DenseCast<int32_t, uint8_t>(a, r, n);
      case TypeId::kUInt16: return DenseCast<int32_t, uint16_t>(a, r, n);
      case TypeId::kInt32:
      case TypeId::kUInt32:
      case TypeId::kDate32: return DenseCast<int32_t, int32_t>(a, r, n);
      case TypeId::kTime32:
        if (t.unit() == quiver::TimeUnit::kSecond) return DenseSecondsToMillis<int32_t, int32_t>(a, r, n);
        return DenseCast<int32_t, int32_t>(a, r, n);
      case TypeId::kInt64:
      case TypeId::kUInt64:
      case TypeId::kTime64: return DenseCast<int64_t, int64_t>(a, r, n);
      case TypeId::kTimestamp:
        if (t.unit() == quiver::TimeUnit::kSecond) return DenseSecondsToMillis<int64_t, int64_t>(a, r, n);
        return DenseCast<int64_t, int64_t>(a, r, n);
      case TypeId::kFloat32: return DenseCast<float, float>(a, r, n);
      case TypeId::kFloat64: return DenseCast<double, double>(a, r, n);
      case TypeId::kDecimal128: {
        // Arrow's decimal128 is a little-endian int128; the low bits hold any value that fits.
        if (leaf_.physical == Type::INT32) {
          return Dense<int32_t, __int128>(a, r, n, [](__int128 x) { return static_cast<int32_t>(x); });
        }
        if (leaf_.physical == Type::INT64) {
          return Dense<int64_t, __int128>(a, r, n, [](__int128 x) { return static_cast<int64_t>(x); });
        }
        return DenseFixed(a, r, n, 16, /*big_endian=*/true);
      }
      case TypeId::kFloat16: return DenseFixed(a, r, n, 2, false);
      case TypeId::kFixedSizeBinary: return DenseFixed(a, r, n, t.fixed_size(), false);
      default: return Status::NotImplemented(fmt::format("column '{}': no dense form for {}", field_.name, t.ToString()));
    }
  }

  // Rows from r on when the array's values are their PLAIN form (same width, no conversion).
  const uint8_t* InPlace(const ArrayData& a, int64_t r) const {
    const DataType& t = *a.type;
    switch (t.id()) {
      case TypeId::kInt32:
      case TypeId::kUInt32:
      case TypeId::kDate32:
      case TypeId::kFloat32: return reinterpret_cast<const uint8_t*>(a.values<int32_t>() + r);
      case TypeId::kInt64:
      case TypeId::kUInt64:
      case TypeId::kTime64:
      case TypeId::kFloat64: return reinterpret_cast<const uint8_t*>(a.values<int64_t>() + r);
      case TypeId::kTime32:
        return t.unit() == quiver::TimeUnit::kSecond ? nullptr : reinterpret_cast<const uint8_t*>(a.values<int32_t>() + r);
      case TypeId::kTimestamp:
        return t.unit() == quiver::TimeUnit::kSecond ? nullptr : reinterpret_cast<const uint8_t*>(a.values<int64_t>() + r);
      default: return nullptr;
    }
  }

  // FIXED_LEN_BYTE_ARRAY values of width_ bytes from source values of `src_width` bytes; decimals
  // keep the low width_ bytes of the int128, most significant first.
  Result<int64_t> DenseFixed(const ArrayData& a, int64_t r, int64_t n, int src_width, bool big_endian) {
    const int w = width_;
    QUIVER_RETURN_NOT_OK(scratch_.Reserve(n * w));
    scratch_.Clear();
    uint8_t* out = scratch_.mutable_data();
    const uint8_t* in = a.buffers[1]->data() + (a.offset + r) * src_width;
    const uint8_t* v = a.validity();
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (v != nullptr && !bit_util::GetBit(v, a.offset + r + i)) continue;
      const uint8_t* src = in + i * src_width;
      uint8_t* dst = out + k * w;
      if (big_endian) {
        for (int b = 0; b < w; ++b) dst[b] = src[w - 1 - b];
      } else {
        std::memcpy(dst, src, static_cast<size_t>(w));
      }
      ++k;
    }
    scratch_.UnsafeSetSize(k * w);
    return k;
  }

  // Bounds of the open page; merged into the chunk's when the page is written.
  void UpdateStats(std::string_view v) {
    if (!CanBeBound(order_, leaf_.physical, v)) return;
    Merge(v, v, &page_min_, &page_max_);
  }
  void Merge(std::string_view lo, std::string_view hi, std::optional<std::string>* mn, std::optional<std::string>* mx) {
    if (!*mn) {
      mn->emplace(lo);
      mx->emplace(hi);
      return;
    }
    if (PlainLess(order_, leaf_.physical, lo, **mn)) (*mn)->assign(lo);
    if (PlainLess(order_, leaf_.physical, **mx, hi)) (*mx)->assign(hi);
  }
  template <typename T>
  static T Load(std::string_view s) {
    T x;
    std::memcpy(&x, s.data(), sizeof(T));
    return x;
  }

  // Typed min/max over one slice first, so the common case compares values, not strings.
  // Four independent accumulators, so the compares do not wait on each other; a NaN never wins
  // `x < m` or `m < x`, so once the accumulators start from a number no value needs a NaN test.
  template <typename T>
  void SliceStats(const T* v, int64_t k) {
    if (k == 0 || order_ == SortOrder::kNone) return;
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
    UpdateStats(std::string_view(reinterpret_cast<const char*>(&lo), sizeof(T)));
    UpdateStats(std::string_view(reinterpret_cast<const char*>(&hi), sizeof(T)));
  }

  Status PutSlice(const ArrayData& a, int64_t r, int64_t n) {
    const uint8_t* v = a.validity();
    const int64_t nulls = v == nullptr ? 0 : n - bit_util::CountSetBits(v, a.offset + r, n);
    if (nulls > 0 && !field_.nullable) {
      return Status::Invalid(fmt::format("column '{}' is not nullable but holds nulls", field_.name));
    }
    if (field_.nullable) {
      if (nulls == 0) {
        QUIVER_RETURN_NOT_OK(levels_.PutRepeated(1, n));
      } else {
        for (int64_t i = 0; i < n; ++i) {
          const uint32_t d = bit_util::GetBit(v, a.offset + r + i) ? 1 : 0;
          QUIVER_RETURN_NOT_OK(levels_.Put(&d, 1));
        }
      }
    }
    out_->null_count += nulls;
    out_->num_values += n;
    page_rows_ += n;
    page_row_count_ += n;
    page_nulls_ += nulls;
    return PutValues(a, r, n, nulls);
  }

  // Levels [a, b) of a nested leaf and the values they define.
  Status PutLevels(const LeafPiece& p, int64_t a, int64_t b) {
    const int16_t* def = p.def.data() + a;
    const int64_t n = b - a;
    if (max_def_ > 0) QUIVER_RETURN_NOT_OK(levels_.Put(def, n));
    if (max_rep_ > 0) {
      const int16_t* rep = p.rep.data() + a;
      QUIVER_RETURN_NOT_OK(rep_levels_.Put(rep, n));
      for (int64_t i = 0; i < n; ++i) page_row_count_ += rep[i] == 0;
    } else {
      page_row_count_ += n;
    }
    int64_t absent = 0;
    for (int64_t i = 0; i < n; ++i) absent += def[i] < max_def_;
    out_->null_count += absent;
    out_->num_values += n;
    page_rows_ += n;
    page_nulls_ += absent;
    const int64_t lo = a == 0 ? 0 : p.slot_end[static_cast<size_t>(a - 1)];
    const int64_t hi = p.slot_end[static_cast<size_t>(b - 1)];
    if (hi == lo) return Status::OK();
    const ArrayData& v = *p.values.data();
    const int64_t skipped = (hi - lo) - bit_util::CountSetBits(v.validity(), v.offset + lo, hi - lo);
    return PutValues(v, lo, hi - lo, skipped);
  }

  // Values of rows [r, r + n) of a flat array (`nulls` of them null) into the page.
  Status PutValues(const ArrayData& a, int64_t r, int64_t n, int64_t nulls) {
    const uint8_t* v = a.validity();
    if (leaf_.physical == Type::BYTE_ARRAY) {
      const int32_t* offsets = a.values<int32_t>(1) + r;
      const uint8_t* data = a.buffers[2]->data();
      page_plain_bytes_ += offsets[n] - offsets[0] + 4 * (n - nulls);
      if (utf8_) QUIVER_RETURN_NOT_OK(CheckUtf8(offsets, data, n, v, a.offset + r));
      if (dictionary_) return PutDictionaryStrings(offsets, data, n, v, a.offset + r);
      ByteBounds bounds;
      for (int64_t i = 0; i < n; ++i) {
        if (v != nullptr && !bit_util::GetBit(v, a.offset + r + i)) continue;
        bounds.Add(std::string_view(reinterpret_cast<const char*>(data) + offsets[i],
                                    static_cast<size_t>(offsets[i + 1] - offsets[i])));
      }
      if (bounds.any) {
        UpdateStats(bounds.min);
        UpdateStats(bounds.max);
      }
      if (bloom_ != nullptr) bloom_->InsertByteArrays(offsets, data, n, v, a.offset + r);
      if (dlba_) return dlba_->Put(offsets, data, n, v, a.offset + r);
      if (dba_) return dba_->Put(offsets, data, n, v, a.offset + r);
      return encoding::PlainEncodeByteArrays(offsets, data, n, &plain_, v, a.offset + r);
    }

    // Values already in their physical form with no null among them are read in place.
    const uint8_t* d = nulls == 0 ? InPlace(a, r) : nullptr;
    int64_t k = n;
    if (d == nullptr) {
      QUIVER_ASSIGN_OR_RETURN(k, DenseValues(a, r, n));
      d = scratch_.data();
    }
    page_plain_bytes_ += k * width_;
    if (bloom_ != nullptr && leaf_.physical != Type::BOOLEAN) bloom_->InsertFixed(d, k, width_);
    switch (leaf_.physical) {
      case Type::BOOLEAN:
        SliceStats(reinterpret_cast<const uint8_t*>(d), k);
        return bools_.Put(d, k);
      case Type::INT32:
        if (order_ == SortOrder::kUnsigned) SliceStats(reinterpret_cast<const uint32_t*>(d), k);
        else SliceStats(reinterpret_cast<const int32_t*>(d), k);
        if (dictionary_) return PutDict(dict32_.get(), reinterpret_cast<const int32_t*>(d), k);
        if (delta32_) return delta32_->Put(reinterpret_cast<const int32_t*>(d), k);
        break;
      case Type::INT64:
        if (order_ == SortOrder::kUnsigned) SliceStats(reinterpret_cast<const uint64_t*>(d), k);
        else SliceStats(reinterpret_cast<const int64_t*>(d), k);
        if (dictionary_) return PutDict(dict64_.get(), reinterpret_cast<const int64_t*>(d), k);
        if (delta64_) return delta64_->Put(reinterpret_cast<const int64_t*>(d), k);
        break;
      case Type::FLOAT:
        SliceStats(reinterpret_cast<const float*>(d), k);
        if (dictionary_) return PutDict(dictf_.get(), reinterpret_cast<const float*>(d), k);
        break;
      case Type::DOUBLE:
        SliceStats(reinterpret_cast<const double*>(d), k);
        if (dictionary_) return PutDict(dictd_.get(), reinterpret_cast<const double*>(d), k);
        break;
      case Type::FIXED_LEN_BYTE_ARRAY: {
        for (int64_t i = 0; i < k; ++i) {
          UpdateStats(std::string_view(reinterpret_cast<const char*>(d) + i * width_, static_cast<size_t>(width_)));
        }
        if (dictionary_) {
          fixed_offsets_.resize(static_cast<size_t>(k + 1));
          for (int64_t i = 0; i <= k; ++i) fixed_offsets_[static_cast<size_t>(i)] = static_cast<int32_t>(i * width_);
          int64_t consumed = 0;
          return dictb_->Put(fixed_offsets_.data(), d, k, &consumed);
        }
        if (dba_) return dba_->PutFixed(d, width_, k);
        break;
      }
      default: return Status::NotImplemented("unexpected physical type");
    }
    return plain_.Append(d, k * width_);
  }

  // STRING values must be UTF-8 (other engines refuse the file otherwise). The slice's bytes
  // are validated at once; since valid UTF-8 never starts with a continuation byte, values that
  // do not either end on character boundaries, so each value is valid. Only a failure looks at
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

  // Strings through the dictionary: the page's bounds come from the entries its indices name,
  // each compared once per page (a page marks the entries it has seen), not from every value.
  Status PutDictionaryStrings(const int32_t* offsets, const uint8_t* data, int64_t n, const uint8_t* validity,
                              int64_t validity_offset) {
    const int64_t before = dictb_->buffered_indices();
    int64_t consumed = 0;
    QUIVER_RETURN_NOT_OK(dictb_->Put(offsets, data, n, &consumed, validity, validity_offset));
    if (dictb_->full()) return Status::OK();  // the chunk starts over PLAIN
    if (static_cast<int64_t>(page_marks_.size()) < dictb_->dict_size()) {
      page_marks_.resize(static_cast<size_t>(dictb_->dict_size()) * 2, 0);
    }
    const std::vector<int32_t>& idx = dictb_->indices();
    ByteBounds bounds;
    // Once the page has used every entry (a small dictionary, early in the page), the rest of
    // the indices can name no new one.
    const int64_t entries = dictb_->dict_size();
    for (size_t k = static_cast<size_t>(before); k < idx.size() && page_marked_ < entries; ++k) {
      const int32_t e = idx[k];
      if (page_marks_[static_cast<size_t>(e)] == page_epoch_) continue;
      page_marks_[static_cast<size_t>(e)] = page_epoch_;
      ++page_marked_;
      bounds.Add(dictb_->entry(e));
    }
    if (bounds.any) {
      UpdateStats(bounds.min);
      UpdateStats(bounds.max);
    }
    return Status::OK();
  }

  template <typename T>
  Status PutDict(encoding::DictionaryEncoder<T>* e, const T* values, int64_t k) {
    int64_t consumed = 0;
    return e->Put(values, k, &consumed);
  }

  // The first `raw` bytes of the body (a V2 page's levels) are stored uncompressed.
  Status WritePage(const PageHeader& header_in, const BufferBuilder& body, int64_t raw = 0) {
    PageHeader h = header_in;
    const std::span<const uint8_t> payload(body.data() + raw, static_cast<size_t>(body.size() - raw));
    const int64_t payload_size = static_cast<int64_t>(payload.size());
    out_->payload_raw += payload_size;
    if (body.size() > INT32_MAX) return Status::Invalid(fmt::format("column '{}': a page passed 2 GiB", field_.name));
    h.uncompressed_page_size = static_cast<int32_t>(body.size());
    BufferBuilder& dst = h.type == PageType::DICTIONARY_PAGE ? out_->dictionary_page : out_->bytes;
    const int64_t before = dst.size();
    int64_t compressed = payload_size;
    if (codec_ == compress::Codec::kUncompressed) {
      h.compressed_page_size = static_cast<int32_t>(body.size());
      QUIVER_RETURN_NOT_OK(EncodePageHeader(h, &dst));
      QUIVER_RETURN_NOT_OK(dst.Append(body.data(), body.size()));
    } else {
      QUIVER_ASSIGN_OR_RETURN(compressed, encoding::AppendCompressedPage(
                                              codec_, o_.compression_level, std::span(body.data(), static_cast<size_t>(raw)),
                                              payload, last_compressed_ > 0 ? last_compressed_ : payload_size,
                                              [&](int64_t size, BufferBuilder* header) -> Status {
                                                if (raw + size > INT32_MAX) {
                                                  return Status::Invalid(fmt::format("column '{}': a page passed 2 GiB", field_.name));
                                                }
                                                h.compressed_page_size = static_cast<int32_t>(raw + size);
                                                return EncodePageHeader(h, header);
                                              },
                                              &dst, &compressed_));
      last_compressed_ = compressed;
    }
    out_->payload_compressed += compressed;
    out_->total_uncompressed_size += dst.size() - before - (raw + compressed) + body.size();
    return Status::OK();
  }

  // V1 pages carry each level run's byte length in front of it.
  Status AppendLevelsV1(encoding::RleBitPackedEncoder* e) {
    const int64_t at = body_.size();
    QUIVER_RETURN_NOT_OK(body_.AppendZeros(4));
    QUIVER_RETURN_NOT_OK(e->Finish(&body_));
    const uint32_t len = static_cast<uint32_t>(body_.size() - at - 4);
    std::memcpy(body_.mutable_data() + at, &len, 4);
    return Status::OK();
  }

  Status FlushPage() {
    if (page_rows_ == 0) return Status::OK();
    body_.Clear();
    const bool v2 = o_.page_version == 2;
    int64_t rep_bytes = 0, def_bytes = 0;
    if (v2) {
      if (max_rep_ > 0) QUIVER_RETURN_NOT_OK(rep_levels_.Finish(&body_));
      rep_bytes = body_.size();
      if (max_def_ > 0) QUIVER_RETURN_NOT_OK(levels_.Finish(&body_));
      def_bytes = body_.size() - rep_bytes;
    } else {
      if (max_rep_ > 0) QUIVER_RETURN_NOT_OK(AppendLevelsV1(&rep_levels_));
      if (max_def_ > 0) QUIVER_RETURN_NOT_OK(AppendLevelsV1(&levels_));
    }
    if (dictionary_) {
      if (dict32_) QUIVER_RETURN_NOT_OK(dict32_->FlushIndices(&body_));
      if (dict64_) QUIVER_RETURN_NOT_OK(dict64_->FlushIndices(&body_));
      if (dictf_) QUIVER_RETURN_NOT_OK(dictf_->FlushIndices(&body_));
      if (dictd_) QUIVER_RETURN_NOT_OK(dictd_->FlushIndices(&body_));
      if (dictb_) QUIVER_RETURN_NOT_OK(dictb_->FlushIndices(&body_));
    } else if (leaf_.physical == Type::BOOLEAN) {
      QUIVER_RETURN_NOT_OK(bools_.Finish(&body_));
    } else if (delta32_) {
      QUIVER_RETURN_NOT_OK(delta32_->Finish(&body_));
    } else if (delta64_) {
      QUIVER_RETURN_NOT_OK(delta64_->Finish(&body_));
    } else if (dlba_) {
      QUIVER_RETURN_NOT_OK(dlba_->Finish(&body_));
    } else if (dba_) {
      QUIVER_RETURN_NOT_OK(dba_->Finish(&body_));
    } else if (encoding_ == Encoding::BYTE_STREAM_SPLIT) {
      QUIVER_RETURN_NOT_OK(encoding::ByteStreamSplitEncode(plain_.data(), plain_.size() / width_, width_, &body_));
      plain_.Clear();
    } else {
      QUIVER_RETURN_NOT_OK(body_.Append(plain_.data(), plain_.size()));
      plain_.Clear();
    }
    if (page_rows_ > INT32_MAX) return Status::Invalid("page with more than 2^31 values");
    // The page's statistics: in its header and, later, the page index.
    EncodedChunk::Page page;
    page.offset = out_->bytes.size();
    page.first_row = chunk_rows_;
    page.null_count = page_nulls_;
    page.null_page = page_nulls_ == page_rows_;
    bool min_exact = true, max_exact = true;
    if (page_min_) {
      Merge(*page_min_, *page_max_, &out_->min, &out_->max);
      WidenZeroBounds(order_, leaf_.physical, &*page_min_, &*page_max_);
      if (leaf_.physical == Type::BYTE_ARRAY) {
        TruncateBounds(o_.statistics_truncate_length, utf8_, &*page_min_, &*page_max_, &min_exact, &max_exact);
      }
      page.min = std::move(page_min_);
      page.max = std::move(page_max_);
    }
    Statistics st;
    st.null_count = page_nulls_;
    if (page.min) {
      st.min_value = std::string_view(*page.min);
      st.max_value = std::string_view(*page.max);
      st.is_min_value_exact = min_exact;
      st.is_max_value_exact = max_exact;
    }
    PageHeader h;
    const Encoding enc = encoding_;
    if (v2) {
      h.type = PageType::DATA_PAGE_V2;
      DataPageHeaderV2 dp;
      dp.num_values = static_cast<int32_t>(page_rows_);
      dp.num_nulls = static_cast<int32_t>(page_nulls_);
      dp.num_rows = static_cast<int32_t>(page_row_count_);
      dp.encoding = enc;
      dp.definition_levels_byte_length = static_cast<int32_t>(def_bytes);
      dp.repetition_levels_byte_length = static_cast<int32_t>(rep_bytes);
      dp.is_compressed = codec_ != compress::Codec::kUncompressed;
      dp.statistics.Set(&st);
      h.data_page_header_v2 = dp;
    } else {
      h.type = PageType::DATA_PAGE;
      DataPageHeader dp;
      dp.num_values = static_cast<int32_t>(page_rows_);
      dp.encoding = enc;
      dp.definition_level_encoding = Encoding::RLE;
      dp.repetition_level_encoding = Encoding::RLE;
      dp.statistics.Set(&st);
      h.data_page_header = dp;
    }
    QUIVER_RETURN_NOT_OK(WritePage(h, body_, rep_bytes + def_bytes));
    page.compressed_size = static_cast<int32_t>(out_->bytes.size() - page.offset);
    out_->pages.push_back(std::move(page));
    page_min_.reset();
    page_max_.reset();
    ++page_epoch_;
    page_marked_ = 0;
    ++out_->data_pages;
    chunk_rows_ += page_row_count_;
    page_rows_ = 0;
    page_row_count_ = 0;
    page_nulls_ = 0;
    page_plain_bytes_ = 0;
    return Status::OK();
  }

  // The dictionary is complete only after the last data page, but it must come first in the
  // chunk: it is kept apart and written in front of the data pages (no copy of them).
  Status PrependDictionaryPage() {
    body_.Clear();
    int64_t entries = 0;
    if (dict32_) { QUIVER_RETURN_NOT_OK(dict32_->WriteDictionaryPage(&body_)); entries = dict32_->dict_size(); }
    if (dict64_) { QUIVER_RETURN_NOT_OK(dict64_->WriteDictionaryPage(&body_)); entries = dict64_->dict_size(); }
    if (dictf_) { QUIVER_RETURN_NOT_OK(dictf_->WriteDictionaryPage(&body_)); entries = dictf_->dict_size(); }
    if (dictd_) { QUIVER_RETURN_NOT_OK(dictd_->WriteDictionaryPage(&body_)); entries = dictd_->dict_size(); }
    if (dictb_) {
      if (leaf_.physical == Type::FIXED_LEN_BYTE_ARRAY) {
        QUIVER_RETURN_NOT_OK(dictb_->WriteDictionaryPageFixed(width_, &body_));
      } else {
        QUIVER_RETURN_NOT_OK(dictb_->WriteDictionaryPage(&body_));
      }
      entries = dictb_->dict_size();
    }
    QUIVER_RETURN_NOT_OK(BloomFromDictionary(body_, entries));
    PageHeader h;
    h.type = PageType::DICTIONARY_PAGE;
    DictionaryPageHeader dh;
    dh.num_values = static_cast<int32_t>(entries);
    dh.encoding = Encoding::PLAIN;
    h.dictionary_page_header = dh;
    QUIVER_RETURN_NOT_OK(WritePage(h, body_));
    out_->has_dictionary = true;
    out_->data_page_offset = out_->dictionary_page.size();
    for (auto& p : out_->pages) p.offset += out_->data_page_offset;
    return Status::OK();
  }

  void FinishStats() {
    // The page index's boundary order, from the bounds of the pages that have values.
    bool asc = true, desc = true;
    const EncodedChunk::Page* prev = nullptr;
    for (const auto& p : out_->pages) {
      if (!p.min) continue;
      if (prev != nullptr) {
        if (PlainLess(order_, leaf_.physical, *p.min, *prev->min) || PlainLess(order_, leaf_.physical, *p.max, *prev->max)) asc = false;
        if (PlainLess(order_, leaf_.physical, *prev->min, *p.min) || PlainLess(order_, leaf_.physical, *prev->max, *p.max)) desc = false;
      }
      prev = &p;
    }
    out_->boundary_order = asc ? BoundaryOrder::ASCENDING : desc ? BoundaryOrder::DESCENDING : BoundaryOrder::UNORDERED;
    if (!out_->min) return;
    WidenZeroBounds(order_, leaf_.physical, &*out_->min, &*out_->max);
    if (leaf_.physical == Type::BYTE_ARRAY) {
      TruncateBounds(o_.statistics_truncate_length, utf8_, &*out_->min, &*out_->max, &out_->min_exact, &out_->max_exact);
    }
  }

  const Field& field_;
  const LeafType& leaf_;
  const ColumnWriterOptions& o_;
  EncodedChunk* out_;
  SortOrder order_;
  int16_t max_def_, max_rep_;
  int width_ = 0;
  bool dictionary_ = false;
  Encoding encoding_ = Encoding::PLAIN;  // of the data pages' values
  std::unique_ptr<encoding::DeltaBinaryPackedEncoder<int32_t>> delta32_;
  std::unique_ptr<encoding::DeltaBinaryPackedEncoder<int64_t>> delta64_;
  std::unique_ptr<encoding::DeltaLengthByteArrayEncoder> dlba_;
  std::unique_ptr<encoding::DeltaByteArrayEncoder> dba_;
  encoding::RleBitPackedEncoder levels_, rep_levels_;  // definition, repetition
  BufferBuilder scratch_, plain_, body_, compressed_;
  encoding::PlainBooleanEncoder bools_;
  std::unique_ptr<encoding::DictionaryEncoder<int32_t>> dict32_;
  std::unique_ptr<encoding::DictionaryEncoder<int64_t>> dict64_;
  std::unique_ptr<encoding::DictionaryEncoder<float>> dictf_;
  std::unique_ptr<encoding::DictionaryEncoder<double>> dictd_;
  std::unique_ptr<encoding::ByteArrayDictionaryEncoder> dictb_;
  int64_t reserve_entries_ = 0, reserve_bytes_ = 0;  // ReserveDictionary
  BloomFilter* bloom_ = nullptr;  // in out_, when values are inserted one by one
  std::vector<int32_t> fixed_offsets_;
  bool utf8_ = false;  // STRING: bounds truncate on code points
  std::optional<std::string> page_min_, page_max_;
  int64_t page_nulls_ = 0;  // levels below the max definition level in the open page
  int64_t chunk_rows_ = 0;  // rows in the pages written so far
  int64_t page_rows_ = 0;       // levels in the open page (values and nulls)
  int64_t page_row_count_ = 0;  // rows starting in the open page
  int64_t page_plain_bytes_ = 0;
  std::vector<uint32_t> page_marks_;  // per dictionary entry: the last page (epoch) that used it
  uint32_t page_epoch_ = 1;
  int64_t page_marked_ = 0;  // entries marked in the open page
  compress::Codec codec_;
  int64_t last_compressed_ = 0;  // the last page's compressed size: the next one's guess
  bool dictionary_retry_ = false;
};

}  // namespace

Status CheckEncoding(Encoding e, Type physical) {
  bool ok = false;
  switch (e) {
    case Encoding::PLAIN: ok = true; break;
    case Encoding::DELTA_BINARY_PACKED: ok = physical == Type::INT32 || physical == Type::INT64; break;
    case Encoding::DELTA_LENGTH_BYTE_ARRAY: ok = physical == Type::BYTE_ARRAY; break;
    // The spec also allows FIXED_LEN_BYTE_ARRAY, but Polars 0.25 refuses it.
    case Encoding::DELTA_BYTE_ARRAY: ok = physical == Type::BYTE_ARRAY; break;
    // The spec also allows INT32, INT64 and FIXED_LEN_BYTE_ARRAY, but DuckDB 1.5 refuses those.
    case Encoding::BYTE_STREAM_SPLIT: ok = physical == Type::FLOAT || physical == Type::DOUBLE; break;
    default: break;
  }
  if (ok) return Status::OK();
  return Status::Invalid(fmt::format("encoding {} does not apply to {} values", EncodingName(e), TypeName(physical)));
}

Result<Encoding> EncodingFromName(std::string_view name) {
  std::string n(name);
  for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (n == "plain") return Encoding::PLAIN;
  if (n == "delta_binary_packed") return Encoding::DELTA_BINARY_PACKED;
  if (n == "delta_length_byte_array") return Encoding::DELTA_LENGTH_BYTE_ARRAY;
  if (n == "delta_byte_array") return Encoding::DELTA_BYTE_ARRAY;
  if (n == "byte_stream_split") return Encoding::BYTE_STREAM_SPLIT;
  return Status::Invalid(fmt::format(
      "unknown encoding '{}' (plain, delta_binary_packed, delta_length_byte_array, delta_byte_array, byte_stream_split)",
      name));
}

namespace {

// The dictionary first (unless the history says it keeps giving up), then, if it gave up, the
// whole chunk again PLAIN, so no reader meets a chunk that switches encodings halfway.
// `run(writer, dictionary, fits)` encodes every piece.
template <typename Run>
Status EncodeChunk(const Field& field, const LeafType& leaf, const ColumnWriterOptions& options, EncodedChunk* out,
                   int16_t max_def, int16_t max_rep, ColumnChunkHistory* history, Run&& run) {
  bool fits = true;
  const bool skip = history != nullptr && history->plain_streak % ColumnChunkHistory::kDictionaryRetry != 0;
  compress::Codec codec = options.codec;
  if (history != nullptr && history->incompressible_streak % ColumnChunkHistory::kCompressionRetry != 0) {
    codec = compress::Codec::kUncompressed;
  }
  // The data pages' buffer at about the last chunk's size, so that it does not grow by copies.
  // (Room for a page's worst case past it, so that the last pages too would compress straight
  // into it, raised peak memory by about 20 MB on the 1 GB lineitem file: huge pages are
  // faulted in whole.)
  auto fresh = [&] {
    *out = EncodedChunk(options.pool);
    // Failure only means the buffer grows as it fills.
    if (history != nullptr && history->chunk_bytes > 0) (void)out->bytes.Reserve(history->chunk_bytes + history->chunk_bytes / 8);
  };
  // After the chunk: whether the codec earned its keep, and the chunk's size.
  auto learn = [&]() {
    if (history == nullptr) return;
    history->chunk_bytes = out->bytes.size();
    if (codec == compress::Codec::kUncompressed) {
      if (options.codec != compress::Codec::kUncompressed) ++history->incompressible_streak;
      return;
    }
    const bool worth = out->payload_raw - out->payload_compressed >= out->payload_raw / ColumnChunkHistory::kIncompressible;
    history->incompressible_streak = worth ? 0 : history->incompressible_streak + 1;
  };
  if (options.dictionary && !skip) {
    fresh();
    ChunkWriter w(field, leaf, options, out, max_def, max_rep);
    w.set_codec(codec);
    if (history != nullptr) {
      w.ReserveDictionary(history->dictionary_entries, history->dictionary_value_bytes);
      w.set_dictionary_retry(history->plain_streak > 0);
    }
    QUIVER_RETURN_NOT_OK(run(w, true, &fits));
    if (fits) {
      if (history != nullptr && w.dictionary_used()) {
        history->plain_streak = 0;
        history->dictionary_entries = w.dictionary_entries();
        history->dictionary_value_bytes = w.dictionary_value_bytes();
      }
      learn();
      return Status::OK();
    }
  }
  const bool gave_up = options.dictionary && (skip || !fits);
  if (history != nullptr && gave_up) ++history->plain_streak;
  fresh();
  ChunkWriter w(field, leaf, options, out, max_def, max_rep);
  w.set_codec(codec);
  QUIVER_RETURN_NOT_OK(run(w, false, &fits));
  learn();
  return Status::OK();
}

}  // namespace

Status EncodeColumnChunk(const Field& field, const LeafType& leaf, const std::vector<Array>& pieces,
                         const ColumnWriterOptions& options, EncodedChunk* out, ColumnChunkHistory* history) {
  for (const Array& p : pieces) {
    if (!p.type()->Equals(*field.type)) {
      return Status::Invalid(fmt::format("column '{}': expected {}, got {}", field.name, field.type->ToString(),
                                         p.type()->ToString()));
    }
  }
  return EncodeChunk(field, leaf, options, out, field.nullable ? 1 : 0, 0, history,
                     [&](ChunkWriter& w, bool dictionary, bool* fits) { return w.Run(pieces, dictionary, fits); });
}

Status EncodeLeafColumnChunk(const Field& leaf_field, const LeafType& leaf, const LeafPath& path,
                             const std::vector<LeafPiece>& pieces, const ColumnWriterOptions& options,
                             EncodedChunk* out, ColumnChunkHistory* history) {
  return EncodeChunk(leaf_field, leaf, options, out, path.max_def, path.max_rep, history,
                     [&](ChunkWriter& w, bool dictionary, bool* fits) { return w.RunLeaf(pieces, dictionary, fits); });
}

}  // namespace quiver::parquet

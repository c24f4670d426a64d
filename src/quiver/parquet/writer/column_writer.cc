#include "quiver/parquet/writer/column_writer.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <memory>

#include "quiver/core/bit_util.h"
#include "quiver/parquet/encoding/dictionary.h"
#include "quiver/parquet/encoding/plain.h"
#include "quiver/parquet/encoding/rle_bitpacked.h"
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
      return Status::NotImplemented(fmt::format("the Parquet writer takes flat columns; {} is nested", type.ToString()));
  }
  return l;
}

namespace {

enum class Order { kSigned, kUnsigned, kFloat, kBytes, kSignedBigEndian, kNone };

Order OrderFor(const DataType& t) {
  switch (t.id()) {
    case TypeId::kUInt32:
    case TypeId::kUInt64: return Order::kUnsigned;
    case TypeId::kFloat32:
    case TypeId::kFloat64: return Order::kFloat;
    case TypeId::kString:
    case TypeId::kBinary:
    case TypeId::kFixedSizeBinary: return Order::kBytes;
    case TypeId::kDecimal128: return t.precision() > 18 ? Order::kSignedBigEndian : Order::kSigned;
    case TypeId::kFloat16: return Order::kNone;
    default: return Order::kSigned;  // bool (0 < 1), small unsigned widened to non-negative int32, dates, times
  }
}

// Unsigned lexicographic order; most values differ within their first eight bytes, which are
// compared as one big-endian word instead of through memcmp.
inline bool BytesLess(std::string_view a, std::string_view b) {
  if (a.size() >= 8 && b.size() >= 8) {
    uint64_t x, y;
    std::memcpy(&x, a.data(), 8);
    std::memcpy(&y, b.data(), 8);
    if (x != y) return __builtin_bswap64(x) < __builtin_bswap64(y);
  }
  return a < b;
}

// Compares two PLAIN-encoded values of one chunk in its sort order.
bool Less(Order order, Type physical, std::string_view a, std::string_view b) {
  auto load = [](std::string_view s, auto zero) {
    decltype(zero) v;
    std::memcpy(&v, s.data(), sizeof(v));
    return v;
  };
  switch (order) {
    case Order::kBytes: return a < b;  // std::string_view compares as unsigned bytes
    case Order::kSignedBigEndian: {
      const int8_t ha = static_cast<int8_t>(a[0]), hb = static_cast<int8_t>(b[0]);
      if (ha != hb) return ha < hb;
      return a.substr(1) < b.substr(1);
    }
    case Order::kFloat:
      return physical == Type::FLOAT ? load(a, 0.0f) < load(b, 0.0f) : load(a, 0.0) < load(b, 0.0);
    case Order::kUnsigned:
      return physical == Type::INT32 ? load(a, uint32_t{}) < load(b, uint32_t{}) : load(a, uint64_t{}) < load(b, uint64_t{});
    case Order::kSigned:
      if (physical == Type::BOOLEAN) return load(a, uint8_t{}) < load(b, uint8_t{});
      return physical == Type::INT32 ? load(a, int32_t{}) < load(b, int32_t{}) : load(a, int64_t{}) < load(b, int64_t{});
    case Order::kNone: return false;
  }
  return false;
}

class ChunkWriter {
 public:
  ChunkWriter(const Field& field, const LeafType& leaf, const ColumnWriterOptions& o, EncodedChunk* out)
      : field_(field), leaf_(leaf), o_(o), out_(out), order_(OrderFor(*field.type)), levels_(1, o.pool),
        scratch_(o.pool), plain_(o.pool), body_(o.pool), compressed_(o.pool), bools_(o.pool) {
    switch (leaf.physical) {
      case Type::BOOLEAN: width_ = 1; break;
      case Type::INT32:
      case Type::FLOAT: width_ = 4; break;
      case Type::INT64:
      case Type::DOUBLE: width_ = 8; break;
      case Type::FIXED_LEN_BYTE_ARRAY: width_ = leaf.type_length; break;
      default: width_ = 0; break;  // BYTE_ARRAY
    }
  }

  void Start(bool dictionary) {
    dictionary_ = dictionary && leaf_.physical != Type::BOOLEAN;
    if (dictionary_) MakeDictionary();
  }

  // Encodes one piece; full pages are compressed into the chunk as they fill.
  Status Append(const ArrayData& a) {
    constexpr int64_t kSlice = 4096;  // page sizes are checked this often
    for (int64_t r = 0; r < a.length; r += kSlice) {
      const int64_t n = std::min(kSlice, a.length - r);
      QUIVER_RETURN_NOT_OK(PutSlice(a, r, n));
      if (dictionary_ && (DictionaryFull() || MostlyDistinct())) QUIVER_RETURN_NOT_OK(FallBackToPlain(a, r, n));
      if (page_plain_bytes_ >= o_.page_size) QUIVER_RETURN_NOT_OK(FlushPage());
    }
    return Status::OK();
  }

  Status Finish() {
    QUIVER_RETURN_NOT_OK(FlushPage());
    if (dictionary_) QUIVER_RETURN_NOT_OK(PrependDictionaryPage());
    out_->data_encoding = dictionary_ ? Encoding::RLE_DICTIONARY : Encoding::PLAIN;
    FinishStats();
    return Status::OK();
  }

 private:
  // Too many distinct values for the dictionary: the whole chunk becomes PLAIN, so no reader
  // meets a chunk that switches encodings halfway. The pages written so far are decompressed
  // and their indices turned back into values; the current page's indices and the rest of the
  // slice (rows [r, r + n), of which slice_consumed_ went into the dictionary) join plain_.
  Status FallBackToPlain(const ArrayData& a, int64_t r, int64_t n) {
    dictionary_ = false;
    QUIVER_RETURN_NOT_OK(ReencodePagesAsPlain());
    const std::vector<int32_t>& idx = BufferedIndices();
    QUIVER_RETURN_NOT_OK(PlainFromIndices(idx.data(), static_cast<int64_t>(idx.size()), &plain_));
    const int64_t c = slice_consumed_;
    if (leaf_.physical == Type::BYTE_ARRAY) {
      QUIVER_RETURN_NOT_OK(encoding::PlainEncodeByteArrays(a.values<int32_t>(1) + r + c, a.buffers[2]->data(), n - c,
                                                           &plain_, a.validity(), a.offset + r + c));
    } else {
      QUIVER_RETURN_NOT_OK(plain_.Append(scratch_.data() + c * width_, scratch_.size() - c * width_));
    }
    dict32_.reset();
    dict64_.reset();
    dictf_.reset();
    dictd_.reset();
    dictb_.reset();
    return Status::OK();
  }

  const std::vector<int32_t>& BufferedIndices() const {
    if (dict32_) return dict32_->indices();
    if (dict64_) return dict64_->indices();
    if (dictf_) return dictf_->indices();
    if (dictd_) return dictd_->indices();
    return dictb_->indices();
  }
  int64_t DictionaryEntries() const {
    if (dict32_) return dict32_->dict_size();
    if (dict64_) return dict64_->dict_size();
    if (dictf_) return dictf_->dict_size();
    if (dictd_) return dictd_->dict_size();
    return dictb_ ? dictb_->dict_size() : 0;
  }

  template <typename T>
  static Status Gather(const std::vector<T>& dict, const int32_t* idx, int64_t n, BufferBuilder* out) {
    QUIVER_RETURN_NOT_OK(out->Reserve(n * static_cast<int64_t>(sizeof(T))));
    uint8_t* dst = out->mutable_data() + out->size();  // not aligned: it follows the levels
    for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * sizeof(T), &dict[static_cast<size_t>(idx[i])], sizeof(T));
    out->UnsafeSetSize(out->size() + n * static_cast<int64_t>(sizeof(T)));
    return Status::OK();
  }

  // PLAIN values of dictionary indices, appended to *out.
  Status PlainFromIndices(const int32_t* idx, int64_t n, BufferBuilder* out) {
    if (dict32_) return Gather(dict32_->dictionary(), idx, n, out);
    if (dict64_) return Gather(dict64_->dictionary(), idx, n, out);
    if (dictf_) return Gather(dictf_->dictionary(), idx, n, out);
    if (dictd_) return Gather(dictd_->dictionary(), idx, n, out);
    const bool fixed = leaf_.physical == Type::FIXED_LEN_BYTE_ARRAY;
    for (int64_t i = 0; i < n; ++i) {
      const std::string_view e = dictb_->entry(idx[i]);
      if (!fixed) QUIVER_RETURN_NOT_OK(out->AppendValue(static_cast<int32_t>(e.size())));
      QUIVER_RETURN_NOT_OK(out->Append(e.data(), static_cast<int64_t>(e.size())));
    }
    return Status::OK();
  }

  // The chunk's dictionary data pages rewritten as PLAIN pages with the same levels.
  Status ReencodePagesAsPlain() {
    BufferBuilder old(o_.pool);
    std::swap(old, out_->bytes);
    std::vector<PageSpan> spans;
    spans.swap(pages_);
    out_->total_uncompressed_size = 0;
    out_->data_pages = 0;
    BufferBuilder raw(o_.pool);
    std::vector<int32_t> idx;
    const int64_t entries = DictionaryEntries();
    for (const PageSpan& p : spans) {
      raw.Clear();
      QUIVER_RETURN_NOT_OK(raw.Reserve(p.uncompressed));
      QUIVER_RETURN_NOT_OK(compress::Decompress(
          o_.codec, std::span<const uint8_t>(old.data() + p.payload_offset, static_cast<size_t>(p.compressed)),
          std::span<uint8_t>(raw.mutable_data(), static_cast<size_t>(p.uncompressed))));
      raw.UnsafeSetSize(p.uncompressed);
      int64_t levels_bytes = 0;
      if (field_.nullable) {
        uint32_t len;
        std::memcpy(&len, raw.data(), 4);
        levels_bytes = 4 + static_cast<int64_t>(len);
      }
      body_.Clear();
      QUIVER_RETURN_NOT_OK(body_.Append(raw.data(), levels_bytes));
      idx.resize(static_cast<size_t>(p.non_null));
      encoding::DictionaryDecoder dec;
      QUIVER_RETURN_NOT_OK(dec.Reset(raw.data() + levels_bytes, p.uncompressed - levels_bytes, entries));
      QUIVER_RETURN_NOT_OK(dec.DecodeIndices(idx.data(), p.non_null));
      QUIVER_RETURN_NOT_OK(PlainFromIndices(idx.data(), p.non_null, &body_));
      QUIVER_RETURN_NOT_OK(WritePage(DataPage(p.num_values, Encoding::PLAIN), body_));
      ++out_->data_pages;
    }
    return Status::OK();
  }

  static PageHeader DataPage(int64_t rows, Encoding encoding) {
    PageHeader h;
    h.type = PageType::DATA_PAGE;
    DataPageHeader dp;
    dp.num_values = static_cast<int32_t>(rows);
    dp.encoding = encoding;
    dp.definition_level_encoding = Encoding::RLE;
    dp.repetition_level_encoding = Encoding::RLE;
    h.data_page_header = dp;
    return h;
  }

  void MakeDictionary() {
    const int64_t lim = o_.dictionary_size_limit;
    switch (leaf_.physical) {
      case Type::INT32: dict32_ = std::make_unique<encoding::DictionaryEncoder<int32_t>>(lim, o_.pool); break;
      case Type::INT64: dict64_ = std::make_unique<encoding::DictionaryEncoder<int64_t>>(lim, o_.pool); break;
      case Type::FLOAT: dictf_ = std::make_unique<encoding::DictionaryEncoder<float>>(lim, o_.pool); break;
      case Type::DOUBLE: dictd_ = std::make_unique<encoding::DictionaryEncoder<double>>(lim, o_.pool); break;
      default: dictb_ = std::make_unique<encoding::ByteArrayDictionaryEncoder>(lim, o_.pool); break;
    }
  }
  // A column whose first values are mostly distinct would fill the dictionary late and be
  // written twice; it is written PLAIN as soon as that shows.
  bool MostlyDistinct() const {
    constexpr int64_t kProbe = 1 << 16;
    const int64_t seen = out_->num_values - out_->null_count;
    if (seen < kProbe || seen > 2 * kProbe) return false;
    int64_t entries = 0;
    if (dict32_) entries = dict32_->dict_size();
    if (dict64_) entries = dict64_->dict_size();
    if (dictf_) entries = dictf_->dict_size();
    if (dictd_) entries = dictd_->dict_size();
    if (dictb_) entries = dictb_->dict_size();
    return entries * 2 > seen;
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
    QUIVER_ASSIGN_OR_RETURN(int64_t k, (Dense<Out, In>(a, r, n, [&](In x) {
                              Out y;
                              if (__builtin_mul_overflow(static_cast<Out>(x), Out{1000}, &y)) overflow = true;
                              return y;
                            })));
    if (overflow) {
      return Status::Invalid(fmt::format("column '{}': a value in seconds does not fit in milliseconds", field_.name));
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

  void UpdateStats(std::string_view v) {
    if (order_ == Order::kNone) return;
    if (order_ == Order::kFloat) {
      const bool nan = leaf_.physical == Type::FLOAT ? std::isnan(Load<float>(v)) : std::isnan(Load<double>(v));
      if (nan) return;
    }
    if (!out_->min) {
      out_->min.emplace(v);
      out_->max.emplace(v);
      return;
    }
    if (Less(order_, leaf_.physical, v, *out_->min)) out_->min->assign(v);
    if (Less(order_, leaf_.physical, *out_->max, v)) out_->max->assign(v);
  }
  template <typename T>
  static T Load(std::string_view s) {
    T x;
    std::memcpy(&x, s.data(), sizeof(T));
    return x;
  }

  // Typed min/max over one slice first, so the common case compares values, not strings.
  template <typename T>
  void SliceStats(const T* v, int64_t k) {
    if (k == 0 || order_ == Order::kNone) return;
    int64_t i = 0;
    if constexpr (std::is_floating_point_v<T>) {
      while (i < k && std::isnan(v[i])) ++i;
      if (i == k) return;
    }
    T mn = v[i], mx = v[i];
    for (; i < k; ++i) {
      const T x = v[i];
      if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(x)) continue;
      }
      mn = x < mn ? x : mn;
      mx = mx < x ? x : mx;
    }
    UpdateStats(std::string_view(reinterpret_cast<const char*>(&mn), sizeof(T)));
    UpdateStats(std::string_view(reinterpret_cast<const char*>(&mx), sizeof(T)));
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
    page_non_null_ += n - nulls;

    if (leaf_.physical == Type::BYTE_ARRAY) {
      const int32_t* offsets = a.values<int32_t>(1) + r;
      const uint8_t* data = a.buffers[2]->data();
      page_plain_bytes_ += offsets[n] - offsets[0] + 4 * (n - nulls);
      // The slice's bounds as views first; the chunk's strings are updated twice per slice.
      std::string_view mn, mx;
      bool any = false;
      for (int64_t i = 0; i < n; ++i) {
        if (v != nullptr && !bit_util::GetBit(v, a.offset + r + i)) continue;
        const std::string_view s(reinterpret_cast<const char*>(data) + offsets[i],
                                 static_cast<size_t>(offsets[i + 1] - offsets[i]));
        if (!any) {
          mn = mx = s;
          any = true;
          continue;
        }
        if (BytesLess(s, mn)) mn = s;
        if (BytesLess(mx, s)) mx = s;
      }
      if (any) {
        UpdateStats(mn);
        UpdateStats(mx);
      }
      if (dictionary_) return dictb_->Put(offsets, data, n, &slice_consumed_, v, a.offset + r);
      return encoding::PlainEncodeByteArrays(offsets, data, n, &plain_, v, a.offset + r);
    }

    QUIVER_ASSIGN_OR_RETURN(const int64_t k, DenseValues(a, r, n));
    const uint8_t* d = scratch_.data();
    page_plain_bytes_ += k * width_;
    switch (leaf_.physical) {
      case Type::BOOLEAN:
        SliceStats(reinterpret_cast<const uint8_t*>(d), k);
        return bools_.Put(d, k);
      case Type::INT32:
        if (order_ == Order::kUnsigned) SliceStats(reinterpret_cast<const uint32_t*>(d), k);
        else SliceStats(reinterpret_cast<const int32_t*>(d), k);
        if (dictionary_) return PutDict(dict32_.get(), reinterpret_cast<const int32_t*>(d), k);
        break;
      case Type::INT64:
        if (order_ == Order::kUnsigned) SliceStats(reinterpret_cast<const uint64_t*>(d), k);
        else SliceStats(reinterpret_cast<const int64_t*>(d), k);
        if (dictionary_) return PutDict(dict64_.get(), reinterpret_cast<const int64_t*>(d), k);
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
          return dictb_->Put(fixed_offsets_.data(), d, k, &slice_consumed_);
        }
        break;
      }
      default: return Status::NotImplemented("unexpected physical type");
    }
    return plain_.Append(d, k * width_);
  }

  template <typename T>
  Status PutDict(encoding::DictionaryEncoder<T>* e, const T* values, int64_t k) {
    return e->Put(values, k, &slice_consumed_);
  }

  Status WritePage(const PageHeader& header_in, const BufferBuilder& body) {
    PageHeader h = header_in;
    const uint8_t* payload = body.data();
    int64_t payload_size = body.size();
    if (o_.codec != compress::Codec::kUncompressed) {
      compressed_.Clear();
      QUIVER_RETURN_NOT_OK(compress::Compress(o_.codec, o_.compression_level,
                                              std::span<const uint8_t>(body.data(), static_cast<size_t>(body.size())),
                                              &compressed_));
      payload = compressed_.data();
      payload_size = compressed_.size();
    }
    if (body.size() > INT32_MAX || payload_size > INT32_MAX) {
      return Status::Invalid(fmt::format("column '{}': a page passed 2 GiB", field_.name));
    }
    h.uncompressed_page_size = static_cast<int32_t>(body.size());
    h.compressed_page_size = static_cast<int32_t>(payload_size);
    const int64_t before = out_->bytes.size();
    QUIVER_RETURN_NOT_OK(EncodePageHeader(h, &out_->bytes));
    out_->total_uncompressed_size += out_->bytes.size() - before + body.size();
    if (dictionary_ && h.type == PageType::DATA_PAGE) {
      // Kept in case the chunk falls back to PLAIN (ReencodePagesAsPlain).
      pages_.push_back(PageSpan{out_->bytes.size(), payload_size, body.size(), h.data_page_header->num_values,
                                page_non_null_});
    }
    return out_->bytes.Append(payload, payload_size);
  }

  Status FlushPage() {
    if (page_rows_ == 0) return Status::OK();
    body_.Clear();
    if (field_.nullable) {
      // V1 pages carry the levels' byte length in front of them.
      QUIVER_RETURN_NOT_OK(body_.AppendZeros(4));
      QUIVER_RETURN_NOT_OK(levels_.Finish(&body_));
      const uint32_t len = static_cast<uint32_t>(body_.size() - 4);
      std::memcpy(body_.mutable_data(), &len, 4);
    }
    if (dictionary_) {
      if (dict32_) QUIVER_RETURN_NOT_OK(dict32_->FlushIndices(&body_));
      if (dict64_) QUIVER_RETURN_NOT_OK(dict64_->FlushIndices(&body_));
      if (dictf_) QUIVER_RETURN_NOT_OK(dictf_->FlushIndices(&body_));
      if (dictd_) QUIVER_RETURN_NOT_OK(dictd_->FlushIndices(&body_));
      if (dictb_) QUIVER_RETURN_NOT_OK(dictb_->FlushIndices(&body_));
    } else if (leaf_.physical == Type::BOOLEAN) {
      QUIVER_RETURN_NOT_OK(bools_.Finish(&body_));
    } else {
      QUIVER_RETURN_NOT_OK(body_.Append(plain_.data(), plain_.size()));
      plain_.Clear();
    }
    if (page_rows_ > INT32_MAX) return Status::Invalid("page with more than 2^31 values");
    QUIVER_RETURN_NOT_OK(WritePage(DataPage(page_rows_, dictionary_ ? Encoding::RLE_DICTIONARY : Encoding::PLAIN), body_));
    ++out_->data_pages;
    page_rows_ = 0;
    page_non_null_ = 0;
    page_plain_bytes_ = 0;
    return Status::OK();
  }

  // The dictionary is complete only after the last data page, but it must come first in the
  // chunk: the data pages are moved behind it.
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
    BufferBuilder data_pages(o_.pool);
    std::swap(data_pages, out_->bytes);
    PageHeader h;
    h.type = PageType::DICTIONARY_PAGE;
    DictionaryPageHeader dh;
    dh.num_values = static_cast<int32_t>(entries);
    dh.encoding = Encoding::PLAIN;
    h.dictionary_page_header = dh;
    QUIVER_RETURN_NOT_OK(WritePage(h, body_));
    out_->has_dictionary = true;
    out_->data_page_offset = out_->bytes.size();
    return out_->bytes.Append(data_pages.data(), data_pages.size());
  }

  void FinishStats() {
    if (order_ != Order::kFloat || !out_->min) return;
    // Readers may skip a chunk whose max is -0.0 when looking for +0.0, so a zero bound is
    // written as the widest zero (Parquet's rule).
    if (leaf_.physical == Type::FLOAT) {
      if (Load<float>(*out_->min) == 0.0f) { const float z = -0.0f; out_->min->assign(reinterpret_cast<const char*>(&z), 4); }
      if (Load<float>(*out_->max) == 0.0f) { const float z = 0.0f; out_->max->assign(reinterpret_cast<const char*>(&z), 4); }
    } else {
      if (Load<double>(*out_->min) == 0.0) { const double z = -0.0; out_->min->assign(reinterpret_cast<const char*>(&z), 8); }
      if (Load<double>(*out_->max) == 0.0) { const double z = 0.0; out_->max->assign(reinterpret_cast<const char*>(&z), 8); }
    }
  }

  const Field& field_;
  const LeafType& leaf_;
  const ColumnWriterOptions& o_;
  EncodedChunk* out_;
  Order order_;
  int width_ = 0;
  bool dictionary_ = false;
  encoding::RleBitPackedEncoder levels_;
  BufferBuilder scratch_, plain_, body_, compressed_;
  encoding::PlainBooleanEncoder bools_;
  std::unique_ptr<encoding::DictionaryEncoder<int32_t>> dict32_;
  std::unique_ptr<encoding::DictionaryEncoder<int64_t>> dict64_;
  std::unique_ptr<encoding::DictionaryEncoder<float>> dictf_;
  std::unique_ptr<encoding::DictionaryEncoder<double>> dictd_;
  std::unique_ptr<encoding::ByteArrayDictionaryEncoder> dictb_;
  std::vector<int32_t> fixed_offsets_;
  int64_t page_rows_ = 0;
  int64_t page_non_null_ = 0;
  int64_t page_plain_bytes_ = 0;
  int64_t slice_consumed_ = 0;  // values of the last slice the dictionary took
  struct PageSpan {
    int64_t payload_offset, compressed, uncompressed;
    int32_t num_values;
    int64_t non_null;
  };
  std::vector<PageSpan> pages_;  // the dictionary data pages written, while dictionary_
};

}  // namespace

class ColumnChunkEncoder::Impl : public ChunkWriter {
 public:
  using ChunkWriter::ChunkWriter;
};

ColumnChunkEncoder::ColumnChunkEncoder(const Field& field, const LeafType& leaf, const ColumnWriterOptions& options)
    : field_(field), leaf_(leaf), options_(options) {}

ColumnChunkEncoder::~ColumnChunkEncoder() = default;

Status ColumnChunkEncoder::Append(const Array& piece) {
  if (!piece.type()->Equals(*field_.type)) {
    return Status::Invalid(fmt::format("column '{}': expected {}, got {}", field_.name, field_.type->ToString(),
                                       piece.type()->ToString()));
  }
  StartChunk();
  return impl_->Append(*piece.data());
}

void ColumnChunkEncoder::StartChunk() {
  if (impl_) return;
  chunk_ = std::make_unique<EncodedChunk>(options_.pool);
  impl_ = std::make_unique<Impl>(field_, leaf_, options_, chunk_.get());
  // After a chunk fell back to PLAIN, the next kPlainAfterFallback chunks skip the dictionary
  // (hashing half a chunk to throw it away again); then it is tried again.
  tried_dictionary_ = options_.dictionary && (chunks_since_fallback_ < 0 || chunks_since_fallback_ >= kPlainAfterFallback);
  impl_->Start(tried_dictionary_);
}

int64_t ColumnChunkEncoder::num_rows() const { return chunk_ ? chunk_->num_values : 0; }

Status ColumnChunkEncoder::Finish(EncodedChunk* out) {
  StartChunk();  // an empty chunk still gets its (empty) dictionary page, as readers expect
  Status st = impl_->Finish();
  if (tried_dictionary_) {
    chunks_since_fallback_ = chunk_->data_encoding == Encoding::PLAIN ? 0 : -1;
  } else if (chunks_since_fallback_ >= 0) {
    ++chunks_since_fallback_;
  }
  impl_.reset();
  *out = std::move(*chunk_);
  chunk_.reset();
  return st;
}

Status EncodeColumnChunk(const Field& field, const LeafType& leaf, const std::vector<Array>& pieces,
                         const ColumnWriterOptions& options, EncodedChunk* out) {
  ColumnChunkEncoder enc(field, leaf, options);
  for (const Array& p : pieces) QUIVER_RETURN_NOT_OK(enc.Append(p));
  return enc.Finish(out);
}

}  // namespace quiver::parquet

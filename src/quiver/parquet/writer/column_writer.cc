// Column chunks encoded (the slice loop, the dictionary's fallback, what a column's chunks
// tell the next) and quiver types mapped to Parquet's.
#include "quiver/parquet/writer/column_writer_internal.h"

#include <fmt/format.h>

#include <cmath>
#include <memory>

#include "quiver/core/bit_util.h"
#include "quiver/parquet/writer/page_assembler_internal.h"
#include "quiver/parquet/writer/value_writer_internal.h"

namespace quiver::parquet::writer {

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
    case TypeId::kDenseUnion:
      return Status::NotImplemented(fmt::format("Parquet has no union type, so {} cannot be written", type.ToString()));
  }
  return l;
}

namespace {

// One attempt at a column chunk: its levels and pages (PageAssembler) around the values of its
// physical type (ValueWriter), a slice of rows at a time.
class ColumnChunkEncoder {
 public:
  ColumnChunkEncoder(const Field& field, const LeafType& leaf, const ColumnWriterOptions& o, compress::Codec codec,
               int16_t max_def, int16_t max_rep, EncodedColumnChunk* out)
      : o_(o), max_rep_(max_rep), pages_(field, leaf, o, codec, max_def, max_rep, out),
        values_(MakeValueWriter(field, leaf, o, pages_.bounds(), out)) {}

  // Sizes the dictionary's table (taken when a run starts one) for the previous chunk's entries.
  void ReserveDictionary(int64_t entries, int64_t value_bytes) {
    reserve_entries_ = entries;
    reserve_bytes_ = value_bytes;
  }
  void KeepDictionaryIn(KeptDictionary* kept) { values_->KeepDictionaryIn(kept); }
  // A dictionary retried after giving up (ColumnChunkHistory) shows sooner that it still does.
  void set_dictionary_retry(bool retry) { dictionary_retry_ = retry; }
  bool dictionary_used() const { return values_->dictionary(); }
  int64_t dictionary_entries() const { return values_->dictionary_entries(); }
  int64_t dictionary_value_bytes() const { return values_->dictionary_value_bytes(); }

  // False in *fits when the dictionary outgrew its limit: the caller starts over without it.
  // Slices end every page_check_rows rows of the chunk, wherever its pieces (the input's batches)
  // begin, so that pages, fallbacks and statistics depend on the rows alone, not on how a reader
  // and its threads cut them into batches: the same input gives the same file.
  Status Run(const std::vector<Array>& pieces, bool dictionary, bool* fits) {
    int64_t values = 0;
    for (const Array& p : pieces) values += p.length() - p.null_count();
    QUIVER_RETURN_NOT_OK(Start(dictionary, values, fits));
    const int64_t slice_rows = o_.page_check_rows;
    int64_t in_slice = 0;  // rows of the current slice put so far
    for (const Array& piece : pieces) {
      const ArrayData& a = *piece.data();
      for (int64_t r = 0; r < a.length;) {
        const int64_t n = std::min(slice_rows - in_slice, a.length - r);
        const uint8_t* v = a.validity();
        const int64_t nulls = v == nullptr ? 0 : n - bit_util::CountSetBits(v, a.offset + r, n);
        QUIVER_RETURN_NOT_OK(pages_.PutFlatLevels(a, r, n, nulls));
        QUIVER_RETURN_NOT_OK(values_->Put(a, r, n, nulls));
        r += n;
        in_slice += n;
        if (in_slice < slice_rows) continue;  // the piece ended inside the slice
        in_slice = 0;
        QUIVER_RETURN_NOT_OK(AfterSlice(fits));
        if (!*fits) return Status::OK();
      }
    }
    return FinishAfterLastSlice(in_slice, fits);
  }

  // Nested leaves: slices end at the first row start at or past every page_check_rows levels of the
  // chunk (pieces begin at row starts), so, as for flat columns, not where the pieces begin.
  Status RunLeaf(const std::vector<LeafPiece>& pieces, bool dictionary, bool* fits) {
    int64_t values = 0;
    for (const LeafPiece& p : pieces) values += p.values.length();
    QUIVER_RETURN_NOT_OK(Start(dictionary, values, fits));
    const int64_t slice_levels = o_.page_check_rows;
    int64_t in_slice = 0;  // levels of the current slice put so far
    for (const LeafPiece& p : pieces) {
      const int64_t n = static_cast<int64_t>(p.def.size());
      int64_t a = 0;
      while (a < n) {
        int64_t b = std::min(a + (slice_levels - in_slice), n);
        if (max_rep_ > 0) {
          while (b < n && p.rep[static_cast<size_t>(b)] != 0) ++b;
        }
        if (b > a) {
          QUIVER_RETURN_NOT_OK(pages_.PutLeafLevels(p, a, b));
          // The leaf slots levels [a, b) write, and how many of them hold no value.
          const int64_t lo = a == 0 ? 0 : p.slot_end[static_cast<size_t>(a - 1)];
          const int64_t hi = p.slot_end[static_cast<size_t>(b - 1)];
          if (hi != lo) {
            const ArrayData& v = *p.values.data();
            const int64_t skipped = (hi - lo) - bit_util::CountSetBits(v.validity(), v.offset + lo, hi - lo);
            QUIVER_RETURN_NOT_OK(values_->Put(v, lo, hi - lo, skipped));
          }
        }
        in_slice += b - a;
        a = b;
        // A slice ends at a row start once it holds slice_levels levels: inside the piece, or at
        // its end only when the next piece's first row is that row start anyway.
        if (in_slice < slice_levels) continue;
        in_slice = 0;
        QUIVER_RETURN_NOT_OK(AfterSlice(fits));
        if (!*fits) return Status::OK();
      }
    }
    return FinishAfterLastSlice(in_slice, fits);
  }

 private:
  // The chunk's last slice, cut short by its end, is checked as every other (a dictionary that
  // gave up in it starts the chunk over) before the chunk is finished.
  Status FinishAfterLastSlice(int64_t in_slice, bool* fits) {
    if (in_slice > 0) {
      QUIVER_RETURN_NOT_OK(AfterSlice(fits));
      if (!*fits) return Status::OK();
    }
    return Finish();
  }

  Status Start(bool dictionary, int64_t values, bool* fits) {
    *fits = true;
    if (!values_) return Status::NotImplemented("writing INT96 values");
    return values_->Start(dictionary, values, reserve_entries_, reserve_bytes_);
  }

  // A column whose first values are mostly distinct would fill the dictionary late and be
  // written twice; it is written without it as soon as that shows.
  bool MostlyDistinct() const {
    const int64_t kProbe = dictionary_retry_ ? int64_t{1} << 13 : int64_t{1} << 16;
    const int64_t seen = pages_.non_null_values();
    if (seen < kProbe || seen > 2 * kProbe) return false;
    return values_->dictionary_entries() * 2 > seen;
  }

  // *fits false when the dictionary gave up (the chunk starts over without it).
  Status AfterSlice(bool* fits) {
    if (values_->dictionary() && (values_->dictionary_full() || MostlyDistinct())) {
      *fits = false;
      return Status::OK();
    }
    if (values_->page_plain_bytes() >= o_.page_size) return FlushPage();
    return Status::OK();
  }

  Status FlushPage() {
    if (!pages_.page_open()) return Status::OK();
    QUIVER_ASSIGN_OR_RETURN(BufferBuilder * body, pages_.StartPage());
    std::span<const uint8_t> page;
    QUIVER_RETURN_NOT_OK(values_->FlushValues(body, &page));
    return pages_.FinishPage(values_->encoding(), page);
  }

  Status Finish() {
    QUIVER_RETURN_NOT_OK(FlushPage());
    if (values_->dictionary()) {
      BufferBuilder* body = pages_.StartDictionaryPage();
      int64_t entries = 0;
      QUIVER_RETURN_NOT_OK(values_->WriteDictionaryPage(body, &entries));
      QUIVER_RETURN_NOT_OK(pages_.FinishDictionaryPage(entries));
    }
    pages_.Finish(values_->encoding());
    return Status::OK();
  }

  const ColumnWriterOptions& o_;
  int16_t max_rep_;
  PageAssembler pages_;
  std::unique_ptr<ValueWriter> values_;
  int64_t reserve_entries_ = 0, reserve_bytes_ = 0;  // ReserveDictionary
  bool dictionary_retry_ = false;
};

}  // namespace

namespace {

// The dictionary first (unless the history says it keeps giving up), then, if it gave up, the
// whole chunk again PLAIN, so no reader meets a chunk that switches encodings halfway.
// `run(writer, dictionary, fits)` encodes every piece.
template <typename Run>
Status EncodeWithFallback(const Field& field, const LeafType& leaf, const ColumnWriterOptions& options,
                          EncodedColumnChunk* out, int16_t max_def, int16_t max_rep, ColumnChunkHistory* history,
                          Run&& run) {
  bool fits = true;
  const bool skip = history != nullptr && history->plain_streak % ColumnChunkHistory::kDictionaryRetry != 0;
  compress::Codec codec = options.codec;
  if (history != nullptr && history->incompressible_streak % ColumnChunkHistory::kCompressionRetry != 0) {
    codec = compress::Codec::kUncompressed;
  }
  // The data pages' buffer at about the last chunk's size, so that it does not grow by copies.
  auto fresh = [&] {
    *out = EncodedColumnChunk(options.pool);
    if (history != nullptr && history->chunk_bytes > 0) out->bytes_reserve = history->chunk_bytes + history->chunk_bytes / 8;
    // Failure only means the buffer grows as it fills. Compressed pages size it with their first
    // page's worst case (AppendCompressedPage), which may need more: reserved here, it would be
    // allocated twice.
    if (codec == compress::Codec::kUncompressed && out->bytes_reserve > 0) (void)out->bytes.Reserve(out->bytes_reserve);
    // (Room for a page's worst case past it, so that the last pages too would compress straight
    // into it, raised peak memory by about 20 MB on the 1 GB lineitem file: huge pages are
    // faulted in whole.)
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
    ColumnChunkEncoder w(field, leaf, options, codec, max_def, max_rep, out);
    if (history != nullptr) {
      w.ReserveDictionary(history->dictionary_entries, history->dictionary_value_bytes);
      w.KeepDictionaryIn(&history->dictionary);
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
  if (history != nullptr && gave_up) {
    ++history->plain_streak;
    history->dictionary = std::monostate{};
  }
  fresh();
  ColumnChunkEncoder w(field, leaf, options, codec, max_def, max_rep, out);
  QUIVER_RETURN_NOT_OK(run(w, false, &fits));
  learn();
  return Status::OK();
}

}  // namespace

Status EncodeColumnChunk(const Field& field, const LeafType& leaf, const std::vector<Array>& pieces,
                         const ColumnWriterOptions& options, EncodedColumnChunk* out, ColumnChunkHistory* history) {
  for (const Array& p : pieces) {
    if (!p.type()->Equals(*field.type)) {
      return Status::Invalid(fmt::format("column '{}': expected {}, got {}", field.name, field.type->ToString(),
                                         p.type()->ToString()));
    }
  }
  return EncodeWithFallback(
      field, leaf, options, out, field.nullable ? 1 : 0, 0, history,
      [&](ColumnChunkEncoder& w, bool dictionary, bool* fits) { return w.Run(pieces, dictionary, fits); });
}

Status EncodeLeafColumnChunk(const Field& leaf_field, const LeafType& leaf, const LeafPath& path,
                             const std::vector<LeafPiece>& pieces, const ColumnWriterOptions& options,
                             EncodedColumnChunk* out, ColumnChunkHistory* history) {
  return EncodeWithFallback(
      leaf_field, leaf, options, out, path.max_def, path.max_rep, history,
      [&](ColumnChunkEncoder& w, bool dictionary, bool* fits) { return w.RunLeaf(pieces, dictionary, fits); });
}

}  // namespace quiver::parquet::writer

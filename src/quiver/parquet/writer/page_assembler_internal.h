// The untyped half of writing a column chunk: definition and repetition levels, the open page's
// counts and bounds, page headers, compression, the dictionary page put in front, and the
// statistics of the chunk and of each page (its header and its page-index entry). The values
// themselves come from a ValueWriter (value_writer_internal.h), which never sees a page.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "quiver/parquet/encoding/rle_bitpacked_internal.h"
#include "quiver/parquet/writer/column_writer_internal.h"

namespace quiver::parquet::writer {

// The least and greatest value of the open page, as PLAIN bytes in the column's sort order.
// Value writers add their slices' bounds here; the assembler moves them into the page's header
// and the chunk's bounds when the page is written.
class PageBounds {
 public:
  PageBounds(SortOrder order, Type physical) : order_(order), physical_(physical) {}
  SortOrder order() const { return order_; }
  // Values that are no bound (NaN) are left out.
  void Add(std::string_view v) {
    if (!CanBeBound(order_, physical_, v)) return;
    Merge(v, v, &min_, &max_);
  }
  // Widens [*mn, *mx] to hold [lo, hi].
  void Merge(std::string_view lo, std::string_view hi, std::optional<std::string>* mn,
             std::optional<std::string>* mx) const {
    if (!*mn) {
      mn->emplace(lo);
      mx->emplace(hi);
      return;
    }
    if (PlainLess(order_, physical_, lo, **mn)) (*mn)->assign(lo);
    if (PlainLess(order_, physical_, **mx, hi)) (*mx)->assign(hi);
  }
  bool Less(std::string_view a, std::string_view b) const { return PlainLess(order_, physical_, a, b); }
  // The open page's bounds so far (none when it has no value that is a bound).
  const std::optional<std::string>& min() const { return min_; }
  const std::optional<std::string>& max() const { return max_; }

 private:
  friend class PageAssembler;
  SortOrder order_;
  Type physical_;
  std::optional<std::string> min_, max_;
};

class PageAssembler {
 public:
  // Flat columns have max_rep 0, and max_def 1 when nullable.
  PageAssembler(const Field& field, const LeafType& leaf, const ColumnWriterOptions& options, compress::Codec codec,
                int16_t max_def, int16_t max_rep, EncodedColumnChunk* out);

  PageBounds* bounds() { return &bounds_; }
  // Levels of rows [r, r + n) of a flat array, `nulls` of them null.
  Status PutFlatLevels(const ArrayData& a, int64_t r, int64_t n, int64_t nulls);
  // Levels [a, b) of a nested leaf's piece.
  Status PutLeafLevels(const LeafPiece& p, int64_t a, int64_t b);
  // Values and nulls in the chunk so far.
  int64_t non_null_values() const { return out_->meta.num_values - out_->meta.null_count; }

  // A data page: StartPage clears the page body and writes the open page's levels into it, the
  // value writer adds its values (ValueWriter::FlushValues: the whole page, in the body or in
  // its own buffer), FinishPage compresses `page` and writes it with its header.
  bool page_open() const { return page_rows_ > 0; }
  Result<BufferBuilder*> StartPage();
  Status FinishPage(Encoding encoding, std::span<const uint8_t> page);
  // The dictionary page: the value writer writes its PLAIN entries into the body
  // StartDictionaryPage returns, FinishDictionaryPage puts it in front of the data pages.
  BufferBuilder* StartDictionaryPage();
  Status FinishDictionaryPage(int64_t entries);
  // The chunk's bounds (zero widened, byte arrays truncated) and the page index's boundary order.
  void Finish(Encoding data_encoding);

 private:
  // The first `raw` bytes of the body (a V2 page's levels) are stored uncompressed.
  Status WritePage(const PageHeader& header, std::span<const uint8_t> body, int64_t raw = 0);
  Status AppendLevelsV1(encoding::RleBitPackedEncoder* e);

  const Field& field_;
  const LeafType& leaf_;
  const ColumnWriterOptions& o_;
  EncodedColumnChunk* out_;
  compress::Codec codec_;
  int16_t max_def_, max_rep_;
  bool utf8_;  // STRING: bounds truncate on code points
  PageBounds bounds_;
  encoding::RleBitPackedEncoder def_levels_, rep_levels_;
  BufferBuilder body_, compressed_;
  int64_t rep_bytes_ = 0, def_bytes_ = 0;  // the open page's levels in body_ (V2)
  int64_t page_nulls_ = 0;      // levels below the max definition level in the open page
  int64_t chunk_rows_ = 0;      // rows in the pages written so far
  int64_t page_rows_ = 0;       // levels in the open page (values and nulls)
  int64_t page_row_count_ = 0;  // rows starting in the open page
  int64_t last_compressed_ = 0;  // the last page's compressed size: the next one's guess
};

}  // namespace quiver::parquet::writer

// The untyped half of a column chunk's encoding (page_assembler_internal.h).
#include "quiver/parquet/writer/page_assembler_internal.h"

#include <fmt/format.h>

#include <cstring>

#include "quiver/core/bit_util.h"
#include "quiver/parquet/encoding/page_internal.h"
#include "quiver/parquet/metadata_codec.h"

namespace quiver::parquet::writer {

namespace {

int BitWidth(int16_t max_level) {
  int w = 0;
  while ((1 << w) <= max_level) ++w;
  return w;
}

}  // namespace

PageAssembler::PageAssembler(const Field& field, const LeafType& leaf, const ColumnWriterOptions& options,
                             compress::Codec codec, int16_t max_def, int16_t max_rep, EncodedColumnChunk* out)
    : field_(field), leaf_(leaf), o_(options), out_(out), codec_(codec), max_def_(max_def), max_rep_(max_rep),
      utf8_(field.type->id() == TypeId::kString), bounds_(SortOrderFor(*field.type), leaf.physical),
      def_levels_(BitWidth(max_def), options.pool), rep_levels_(BitWidth(max_rep), options.pool), body_(options.pool),
      compressed_(options.pool) {
  out_->meta.codec = codec;
}

Status PageAssembler::PutFlatLevels(const ArrayData& a, int64_t r, int64_t n, int64_t nulls) {
  if (nulls > 0 && !field_.nullable) {
    return Status::Invalid(fmt::format("column '{}' is not nullable but holds nulls", field_.name));
  }
  if (field_.nullable) {
    if (nulls == 0) {
      QUIVER_RETURN_NOT_OK(def_levels_.PutRepeated(1, n));
    } else {
      const uint8_t* v = a.validity();
      for (int64_t i = 0; i < n; ++i) {
        const uint32_t d = bit_util::GetBit(v, a.offset + r + i) ? 1 : 0;
        QUIVER_RETURN_NOT_OK(def_levels_.Put(&d, 1));
      }
    }
  }
  out_->meta.null_count += nulls;
  out_->meta.num_values += n;
  page_rows_ += n;
  page_row_count_ += n;
  page_nulls_ += nulls;
  return Status::OK();
}

Status PageAssembler::PutLeafLevels(const LeafPiece& p, int64_t a, int64_t b) {
  const int16_t* def = p.def.data() + a;
  const int64_t n = b - a;
  if (max_def_ > 0) QUIVER_RETURN_NOT_OK(def_levels_.Put(def, n));
  if (max_rep_ > 0) {
    const int16_t* rep = p.rep.data() + a;
    QUIVER_RETURN_NOT_OK(rep_levels_.Put(rep, n));
    for (int64_t i = 0; i < n; ++i) page_row_count_ += rep[i] == 0;
  } else {
    page_row_count_ += n;
  }
  int64_t absent = 0;
  for (int64_t i = 0; i < n; ++i) absent += def[i] < max_def_;
  out_->meta.null_count += absent;
  out_->meta.num_values += n;
  page_rows_ += n;
  page_nulls_ += absent;
  return Status::OK();
}

Status PageAssembler::WritePage(const PageHeader& header_in, std::span<const uint8_t> body, int64_t raw) {
  PageHeader h = header_in;
  const int64_t body_size = static_cast<int64_t>(body.size());
  const std::span<const uint8_t> payload = body.subspan(static_cast<size_t>(raw));
  const int64_t payload_size = static_cast<int64_t>(payload.size());
  out_->payload_raw += payload_size;
  if (body_size > INT32_MAX) return Status::Invalid(fmt::format("column '{}': a page passed 2 GiB", field_.name));
  h.uncompressed_page_size = static_cast<int32_t>(body_size);
  BufferBuilder& dst = h.type == PageType::DICTIONARY_PAGE ? out_->dictionary_page : out_->bytes;
  const int64_t before = dst.size();
  int64_t compressed = payload_size;
  if (codec_ == compress::Codec::kUncompressed) {
    h.compressed_page_size = static_cast<int32_t>(body_size);
    QUIVER_RETURN_NOT_OK(EncodePageHeader(h, &dst));
    QUIVER_RETURN_NOT_OK(dst.Append(body.data(), body_size));
  } else {
    // Compressed straight into the chunk after room for the header (page_internal.h), the last
    // page's compressed size the guess of this one's.
    QUIVER_ASSIGN_OR_RETURN(compressed, encoding::AppendCompressedPage(
                                            codec_, o_.compression_level, body.first(static_cast<size_t>(raw)),
                                            payload, last_compressed_ > 0 ? last_compressed_ : payload_size,
                                            [&](int64_t size, BufferBuilder* header) -> Status {
                                              if (raw + size > INT32_MAX) {
                                                return Status::Invalid(fmt::format("column '{}': a page passed 2 GiB", field_.name));
                                              }
                                              h.compressed_page_size = static_cast<int32_t>(raw + size);
                                              return EncodePageHeader(h, header);
                                            },
                                            &dst, &compressed_,
                                            h.type == PageType::DICTIONARY_PAGE ? 0 : out_->bytes_reserve));
    last_compressed_ = compressed;
  }
  out_->payload_compressed += compressed;
  out_->meta.total_uncompressed_size += dst.size() - before - (raw + compressed) + body_size;
  return Status::OK();
}

// V1 pages carry each level run's byte length in front of it.
Status PageAssembler::AppendLevelsV1(encoding::RleBitPackedEncoder* e) {
  const int64_t at = body_.size();
  QUIVER_RETURN_NOT_OK(body_.AppendZeros(4));
  QUIVER_RETURN_NOT_OK(e->Finish(&body_));
  const uint32_t len = static_cast<uint32_t>(body_.size() - at - 4);
  std::memcpy(body_.mutable_data() + at, &len, 4);
  return Status::OK();
}

Result<BufferBuilder*> PageAssembler::StartPage() {
  body_.Clear();
  rep_bytes_ = def_bytes_ = 0;
  if (o_.page_version == 2) {
    if (max_rep_ > 0) QUIVER_RETURN_NOT_OK(rep_levels_.Finish(&body_));
    rep_bytes_ = body_.size();
    if (max_def_ > 0) QUIVER_RETURN_NOT_OK(def_levels_.Finish(&body_));
    def_bytes_ = body_.size() - rep_bytes_;
  } else {
    if (max_rep_ > 0) QUIVER_RETURN_NOT_OK(AppendLevelsV1(&rep_levels_));
    if (max_def_ > 0) QUIVER_RETURN_NOT_OK(AppendLevelsV1(&def_levels_));
  }
  return &body_;
}

Status PageAssembler::FinishPage(Encoding encoding, std::span<const uint8_t> page_bytes) {
  if (page_rows_ > INT32_MAX) return Status::Invalid("page with more than 2^31 values");
  // The page's statistics: in its header and, later, the page index.
  ColumnChunkMeta::Page page;
  page.offset = out_->bytes.size();
  page.first_row = chunk_rows_;
  page.null_count = page_nulls_;
  page.null_page = page_nulls_ == page_rows_;
  bool min_exact = true, max_exact = true;
  if (bounds_.min_) {
    bounds_.Merge(*bounds_.min_, *bounds_.max_, &out_->meta.min, &out_->meta.max);
    WidenZeroBounds(bounds_.order_, leaf_.physical, &*bounds_.min_, &*bounds_.max_);
    if (leaf_.physical == Type::BYTE_ARRAY) {
      TruncateBounds(o_.statistics_truncate_length, utf8_, &*bounds_.min_, &*bounds_.max_, &min_exact, &max_exact);
    }
    page.min = std::move(bounds_.min_);
    page.max = std::move(bounds_.max_);
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
  if (o_.page_version == 2) {
    h.type = PageType::DATA_PAGE_V2;
    DataPageHeaderV2 dp;
    dp.num_values = static_cast<int32_t>(page_rows_);
    dp.num_nulls = static_cast<int32_t>(page_nulls_);
    dp.num_rows = static_cast<int32_t>(page_row_count_);
    dp.encoding = encoding;
    dp.definition_levels_byte_length = static_cast<int32_t>(def_bytes_);
    dp.repetition_levels_byte_length = static_cast<int32_t>(rep_bytes_);
    dp.is_compressed = codec_ != compress::Codec::kUncompressed;
    dp.statistics.Set(&st);
    h.data_page_header_v2 = dp;
  } else {
    h.type = PageType::DATA_PAGE;
    DataPageHeader dp;
    dp.num_values = static_cast<int32_t>(page_rows_);
    dp.encoding = encoding;
    dp.definition_level_encoding = Encoding::RLE;
    dp.repetition_level_encoding = Encoding::RLE;
    dp.statistics.Set(&st);
    h.data_page_header = dp;
  }
  QUIVER_RETURN_NOT_OK(WritePage(h, page_bytes, rep_bytes_ + def_bytes_));
  page.compressed_size = static_cast<int32_t>(out_->bytes.size() - page.offset);
  out_->meta.pages.push_back(std::move(page));
  bounds_.min_.reset();
  bounds_.max_.reset();
  ++out_->meta.data_pages;
  chunk_rows_ += page_row_count_;
  page_rows_ = 0;
  page_row_count_ = 0;
  page_nulls_ = 0;
  return Status::OK();
}

BufferBuilder* PageAssembler::StartDictionaryPage() {
  body_.Clear();
  return &body_;
}

// The dictionary is complete only after the last data page, but it must come first in the
// chunk: it is kept apart and written in front of the data pages (no copy of them).
Status PageAssembler::FinishDictionaryPage(int64_t entries) {
  PageHeader h;
  h.type = PageType::DICTIONARY_PAGE;
  DictionaryPageHeader dh;
  dh.num_values = static_cast<int32_t>(entries);
  dh.encoding = Encoding::PLAIN;
  h.dictionary_page_header = dh;
  QUIVER_RETURN_NOT_OK(WritePage(h, std::span<const uint8_t>(body_.data(), static_cast<size_t>(body_.size()))));
  out_->meta.has_dictionary = true;
  out_->meta.data_page_offset = out_->dictionary_page.size();
  for (auto& p : out_->meta.pages) p.offset += out_->meta.data_page_offset;
  return Status::OK();
}

void PageAssembler::Finish(Encoding data_encoding) {
  out_->meta.data_encoding = data_encoding;
  out_->meta.total_compressed_size = out_->size();
  // The page index's boundary order, from the bounds of the pages that have values.
  bool asc = true, desc = true;
  const ColumnChunkMeta::Page* prev = nullptr;
  for (const auto& p : out_->meta.pages) {
    if (!p.min) continue;
    if (prev != nullptr) {
      if (bounds_.Less(*p.min, *prev->min) || bounds_.Less(*p.max, *prev->max)) asc = false;
      if (bounds_.Less(*prev->min, *p.min) || bounds_.Less(*prev->max, *p.max)) desc = false;
    }
    prev = &p;
  }
  out_->meta.boundary_order = asc ? BoundaryOrder::ASCENDING : desc ? BoundaryOrder::DESCENDING : BoundaryOrder::UNORDERED;
  if (!out_->meta.min) return;
  WidenZeroBounds(bounds_.order_, leaf_.physical, &*out_->meta.min, &*out_->meta.max);
  if (leaf_.physical == Type::BYTE_ARRAY) {
    TruncateBounds(o_.statistics_truncate_length, utf8_, &*out_->meta.min, &*out_->meta.max, &out_->meta.min_exact, &out_->meta.max_exact);
  }
}

}  // namespace quiver::parquet::writer

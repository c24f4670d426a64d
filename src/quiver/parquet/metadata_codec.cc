// The instantiations of the table-driven Thrift codec for each top-level struct, and the
// selective decode of FileMetaData.
#include "quiver/parquet/metadata_codec.h"

#include <fmt/format.h>

#include <algorithm>

#include "quiver/parquet/metadata_fields_internal.h"
#include "quiver/thrift/compact_reader_internal.h"
#include "quiver/thrift/compact_writer_internal.h"

namespace quiver::parquet {

namespace {

// Decode context for a selective footer decode: which row groups and column chunks to build,
// whether to build statistics. Chosen indices are kept sorted so the number of kept elements of
// a list of n, and the end of a run of unchosen ones, are binary searches; the mask answers
// "is this one chosen" for the common case of the next element.
struct SelectiveDecode {
  Arena* arena = nullptr;
  static constexpr bool kSelective = true;
  const std::vector<int32_t>* row_groups = nullptr;  // sorted, unique; nullptr = all
  const std::vector<int32_t>* columns = nullptr;
  std::vector<uint8_t> rg_mask, col_mask;
  bool statistics = true;
  uint32_t total_row_groups = 0;
  uint32_t max_columns = 0;

  bool SkipField(uint8_t hook) const { return hook == kHookStatistics && !statistics; }
  uint32_t SelectedCount(uint8_t hook, uint32_t n) {
    const std::vector<int32_t>* sel = nullptr;
    if (hook == kHookRowGroups) {
      total_row_groups = n;
      sel = row_groups;
    } else if (hook == kHookColumns) {
      max_columns = std::max(max_columns, n);
      sel = columns;
    }
    if (sel == nullptr) return n;
    return static_cast<uint32_t>(std::lower_bound(sel->begin(), sel->end(), static_cast<int32_t>(n)) - sel->begin());
  }
  uint32_t NextSelected(uint8_t hook, uint32_t i, uint32_t n) const {
    const std::vector<int32_t>* sel = hook == kHookRowGroups ? row_groups : hook == kHookColumns ? columns : nullptr;
    if (sel == nullptr) return i;
    const std::vector<uint8_t>& mask = hook == kHookRowGroups ? rg_mask : col_mask;
    if (i < mask.size() && mask[i]) return i;
    auto it = std::lower_bound(sel->begin(), sel->end(), static_cast<int32_t>(i));
    return it == sel->end() ? n : std::min(n, static_cast<uint32_t>(*it));
  }
};

template <typename T>
Status DecodeOne(std::span<const uint8_t> bytes, Arena* arena, T* out, size_t* consumed) {
  thrift::CompactReader r(bytes.data(), bytes.size());
  thrift::DecodeAll ctx{arena};
  *out = T();
  if (!thrift::DecodeStruct(r, ctx, *out)) [[unlikely]] return r.ErrorStatus();
  if (consumed != nullptr) *consumed = r.offset();
  return Status::OK();
}

template <typename T>
Status EncodeOne(const T& v, BufferBuilder* out) {
  thrift::CompactWriter w(out);
  if (!thrift::EncodeStruct(w, v)) {
    w.Flush();
    return w.status().ok() ? Status::OutOfMemory("encoding Thrift metadata") : w.status();
  }
  w.Flush();
  return Status::OK();
}

std::vector<int32_t> SortedUnique(const std::vector<int32_t>& v) {
  std::vector<int32_t> s = v;
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

std::vector<uint8_t> MaskOf(const std::vector<int32_t>& sorted) {
  std::vector<uint8_t> m(sorted.empty() ? 0 : static_cast<size_t>(sorted.back()) + 1, 0);
  for (int32_t i : sorted) m[static_cast<size_t>(i)] = 1;
  return m;
}

}  // namespace

Status DecodeFileMetaData(std::span<const uint8_t> bytes, Arena* arena, FileMetaData* out,
                          const DecodeOptions* options, size_t* consumed) {
  if (options == nullptr || (!options->row_groups && !options->columns && options->statistics)) {
    return DecodeOne(bytes, arena, out, consumed);
  }
  std::vector<int32_t> rgs, cols;
  SelectiveDecode ctx;
  ctx.arena = arena;
  ctx.statistics = options->statistics;
  if (options->row_groups) {
    rgs = SortedUnique(*options->row_groups);
    if (!rgs.empty() && rgs.front() < 0) return Status::Invalid(fmt::format("row group {} out of range", rgs.front()));
    ctx.row_groups = &rgs;
    ctx.rg_mask = MaskOf(rgs);
  }
  if (options->columns) {
    cols = SortedUnique(*options->columns);
    if (!cols.empty() && cols.front() < 0) return Status::Invalid(fmt::format("column {} out of range", cols.front()));
    ctx.columns = &cols;
    ctx.col_mask = MaskOf(cols);
  }
  thrift::CompactReader r(bytes.data(), bytes.size());
  *out = FileMetaData();
  if (!thrift::DecodeStruct(r, ctx, *out)) [[unlikely]] return r.ErrorStatus();
  if (!rgs.empty() && static_cast<uint32_t>(rgs.back()) >= ctx.total_row_groups) {
    return Status::Invalid(fmt::format("row group {} out of range (the file has {})", rgs.back(), ctx.total_row_groups));
  }
  if (!cols.empty() && out->row_groups.size() > 0 && static_cast<uint32_t>(cols.back()) >= ctx.max_columns) {
    return Status::Invalid(fmt::format("column {} out of range (the file has {})", cols.back(), ctx.max_columns));
  }
  if (consumed != nullptr) *consumed = r.offset();
  return Status::OK();
}

Status DecodePageHeader(std::span<const uint8_t> bytes, Arena* arena, PageHeader* out, size_t* consumed) {
  return DecodeOne(bytes, arena, out, consumed);
}
Status DecodeColumnIndex(std::span<const uint8_t> bytes, Arena* arena, ColumnIndex* out, size_t* consumed) {
  return DecodeOne(bytes, arena, out, consumed);
}
Status DecodeOffsetIndex(std::span<const uint8_t> bytes, Arena* arena, OffsetIndex* out, size_t* consumed) {
  return DecodeOne(bytes, arena, out, consumed);
}
Status DecodeBloomFilterHeader(std::span<const uint8_t> bytes, Arena* arena, BloomFilterHeader* out, size_t* consumed) {
  return DecodeOne(bytes, arena, out, consumed);
}
Status DecodeFileCryptoMetaData(std::span<const uint8_t> bytes, Arena* arena, FileCryptoMetaData* out,
                                size_t* consumed) {
  return DecodeOne(bytes, arena, out, consumed);
}

Status DecodeColumnMetaData(std::span<const uint8_t> bytes, Arena* arena, ColumnMetaData* out, size_t* consumed) {
  return DecodeOne(bytes, arena, out, consumed);
}

Status EncodeFileMetaData(const FileMetaData& md, BufferBuilder* out) {
  // Room for a typical footer up front (a column chunk with statistics is ~75 bytes, a schema
  // element ~20): a wide footer then grows its buffer once or not at all instead of through a
  // chain of copies, each into fresh pages. Reserved pages that stay unused are never touched.
  int64_t chunks = 0;
  for (const RowGroup& rg : md.row_groups) chunks += rg.columns.size();
  const int64_t estimate = 4096 + 128 * chunks + 64 * static_cast<int64_t>(md.schema.size());
  // A very large footer written into a fresh buffer of the default pool goes on its own
  // mapping of 2 MiB huge pages instead (core/arena.h): first touches of 4 KB pages were most
  // of a cold encode of a 1,000,000-chunk footer (docs/parquet-footer.md). A caller's own pool
  // is kept.
  if (estimate >= kFooterHugeOutputThreshold && out->capacity() == 0 && out->pool() == default_memory_pool()) {
    out->set_pool(huge_page_memory_pool());
  }
  QUIVER_RETURN_NOT_OK(out->Reserve(estimate));
  return EncodeOne(md, out);
}
Status EncodePageHeader(const PageHeader& h, BufferBuilder* out) { return EncodeOne(h, out); }
Status EncodeColumnIndex(const ColumnIndex& ci, BufferBuilder* out) { return EncodeOne(ci, out); }
Status EncodeOffsetIndex(const OffsetIndex& oi, BufferBuilder* out) { return EncodeOne(oi, out); }
Status EncodeBloomFilterHeader(const BloomFilterHeader& h, BufferBuilder* out) { return EncodeOne(h, out); }
Status EncodeFileCryptoMetaData(const FileCryptoMetaData& m, BufferBuilder* out) { return EncodeOne(m, out); }
Status EncodeColumnMetaData(const ColumnMetaData& m, BufferBuilder* out) { return EncodeOne(m, out); }

}  // namespace quiver::parquet

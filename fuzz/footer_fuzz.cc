// libFuzzer target for footer decoding: the input is serialized FileMetaData (or a whole file
// ending in PAR1). Decoding must never crash; whatever decodes must survive schema building,
// re-encode to bytes that decode to the same model, and decode selectively to the same chunks.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "quiver/io/file.h"
#include "quiver/parquet/footer.h"
#include "quiver/parquet/metadata_codec.h"
#include "quiver/parquet/schema.h"
#include "quiver/parquet/statistics.h"

using namespace quiver;
using namespace quiver::parquet;

static void CheckModel(const FileMetaData& md) {
  auto tree = SchemaTree::Make(md.schema);
  if (tree.ok()) {
    auto fields = tree->ToFields();
    (void)fields;
    for (const ColumnDescriptor& col : tree->columns()) {
      for (const RowGroup& rg : md.row_groups) {
        for (const ColumnChunk& cc : rg.columns) {
          if (cc.meta_data && cc.meta_data->statistics) {
            const Statistics& s = *cc.meta_data->statistics;
            if (s.min_value) (void)FormatStatisticsValue(col, *s.min_value);
            if (s.max) (void)FormatStatisticsValue(col, *s.max);
          }
        }
        break;
      }
    }
  }
  BufferBuilder out;
  if (!EncodeFileMetaData(md, &out).ok()) return;
  Arena arena;
  FileMetaData again;
  Status st = DecodeFileMetaData({out.data(), static_cast<size_t>(out.size())}, &arena, &again);
  if (!st.ok() || !(again == md)) {
    // NaN doubles (bounding boxes) compare unequal to themselves; anything else is a bug.
    if (st.ok()) {
      BufferBuilder out2;
      if (EncodeFileMetaData(again, &out2).ok() && out2.size() == out.size() &&
          std::memcmp(out2.data(), out.data(), static_cast<size_t>(out.size())) == 0) {
        return;
      }
    }
    std::abort();
  }
}

// Selective decoding skips what it does not build with a separate fast path; whenever the full
// decode succeeds, the selective one must too (the skipper is never stricter than the decoder)
// and must build exactly the chosen chunks of the full decode.
static void CheckSelective(const uint8_t* data, size_t size, const FileMetaData* full, const DecodeOptions& options) {
  Arena arena;
  FileMetaData md;
  Status st = DecodeFileMetaData({data, size}, &arena, &md, &options);
  if (full == nullptr) return;
  if (!st.ok()) {
    if (st.IsInvalid()) return;  // a chosen row group or column the file does not have
    std::abort();
  }
  if (!(md.schema == full->schema)) std::abort();
  const std::vector<int32_t> none;
  const std::vector<int32_t>& rgs = options.row_groups ? *options.row_groups : none;
  const std::vector<int32_t>& cols = options.columns ? *options.columns : none;
  if (options.row_groups && md.row_groups.size() != rgs.size()) std::abort();
  for (uint32_t r = 0; r < md.row_groups.size(); ++r) {
    const RowGroup& a = md.row_groups[r];
    const RowGroup& b = full->row_groups[options.row_groups ? static_cast<uint32_t>(rgs[r]) : r];
    uint32_t kept = 0;
    for (uint32_t c = 0; c < b.columns.size(); ++c) {
      bool chosen = !options.columns || std::find(cols.begin(), cols.end(), static_cast<int32_t>(c)) != cols.end();
      if (!chosen) continue;
      if (kept >= a.columns.size()) std::abort();
      ColumnChunk want = b.columns[c];
      if (!options.statistics && want.meta_data) {
        want.meta_data->statistics.reset();
        want.meta_data->size_statistics.reset();
        want.meta_data->geospatial_statistics.reset();
      }
      // NaN bounding-box values compare unequal to themselves: only chunks with geospatial
      // statistics may differ.
      if (!(a.columns[kept] == want) && !(want.meta_data && want.meta_data->geospatial_statistics)) std::abort();
      ++kept;
    }
    if (kept != a.columns.size()) std::abort();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Arena full_arena;
  FileMetaData full;
  const bool full_ok = DecodeFileMetaData({data, size}, &full_arena, &full).ok();
  if (full_ok) CheckModel(full);
  {
    DecodeOptions options;
    options.row_groups = std::vector<int32_t>{0, 2};
    options.columns = std::vector<int32_t>{1};
    options.statistics = false;
    CheckSelective(data, size, full_ok ? &full : nullptr, options);
  }
  {
    DecodeOptions options;
    options.columns = std::vector<int32_t>{0, 3};
    CheckSelective(data, size, full_ok ? &full : nullptr, options);
  }
  {
    DecodeOptions options;
    options.row_groups.emplace();
    CheckSelective(data, size, full_ok ? &full : nullptr, options);
  }
  if (size >= 12 && std::memcmp(data + size - 4, "PAR1", 4) == 0) {
    auto buf = Buffer::CopyOf({data, size});
    if (buf.ok()) {
      auto src = io::MemorySource(*buf, "fuzz.parquet");
      auto footer = ReadFooter(*src);
      if (footer.ok()) CheckModel((*footer)->metadata());
    }
  }
  return 0;
}

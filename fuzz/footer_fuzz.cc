// libFuzzer target for footer decoding: the input is serialized FileMetaData (or a whole file
// ending in PAR1). Decoding must never crash; whatever decodes must survive schema building and
// re-encode to bytes that decode to the same model.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "quiver/io/file.h"
#include "quiver/parquet/footer.h"
#include "quiver/parquet/schema.h"

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

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  {
    Arena arena;
    FileMetaData md;
    if (DecodeFileMetaData({data, size}, &arena, &md).ok()) CheckModel(md);
  }
  {
    // Selective decoding walks the same bytes with skipping.
    Arena arena;
    FileMetaData md;
    DecodeOptions options;
    options.row_groups = std::vector<int32_t>{0, 2};
    options.columns = std::vector<int32_t>{1};
    options.statistics = false;
    (void)DecodeFileMetaData({data, size}, &arena, &md, &options);
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

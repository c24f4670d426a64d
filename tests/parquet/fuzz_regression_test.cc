// The fuzz targets' checks, run as tests: over every corpus footer (the fuzzers' seeds; one of
// them, ARROW-GH-41321's, has INT64_MIN timestamp statistics that overflowed the printer) and
// over every crash input kept in fuzz/corpus/regressions/.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "quiver/io/file.h"
#include "quiver/parquet/footer.h"
#include "quiver/parquet/metadata_codec.h"
#include "quiver/parquet/schema.h"
#include "quiver/parquet/statistics.h"
#include "testing/corpus.h"

namespace quiver::parquet {
namespace {

// footer_fuzz's selective check: when the full decode succeeded, the selective one succeeds
// too (or names a selection the file lacks) and builds the same chunks.
bool SelectiveMatches(std::span<const uint8_t> bytes, const FileMetaData& full, const DecodeOptions& o) {
  Arena arena;
  FileMetaData md;
  Status st = DecodeFileMetaData(bytes, &arena, &md, &o);
  if (!st.ok()) return st.IsInvalid();
  if (!(md.schema == full.schema)) return false;
  const std::vector<int32_t> none;
  const std::vector<int32_t>& rgs = o.row_groups ? *o.row_groups : none;
  const std::vector<int32_t>& cols = o.columns ? *o.columns : none;
  if (o.row_groups && md.row_groups.size() != rgs.size()) return false;
  for (uint32_t r = 0; r < md.row_groups.size(); ++r) {
    const RowGroup& a = md.row_groups[r];
    const RowGroup& b = full.row_groups[o.row_groups ? static_cast<uint32_t>(rgs[r]) : r];
    uint32_t kept = 0;
    for (uint32_t c = 0; c < b.columns.size(); ++c) {
      if (o.columns && std::find(cols.begin(), cols.end(), static_cast<int32_t>(c)) == cols.end()) continue;
      if (kept >= a.columns.size()) return false;
      ColumnChunk want = b.columns[c];
      if (!o.statistics && want.meta_data) {
        want.meta_data->statistics.reset();
        want.meta_data->size_statistics.reset();
        want.meta_data->geospatial_statistics.reset();
      }
      if (!(a.columns[kept] == want) && !(want.meta_data && want.meta_data->geospatial_statistics)) return false;
      ++kept;
    }
    if (kept != a.columns.size()) return false;
  }
  return true;
}

// What footer_fuzz does with one input; returns false where the fuzzer would abort.
bool FuzzChecks(std::span<const uint8_t> bytes) {
  Arena arena;
  FileMetaData md;
  if (!DecodeFileMetaData(bytes, &arena, &md).ok()) return true;
  DecodeOptions a, b, c;
  a.row_groups = std::vector<int32_t>{0, 2};
  a.columns = std::vector<int32_t>{1};
  a.statistics = false;
  b.columns = std::vector<int32_t>{0, 3};
  c.row_groups.emplace();
  for (const DecodeOptions* o : {&a, &b, &c}) {
    if (!SelectiveMatches(bytes, md, *o)) return false;
  }
  auto tree = SchemaTree::Make(md.schema);
  if (tree.ok()) {
    (void)tree->ToFields();
    for (const RowGroup& rg : md.row_groups) {
      for (uint32_t c = 0; c < rg.columns.size() && c < static_cast<uint32_t>(tree->num_columns()); ++c) {
        const ColumnChunk& cc = rg.columns[c];
        if (!cc.meta_data || !cc.meta_data->statistics) continue;
        const Statistics& s = *cc.meta_data->statistics;
        const ColumnDescriptor& col = tree->columns()[c];
        for (const OptionalBinary* v : {&s.min, &s.max, &s.min_value, &s.max_value}) {
          // Only an empty string prints as nothing.
          if (*v) {
            EXPECT_TRUE(!FormatStatisticsValue(col, **v).empty() || (**v).empty());
          }
        }
      }
    }
  }
  BufferBuilder out;
  if (!EncodeFileMetaData(md, &out).ok()) return false;
  FileMetaData again;
  if (!DecodeFileMetaData({out.data(), static_cast<size_t>(out.size())}, &arena, &again).ok()) return false;
  return again == md;
}

TEST(FuzzRegressionTest, CorpusFootersPassTheFuzzChecks) {
  QUIVER_CORPUS_OR_SKIP(dir);
  int n = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir / "parquet-testing")) {
    std::string name = e.path().filename().string();
    if (!e.is_regular_file() || !(name.ends_with(".parquet") || name.ends_with(".parquet.encrypted"))) continue;
    auto file = io::OpenFile(e.path().string());
    ASSERT_TRUE(file.ok());
    auto footer = ReadFooter(**file);
    if (!footer.ok()) continue;
    SCOPED_TRACE(e.path().string());
    EXPECT_TRUE(FuzzChecks((*footer)->footer_bytes()->span()));
    ++n;
  }
  EXPECT_GE(n, 220);
}

TEST(FuzzRegressionTest, KeptCrashInputs) {
  auto dir = std::filesystem::path(QUIVER_SOURCE_DIR) / "fuzz" / "corpus" / "regressions";
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (!e.is_regular_file() || e.path().extension() == ".md") continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string bytes = ss.str();
    SCOPED_TRACE(e.path().string());
    std::span<const uint8_t> span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    EXPECT_TRUE(FuzzChecks(span));
    // Page-header style decoders must fail or succeed cleanly on the same bytes.
    Arena arena;
    PageHeader ph;
    (void)DecodePageHeader(span, &arena, &ph);
    ColumnIndex ci;
    (void)DecodeColumnIndex(span, &arena, &ci);
    ++n;
  }
  std::printf("%d kept fuzz inputs\n", n);
}

}  // namespace
}  // namespace quiver::parquet

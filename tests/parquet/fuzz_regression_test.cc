// The fuzz targets' checks, run as tests: over every corpus footer (the fuzzers' seeds; one of
// them, ARROW-GH-41321's, has INT64_MIN timestamp statistics that overflowed the printer) and
// over every crash input kept in fuzz/corpus/regressions/.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "quiver/io/file.h"
#include "quiver/parquet/footer.h"
#include "quiver/parquet/schema.h"
#include "testing/corpus.h"

namespace quiver::parquet {
namespace {

// What footer_fuzz does with one input; returns false where the fuzzer would abort.
bool FuzzChecks(std::span<const uint8_t> bytes) {
  Arena arena;
  FileMetaData md;
  if (!DecodeFileMetaData(bytes, &arena, &md).ok()) return true;
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

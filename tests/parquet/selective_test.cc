// Selective footer decoding: only the chosen row groups and column chunks are built, equal to
// the same elements of a full decode; statistics can be left out; bad selections are errors.
#include <gtest/gtest.h>

#include "quiver/io/file.h"
#include "quiver/parquet/footer.h"
#include "testing/corpus.h"

namespace quiver::parquet {
namespace {

std::shared_ptr<const ParquetFooter> Read(const std::filesystem::path& p, const DecodeOptions& o, Status* st = nullptr) {
  auto file = io::OpenFile(p.string());
  EXPECT_TRUE(file.ok());
  auto footer = ReadFooter(**file, o);
  if (st != nullptr) *st = footer.status();
  return footer.ok() ? *footer : nullptr;
}

TEST(SelectiveDecodeTest, ChosenRowGroupsAndColumnsEqualFullDecode) {
  QUIVER_CORPUS_OR_SKIP(dir);
  // 3 row groups? pick a multi-row-group file and check every combination of one row group
  // with two columns.
  auto path = dir / "parquet-testing/data/alltypes_tiny_pages_plain.parquet";
  for (const char* name : {"data/nested_structs.rust.parquet", "data/alltypes_tiny_pages_plain.parquet",
                           "bad_data/ARROW-GH-41321.parquet"}) {
    SCOPED_TRACE(name);
    path = dir / "parquet-testing" / name;
    auto full = Read(path, {});
    ASSERT_NE(full, nullptr);
    const FileMetaData& fm = full->metadata();
    ASSERT_GE(fm.row_groups.size(), 1u);
    uint32_t ncols = fm.row_groups[0].columns.size();
    ASSERT_GE(ncols, 3u);
    for (uint32_t rg = 0; rg < fm.row_groups.size(); ++rg) {
      DecodeOptions o;
      o.row_groups = std::vector<int32_t>{static_cast<int32_t>(rg)};
      o.columns = std::vector<int32_t>{static_cast<int32_t>(ncols - 1), 1, 1};  // unsorted, duplicate
      auto sel = Read(path, o);
      ASSERT_NE(sel, nullptr);
      const FileMetaData& sm = sel->metadata();
      EXPECT_TRUE(sm.schema == fm.schema);
      EXPECT_EQ(sm.num_rows, fm.num_rows);
      EXPECT_TRUE(sm.key_value_metadata == fm.key_value_metadata);
      ASSERT_EQ(sm.row_groups.size(), 1u);
      EXPECT_EQ(sel->row_group_indices(), std::vector<int32_t>{static_cast<int32_t>(rg)});
      EXPECT_EQ(sel->column_indices(), (std::vector<int32_t>{1, static_cast<int32_t>(ncols - 1)}));
      const RowGroup& a = sm.row_groups[0];
      const RowGroup& b = fm.row_groups[rg];
      EXPECT_EQ(a.num_rows, b.num_rows);
      ASSERT_EQ(a.columns.size(), 2u);
      EXPECT_TRUE(a.columns[0] == b.columns[1]);
      EXPECT_TRUE(a.columns[1] == b.columns[ncols - 1]);
    }
    // No row groups at all: only the schema and file-level fields.
    DecodeOptions none;
    none.row_groups.emplace();
    auto schema_only = Read(path, none);
    ASSERT_NE(schema_only, nullptr);
    EXPECT_TRUE(schema_only->metadata().row_groups.empty());
    EXPECT_TRUE(schema_only->metadata().schema == fm.schema);
    EXPECT_TRUE(schema_only->metadata().column_orders == fm.column_orders);
  }
}

TEST(SelectiveDecodeTest, StatisticsCanBeSkipped) {
  QUIVER_CORPUS_OR_SKIP(dir);
  auto path = dir / "parquet-testing/data/alltypes_tiny_pages.parquet";
  auto full = Read(path, {});
  ASSERT_NE(full, nullptr);
  ASSERT_TRUE(full->metadata().row_groups[0].columns[0].meta_data->statistics.has_value());
  DecodeOptions o;
  o.statistics = false;
  auto lean = Read(path, o);
  ASSERT_NE(lean, nullptr);
  for (uint32_t c = 0; c < lean->metadata().row_groups[0].columns.size(); ++c) {
    ColumnChunk a = lean->metadata().row_groups[0].columns[c];
    ColumnChunk b = full->metadata().row_groups[0].columns[c];
    EXPECT_FALSE(a.meta_data->statistics.has_value());
    b.meta_data->statistics.reset();
    b.meta_data->size_statistics.reset();
    b.meta_data->geospatial_statistics.reset();
    EXPECT_TRUE(a == b);
  }
}

TEST(SelectiveDecodeTest, OutOfRangeSelectionsAreInvalid) {
  QUIVER_CORPUS_OR_SKIP(dir);
  auto path = dir / "parquet-testing/data/alltypes_plain.parquet";
  Status st;
  DecodeOptions o;
  o.row_groups = std::vector<int32_t>{5};
  EXPECT_EQ(Read(path, o, &st), nullptr);
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_EQ(st.message(), "footer: row group 5 out of range (the file has 1)");
  DecodeOptions c;
  c.columns = std::vector<int32_t>{11};
  EXPECT_EQ(Read(path, c, &st), nullptr);
  EXPECT_EQ(st.message(), "footer: column 11 out of range (the file has 11)");
  DecodeOptions neg;
  neg.columns = std::vector<int32_t>{-1};
  EXPECT_EQ(Read(path, neg, &st), nullptr);
  EXPECT_EQ(st.message(), "footer: column -1 out of range");
}

}  // namespace
}  // namespace quiver::parquet

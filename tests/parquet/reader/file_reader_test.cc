// ParquetFileReader API: projection and order of columns, row group bounds, memory limits.
#include <gtest/gtest.h>

#include "quiver/columnar/pretty_print.h"
#include "quiver/core/memory_pool.h"
#include "quiver/core/memory_tracker.h"
#include "quiver/parquet/reader/file_reader.h"
#include "testing/corpus.h"

namespace quiver::parquet {
namespace {

TEST(ParquetFileReader, ProjectsColumnsInTheOrderAsked) {
  QUIVER_CORPUS_OR_SKIP(root);
  auto r = ParquetFileReader::Open((root / "parquet-testing/data/alltypes_plain.parquet").string());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const int id = (*r)->schema()->GetFieldIndex("id");
  const int dbl = (*r)->schema()->GetFieldIndex("double_col");
  auto b = (*r)->ReadRowGroup(0, {dbl, id});
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  ASSERT_EQ((*b)->num_columns(), 2);
  EXPECT_EQ((*b)->schema()->field(0).name, "double_col");
  EXPECT_EQ(ArrayToString((*b)->column(1)), "[4, 5, 6, 7, 2, 3, 0, 1]");
  EXPECT_FALSE((*r)->ReadRowGroup(1).ok());
  EXPECT_FALSE((*r)->ReadRowGroup(0, {99}).ok());
}

TEST(ParquetFileReader, StreamsBatchesOfTheChosenSize) {
  QUIVER_CORPUS_OR_SKIP(root);
  auto r = ParquetFileReader::Open((root / "parquet-testing/data/alltypes_tiny_pages.parquet").string());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto cols = (*r)->ResolveFields({"int_col", "id"});
  ASSERT_TRUE(cols.ok()) << cols.status().ToString();
  EXPECT_FALSE((*r)->ResolveFields({"nope"}).ok());
  auto whole = (*r)->ReadRowGroup(0, *cols);
  ASSERT_TRUE(whole.ok());
  auto stream = (*r)->GetBatchReader({}, *cols, 1000);
  ASSERT_TRUE(stream.ok()) << stream.status().ToString();
  int64_t rows = 0;
  int batches = 0;
  int64_t id_sum = 0, expected_sum = 0;
  for (;;) {
    auto b = (*stream)->Next();
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    if (!*b) break;
    EXPECT_LE((*b)->num_rows(), 1000);
    EXPECT_EQ((*b)->schema()->field(1).name, "id");
    PrimitiveArray<int32_t> ids((*b)->column(1));
    for (int64_t i = 0; i < ids.length(); ++i) id_sum += ids.Value(i);
    rows += (*b)->num_rows();
    ++batches;
  }
  EXPECT_EQ(rows, (*r)->num_rows());
  EXPECT_GE(batches, 8);
  for (int64_t i = 0; i < rows; ++i) expected_sum += i;  // ids are 0..n-1 in some order
  EXPECT_EQ(id_sum, expected_sum);
}

TEST(ParquetFileReader, MemoryLimitGivesOutOfMemory) {
  QUIVER_CORPUS_OR_SKIP(root);
  MemoryTracker tracker("parquet-read", MemoryTracker::Process(), {.limit = 64 * 1024, .quantum = 0});
  TrackedMemoryPool pool(&tracker);
  ParquetReaderOptions opts;
  opts.pool = &pool;
  auto r = ParquetFileReader::Open((root / "parquet-testing/data/alltypes_tiny_pages.parquet").string(), opts);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  Status st;
  for (int g = 0; g < (*r)->num_row_groups() && st.ok(); ++g) {
    auto b = (*r)->ReadRowGroup(g);
    if (!b.ok()) st = b.status();
  }
  EXPECT_TRUE(st.IsOutOfMemory()) << st.ToString();
}

}  // namespace
}  // namespace quiver::parquet

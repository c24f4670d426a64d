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

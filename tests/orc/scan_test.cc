// Pushdown and selection on the ORC examples: stripes skipped by statistics and UTF-8 bloom
// filters only when no row can match, exact row filtering, dotted-path column selection, the
// memory limit's error naming file, stripe and column; the Java writer's bloom filters of an
// earlier layout recognised and never used to exclude.
#include <gtest/gtest.h>

#include <bit>
#include <filesystem>

#include <fmt/format.h>

#include "orc/orc_dump.h"
#include "quiver/core/memory_pool.h"
#include "quiver/orc/format.h"
#include "quiver/orc/reader/file_reader.h"
#include "quiver/stream/orc_scan.h"
#include "testing/corpus.h"

namespace quiver {
namespace {

namespace fs = std::filesystem;

struct ScanResult {
  std::vector<std::string> rows;
  stream::OrcScanCounters counters;
};

Result<ScanResult> Scan(const fs::path& p, stream::OrcScanOptions options) {
  QUIVER_ASSIGN_OR_RETURN(auto file, orc::OrcFileReader::Open(p.string()));
  QUIVER_ASSIGN_OR_RETURN(auto scan, stream::OrcScan::Make(std::shared_ptr<orc::OrcFileReader>(std::move(file)), std::move(options)));
  ScanResult r;
  QUIVER_ASSIGN_OR_RETURN(auto batches, scan->ReadAll());
  for (const auto& b : batches) {
    for (int64_t i = 0; i < b->num_rows(); ++i) r.rows.push_back(testing::OrcDumpRow(*b, i, true));
  }
  r.counters = scan->counters();
  return r;
}

stream::OrcScanOptions Where(std::string column, parquet::CompareOp op, std::string literal, std::vector<std::string> columns = {}) {
  stream::OrcScanOptions o;
  o.columns = std::move(columns);
  o.where = stream::OrcWhere{std::move(column), op, std::move(literal)};
  return o;
}

TEST(OrcScan, FileWithoutIndexStreamsReturnsItsRows) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path dir = root / "orc-examples" / "examples";
  // Declares a row index stride but has no index streams, and its stripe statistics count 0
  // values: Apache ORC C++ returns no rows here.
  auto r = Scan(dir / "TestOrcFile.testSargSkipPickupGroupWithoutIndexJava.orc", Where("x", parquet::CompareOp::kGe, "9998"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->rows, (std::vector<std::string>{R"({"x": 9998, "y": "Last-29994"})", R"({"x": 9999, "y": "Last-29997"})"}));
  EXPECT_EQ(r->counters.stripes_read, 1);
  // The C++ twin (whose last rows hold empty strings, as the reference reader prints them).
  r = Scan(dir / "TestOrcFile.testSargSkipPickupGroupWithoutIndexCPlusPlus.orc", Where("x", parquet::CompareOp::kLt, "2"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->rows.size(), 2u);
  EXPECT_EQ(r->counters.stripes_read, 1);
}

TEST(OrcScan, BadInt64BloomFiltersNeverSkipRows) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path dir = root / "orc-examples" / "examples";
  for (const char* name : {"bad_bloom_filter_1.6.0.orc", "bad_bloom_filter_1.6.11.orc"}) {
    SCOPED_TRACE(name);
    auto r = Scan(dir / name, Where("id", parquet::CompareOp::kEq, "18000000000"));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->rows, (std::vector<std::string>{R"({"id": 18000000000, "name": "Mike"})"}));
  }
}

TEST(OrcScan, Utf8BloomFiltersSkipOnlyAbsentStrings) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path file = root / "orc-examples" / "examples" / "bad_bloom_filter_1.6.11.orc";
  // Every present name is kept (the filter hashes as the writer did)...
  for (const char* v : {"Alice", "Bob", "a", "b", "Mike"}) {
    SCOPED_TRACE(v);
    auto r = Scan(file, Where("name", parquet::CompareOp::kEq, v, {"name"}));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->rows, (std::vector<std::string>{std::string("{\"name\": \"") + v + "\"}"}));
    EXPECT_EQ(r->counters.skipped_by_bloom_filter, 0);
  }
  // ...and one inside [min, max] that is absent is skipped by the filter, not the statistics.
  auto r = Scan(file, Where("name", parquet::CompareOp::kEq, "Mallory"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->rows.empty());
  EXPECT_EQ(r->counters.skipped_by_bloom_filter, 1);
  EXPECT_EQ(r->counters.stripes_read, 0);
}

TEST(OrcScan, StatisticsSkipStripesAndRowsAreExact) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path file = root / "orc-examples" / "examples" / "TestOrcFile.testStripeLevelStats.orc";
  // Three stripes: int1 is 1 in the first 5000 rows, 2 in the next 5000, 3 in the last 1000.
  auto r = Scan(file, Where("int1", parquet::CompareOp::kEq, "2", {"string1"}));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->rows.size(), 5000u);
  EXPECT_EQ(r->rows.front(), R"({"string1": "two"})");
  EXPECT_EQ(r->counters.stripes_read, 1);
  EXPECT_EQ(r->counters.skipped_by_stripe_statistics, 2);
  auto none = Scan(file, Where("int1", parquet::CompareOp::kGt, "3"));
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->rows.empty());
  EXPECT_EQ(none->counters.skipped_by_file_statistics, 3);
}

TEST(OrcScan, DottedPathsReadOnlyTheirSubtree) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path file = root / "orc-examples" / "examples" / "TestOrcFile.test1.orc";
  stream::OrcScanOptions o;
  o.columns = {"middle.list", "int1"};
  auto r = Scan(file, o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->rows.size(), 2u);
  EXPECT_EQ(r->rows[0], R"({"middle": {"list": [{"int1": 1, "string1": "bye"}, {"int1": 2, "string1": "sigh"}]}, "int1": 65536})");
  o.columns = {"middle.nope"};
  auto bad = Scan(file, o);
  EXPECT_EQ(bad.status().ToString(),
            "Invalid: " + file.string() + ": no column 'middle.nope' (the file has boolean1, byte1, short1, int1, long1, float1, "
            "double1, bytes1, string1, middle, list, map)");
}

TEST(OrcScan, MemoryLimitNamesFileStripeAndColumn) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path file = root / "orc-examples" / "examples" / "demo-12-zlib.orc";
  MemoryTracker tracker("orc-test", MemoryTracker::Process(), {.limit = 8 << 20, .quantum = 0});
  TrackedMemoryPool pool(&tracker);
  orc::OrcReaderOptions options;
  options.pool = &pool;
  options.thread_pool = nullptr;
  auto reader = orc::OrcFileReader::Open(file.string(), options);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto sel = (*reader)->Select({"_col1"});
  ASSERT_TRUE(sel.ok());
  auto batch = (*reader)->ReadStripe(0, *sel);
  ASSERT_FALSE(batch.ok());
  EXPECT_TRUE(batch.status().IsOutOfMemory()) << batch.status().ToString();
  EXPECT_EQ(batch.status().message().rfind(file.string() + ": stripe 0: column '_col1': ", 0), 0u) << batch.status().message();
}

// over1k_bloom.orc's BLOOM_FILTER streams hold the Java writer's earlier layout (expected
// entries, false-positive probability, bit words as varints), which the specification's decoding
// took for a filter of 1 word and 10,000 hash functions. Decoded as that layout: 10,000 entries
// at 5%, 975 words (62,400 bits), 4 bits for stripe 1's one value per column; its hashing is not
// the specification's, so it has no hash count and never excludes a value.
TEST(OrcBloomFilters, JavaEarlyLayoutIsDecodedAndNeverExcludes) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path file = root / "orc-examples" / "examples" / "over1k_bloom.orc";
  auto reader = orc::OrcFileReader::Open(file.string());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  int filters = 0;
  for (int stripe = 0; stripe < 2; ++stripe) {
    auto sf = (*reader)->ReadStripeFooter(stripe);
    ASSERT_TRUE(sf.ok());
    for (uint32_t column = 1; column <= 11; ++column) {
      SCOPED_TRACE(fmt::format("stripe {} column {}", stripe, column));
      auto bytes = (*reader)->ReadStream(stripe, *sf, column, orc::format::stream_kind::kBloomFilter);
      ASSERT_TRUE(bytes.ok());
      if (*bytes == nullptr) continue;  // the decimal column has none
      auto index = orc::DecodeBloomFilterIndex((*bytes)->view());
      ASSERT_TRUE(index.ok()) << index.status().ToString();
      ASSERT_EQ(index->bloom_filter.size(), 1u);  // one row group
      const orc::BloomFilter& f = index->bloom_filter[0];
      EXPECT_TRUE(f.early_layout);
      EXPECT_EQ(f.expected_entries, 10000u);
      EXPECT_EQ(f.fpp, 0.05);
      EXPECT_EQ(f.num_hash_functions, 0u);
      ASSERT_EQ(f.bitset.size(), 975u);
      int bits = 0;
      for (uint64_t w : f.bitset) bits += std::popcount(w);
      // Stripe 1: one value in each of the numeric columns 1..6, no value in 8, 9 and 11.
      if (stripe == 1) {
        EXPECT_EQ(bits, column <= 6 ? 4 : 0);
      }
      EXPECT_TRUE(stream::OrcBloomMayContain(f, "bob davidson"));
      EXPECT_TRUE(stream::OrcBloomMayContain(f, "absent"));
      ++filters;
    }
  }
  EXPECT_EQ(filters, 20);
}

}  // namespace
}  // namespace quiver

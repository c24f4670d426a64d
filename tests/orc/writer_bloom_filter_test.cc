// The ORC writer's bloom filter against one Apache ORC C++ 1.6.11 wrote (bad_bloom_filter_1.6.11.orc
// in the ORC examples): the same strings inserted into a filter of the same size give the same
// bits (its ASCII strings hash alike in C++ and Java; its integers carry the pre-ORC-1024 C++
// defect, so they are not compared). Skipped with a message when the corpus is absent.
#include <gtest/gtest.h>

#include "quiver/columnar/array.h"
#include "quiver/orc/format.h"
#include "quiver/orc/reader/file_reader.h"
#include "quiver/orc/writer/bloom_filter_internal.h"
#include "testing/corpus.h"

namespace quiver::orc::writer {
namespace {

TEST(OrcWriterBloomFilter, SizedAsJavaSizesIt) {
  // 10,000 entries at 5%: 62,352 bits rounded past 64 to 62,400, and round(6.24 ln 2) = 4 hash
  // functions (what the C++ writer's filters in the examples hold).
  const OrcBloomFilter f(10000, 0.05);
  EXPECT_EQ(f.words().size(), 975u);
  EXPECT_EQ(f.num_hash_functions(), 4u);
}

TEST(OrcWriterBloomFilter, SameBitsAsTheCppWritersStringFilter) {
  const auto root = testing::TestDataDir();
  if (!root) GTEST_SKIP() << "test corpus not found: set QUIVER_TESTDATA or place it at ../shared/testdata";
  const std::string path = (*root / "orc-examples" / "examples" / "bad_bloom_filter_1.6.11.orc").string();
  auto reader = OrcFileReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto sel = (*reader)->Select({"name"});
  ASSERT_TRUE(sel.ok());
  auto batch = (*reader)->ReadStripe(0, *sel);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  auto sf = (*reader)->ReadStripeFooter(0);
  ASSERT_TRUE(sf.ok());
  auto bytes = (*reader)->ReadStream(0, *sf, 2, format::stream_kind::kBloomFilterUtf8);
  ASSERT_TRUE(bytes.ok());
  ASSERT_NE(*bytes, nullptr);
  auto index = DecodeBloomFilterIndex((*bytes)->view());
  ASSERT_TRUE(index.ok());
  ASSERT_EQ(index->bloom_filter.size(), 1u);  // one row group
  const BloomFilter& cpp = index->bloom_filter[0];
  ASSERT_EQ(cpp.utf8bitset.size(), 7800u);
  ASSERT_EQ(cpp.num_hash_functions, 4u);
  OrcBloomFilter mine(10000, 0.05);
  const BinaryArray names((*batch)->column(0));
  ASSERT_EQ(names.length(), 5);
  for (int64_t i = 0; i < names.length(); ++i) {
    const std::string_view s = names.GetView(i);
    for (char c : s) ASSERT_LT(static_cast<unsigned char>(c), 0x80) << "the C++ defect would show on non-ASCII bytes";
    mine.AddBytes(s.data(), s.size());
  }
  EXPECT_EQ(mine.Bytes(), cpp.utf8bitset);
  // And a filter without them differs: the comparison sees bits.
  EXPECT_NE(OrcBloomFilter(10000, 0.05).Bytes(), cpp.utf8bitset);
}

}  // namespace
}  // namespace quiver::orc::writer

// Encoding: decode(encode(m)) == m for every corpus footer, and encode(decode(bytes))
// reproduces the original bytes except for the writers listed below.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "parquet/corpus_util.h"
#include "quiver/io/file.h"
#include "quiver/parquet/footer.h"
#include "quiver/parquet/metadata_codec.h"
#include "testing/corpus.h"

namespace quiver::parquet {
namespace {

// Files whose footers do not re-encode byte for byte, and why (checked below, so the list
// cannot silently go stale).
const std::map<std::string, std::string>& ByteExactExceptions() {
  static const std::map<std::string, std::string> m = {
      {"data/unknown-logical-type.parquet",
       "a LogicalType union member with an id unknown to the spec is skipped, so it is not re-encoded"},
      {"data/dict-page-offset-zero.parquet",
       "ColumnMetaData field 15 is written as a list of structs where the spec has i32 bloom_filter_length; "
       "a field whose wire type differs from the model is skipped like an unknown field"},
      {"bad_data/ARROW-GH-41317.parquet",
       "a corrupted encodings list declares i16 elements; they are read as i32 (as Thrift's generated readers "
       "do) and written back as i32"},
  };
  return m;
}

TEST(RoundTripTest, EveryCorpusFooter) {
  QUIVER_CORPUS_OR_SKIP(dir);
  int files = 0, exact = 0;
  std::vector<std::string> differing;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir / "parquet-testing")) {
    std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || !(name.ends_with(".parquet") || name.ends_with(".parquet.encrypted"))) continue;
    auto file = io::OpenFile(entry.path().string());
    ASSERT_TRUE(file.ok());
    auto footer = ReadFooter(**file);
    if (!footer.ok()) continue;
    std::string rel = std::filesystem::relative(entry.path(), dir / "parquet-testing").string();
    SCOPED_TRACE(rel);
    ++files;
    const FileMetaData& md = (*footer)->metadata();
    BufferBuilder out;
    ASSERT_TRUE(EncodeFileMetaData(md, &out).ok());
    auto encoded = out.Finish();
    ASSERT_TRUE(encoded.ok());
    // decode(encode(m)) == m
    Arena arena;
    FileMetaData again;
    size_t consumed = 0;
    ASSERT_TRUE(DecodeFileMetaData((*encoded)->span(), &arena, &again, nullptr, &consumed).ok());
    EXPECT_EQ(consumed, static_cast<size_t>((*encoded)->size()));
    EXPECT_TRUE(again == md);
    // encode(decode(bytes)) == bytes
    std::string_view original = (*footer)->footer_bytes()->view();
    original.remove_suffix(static_cast<size_t>((*footer)->trailing_bytes()));
    bool same = (*encoded)->view() == original;
    if (same) {
      ++exact;
    } else {
      differing.push_back(rel);
      if (getenv("SHOW_DIFF")) {
        size_t i = 0;
        std::string_view e = (*encoded)->view();
        while (i < e.size() && i < original.size() && e[i] == original[i]) ++i;
        std::printf("DIFF %s: first difference at byte %zu of %zu (re-encoded %zu)\n", rel.c_str(), i, original.size(), e.size());
      }
    }
  }
  EXPECT_GE(files, 220);
  std::vector<std::string> expected;
  for (const auto& [name, why] : ByteExactExceptions()) expected.push_back(name);
  std::sort(differing.begin(), differing.end());
  EXPECT_EQ(differing, expected);
  std::printf("%d footers round-trip; %d re-encode byte for byte; %zu differ\n", files, exact, differing.size());
}

}  // namespace
}  // namespace quiver::parquet

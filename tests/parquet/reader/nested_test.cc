// Nested columns from hand-built levels: a three-level LIST of optional ints with null, empty
// and null-element rows, and levels that contradict the schema.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "quiver/columnar/pretty_print.h"
#include "quiver/parquet/encoding/rle_bitpacked_internal.h"
#include "quiver/parquet/metadata_codec.h"
#include "quiver/parquet/reader/column_reader_internal.h"
#include "quiver/parquet/reader/nested_internal.h"

namespace quiver::parquet::reader {
namespace {

namespace enc = quiver::parquet::encoding;

std::string Rle(const std::vector<int16_t>& levels, int bit_width) {
  enc::RleBitPackedEncoder e(bit_width);
  EXPECT_TRUE(e.Put(levels.data(), static_cast<int64_t>(levels.size())).ok());
  BufferBuilder b;
  EXPECT_TRUE(e.Finish(&b).ok());
  std::string s(reinterpret_cast<const char*>(b.data()), b.size());
  uint32_t len = static_cast<uint32_t>(s.size());
  return std::string(reinterpret_cast<const char*>(&len), 4) + s;
}

// message { optional group a (LIST) { repeated group list { optional int32 element; } } }
struct ListSchema {
  std::vector<SchemaElement> elements;
  SchemaTree tree;
  ListSchema() : elements(4) {
    elements[0].name = "schema";
    elements[0].num_children = 1;
    elements[1].name = "a";
    elements[1].repetition_type = FieldRepetitionType::OPTIONAL;
    elements[1].num_children = 1;
    elements[1].converted_type = ConvertedType::LIST;
    elements[2].name = "list";
    elements[2].repetition_type = FieldRepetitionType::REPEATED;
    elements[2].num_children = 1;
    elements[3].name = "element";
    elements[3].repetition_type = FieldRepetitionType::OPTIONAL;
    elements[3].type = Type::INT32;
    auto t = SchemaTree::Make(List<SchemaElement>(elements.data(), static_cast<uint32_t>(elements.size())));
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    tree = std::move(*t);
  }
};

Result<Array> Decode(const ListSchema& s, const std::vector<int16_t>& rep, const std::vector<int16_t>& def,
                     const std::vector<int32_t>& values) {
  std::string body = Rle(rep, 1) + Rle(def, 2) +
                     std::string(reinterpret_cast<const char*>(values.data()), values.size() * 4);
  PageHeader h;
  h.type = PageType::DATA_PAGE;
  DataPageHeader d;
  d.num_values = static_cast<int32_t>(rep.size());
  d.encoding = Encoding::PLAIN;
  d.definition_level_encoding = Encoding::RLE;
  d.repetition_level_encoding = Encoding::RLE;
  h.data_page_header = d;
  h.compressed_page_size = h.uncompressed_page_size = static_cast<int32_t>(body.size());
  BufferBuilder chunk;
  QUIVER_RETURN_NOT_OK(EncodePageHeader(h, &chunk));
  QUIVER_RETURN_NOT_OK(chunk.Append(body));
  QUIVER_ASSIGN_OR_RETURN(auto bytes, chunk.Finish());
  const ColumnDescriptor& col = s.tree.columns()[0];
  std::vector<std::unique_ptr<LeafChunk>> leaves(1);
  QUIVER_ASSIGN_OR_RETURN(leaves[0], ReadLeafColumnChunk(col, int32(), bytes, compress::Codec::kUncompressed,
                                                         static_cast<int64_t>(rep.size())));
  const int32_t node = s.tree.root().children[0];
  QUIVER_ASSIGN_OR_RETURN(Field f, s.tree.ToField(node));
  return AssembleNested(s.tree, node, f.type, leaves);
}

TEST(NestedAssembly, ThreeLevelListWithNullsAndEmpties) {
  ListSchema s;
  ASSERT_EQ(s.tree.columns()[0].max_definition_level, 3);
  ASSERT_EQ(s.tree.columns()[0].max_repetition_level, 1);
  // [1, null, 2], null, [], [3]
  auto a = Decode(s, {0, 1, 1, 0, 0, 0}, {3, 2, 3, 0, 1, 3}, {1, 2, 3});
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_EQ(a->length(), 4);
  EXPECT_EQ(a->null_count(), 1);
  EXPECT_EQ(ArrayToString(*a), "[[1, null, 2], null, [], [3]]");
  EXPECT_TRUE(a->Validate().ok()) << a->Validate().ToString();
}

TEST(NestedAssembly, LevelsThatDisagreeWithTheValuesAreCorrupt) {
  ListSchema s;
  // Four present elements by the levels, three values on the page.
  auto a = Decode(s, {0, 1, 1, 1}, {3, 3, 3, 3}, {1, 2, 3});
  ASSERT_FALSE(a.ok());
  EXPECT_TRUE(a.status().IsCorrupt()) << a.status().ToString();
  // The first entry continues a list that never started.
  auto b = Decode(s, {1, 0}, {3, 3}, {1, 2});
  ASSERT_FALSE(b.ok());
  EXPECT_TRUE(b.status().IsCorrupt()) << b.status().ToString();
}

}  // namespace
}  // namespace quiver::parquet::reader

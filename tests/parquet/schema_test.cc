// Schema tree and type mapping on hand-built element lists: levels, the legacy LIST/MAP
// layouts (LogicalTypes.md backward-compatibility rules), INT96, malformed trees; and the
// statistics value printer.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "quiver/parquet/schema.h"
#include "quiver/parquet/statistics.h"

namespace quiver::parquet {
namespace {

using R = FieldRepetitionType;

// Boxed model fields (logical types) live here for the whole test program.
Arena* ModelArena() {
  static Arena arena;
  return &arena;
}

SchemaElement Group(const char* name, R rep, int children, std::optional<ConvertedType> ct = std::nullopt) {
  SchemaElement e;
  e.name = name;
  e.repetition_type = rep;
  e.num_children = children;
  e.converted_type = ct;
  return e;
}
SchemaElement Leaf(const char* name, R rep, Type t, std::optional<ConvertedType> ct = std::nullopt) {
  SchemaElement e;
  e.name = name;
  e.repetition_type = rep;
  e.type = t;
  e.converted_type = ct;
  return e;
}
SchemaElement Root(int children) {
  SchemaElement e;
  e.name = "schema";
  e.num_children = children;
  return e;
}

struct Schema {
  std::vector<SchemaElement> elements;
  List<SchemaElement> list() { return List<SchemaElement>(elements.data(), static_cast<uint32_t>(elements.size())); }
};

std::string TopType(Schema s, int child = 0) {
  auto tree = SchemaTree::Make(s.list());
  if (!tree.ok()) return "error: " + tree.status().message();
  auto fields = tree->ToFields();
  if (!fields.ok()) return "error: " + fields.status().message();
  const Field& f = (*fields)[static_cast<size_t>(child)];
  return f.type->ToString() + (f.nullable ? "" : " not null");
}

TEST(SchemaTreeTest, LevelsAndPaths) {
  Schema s{{Root(2), Group("a", R::OPTIONAL, 1, ConvertedType::LIST), Group("list", R::REPEATED, 1),
            Leaf("element", R::OPTIONAL, Type::INT64), Leaf("b", R::REQUIRED, Type::DOUBLE)}};
  auto tree = SchemaTree::Make(s.list());
  ASSERT_TRUE(tree.ok()) << tree.status().ToString();
  ASSERT_EQ(tree->num_columns(), 2);
  const ColumnDescriptor& c0 = tree->columns()[0];
  EXPECT_EQ(c0.dotted_path(), "a.list.element");
  EXPECT_EQ(c0.max_definition_level, 3);
  EXPECT_EQ(c0.max_repetition_level, 1);
  EXPECT_EQ(tree->columns()[1].max_definition_level, 0);
  EXPECT_EQ(TopType(s), "list<element: int64>");
  EXPECT_EQ(tree->FindNode("a.list"), 2);
  auto sel = tree->ResolveColumns({"b", "a"});
  ASSERT_TRUE(sel.ok());
  EXPECT_EQ(*sel, (std::vector<int32_t>{0, 1}));
}

TEST(SchemaTreeTest, LegacyListForms) {
  // 2-level: repeated primitive inside a LIST group.
  EXPECT_EQ(TopType({{Root(1), Group("a", R::OPTIONAL, 1, ConvertedType::LIST), Leaf("e", R::REPEATED, Type::INT32)}}),
            "list<e: int32 not null>");
  // Repeated group with two fields: the group is the element.
  EXPECT_EQ(TopType({{Root(1), Group("a", R::OPTIONAL, 1, ConvertedType::LIST), Group("e", R::REPEATED, 2),
                      Leaf("x", R::REQUIRED, Type::INT32), Leaf("y", R::OPTIONAL, Type::DOUBLE)}}),
            "list<e: struct<x: int32 not null, y: double> not null>");
  // Repeated group named "array" with one field: the group is the element.
  EXPECT_EQ(TopType({{Root(1), Group("a", R::OPTIONAL, 1, ConvertedType::LIST), Group("array", R::REPEATED, 1),
                      Leaf("x", R::REQUIRED, Type::INT32)}}),
            "list<array: struct<x: int32 not null> not null>");
  // "<name>_tuple" likewise.
  EXPECT_EQ(TopType({{Root(1), Group("a", R::OPTIONAL, 1, ConvertedType::LIST), Group("a_tuple", R::REPEATED, 1),
                      Leaf("x", R::REQUIRED, Type::INT32)}}),
            "list<a_tuple: struct<x: int32 not null> not null>");
  // Unannotated repeated field: a required list of required values.
  EXPECT_EQ(TopType({{Root(1), Leaf("r", R::REPEATED, Type::INT32)}}), "list<r: int32 not null> not null");
}

TEST(SchemaTreeTest, MapsIncludingLegacyMapKeyValue) {
  EXPECT_EQ(TopType({{Root(1), Group("m", R::OPTIONAL, 1, ConvertedType::MAP), Group("key_value", R::REPEATED, 2),
                      Leaf("key", R::REQUIRED, Type::BYTE_ARRAY, ConvertedType::UTF8),
                      Leaf("value", R::OPTIONAL, Type::INT32)}}),
            "map<string, int32>");
  EXPECT_EQ(TopType({{Root(1), Group("m", R::REQUIRED, 1, ConvertedType::MAP_KEY_VALUE), Group("map", R::REPEATED, 2),
                      Leaf("key", R::REQUIRED, Type::INT32), Leaf("value", R::REQUIRED, Type::INT64)}}),
            "map<int32, int64> not null");
  // A map without values becomes the list of its keys.
  EXPECT_EQ(TopType({{Root(1), Group("m", R::OPTIONAL, 1, ConvertedType::MAP), Group("key_value", R::REPEATED, 1),
                      Leaf("key", R::REQUIRED, Type::INT32)}}),
            "list<key: int32 not null>");
}

TEST(SchemaTreeTest, PhysicalAndLogicalMappings) {
  auto leaf_type = [](SchemaElement e) { return TopType({{Root(1), e}}); };
  EXPECT_EQ(leaf_type(Leaf("t", R::OPTIONAL, Type::INT96)), "timestamp[us]");
  SchemaElement ts = Leaf("t", R::OPTIONAL, Type::INT64);
  ts.logicalType.Emplace(ModelArena())->TIMESTAMP.emplace();
  ts.logicalType->TIMESTAMP->isAdjustedToUTC = true;
  ts.logicalType->TIMESTAMP->unit.MICROS.emplace();
  EXPECT_EQ(leaf_type(ts), "timestamp[us, tz=UTC]");
  EXPECT_EQ(leaf_type(Leaf("t", R::OPTIONAL, Type::INT64, ConvertedType::TIMESTAMP_MILLIS)), "timestamp[ms, tz=UTC]");
  EXPECT_EQ(leaf_type(Leaf("u", R::OPTIONAL, Type::INT32, ConvertedType::UINT_16)), "uint16");
  SchemaElement dec = Leaf("d", R::OPTIONAL, Type::FIXED_LEN_BYTE_ARRAY, ConvertedType::DECIMAL);
  dec.type_length = 9;
  dec.precision = 20;
  dec.scale = 3;
  EXPECT_EQ(leaf_type(dec), "decimal128(20, 3)");
  SchemaElement f16 = Leaf("h", R::OPTIONAL, Type::FIXED_LEN_BYTE_ARRAY);
  f16.type_length = 2;
  f16.logicalType.Emplace(ModelArena())->FLOAT16.emplace();
  EXPECT_EQ(leaf_type(f16), "float16");
  EXPECT_EQ(leaf_type(Leaf("s", R::OPTIONAL, Type::BYTE_ARRAY, ConvertedType::UTF8)), "string");
  EXPECT_EQ(leaf_type(Leaf("b", R::OPTIONAL, Type::BYTE_ARRAY)), "binary");
}

TEST(SchemaTreeTest, MalformedTreesAreCorrupt) {
  auto err = [](Schema s) {
    auto t = SchemaTree::Make(s.list());
    return t.ok() ? std::string("ok") : t.status().message();
  };
  EXPECT_EQ(err({{}}), "schema is empty (no root element)");
  EXPECT_EQ(err({{Root(2), Leaf("a", R::REQUIRED, Type::INT32)}}),
            "schema element 'schema' declares 1 more children than the schema holds");
  EXPECT_EQ(err({{Root(1), Leaf("a", R::REQUIRED, Type::INT32), Leaf("b", R::REQUIRED, Type::INT32)}}),
            "schema has 3 elements but its tree ends after 2");
  SchemaElement no_type;
  no_type.name = "x";
  no_type.repetition_type = R::REQUIRED;
  EXPECT_EQ(err({{Root(1), no_type}}), "schema element 'x' has neither a physical type nor children");
  EXPECT_EQ(err({{Root(1), Leaf("f", R::REQUIRED, Type::FIXED_LEN_BYTE_ARRAY)}}),
            "schema element 'f' is FIXED_LEN_BYTE_ARRAY without a positive type_length");
  // 2000 nested groups: refused, no stack overflow.
  Schema deep;
  deep.elements.push_back(Root(1));
  for (int i = 0; i < 2000; ++i) deep.elements.push_back(Group("g", R::OPTIONAL, 1));
  deep.elements.push_back(Leaf("x", R::REQUIRED, Type::INT32));
  EXPECT_EQ(err(deep), "schema nesting deeper than 1000");
}

std::string Fmt(SchemaElement e, std::string bytes) {
  ColumnDescriptor c;
  c.element = &e;
  c.physical_type = *e.type;
  return FormatStatisticsValue(c, bytes);
}

template <typename T>
std::string Raw(T v) {
  std::string s(sizeof(T), '\0');
  std::memcpy(s.data(), &v, sizeof(T));
  return s;
}

TEST(StatisticsFormatTest, ValuesOfTheLogicalType) {
  EXPECT_EQ(Fmt(Leaf("d", R::OPTIONAL, Type::INT32, ConvertedType::DATE), Raw<int32_t>(19000)), "2022-01-08");
  EXPECT_EQ(Fmt(Leaf("d", R::OPTIONAL, Type::INT32, ConvertedType::DATE), Raw<int32_t>(-1)), "1969-12-31");
  SchemaElement ts = Leaf("t", R::OPTIONAL, Type::INT64);
  ts.logicalType.Emplace(ModelArena())->TIMESTAMP.emplace();
  ts.logicalType->TIMESTAMP->unit.NANOS.emplace();
  EXPECT_EQ(Fmt(ts, Raw<int64_t>(-1)), "1969-12-31T23:59:59.999999999");
  // Extremes (found by footer_fuzz on a corpus footer): no overflow.
  EXPECT_EQ(Fmt(ts, Raw<int64_t>(INT64_MIN)), "1677-09-21T00:12:43.145224192");
  SchemaElement ms = Leaf("t", R::OPTIONAL, Type::INT64, ConvertedType::TIMESTAMP_MILLIS);
  EXPECT_EQ(Fmt(ms, Raw<int64_t>(INT64_MIN)), "-292275055-05-16T16:47:04.192Z");
  EXPECT_EQ(Fmt(ms, Raw<int64_t>(INT64_MAX)), "292278994-08-17T07:12:55.807Z");
  SchemaElement dec = Leaf("d", R::OPTIONAL, Type::INT64, ConvertedType::DECIMAL);
  dec.precision = 10;
  dec.scale = 3;
  EXPECT_EQ(Fmt(dec, Raw<int64_t>(-5)), "-0.005");
  SchemaElement fdec = Leaf("d", R::OPTIONAL, Type::FIXED_LEN_BYTE_ARRAY, ConvertedType::DECIMAL);
  fdec.precision = 30;
  fdec.scale = 2;
  EXPECT_EQ(Fmt(fdec, std::string("\xff\xff\xfe\x0c", 4)), "-5.00");
  EXPECT_EQ(Fmt(Leaf("u", R::OPTIONAL, Type::INT32, ConvertedType::UINT_32), Raw<int32_t>(-1)), "4294967295");
  // INT96: nanoseconds of day, then the Julian day (2440589 = 1970-01-02).
  EXPECT_EQ(Fmt(Leaf("i", R::OPTIONAL, Type::INT96), Raw<int64_t>(3600000000001) + Raw<int32_t>(2440589)),
            "1970-01-02T01:00:00.000000001");
  EXPECT_EQ(Fmt(Leaf("b", R::OPTIONAL, Type::BYTE_ARRAY), "\x01\xab"), "0x01ab");
  EXPECT_EQ(Fmt(Leaf("s", R::OPTIONAL, Type::BYTE_ARRAY, ConvertedType::UTF8), "héllo"), "héllo");
  SchemaElement uuid = Leaf("u", R::OPTIONAL, Type::FIXED_LEN_BYTE_ARRAY);
  uuid.type_length = 16;
  uuid.logicalType.Emplace(ModelArena())->UUID.emplace();
  EXPECT_EQ(Fmt(uuid, std::string("\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff", 16)),
            "00112233-4455-6677-8899-aabbccddeeff");
  SchemaElement half = Leaf("h", R::OPTIONAL, Type::FIXED_LEN_BYTE_ARRAY);
  half.type_length = 2;
  half.logicalType.Emplace(ModelArena())->FLOAT16.emplace();
  EXPECT_EQ(Fmt(half, Raw<uint16_t>(0xc000)), "-2");
  EXPECT_EQ(Fmt(Leaf("f", R::OPTIONAL, Type::DOUBLE), Raw<double>(0.1)), "0.1");
  // A value of the wrong size is shown as bytes, not misread.
  EXPECT_EQ(Fmt(Leaf("i", R::OPTIONAL, Type::INT32), "\x01\x02"), "0x0102");
}

}  // namespace
}  // namespace quiver::parquet

#include "quiver/columnar/type.h"

#include <gtest/gtest.h>

#include "quiver/columnar/schema.h"

namespace quiver {
namespace {

TEST(DataType, NamesAndWidths) {
  EXPECT_EQ(int32()->ToString(), "int32");
  EXPECT_EQ(int32()->bit_width(), 32);
  EXPECT_EQ(boolean()->bit_width(), 1);
  EXPECT_EQ(utf8()->bit_width(), 0);
  EXPECT_EQ(decimal128(12, 2)->ToString(), "decimal128(12, 2)");
  EXPECT_EQ(decimal128(12, 2)->byte_width(), 16);
  EXPECT_EQ(timestamp(TimeUnit::kMicro, "UTC")->ToString(), "timestamp[us, tz=UTC]");
  EXPECT_EQ(timestamp(TimeUnit::kNano)->ToString(), "timestamp[ns]");
  EXPECT_EQ(time64(TimeUnit::kNano)->ToString(), "time64[ns]");
  EXPECT_EQ(time32(TimeUnit::kMilli)->ToString(), "time32[ms]");
  EXPECT_EQ(fixed_size_binary(16)->ToString(), "fixed_size_binary[16]");
  EXPECT_EQ(fixed_size_binary(16)->byte_width(), 16);
  EXPECT_EQ(list(int64())->ToString(), "list<item: int64>");
  EXPECT_EQ(struct_({field("a", int8()), field("b", utf8(), false)})->ToString(),
            "struct<a: int8, b: string not null>");
  EXPECT_EQ(map(utf8(), float64())->ToString(), "map<string, double>");
  EXPECT_EQ(map(utf8(), float64())->field(0).type->ToString(), "struct<key: string not null, value: double>");
}

TEST(DataType, EqualityLooksAtParameters) {
  EXPECT_TRUE(int32()->Equals(*int32()));
  EXPECT_FALSE(int32()->Equals(*uint32()));
  EXPECT_TRUE(decimal128(10, 2)->Equals(*decimal128(10, 2)));
  EXPECT_FALSE(decimal128(10, 2)->Equals(*decimal128(10, 3)));
  EXPECT_FALSE(timestamp(TimeUnit::kMicro, "UTC")->Equals(*timestamp(TimeUnit::kMicro)));
  EXPECT_FALSE(timestamp(TimeUnit::kMicro)->Equals(*timestamp(TimeUnit::kMilli)));
  EXPECT_TRUE(list(int32())->Equals(*list(int32())));
  EXPECT_FALSE(list(int32())->Equals(*list(int64())));
  EXPECT_FALSE(list(int32(), true)->Equals(*list(int32(), false)));
  EXPECT_FALSE(struct_({field("a", int8())})->Equals(*struct_({field("b", int8())})));
  EXPECT_FALSE(map(utf8(), int32())->Equals(*map(utf8(), int32(), true, true)));
}

TEST(Schema, LookupAndEquality) {
  Schema s({field("id", int64(), false), field("name", utf8())}, {{"origin", "test"}});
  EXPECT_EQ(s.num_fields(), 2);
  EXPECT_EQ(s.GetFieldIndex("name"), 1);
  EXPECT_EQ(s.GetFieldIndex("missing"), -1);
  EXPECT_EQ(s.ToString(), "id: int64 not null\nname: string\n");
  Schema t({field("id", int64(), false), field("name", utf8())});
  EXPECT_TRUE(s.Equals(t));
  EXPECT_FALSE(s.Equals(t, /*check_metadata=*/true));
}

}  // namespace
}  // namespace quiver

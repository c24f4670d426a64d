#include "quiver/columnar/builder.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "quiver/columnar/pretty_print.h"

namespace quiver {
namespace {

TEST(Builder, NumericWithoutNullsHasNoBitmap) {
  NumericBuilder<int32_t> b(int32());
  for (int32_t i = 0; i < 100; ++i) ASSERT_TRUE(b.Append(i * 3).ok());
  auto a = b.Finish();
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->length(), 100);
  EXPECT_EQ(a->null_count(), 0);
  EXPECT_EQ(a->data()->buffers[0], nullptr);
  PrimitiveArray<int32_t> p(*a);
  EXPECT_EQ(p.Value(0), 0);
  EXPECT_EQ(p.Value(99), 297);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p.raw_values()) % 64, 0u);
  EXPECT_TRUE(a->Validate().ok());
}

TEST(Builder, NullsMaterialiseTheBitmapLate) {
  NumericBuilder<int64_t> b(int64());
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(b.Append(i).ok());
  ASSERT_TRUE(b.AppendNull().ok());
  ASSERT_TRUE(b.Append(7).ok());
  ASSERT_TRUE(b.AppendNulls(3).ok());
  auto a = b.Finish();
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->length(), 25);
  EXPECT_EQ(a->null_count(), 4);
  for (int i = 0; i < 20; ++i) EXPECT_TRUE(a->IsValid(i)) << i;
  EXPECT_TRUE(a->IsNull(20));
  EXPECT_TRUE(a->IsValid(21));
  EXPECT_TRUE(a->IsNull(24));
  EXPECT_EQ(PrimitiveArray<int64_t>(*a).Value(21), 7);
  // The builder is reusable after Finish.
  ASSERT_TRUE(b.Append(5).ok());
  auto again = b.Finish();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->ToString(), "[5]");
}

TEST(Builder, AppendValuesWithValidBytes) {
  NumericBuilder<double> b(float64());
  double v[] = {1.5, 2.5, 3.5, 4.5};
  uint8_t valid[] = {1, 0, 1, 1};
  ASSERT_TRUE(b.AppendValues(v, 4, valid).ok());
  auto a = b.Finish();
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->ToString(), "[1.5, null, 3.5, 4.5]");
}

TEST(Builder, BooleanStringsAndFixed) {
  BooleanBuilder bb;
  ASSERT_TRUE(bb.Append(true).ok());
  ASSERT_TRUE(bb.AppendNull().ok());
  ASSERT_TRUE(bb.Append(false).ok());
  auto ba = bb.Finish();
  ASSERT_TRUE(ba.ok());
  EXPECT_EQ(ba->ToString(), "[true, null, false]");
  EXPECT_EQ(BooleanArray(*ba).true_count(), 1);

  BinaryBuilder sb(utf8());
  ASSERT_TRUE(sb.Append("héllo").ok());
  ASSERT_TRUE(sb.Append("").ok());
  ASSERT_TRUE(sb.AppendNull().ok());
  ASSERT_TRUE(sb.Append("a\"b").ok());
  auto sa = sb.Finish();
  ASSERT_TRUE(sa.ok());
  BinaryArray s(*sa);
  EXPECT_EQ(s.GetView(0), "héllo");
  EXPECT_EQ(s.GetView(1), "");
  EXPECT_EQ(s.GetView(3), "a\"b");
  EXPECT_EQ(s.raw_offsets()[4], 9);
  EXPECT_EQ(sa->ToString(), "[\"héllo\", \"\", null, \"a\\\"b\"]");

  FixedSizeBinaryBuilder fb(fixed_size_binary(2));
  ASSERT_TRUE(fb.Append(std::string_view("\x01\x02", 2)).ok());
  EXPECT_EQ(fb.Append("abc").message(), "fixed_size_binary[2] value of 3 bytes");
  auto fa = fb.Finish();
  ASSERT_TRUE(fa.ok());
  EXPECT_EQ(fa->ToString(), "[0x0102]");
}

TEST(Builder, NestedListStructMap) {
  auto type = list(struct_({field("x", int32()), field("tags", map(utf8(), int64()))}));
  auto b = MakeBuilder(type);
  ASSERT_TRUE(b.ok());
  auto* lb = static_cast<ListBuilder*>(b->get());
  auto* sb = static_cast<StructBuilder*>(lb->value_builder());
  auto* xb = static_cast<NumericBuilder<int32_t>*>(sb->field_builder(0));
  auto* mb = static_cast<MapBuilder*>(sb->field_builder(1));
  // row 0: [{x: 1, tags: {"a": 10}}, null]
  ASSERT_TRUE(lb->Append().ok());
  ASSERT_TRUE(sb->Append().ok());
  ASSERT_TRUE(xb->Append(1).ok());
  ASSERT_TRUE(mb->Append().ok());
  ASSERT_TRUE(static_cast<BinaryBuilder*>(mb->key_builder())->Append("a").ok());
  ASSERT_TRUE(static_cast<NumericBuilder<int64_t>*>(mb->item_builder())->Append(10).ok());
  ASSERT_TRUE(sb->AppendNull().ok());
  // row 1: null; row 2: []
  ASSERT_TRUE(lb->AppendNull().ok());
  ASSERT_TRUE(lb->Append().ok());
  auto a = lb->Finish();
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  EXPECT_TRUE(a->Validate().ok());
  EXPECT_EQ(a->ToString(), "[[{x: 1, tags: {\"a\": 10}}, null], null, []]");
  ListArray l(*a);
  EXPECT_EQ(l.value_length(0), 2);
  EXPECT_EQ(l.value_length(1), 0);
  EXPECT_EQ(l.value_offset(2), 2);
}

TEST(Builder, StructChildrenMustAlign) {
  StructBuilder sb(struct_({field("a", int32())}), {});
  auto b = MakeBuilder(struct_({field("a", int32())}));
  ASSERT_TRUE(b.ok());
  auto* s = static_cast<StructBuilder*>(b->get());
  ASSERT_TRUE(s->Append().ok());
  auto r = s->Finish();
  EXPECT_EQ(r.status().message(), "struct field 'a' has 0 values for 1 structs");
}

TEST(Array, SliceEqualsAndValidate) {
  NumericBuilder<int16_t> b(int16());
  for (int16_t i = 0; i < 10; ++i) ASSERT_TRUE(i % 3 == 0 ? b.AppendNull().ok() : b.Append(i).ok());
  auto a = b.Finish();
  ASSERT_TRUE(a.ok());
  Array s = a->Slice(2, 5);
  EXPECT_EQ(s.ToString(), "[2, null, 4, 5, null]");
  EXPECT_EQ(s.null_count(), 2);
  NumericBuilder<int16_t> c(int16());
  ASSERT_TRUE(c.Append(2).ok());
  ASSERT_TRUE(c.AppendNull().ok());
  ASSERT_TRUE(c.Append(4).ok());
  ASSERT_TRUE(c.Append(5).ok());
  ASSERT_TRUE(c.AppendNull().ok());
  auto expected = c.Finish();
  ASSERT_TRUE(expected.ok());
  EXPECT_TRUE(s.Equals(*expected));
  EXPECT_FALSE(a->Slice(1, 5).Equals(*expected));

  // A truncated values buffer is caught.
  auto broken = std::make_shared<ArrayData>(*a->data());
  broken->buffers[1] = Buffer::Slice(broken->buffers[1], 0, 4);
  EXPECT_EQ(Array(broken).Validate().message(), "int16 array: values buffer holds 4 bytes, needs 20");

  // An empty string array's one offset must lie within its data too: writers copy from it.
  BinaryBuilder t(utf8());
  ASSERT_TRUE(t.Append("abc").ok());
  auto strings = t.Finish();
  ASSERT_TRUE(strings.ok());
  EXPECT_TRUE(strings->Slice(1, 0).Validate().ok());  // offset 3 of 3 bytes
  auto far = std::make_shared<ArrayData>(*strings->data());
  far->length = 0;
  auto offsets = Buffer::Allocate(4);
  ASSERT_TRUE(offsets.ok());
  const int32_t past = 1000;
  std::memcpy((*offsets)->mutable_data(), &past, 4);
  far->buffers[1] = *offsets;
  far->null_count = 0;
  far->buffers[0] = nullptr;
  EXPECT_EQ(Array(far).Validate().message(), "string array: offset 1000 at slot 0 lies outside the data size 3");
}

TEST(Array, FloatEqualityTreatsNaNAsEqual) {
  NumericBuilder<double> a(float64()), b(float64());
  ASSERT_TRUE(a.Append(std::nan("")).ok());
  ASSERT_TRUE(b.Append(std::nan("")).ok());
  auto x = a.Finish(), y = b.Finish();
  EXPECT_TRUE(x->Equals(*y));
}

}  // namespace
}  // namespace quiver

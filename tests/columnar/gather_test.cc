// Take and GatherBuilder: chosen rows of fixed-width, boolean and string arrays (offsets and
// nulls honoured), rows from several arrays in turn, and the errors.
#include <gtest/gtest.h>

#include "quiver/columnar/builder.h"
#include "quiver/columnar/gather.h"

namespace quiver {
namespace {

TEST(Gather, TakeFixedWidthBooleanAndStringsWithNullsFromASlice) {
  NumericBuilder<int64_t> i(int64());
  BooleanBuilder b;
  BinaryBuilder s(utf8());
  for (int k = 0; k < 40; ++k) {
    ASSERT_TRUE((k % 5 == 0 ? i.AppendNull() : i.Append(k * 10)).ok());
    ASSERT_TRUE(b.Append(k % 4 == 0).ok());
    ASSERT_TRUE((k % 7 == 0 ? s.AppendNull() : s.Append(std::string(static_cast<size_t>(k % 20), 'a' + k % 26))).ok());
  }
  const std::vector<int32_t> rows = {0, 4, 2, 2, 29};
  auto ti = Take(i.Finish()->Slice(3, 30), rows);
  ASSERT_TRUE(ti.ok()) << ti.status().ToString();
  EXPECT_EQ(ti->ToString(), "[30, 70, null, null, 320]");
  EXPECT_EQ(ti->null_count(), 2);
  auto tb = Take(b.Finish()->Slice(3, 30), rows);
  ASSERT_TRUE(tb.ok());
  EXPECT_EQ(tb->ToString(), "[false, false, false, false, true]");
  EXPECT_EQ(tb->null_count(), 0);
  auto ts = Take(s.Finish()->Slice(3, 30), rows);
  ASSERT_TRUE(ts.ok());
  EXPECT_EQ(ts->ToString(), "[\"ddd\", null, \"fffff\", \"fffff\", \"gggggggggggg\"]");
}

TEST(Gather, BuilderAppendsFromSeveralArraysThenStartsOver) {
  BinaryBuilder a(utf8()), c(utf8());
  for (const char* v : {"one", "two", "three"}) ASSERT_TRUE(a.Append(v).ok());
  for (const char* v : {"a long string of more than sixteen bytes", "x"}) ASSERT_TRUE(c.Append(v).ok());
  const Array first = *a.Finish(), second = *c.Finish();
  GatherBuilder g(utf8());
  const std::vector<int32_t> r1 = {2, 0}, r2 = {0, 1, 0};
  ASSERT_TRUE(g.Append(*first.data(), r1).ok());
  ASSERT_TRUE(g.Append(*second.data(), r2).ok());
  EXPECT_EQ(g.length(), 5);
  auto out = g.Finish();
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->ToString(),
            "[\"three\", \"one\", \"a long string of more than sixteen bytes\", \"x\", "
            "\"a long string of more than sixteen bytes\"]");
  EXPECT_EQ(out->data()->buffers[0], nullptr);  // no nulls, no validity
  EXPECT_EQ(g.length(), 0);
  auto empty = g.Finish();
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->ToString(), "[]");
}

// No rows from an array adds nothing, before or after other rows (under UBSan, an empty
// append into buffers not yet allocated copied zero bytes into null).
TEST(Gather, AppendingNoRowsAddsNothing) {
  BinaryBuilder a(utf8());
  ASSERT_TRUE(a.Append("one").ok());
  const Array first = *a.Finish();
  GatherBuilder g(utf8());
  const std::vector<int32_t> none, r = {0};
  ASSERT_TRUE(g.Append(*first.data(), none).ok());
  EXPECT_EQ(g.length(), 0);
  ASSERT_TRUE(g.Append(*first.data(), r).ok());
  ASSERT_TRUE(g.Append(*first.data(), none).ok());
  auto out = g.Finish();
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->ToString(), "[\"one\"]");
  EXPECT_TRUE(out->Validate().ok());
  ASSERT_TRUE(g.Append(*first.data(), none).ok());
  auto empty = g.Finish();
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->length(), 0);
  EXPECT_TRUE(empty->Validate().ok()) << empty->Validate().ToString();
  EXPECT_EQ(empty->data()->buffers[1]->size(), 4);  // one offset
}

TEST(Gather, ErrorsNameTheIndexOrTheType) {
  NumericBuilder<int32_t> i(int32());
  ASSERT_TRUE(i.Append(1).ok());
  const std::vector<int32_t> bad = {0, 1};
  EXPECT_EQ(Take(*i.Finish(), bad).status().message(), "take: index 1 outside an array of 1 rows");
  ListBuilder l(list(int64()), std::make_unique<NumericBuilder<int64_t>>(int64()));
  ASSERT_TRUE(l.Append().ok());
  const std::vector<int32_t> zero = {0};
  const Status st = Take(*l.Finish(), zero).status();
  EXPECT_TRUE(st.IsNotImplemented());
  EXPECT_EQ(st.message(), "gathering rows of a list<item: int64> column");
}

}  // namespace
}  // namespace quiver

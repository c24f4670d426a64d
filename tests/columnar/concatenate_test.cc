// Concatenation of plain columns: values, nulls and what the parts' producers vouched for.
#include <gtest/gtest.h>

#include "quiver/columnar/builder.h"
#include "quiver/columnar/concatenate.h"

namespace quiver {
namespace {

Array Strings(std::initializer_list<const char*> values, bool checked) {
  BinaryBuilder b(utf8());
  for (const char* v : values) {
    Status st = v == nullptr ? b.AppendNull() : b.Append(v);
    EXPECT_TRUE(st.ok()) << st.ToString();
  }
  Array a = *b.Finish();
  a.data()->utf8_checked = checked;
  return a;
}

// The joined bytes are the parts' values, so a string column stays checked UTF-8 (and the Parquet
// writer skips its check) only when every part was.
TEST(Concatenate, StringsStayUtf8CheckedOnlyWhenEveryPartWas) {
  const Array a = Strings({"caf\xc3\xa9", nullptr}, true);
  const Array b = Strings({"x", "yz"}, true);
  const Array c = Strings({"w"}, false);
  auto both = Concatenate({a, b.Slice(1, 1)});
  ASSERT_TRUE(both.ok()) << both.status().ToString();
  EXPECT_EQ(both->ToString(), "[\"caf\xc3\xa9\", null, \"yz\"]");
  EXPECT_TRUE(both->data()->utf8_checked);
  auto mixed = Concatenate({a, c});
  ASSERT_TRUE(mixed.ok()) << mixed.status().ToString();
  EXPECT_EQ(mixed->ToString(), "[\"caf\xc3\xa9\", null, \"w\"]");
  EXPECT_FALSE(mixed->data()->utf8_checked);
}

}  // namespace
}  // namespace quiver

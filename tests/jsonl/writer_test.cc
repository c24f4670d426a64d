#include "quiver/jsonl/writer.h"

#include <gtest/gtest.h>

#include <cmath>

#include "quiver/columnar/builder.h"
#include "quiver/io/output_stream.h"

namespace quiver::jsonl {
namespace {

TEST(JsonlWriter, TypesNullsNestingAndEscapes) {
  NumericBuilder<int64_t> ids(int64());
  NumericBuilder<double> xs(float64());
  BinaryBuilder names(utf8());
  NumericBuilder<int32_t> days(date32());
  auto list_b = MakeBuilder(list(int32()));
  auto* lb = static_cast<ListBuilder*>(list_b->get());
  ASSERT_TRUE(ids.Append(1).ok());
  ASSERT_TRUE(ids.AppendNull().ok());
  ASSERT_TRUE(xs.Append(2.5).ok());
  ASSERT_TRUE(xs.Append(std::nan("")).ok());
  ASSERT_TRUE(names.Append("a \"q\"\n\x01").ok());
  ASSERT_TRUE(names.Append("é").ok());
  ASSERT_TRUE(days.Append(19782).ok());
  ASSERT_TRUE(days.AppendNull().ok());
  ASSERT_TRUE(lb->Append().ok());
  ASSERT_TRUE(static_cast<NumericBuilder<int32_t>*>(lb->value_builder())->Append(7).ok());
  ASSERT_TRUE(lb->value_builder()->AppendNull().ok());
  ASSERT_TRUE(lb->AppendNull().ok());
  auto schema = std::make_shared<const Schema>(std::vector<Field>{
      field("id", int64()), field("x", float64()), field("name", utf8()), field("day", date32()), field("l", list(int32()))});
  auto batch = RecordBatch::Make(schema, {*ids.Finish(), *xs.Finish(), *names.Finish(), *days.Finish(), *lb->Finish()});
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  io::BufferOutputStream out;
  JsonlWriter w(&out);
  ASSERT_TRUE(w.Write(**batch).ok());
  EXPECT_EQ((*out.Finish())->view(),
            "{\"id\":1,\"x\":2.5,\"name\":\"a \\\"q\\\"\\n\\u0001\",\"day\":\"2024-02-29\",\"l\":[7,null]}\n"
            "{\"id\":null,\"x\":\"NaN\",\"name\":\"é\",\"day\":null,\"l\":null}\n");
}

}  // namespace
}  // namespace quiver::jsonl

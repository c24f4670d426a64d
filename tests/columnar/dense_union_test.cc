// The dense union: its type, validation, printing as table, CSV and JSON Lines (the active
// member's value), slicing, concatenation and the Arrow C Data Interface (`+ud:`), where its
// own validity is dropped and a null slot reads as its null member entry.
#include <gtest/gtest.h>

#include "quiver/columnar/c_data_interface.h"
#include "quiver/columnar/concatenate.h"
#include "quiver/columnar/pretty_print.h"
#include "quiver/csv/writer.h"
#include "quiver/io/output_stream.h"
#include "quiver/jsonl/writer.h"
#include "testing/dense_union.h"

namespace quiver {
namespace {

using testing::SmallUnion;
using testing::SmallUnionType;

TEST(DenseUnion, TypeNamesItsMembersAndCodes) {
  const TypePtr t = SmallUnionType();
  EXPECT_EQ(t->ToString(), "dense_union<a: int32=5, b: string=7>");
  EXPECT_TRUE(t->is_nested());
  EXPECT_EQ(t->ChildOfCode(7), 1);
  EXPECT_EQ(t->ChildOfCode(6), -1);
  EXPECT_TRUE(t->Equals(*SmallUnionType()));
  EXPECT_FALSE(t->Equals(*dense_union({field("a", int32()), field("b", utf8())})));  // codes 0, 1
  EXPECT_EQ(dense_union({field("a", int32()), field("b", utf8())})->ToString(), "dense_union<a: int32=0, b: string=1>");
  EXPECT_EQ(*ArrowFormatString(*t), "+ud:5,7");
}

TEST(DenseUnion, ValidateChecksCodesOffsetsAndNullSlots) {
  ASSERT_TRUE(SmallUnion().Validate().ok()) << SmallUnion().Validate().ToString();
  Array bad_code = SmallUnion();
  bad_code.data()->buffers[1]->mutable_data()[4] = 6;
  EXPECT_EQ(bad_code.Validate().message(), "dense_union<a: int32=5, b: string=7> array: slot 4 has type code 6, no member's");
  Array bad_offset = SmallUnion();
  bad_offset.data()->buffers[2]->mutable_data_as<int32_t>()[4] = 2;
  EXPECT_EQ(bad_offset.Validate().message(),
            "dense_union<a: int32=5, b: string=7> array: slot 4 has offset 2 outside its member's 2 entries");
  Array null_on_value = SmallUnion();
  null_on_value.data()->buffers[2]->mutable_data_as<int32_t>()[3] = 0;
  EXPECT_EQ(null_on_value.Validate().message(),
            "dense_union<a: int32=5, b: string=7> array: null slot 3 points at a value of its member");
}

TEST(DenseUnion, PrintsTheActiveMembersValue) {
  const Array u = SmallUnion();
  EXPECT_EQ(u.ToString(), "[10, \"x\", 20, null, \"y\", null]");
  EXPECT_EQ(FormatValue(u, 1), "x");
  EXPECT_EQ(u.Slice(1, 3).ToString(), "[\"x\", 20, null]");
  std::string json;
  for (int64_t i = 0; i < u.length(); ++i) {
    jsonl::AppendJsonValue(u, i, &json);
    json += ' ';
  }
  EXPECT_EQ(json, "10 \"x\" 20 null \"y\" null ");
  EXPECT_FALSE(DenseUnionIsNullMember(u, 0));
  EXPECT_TRUE(DenseUnionIsNullMember(u, 5));
  // CSV: the value, or the null string for a null union and for a null member value alike.
  auto schema = std::make_shared<Schema>(std::vector<Field>{field("u", u.type())});
  io::BufferOutputStream out;
  csv::CsvWriter w(&out, {',', true, "NA"});
  ASSERT_TRUE(w.Write(RecordBatch(schema, u.length(), {u})).ok());
  EXPECT_EQ((*out.Finish())->view(), "u\n10\nx\n20\nNA\ny\nNA\n");
}

TEST(DenseUnion, ConcatenatesMembersAndShiftsOffsets) {
  const Array u = SmallUnion();
  const Array v = SmallUnion();  // member a's values 11 and 21: each part's offsets index its own members
  v.data()->children[0]->buffers[1]->mutable_data_as<int32_t>()[0] = 11;
  v.data()->children[0]->buffers[1]->mutable_data_as<int32_t>()[1] = 21;
  auto joined = Concatenate({u.Slice(3, 3), v, u.Slice(0, 2)});
  ASSERT_TRUE(joined.ok()) << joined.status().ToString();
  ASSERT_TRUE(joined->Validate().ok()) << joined->Validate().ToString();
  EXPECT_EQ(joined->ToString(), "[null, \"y\", null, 11, \"x\", 21, null, \"y\", null, 10, \"x\"]");
  EXPECT_EQ(joined->null_count(), 2);
  auto empty = ConcatenateBatches(std::make_shared<Schema>(std::vector<Field>{field("u", u.type())}), {});
  ASSERT_TRUE(empty.ok()) << empty.status().ToString();
  EXPECT_EQ((*empty)->column(0).length(), 0);
  EXPECT_TRUE((*empty)->column(0).Validate().ok());
}

TEST(DenseUnion, CDataExportHasNoValidityAndImportsBack) {
  const Array u = SmallUnion().Slice(1, 5);
  ArrowSchema schema;
  ArrowArray array;
  ASSERT_TRUE(ExportType(*u.type(), &schema).ok());
  ASSERT_TRUE(ExportArray(u, &array).ok());
  EXPECT_STREQ(schema.format, "+ud:5,7");
  EXPECT_EQ(schema.n_children, 2);
  EXPECT_EQ(array.n_buffers, 2);  // type codes and offsets: Arrow unions have no validity
  EXPECT_EQ(array.null_count, 0);
  EXPECT_EQ(array.offset, 1);
  EXPECT_EQ(array.n_children, 2);
  auto back = ImportArray(&array, &schema);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_TRUE(back->type()->Equals(*u.type()));
  EXPECT_EQ(back->ToString(), u.ToString());
  EXPECT_EQ(back->null_count(), 0);  // the null slot is now its member's null entry
  EXPECT_TRUE(DenseUnionIsNullMember(*back, 2));
}

TEST(DenseUnion, CDataImportRefusesBadFormats) {
  auto try_format = [](const char* format) {
    ArrowSchema child;
    EXPECT_TRUE(ExportType(*int32(), &child).ok());
    ArrowSchema* children[] = {&child};
    ArrowSchema s{};
    s.format = format;
    s.name = "";
    s.n_children = 1;
    s.children = children;
    s.release = [](ArrowSchema* x) { x->release = nullptr; };
    auto t = ImportType(&s);
    child.release(&child);
    return t.ok() ? (*t)->ToString() : t.status().ToString();
  };
  EXPECT_EQ(try_format("+ud:3"), "dense_union<: int32=3>");
  EXPECT_EQ(try_format("+ud:128"), "Invalid: Arrow format '+ud:128': type code 128 outside 0..127");
  EXPECT_EQ(try_format("+ud:1,2"), "Invalid: Arrow format '+ud:1,2' needs 2 children, has 1");
  EXPECT_EQ(try_format("+us:1"), "NotImplemented: Arrow format '+us:1': sparse unions are not supported (quiver's unions are dense)");
}

}  // namespace
}  // namespace quiver

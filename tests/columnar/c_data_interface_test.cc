#include "quiver/columnar/c_data_interface.h"

#include <gtest/gtest.h>

#include "quiver/columnar/pretty_print.h"
#include "testing/random_array.h"

namespace quiver {
namespace {

std::vector<TypePtr> AllTypes() {
  return {boolean(), int8(), int16(), int32(), int64(), uint8(), uint16(), uint32(), uint64(),
          float16(), float32(), float64(), decimal128(38, 10), decimal128(9, 2), date32(),
          time32(TimeUnit::kSecond), time32(TimeUnit::kMilli), time64(TimeUnit::kMicro), time64(TimeUnit::kNano),
          timestamp(TimeUnit::kSecond), timestamp(TimeUnit::kMilli, "UTC"), timestamp(TimeUnit::kMicro, "Europe/Paris"),
          timestamp(TimeUnit::kNano), utf8(), binary(), fixed_size_binary(5),
          list(int32()), list(utf8(), false), list(list(float64())),
          struct_({field("a", int64()), field("b", utf8(), false), field("c", list(boolean()))}),
          map(utf8(), int32()), map(int64(), struct_({field("x", float32())}), true, true),
          struct_({field("m", map(utf8(), list(date32()))), field("s", struct_({field("d", decimal128(20, 4))}))})};
}

Array RoundTrip(const Array& in) {
  ArrowSchema schema;
  ArrowArray array;
  EXPECT_TRUE(ExportType(*in.type(), &schema).ok());
  EXPECT_TRUE(ExportArray(in, &array).ok());
  auto out = ImportArray(&array, &schema);
  EXPECT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_EQ(array.release, nullptr);   // moved into quiver
  EXPECT_EQ(schema.release, nullptr);  // released after import
  return out.ok() ? *out : Array();
}

class CDataRoundTrip : public ::testing::TestWithParam<size_t> {};

TEST_P(CDataRoundTrip, EveryTypeWithNullsAndSlices) {
  TypePtr type = AllTypes()[GetParam()];
  testing::RandomArrays gen(1234 + GetParam());
  for (double nulls : {0.0, 0.3, 1.0}) {
    Array a = gen.Make(type, 257, nulls);
    ASSERT_TRUE(a.Validate().ok()) << a.Validate().ToString();
    Array back = RoundTrip(a);
    ASSERT_TRUE(back.data());
    EXPECT_TRUE(back.type()->Equals(*type)) << back.type()->ToString();
    EXPECT_TRUE(back.Equals(a)) << type->ToString() << "\n" << ArrayToString(a, 10) << "\n" << ArrayToString(back, 10);
    EXPECT_EQ(back.null_count(), a.null_count());
    // Slices carry their offset through the interface.
    for (auto [off, len] : {std::pair<int64_t, int64_t>{3, 100}, {64, 0}, {250, 7}}) {
      Array s = a.Slice(off, len);
      Array sb = RoundTrip(s);
      EXPECT_EQ(sb.offset(), off);
      EXPECT_TRUE(sb.Equals(s)) << type->ToString() << " slice " << off << "+" << len;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllTypes, CDataRoundTrip, ::testing::Range<size_t>(0, 33),
                         [](const auto& info) {
                           std::string n = AllTypes()[info.param]->ToString();
                           std::string out;
                           for (char c : n) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return std::to_string(info.param) + "_" + out;
                         });

TEST(CData, AllTypesCovered) { EXPECT_EQ(AllTypes().size(), 33u); }

TEST(CData, FormatStrings) {
  EXPECT_EQ(*ArrowFormatString(*decimal128(12, 2)), "d:12,2");
  EXPECT_EQ(*ArrowFormatString(*timestamp(TimeUnit::kMicro, "UTC")), "tsu:UTC");
  EXPECT_EQ(*ArrowFormatString(*timestamp(TimeUnit::kNano)), "tsn:");
  EXPECT_EQ(*ArrowFormatString(*fixed_size_binary(16)), "w:16");
  EXPECT_EQ(*ArrowFormatString(*map(utf8(), int8())), "+m");
  EXPECT_EQ(*ArrowFormatString(*float16()), "e");
}

TEST(CData, SchemaWithMetadataRoundTrips) {
  Schema s({field("id", int64(), false, {{"k", "v"}}), field("tags", list(utf8()))}, {{"origin", "quiver"}, {"x", ""}});
  ArrowSchema c;
  ASSERT_TRUE(ExportSchema(s, &c).ok());
  EXPECT_STREQ(c.format, "+s");
  EXPECT_EQ(c.n_children, 2);
  EXPECT_STREQ(c.children[0]->name, "id");
  EXPECT_EQ(c.children[0]->flags & ARROW_FLAG_NULLABLE, 0);
  EXPECT_EQ(c.children[1]->flags & ARROW_FLAG_NULLABLE, ARROW_FLAG_NULLABLE);
  auto back = ImportSchema(&c);
  ASSERT_TRUE(back.ok());
  EXPECT_TRUE((*back)->Equals(s, /*check_metadata=*/true));
  EXPECT_EQ((*back)->field(0).metadata, (KeyValueMetadata{{"k", "v"}}));
}

TEST(CData, RecordBatchRoundTripAndBuffersOutliveTheBatch) {
  MemoryTracker tracker("cdata-test", MemoryTracker::Process(), {MemoryTracker::kNoLimit, 0});
  TrackedMemoryPool pool(&tracker);
  testing::RandomArrays gen(7);
  auto schema = std::make_shared<const Schema>(std::vector<Field>{field("a", int32()), field("b", utf8())});
  ArrowArray c;
  {
    auto ba = MakeBuilder(int32(), &pool);
    auto bb = MakeBuilder(utf8(), &pool);
    for (int i = 0; i < 1000; ++i) {
      ASSERT_TRUE(static_cast<NumericBuilder<int32_t>*>(ba->get())->Append(i).ok());
      ASSERT_TRUE(static_cast<BinaryBuilder*>(bb->get())->Append(std::to_string(i)).ok());
    }
    auto batch = RecordBatch::Make(schema, {*(*ba)->Finish(), *(*bb)->Finish()});
    ASSERT_TRUE(batch.ok());
    ASSERT_TRUE(ExportRecordBatch(*(*batch)->Slice(10, 500), &c).ok());
    EXPECT_GT(tracker.current_bytes(), 0);
  }
  // The quiver batch is gone; the exported struct keeps its buffers alive.
  EXPECT_GT(tracker.current_bytes(), 4000);
  EXPECT_EQ(c.length, 500);
  EXPECT_EQ(c.n_children, 2);
  EXPECT_EQ(c.children[0]->offset, 10);
  EXPECT_EQ(static_cast<const int32_t*>(c.children[0]->buffers[1])[10], 10);
  auto back = ImportRecordBatch(&c, schema);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ((*back)->num_rows(), 500);
  EXPECT_EQ(FormatValue((*back)->column(1), 0), "10");
  EXPECT_EQ(FormatValue((*back)->column(0), 499), "509");
  back = Status::Cancelled("drop");
  // Releasing the last reference frees every byte.
  EXPECT_EQ(tracker.current_bytes(), 0);
}

TEST(CData, ImportRejectsMalformedArrays) {
  NumericBuilder<int32_t> b(int32());
  ASSERT_TRUE(b.Append(1).ok());
  Array a = *b.Finish();
  ArrowArray c;
  ASSERT_TRUE(ExportArray(a, &c).ok());
  auto r = ImportArray(&c, utf8());  // wrong type: 2 buffers for a 3-buffer layout
  EXPECT_EQ(r.status().message(), "Arrow array of string has 2 buffers, expected 3");
  EXPECT_EQ(c.release, nullptr);

  BinaryBuilder sb(utf8());
  ASSERT_TRUE(sb.Append("ab").ok());
  ASSERT_TRUE(sb.Append("c").ok());
  Array strings = *sb.Finish();
  ASSERT_TRUE(ExportArray(strings, &c).ok());
  static const int32_t bad_offsets[] = {0, 3, 2};
  c.buffers[1] = bad_offsets;
  r = ImportArray(&c, utf8());
  EXPECT_EQ(r.status().message(), "imported Arrow array: string array: offsets decrease or are negative at slot 1");

  ASSERT_TRUE(ExportArray(a, &c).ok());
  c.offset = -1;
  EXPECT_EQ(ImportArray(&c, int32()).status().message(), "Arrow array with negative length or offset");
}

TEST(CData, ImportRejectsUnknownFormats) {
  ArrowSchema s;
  ASSERT_TRUE(ExportType(*int32(), &s).ok());
  s.format = "+w:4";  // fixed-size list: not a quiver type
  auto r = ImportType(&s);
  EXPECT_TRUE(r.status().IsNotImplemented());
  EXPECT_EQ(r.status().message(), "Arrow format '+w:4' is not supported");
  EXPECT_EQ(s.release, nullptr);
  ASSERT_TRUE(ExportType(*int32(), &s).ok());
  s.format = "d:40,2";
  EXPECT_EQ(ImportType(&s).status().message(), "Arrow format 'd:40,2': bad precision or scale");
}

}  // namespace
}  // namespace quiver

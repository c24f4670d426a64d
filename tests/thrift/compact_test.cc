// Compact protocol primitives and the table-driven struct codec, including hostile input:
// oversized lengths and counts, deep nesting, bad varints, missing required fields.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "quiver/parquet/metadata_codec.h"
#include "quiver/parquet/metadata_fields_internal.h"
#include "quiver/thrift/compact_reader_internal.h"
#include "quiver/thrift/compact_writer_internal.h"

namespace quiver::thrift {
namespace {

using parquet::FileMetaData;

std::string Bytes(std::initializer_list<int> v) {
  std::string s;
  for (int b : v) s.push_back(static_cast<char>(b));
  return s;
}

// Encodes `in`, decodes the bytes (kept in `bytes`, which the decoded strings view) into `back`
// (lists and boxes in `arena`), and checks that every byte was read and the result equals `in`.
template <typename T>
void RoundTrip(const T& in, BufferBuilder* bytes, Arena* arena, T* back) {
  {
    CompactWriter w(bytes);
    ASSERT_TRUE(EncodeStruct(w, in));
  }
  CompactReader r(bytes->data(), static_cast<size_t>(bytes->size()));
  DecodeAll ctx{arena};
  ASSERT_TRUE(DecodeStruct(r, ctx, *back));
  EXPECT_EQ(r.offset(), static_cast<size_t>(bytes->size()));
  EXPECT_TRUE(*back == in);
}

Status DecodeFmd(const std::string& bytes, FileMetaData* out = nullptr) {
  Arena arena;
  FileMetaData md;
  return parquet::DecodeFileMetaData(
      std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), &arena,
      out != nullptr ? out : &md);
}

TEST(CompactReaderTest, VarintsZigZagAndBoundaries) {
  const int64_t values[] = {0, 1, -1, 63, -64, 64, 127, 128, 300, INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN,
                            (int64_t{1} << 35) + 7};
  for (int64_t v : values) {
    BufferBuilder b;
    {
      CompactWriter w(&b);
      ASSERT_TRUE(w.Ensure(10));
      w.UnsafeZigZag(v);
    }
    // Both the fast path (>= 10 bytes available) and the slow path (exact size).
    for (size_t pad : {0, 16}) {
      std::string s(reinterpret_cast<const char*>(b.data()), static_cast<size_t>(b.size()));
      s.append(pad, '\0');
      CompactReader r(reinterpret_cast<const uint8_t*>(s.data()), s.size());
      int64_t got;
      ASSERT_TRUE(r.ReadI64(&got));
      EXPECT_EQ(got, v);
      EXPECT_EQ(r.offset(), static_cast<size_t>(b.size()));
    }
  }
}

TEST(CompactReaderTest, RejectsOverlongVarintAndOutOfRangeInts) {
  std::string eleven(11, '\xff');
  CompactReader r(reinterpret_cast<const uint8_t*>(eleven.data()), eleven.size());
  uint64_t v;
  EXPECT_FALSE(r.ReadVarint(&v));
  EXPECT_EQ(r.ErrorStatus().message(), "malformed varint (longer than 10 bytes) (at byte 0 of 11)");

  std::string big = Bytes({0x80, 0x80, 0x80, 0x80, 0x20});  // zigzag 2^33 -> 2^32, beyond i32
  CompactReader r2(reinterpret_cast<const uint8_t*>(big.data()), big.size());
  int32_t i;
  EXPECT_FALSE(r2.ReadI32(&i));
  EXPECT_TRUE(r2.ErrorStatus().IsCorrupt());

  std::string i16 = Bytes({0x80, 0x80, 0x04});  // zigzag 65536 -> 32768, beyond i16
  CompactReader r3(reinterpret_cast<const uint8_t*>(i16.data()), i16.size());
  int16_t s;
  EXPECT_FALSE(r3.ReadI16(&s));
}

TEST(CompactReaderTest, TruncatedVarintFails) {
  std::string s = Bytes({0x80, 0x80});
  CompactReader r(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  uint64_t v;
  EXPECT_FALSE(r.ReadVarint(&v));
  EXPECT_EQ(r.ErrorStatus().message(), "unexpected end of data (at byte 2 of 2)");
}

TEST(StructCodecTest, MissingRequiredFieldNamesStructAndField) {
  // version = 1, then STOP: schema (2) is the first required field missing.
  EXPECT_EQ(DecodeFmd(Bytes({0x15, 0x02, 0x00})).message(), "FileMetaData: required field 'schema' (2) missing");
  EXPECT_EQ(DecodeFmd(Bytes({0x00})).message(), "FileMetaData: required field 'version' (1) missing");
  // A nested struct names where it sits: row_groups[0] lacks its columns.
  std::string s = Bytes({0x15, 0x02,               // version
                         0x19, 0x1c, 0x48, 0x01, 'r', 0x00,  // schema: [ {name: "r"} ]
                         0x16, 0x00,               // num_rows 0
                         0x19, 0x1c, 0x26, 0x00, 0x16, 0x00, 0x26, 0x00, 0x00,  // row_groups: [ {total_byte_size, num_rows, file_offset} ]
                         0x00});
  EXPECT_EQ(DecodeFmd(s).message(), "row_groups[0]: RowGroup: required field 'columns' (1) missing");
}

TEST(StructCodecTest, HostileLengthsAndCountsFailBeforeAllocating) {
  // created_by (6, binary) claiming 1e9 bytes.
  Status st = DecodeFmd(Bytes({0x15, 0x02, 0x68 - 0x10, 0x80, 0x94, 0xeb, 0xdc, 0x03}));
  // 0x58: delta 5 from id 1 = id 6, type binary.
  EXPECT_EQ(st.message(), "created_by: binary length 1000000000 exceeds the 0 bytes left (at byte 8 of 8)");
  // schema (2) with 2^31-1 elements.
  st = DecodeFmd(Bytes({0x29, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x07, 0x00}));
  EXPECT_EQ(st.message(), "schema: element count 2147483647 exceeds the 1 bytes left (at byte 7 of 8)");
  // 1000 schema elements in 1000 bytes: each needs at least 3 (name header, length, STOP).
  std::string many = Bytes({0x29, 0xfc, 0xe8, 0x07});
  many.append(1000, '\0');
  st = DecodeFmd(many);
  EXPECT_EQ(st.message(), "schema: element count 1000 exceeds the 1000 bytes left (at byte 4 of 1004)");
  // A map of unknown field type with a huge count.
  st = DecodeFmd(Bytes({0x0b, 0x20, 0xff, 0xff, 0xff, 0xff, 0x07, 0x88}));
  EXPECT_TRUE(st.IsCorrupt());
  EXPECT_NE(st.message().find("element count 2147483647"), std::string::npos) << st.message();
}

TEST(StructCodecTest, NestingDepthIsLimited) {
  // Unknown struct field (id 1 has type i32 in the model, so a struct there is skipped) nested 200 deep.
  std::string s;
  for (int i = 0; i < 200; ++i) s.push_back(0x1c);
  s.append(200, '\0');
  Status st = DecodeFmd(s);
  EXPECT_EQ(st.message().rfind("nesting deeper than 64", 0), 0u) << st.message();
  // Lists nested in lists.
  std::string l = Bytes({0x19});
  for (int i = 0; i < 200; ++i) l.push_back(0x19);  // list of 1 list
  st = DecodeFmd(l);
  EXPECT_TRUE(st.IsCorrupt());
}

TEST(StructCodecTest, InvalidTypeCodes) {
  Status st = DecodeFmd(Bytes({0x1d, 0x00}));  // type 13 does not exist
  EXPECT_EQ(st.message(), "invalid compact type code 13 (at byte 1 of 2)");
}

TEST(StructCodecTest, LongFormFieldIdsAndBoolsRoundTrip) {
  // Build a model with fields whose deltas exceed 15 (forcing long-form headers) and bools.
  parquet::ColumnMetaData cmd;
  cmd.type = parquet::Type::INT64;
  parquet::Encoding encs[] = {parquet::Encoding::PLAIN, parquet::Encoding::RLE};
  cmd.encodings = List<parquet::Encoding>(encs, 2);
  std::string_view path[] = {"a", "b"};
  cmd.path_in_schema = List<std::string_view>(path, 2);
  cmd.num_values = -5;
  cmd.data_page_offset = INT64_MAX;
  Arena model_arena;
  cmd.geospatial_statistics.Emplace(&model_arena);
  parquet::BoundingBox box;
  box.xmin = 1.5;
  box.xmax = -2.5;
  box.ymax = std::numeric_limits<double>::infinity();
  box.mmin = -0.0;
  cmd.geospatial_statistics->bbox = box;
  parquet::Statistics stats;
  stats.is_max_value_exact = true;
  stats.is_min_value_exact = false;
  stats.max_value = std::string_view("\x00\x01", 2);
  cmd.statistics.Set(&stats);
  BufferBuilder b;
  Arena arena;
  parquet::ColumnMetaData back;
  ASSERT_NO_FATAL_FAILURE(RoundTrip(cmd, &b, &arena, &back));
}

// The compact representations of the model's optionals keep every value and presence apart:
// an OptionalScalar at both ends of its range, an OptionalList and an OptionalBinary that are
// present but empty (also from a view without a pointer), each through encode and decode.
TEST(StructCodecTest, CompactOptionalsKeepExtremesAndPresentEmpties) {
  static_assert(sizeof(OptionalScalar<int64_t>) == 9 && alignof(OptionalScalar<int64_t>) == 1);
  static_assert(sizeof(OptionalBinary) == 12 && sizeof(OptionalList<int64_t>) == 12 && sizeof(List<int32_t>) == 12);

  OptionalScalar<int64_t> s;
  EXPECT_FALSE(s.has_value());
  EXPECT_TRUE(s == std::nullopt);
  s = INT64_MIN;
  EXPECT_TRUE(s.has_value());
  EXPECT_EQ(*s, INT64_MIN);
  EXPECT_FALSE(s == OptionalScalar<int64_t>());
  s = 0;
  EXPECT_TRUE(s.has_value());  // zero is a value, not absence
  EXPECT_EQ(s.value_or(7), 0);
  s.reset();
  EXPECT_EQ(s.value_or(7), 7);
  const std::optional<int64_t> as_std = OptionalScalar<int64_t>(INT64_MAX);
  EXPECT_EQ(as_std, INT64_MAX);

  OptionalBinary empty_view{std::string_view()};
  EXPECT_TRUE(empty_view.has_value());
  EXPECT_EQ(*empty_view, "");
  EXPECT_FALSE(empty_view == OptionalBinary());
  OptionalList<int64_t> empty_list{List<int64_t>()};
  EXPECT_TRUE(empty_list.has_value());
  EXPECT_EQ(empty_list->size(), 0u);
  EXPECT_FALSE(empty_list == OptionalList<int64_t>());

  parquet::ColumnChunk cc;
  cc.file_offset = INT64_MIN;
  cc.offset_index_offset = INT64_MIN;
  cc.offset_index_length = INT32_MIN;
  cc.column_index_offset = INT64_MAX;
  cc.column_index_length = 0;
  cc.file_path = std::string_view();
  parquet::ColumnMetaData& m = cc.meta_data.emplace();
  m.type = static_cast<parquet::Type>(INT32_MAX);  // an enum value newer than this code
  m.key_value_metadata = List<parquet::KeyValue>();
  m.dictionary_page_offset = -1;
  m.bloom_filter_length = INT32_MAX;
  parquet::Statistics stats;
  stats.null_count = INT64_MAX;
  stats.nan_count = INT64_MIN;
  stats.min = "";
  m.statistics.Set(&stats);
  BufferBuilder b;
  Arena arena;
  parquet::ColumnChunk back;
  ASSERT_NO_FATAL_FAILURE(RoundTrip(cc, &b, &arena, &back));
  EXPECT_EQ(*back.offset_index_offset, INT64_MIN);
  EXPECT_EQ(back.offset_index_length, INT32_MIN);
  EXPECT_EQ(back.column_index_length, 0);
  EXPECT_FALSE(back.encrypted_column_metadata.has_value());
  ASSERT_TRUE(back.file_path.has_value());
  EXPECT_EQ(*back.file_path, "");
  ASSERT_TRUE(back.meta_data->key_value_metadata.has_value());
  EXPECT_TRUE(back.meta_data->key_value_metadata->empty());
  EXPECT_FALSE(back.meta_data->encoding_stats.has_value());
  EXPECT_EQ(static_cast<int32_t>(back.meta_data->type), INT32_MAX);
  EXPECT_EQ(back.meta_data->dictionary_page_offset, -1);
  EXPECT_FALSE(back.meta_data->index_page_offset.has_value());
  EXPECT_EQ(back.meta_data->statistics->nan_count, INT64_MIN);
  EXPECT_FALSE(back.meta_data->statistics->distinct_count.has_value());
  EXPECT_EQ(*back.meta_data->statistics->min, "");
  EXPECT_FALSE(back.meta_data->statistics->max.has_value());
}

// Fields out of id order, repeated and unknown: the in-order pass hands over to the dispatch
// loop, which still places each field (a repeated field: the last value wins) and sees the
// required ones.
TEST(StructCodecTest, OutOfOrderRepeatedAndUnknownFields) {
  std::string stats = Bytes({0x36, 0x0a,                  // null_count (3) = 5
                             0x08, 0x04, 0x02, 'a', 'b',  // min (2), long-form id going back
                             0x08, 0x02, 0x01, 'z',       // max (1)
                             0x71,                        // is_min_value_exact (8) = true
                             0x45, 0x0e,                  // unknown id 12, i32 7
                             0x06, 0x06, 0x12,            // null_count (3) again = 9
                             0x00});
  CompactReader r(reinterpret_cast<const uint8_t*>(stats.data()), stats.size());
  Arena arena;
  DecodeAll ctx{&arena};
  parquet::Statistics st;
  ASSERT_TRUE(DecodeStruct(r, ctx, st)) << r.ErrorStatus().ToString();
  EXPECT_EQ(r.offset(), stats.size());
  EXPECT_EQ(*st.max, "z");
  EXPECT_EQ(*st.min, "ab");
  EXPECT_EQ(st.null_count, 9);
  EXPECT_EQ(st.is_min_value_exact, true);
  EXPECT_FALSE(st.is_max_value_exact.has_value());
  EXPECT_FALSE(st.max_value.has_value());
  EXPECT_FALSE(st.distinct_count.has_value());

  // Required fields in reverse order, then with page_type (1) left out.
  std::string pes = Bytes({0x35, 0x08, 0x05, 0x04, 0x04, 0x05, 0x02, 0x06, 0x00});
  CompactReader r2(reinterpret_cast<const uint8_t*>(pes.data()), pes.size());
  parquet::PageEncodingStats e;
  ASSERT_TRUE(DecodeStruct(r2, ctx, e)) << r2.ErrorStatus().ToString();
  EXPECT_EQ(e.page_type, parquet::PageType::DATA_PAGE_V2);
  EXPECT_EQ(e.encoding, parquet::Encoding::PLAIN_DICTIONARY);
  EXPECT_EQ(e.count, 4);
  std::string missing = Bytes({0x35, 0x08, 0x05, 0x04, 0x04, 0x00});
  CompactReader r3(reinterpret_cast<const uint8_t*>(missing.data()), missing.size());
  EXPECT_FALSE(DecodeStruct(r3, ctx, e));
  EXPECT_EQ(r3.ErrorStatus().message(), "PageEncodingStats: required field 'page_type' (1) missing");
}

TEST(StructCodecTest, BoolListsAndPageHeaders) {
  parquet::ColumnIndex ci;
  bool nulls[] = {true, false, true};
  std::string_view mins[] = {"", "a", ""};
  std::string_view maxs[] = {"", "z", ""};
  ci.null_pages = List<bool>(nulls, 3);
  ci.min_values = List<std::string_view>(mins, 3);
  ci.max_values = List<std::string_view>(maxs, 3);
  ci.boundary_order = parquet::BoundaryOrder::ASCENDING;
  BufferBuilder b;
  ASSERT_TRUE(parquet::EncodeColumnIndex(ci, &b).ok());
  Arena arena;
  parquet::ColumnIndex back;
  ASSERT_TRUE(parquet::DecodeColumnIndex({b.data(), static_cast<size_t>(b.size())}, &arena, &back).ok());
  EXPECT_TRUE(back == ci);

  parquet::PageHeader ph;
  ph.type = parquet::PageType::DATA_PAGE_V2;
  ph.uncompressed_page_size = 100;
  ph.compressed_page_size = 50;
  ph.crc = -123456;
  ph.data_page_header_v2.emplace();
  ph.data_page_header_v2->num_values = 10;
  ph.data_page_header_v2->is_compressed = false;
  BufferBuilder pb;
  ASSERT_TRUE(parquet::EncodePageHeader(ph, &pb).ok());
  std::string bytes(reinterpret_cast<const char*>(pb.data()), static_cast<size_t>(pb.size()));
  bytes += "page data follows";
  parquet::PageHeader pback;
  size_t consumed = 0;
  ASSERT_TRUE(parquet::DecodePageHeader({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, &arena,
                                        &pback, &consumed)
                  .ok());
  EXPECT_EQ(consumed, static_cast<size_t>(pb.size()));
  EXPECT_TRUE(pback == ph);
  // Every truncation of the header fails cleanly.
  for (size_t n = 0; n < static_cast<size_t>(pb.size()); ++n) {
    parquet::PageHeader t;
    Status st = parquet::DecodePageHeader({pb.data(), n}, &arena, &t);
    EXPECT_TRUE(st.IsCorrupt()) << n;
  }
}

// Integers of one wire byte take their own path in ReadI16/I32/I64: the same values as the
// general varint path, at the very end of the input too, and two-byte values still decode.
TEST(CompactReaderTest, OneByteIntegersAtEveryWidth) {
  for (int64_t v : {0, 1, -1, 63, -64, 64, -65}) {
    BufferBuilder b;
    {
      CompactWriter w(&b);
      ASSERT_TRUE(w.Ensure(10));
      w.UnsafeZigZag(v);
    }
    const size_t n = static_cast<size_t>(b.size());
    EXPECT_EQ(n, (v >= -64 && v <= 63) ? 1u : 2u) << v;
    for (size_t pad : {0, 16}) {
      std::string s(reinterpret_cast<const char*>(b.data()), n);
      s.append(pad, '\x7f');
      const uint8_t* p = reinterpret_cast<const uint8_t*>(s.data());
      CompactReader r16(p, s.size()), r32(p, s.size()), r64(p, s.size());
      int16_t a;
      int32_t c;
      int64_t d;
      ASSERT_TRUE(r16.ReadI16(&a));
      ASSERT_TRUE(r32.ReadI32(&c));
      ASSERT_TRUE(r64.ReadI64(&d));
      EXPECT_EQ(a, v);
      EXPECT_EQ(c, v);
      EXPECT_EQ(d, v);
      EXPECT_EQ(r16.offset(), n);
      EXPECT_EQ(r32.offset(), n);
      EXPECT_EQ(r64.offset(), n);
    }
  }
  CompactReader empty(nullptr, 0);
  int32_t i;
  EXPECT_FALSE(empty.ReadI32(&i));
  EXPECT_EQ(empty.ErrorStatus().message(), "unexpected end of data (at byte 0 of 0)");
}

Status DecodeStatistics(const std::string& bytes, parquet::Statistics* st, size_t* consumed) {
  CompactReader r(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  Arena arena;
  DecodeAll ctx{&arena};
  if (!DecodeStruct(r, ctx, *st)) return r.ErrorStatus();
  *consumed = r.offset();
  return Status::OK();
}

// The in-order pass matches id and wire type as one key: a known id with another wire type is
// skipped like an unknown field; long-form headers and bools in their headers are placed in
// order; a header with a delta and type 0 ends the struct as STOP does (as in the skipper); a
// negative long-form id is unknown.
TEST(StructCodecTest, InOrderPassKeys) {
  parquet::Statistics st;
  size_t consumed = 0;
  std::string wrong_type = Bytes({0x18, 0x01, 'x',  // max (1) = "x"
                                  0x28, 0x01, 'q',  // null_count (3) as a binary: skipped
                                  0x16, 0x0e,       // distinct_count (4) = 7
                                  0x31,             // is_max_value_exact (7) = true
                                  0x12,             // is_min_value_exact (8) = false
                                  0x00});
  ASSERT_TRUE(DecodeStatistics(wrong_type, &st, &consumed).ok());
  EXPECT_EQ(consumed, wrong_type.size());
  EXPECT_EQ(*st.max, "x");
  EXPECT_FALSE(st.null_count.has_value());
  EXPECT_EQ(st.distinct_count, 7);
  EXPECT_EQ(st.is_max_value_exact, true);
  EXPECT_EQ(st.is_min_value_exact, false);

  st = parquet::Statistics();
  std::string long_form = Bytes({0x06, 0x06, 0x0a,  // long form: i64, id 3 (null_count) = 5
                                 0x28, 0x01, 'v',   // max_value (5) = "v"
                                 0x21,              // is_max_value_exact (7) = true
                                 0x12,              // is_min_value_exact (8) = false
                                 0x16, 0x03,        // nan_count (9) = -2
                                 0x00});
  ASSERT_TRUE(DecodeStatistics(long_form, &st, &consumed).ok());
  EXPECT_EQ(consumed, long_form.size());
  EXPECT_EQ(st.null_count, 5);
  EXPECT_EQ(*st.max_value, "v");
  EXPECT_EQ(st.is_max_value_exact, true);
  EXPECT_EQ(st.is_min_value_exact, false);
  EXPECT_EQ(st.nan_count, -2);
  EXPECT_FALSE(st.max.has_value());

  st = parquet::Statistics();
  std::string typed_stop = Bytes({0x18, 0x01, 'x', 0x10, 0xff, 0xff});
  ASSERT_TRUE(DecodeStatistics(typed_stop, &st, &consumed).ok());
  EXPECT_EQ(consumed, 4u);
  EXPECT_EQ(*st.max, "x");
  EXPECT_FALSE(st.min.has_value());

  st = parquet::Statistics();
  std::string negative = Bytes({0x08, 0x01, 0x01, 'z',  // long form: binary, id -1: unknown
                                0x28, 0x01, 'm',        // id 1 (max) = "m"
                                0x00});
  ASSERT_TRUE(DecodeStatistics(negative, &st, &consumed).ok());
  EXPECT_EQ(consumed, negative.size());
  EXPECT_EQ(*st.max, "m");

  // Every truncation is Corrupt, never a partial success.
  for (const std::string* s : {&wrong_type, &long_form, &negative}) {
    for (size_t n = 0; n < s->size(); ++n) {
      parquet::Statistics t;
      EXPECT_TRUE(DecodeStatistics(s->substr(0, n), &t, &consumed).IsCorrupt()) << n;
    }
  }
}

// A model with `columns` x `row_groups` column chunks, each with a path and statistics.
struct WideModel {
  Arena arena;
  std::vector<std::string> names;
  parquet::FileMetaData md;
};
std::unique_ptr<WideModel> MakeWideModel(uint32_t columns, uint32_t row_groups) {
  auto w = std::make_unique<WideModel>();
  for (uint32_t c = 0; c < columns; ++c) w->names.push_back("c" + std::to_string(c));
  auto list = [&](auto* tag, uint32_t n) {
    using T = std::remove_pointer_t<decltype(tag)>;
    T* p = *w->arena.AllocateArray<T>(n);
    return List<T>(p, n);
  };
  parquet::FileMetaData& md = w->md;
  md.schema = list(static_cast<parquet::SchemaElement*>(nullptr), columns + 1);
  md.schema[0].name = "schema";
  md.schema[0].num_children = static_cast<int32_t>(columns);
  md.row_groups = list(static_cast<parquet::RowGroup*>(nullptr), row_groups);
  for (uint32_t r = 0; r < row_groups; ++r) {
    md.row_groups[r].columns = list(static_cast<parquet::ColumnChunk*>(nullptr), columns);
    md.row_groups[r].num_rows = r + 1;
    for (uint32_t c = 0; c < columns; ++c) {
      parquet::ColumnMetaData& m = md.row_groups[r].columns[c].meta_data.emplace();
      m.type = parquet::Type::INT64;
      m.path_in_schema = list(static_cast<std::string_view*>(nullptr), 1);
      m.path_in_schema[0] = w->names[c];
      m.num_values = r + 1;
      m.data_page_offset = int64_t{r} * 1000000 + c * 77;
      parquet::Statistics* s = m.statistics.Emplace(&w->arena);
      s->null_count = c % 3;
      s->min_value = std::string_view(w->names[c]);
    }
  }
  for (uint32_t c = 0; c < columns; ++c) md.schema[c + 1].name = w->names[c];
  md.num_rows = row_groups;
  return w;
}

// Row groups that all share one array of column chunks: as many chunks as the encoder's size
// estimate needs, without the memory of that many distinct chunks.
struct SharedChunksModel {
  std::unique_ptr<WideModel> base;
  std::vector<parquet::RowGroup> row_groups;
};
SharedChunksModel MakeSharedChunksModel(uint32_t columns, uint32_t row_groups) {
  SharedChunksModel m;
  m.base = MakeWideModel(columns, 1);
  m.row_groups.assign(row_groups, m.base->md.row_groups[0]);
  m.base->md.row_groups = List<parquet::RowGroup>(m.row_groups.data(), row_groups);
  m.base->md.num_rows = row_groups;
  return m;
}

// A footer whose estimate reaches kFooterHugeOutputThreshold, encoded into a fresh builder of the
// default pool, goes on the huge-page pool; a builder with a pool of its own keeps it; both give
// the same bytes. Footers below the threshold stay on the default pool, and a small one decodes
// back to its model.
TEST(FooterEncodeTest, VeryLargeFootersUseHugePagesWithIdenticalBytes) {
  // 4096 + 128 per chunk + 64 per schema element: 300,000 chunks pass 32 MiB, 200,000 do not.
  SharedChunksModel big = MakeSharedChunksModel(1000, 300);
  BufferBuilder on_default;
  ASSERT_TRUE(parquet::EncodeFileMetaData(big.base->md, &on_default).ok());
  EXPECT_EQ(on_default.pool(), huge_page_memory_pool());
  MemoryTracker tracker("own pool");
  TrackedMemoryPool own(&tracker);
  BufferBuilder on_own(&own);
  ASSERT_TRUE(parquet::EncodeFileMetaData(big.base->md, &on_own).ok());
  EXPECT_EQ(on_own.pool(), &own);
  auto a = on_default.Finish();
  auto b = on_own.Finish();
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_GT((*a)->size(), 300 * 1000 * 20);
  EXPECT_TRUE((*a)->Equals(**b));
  EXPECT_EQ(reinterpret_cast<uintptr_t>((*a)->data()) % 64, 0u);

  SharedChunksModel below = MakeSharedChunksModel(1000, 200);
  BufferBuilder mid;
  ASSERT_TRUE(parquet::EncodeFileMetaData(below.base->md, &mid).ok());
  EXPECT_EQ(mid.pool(), default_memory_pool());

  auto narrow = MakeWideModel(30, 4);
  BufferBuilder small;
  ASSERT_TRUE(parquet::EncodeFileMetaData(narrow->md, &small).ok());
  EXPECT_EQ(small.pool(), default_memory_pool());
  Arena arena;
  parquet::FileMetaData back;
  ASSERT_TRUE(parquet::DecodeFileMetaData({small.data(), static_cast<size_t>(small.size())}, &arena, &back).ok());
  EXPECT_TRUE(back == narrow->md);
}

// The huge-page pool: 2 MiB-aligned mappings (one cache line of header), contents kept across
// Reallocate, and every byte charged to the process tracker released on Free.
TEST(FooterEncodeTest, HugePagePoolMapsAlignsAndReleases) {
  MemoryPool* pool = huge_page_memory_pool();
  MemoryTracker::Process()->Settle();
  const int64_t before = MemoryTracker::Process()->current_bytes();
  uint8_t* p = nullptr;
  ASSERT_TRUE(pool->Allocate(3 << 20, &p).ok());
  EXPECT_EQ((reinterpret_cast<uintptr_t>(p) - 64) % (uintptr_t{2} << 20), 0u);
  EXPECT_EQ(pool->UsableSize(p), (int64_t{4} << 20) - 64);
  for (int i = 0; i < (3 << 20); i += 4096) p[i] = static_cast<uint8_t>(i >> 12);
  MemoryTracker::Process()->Settle();
  EXPECT_EQ(MemoryTracker::Process()->current_bytes() - before, int64_t{4} << 20);
  ASSERT_TRUE(pool->Reallocate(5 << 20, &p).ok());
  EXPECT_EQ(pool->UsableSize(p), (int64_t{6} << 20) - 64);
  for (int i = 0; i < (3 << 20); i += 4096) ASSERT_EQ(p[i], static_cast<uint8_t>(i >> 12)) << i;
  MemoryTracker::Process()->Settle();
  EXPECT_EQ(MemoryTracker::Process()->current_bytes() - before, int64_t{6} << 20);
  pool->Free(p);
  MemoryTracker::Process()->Settle();
  EXPECT_EQ(MemoryTracker::Process()->current_bytes(), before);
  uint8_t* q = nullptr;
  EXPECT_TRUE(pool->Allocate(int64_t{1} << 50, &q).IsOutOfMemory());
  EXPECT_TRUE(pool->Allocate(-1, &q).IsInvalid());
  MemoryTracker::Process()->Settle();
  EXPECT_EQ(MemoryTracker::Process()->current_bytes(), before);
}

}  // namespace
}  // namespace quiver::thrift

// Forward compatibility: unknown fields of every Thrift type, inserted into every struct of
// real corpus footers (at every nesting level), are skipped and the model decodes unchanged.
#include <gtest/gtest.h>

#include "quiver/io/file.h"
#include "quiver/parquet/footer.h"
#include "quiver/parquet/metadata_codec.h"
#include "quiver/thrift/compact_reader_internal.h"
#include "quiver/thrift/compact_writer_internal.h"
#include "testing/corpus.h"

namespace quiver::parquet {
namespace {

using thrift::CompactReader;
using thrift::CompactWriter;

// Appends one field of every compact type with long-form ids (>= 1000, unknown to any struct);
// a long-form header carries an absolute id, so the STOP that follows is unaffected.
void AppendUnknownFields(std::string* out) {
  auto hdr = [&](uint8_t type, int id) {
    out->push_back(static_cast<char>(type));
    uint64_t z = (static_cast<uint64_t>(id) << 1) ^ static_cast<uint64_t>(id >> 31);
    while (z >= 0x80) {
      out->push_back(static_cast<char>(z | 0x80));
      z >>= 7;
    }
    out->push_back(static_cast<char>(z));
  };
  hdr(thrift::kBoolTrue, 1000);
  hdr(thrift::kBoolFalse, 1001);
  hdr(thrift::kByte, 1002), out->push_back('\x7f');
  hdr(thrift::kI16, 1003), out->append("\xfe\xff\x03", 3);
  hdr(thrift::kI32, 1004), out->append("\xff\xff\xff\xff\x0f", 5);
  hdr(thrift::kI64, 1005), out->append("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10);
  hdr(thrift::kDouble, 1006), out->append("\x00\x00\x00\x00\x00\x00\xf0\x3f", 8);
  hdr(thrift::kBinary, 1007), out->append("\x05hello", 6);
  hdr(thrift::kList, 1008), out->append("\x35\x02\x04\x06", 4);               // list<i32>[1,2,3]
  hdr(thrift::kSet, 1009), out->append("\x28\x01x\x01y", 5);                  // set<binary>{x,y}
  hdr(thrift::kMap, 1010), out->append("\x02\x86\x01k\x02\x01v\x04", 8);      // map<binary,i64>
  hdr(thrift::kList, 1011), out->append("\x21\x01\x02", 3);                  // list<bool>[true,false]
  hdr(thrift::kList, 1012), out->append("\x1c\x15\x02\x1c\x18\x01z\x00\x00", 9);  // list<struct{i32, struct{bin}}>
  hdr(thrift::kStruct, 1013), out->append("\x11\x19\x17\x00\x00\x00\x00\x00\x00\xf0\x3f\x00", 12);  // {bool, list<double>[1.0]}
  hdr(thrift::kMap, 1014), out->push_back('\0');                             // empty map
}

// Copies a compact-protocol struct, inserting the unknown fields before every STOP.
bool CopyValue(CompactReader& r, uint8_t type, bool in_list, std::string* out);

bool CopyStruct(CompactReader& r, std::string* out) {
  int16_t last = 0;
  for (;;) {
    const uint8_t* start = r.position();
    int16_t id = 0;
    uint8_t type = 0;
    if (!r.ReadFieldHeader(last, &id, &type)) return false;
    if (type == thrift::kStop) {
      AppendUnknownFields(out);
      out->push_back('\0');
      return true;
    }
    // Headers are copied verbatim: the deltas stay valid because inserted fields only go at the end.
    out->append(reinterpret_cast<const char*>(start), static_cast<size_t>(r.position() - start));
    last = id;
    if (!CopyValue(r, type, false, out)) return false;
  }
}

bool CopyValue(CompactReader& r, uint8_t type, bool in_list, std::string* out) {
  const uint8_t* start = r.position();
  auto copy_since = [&] { out->append(reinterpret_cast<const char*>(start), static_cast<size_t>(r.position() - start)); };
  if (type == thrift::kStruct) return CopyStruct(r, out);
  if (type == thrift::kList || type == thrift::kSet) {
    uint8_t et = 0;
    uint32_t n = 0;
    if (!r.ReadListHeader(&et, &n)) return false;
    copy_since();
    for (uint32_t i = 0; i < n; ++i) {
      if (!CopyValue(r, et, true, out)) return false;
    }
    return true;
  }
  if ((type == thrift::kBoolTrue || type == thrift::kBoolFalse) && !in_list) return true;
  uint8_t skip_as = (type == thrift::kBoolTrue || type == thrift::kBoolFalse) ? uint8_t{thrift::kByte} : type;
  if (!r.Skip(skip_as)) return false;
  copy_since();
  return true;
}

TEST(UnknownFieldsTest, InsertedIntoEveryStructOfRealFooters) {
  QUIVER_CORPUS_OR_SKIP(dir);
  const char* files[] = {"data/alltypes_tiny_pages.parquet", "data/nested_structs.rust.parquet",
                         "data/geospatial/geospatial.parquet", "data/column_chunk_key_value_metadata.parquet",
                         "data/encrypt_columns_plaintext_footer.parquet.encrypted", "data/nested_maps.snappy.parquet",
                         "data/binary_truncated_min_max.parquet", "data/float16_nonzeros_and_nans.parquet"};
  for (const char* name : files) {
    SCOPED_TRACE(name);
    auto file = io::OpenFile((dir / "parquet-testing" / name).string());
    ASSERT_TRUE(file.ok());
    auto footer = ReadFooter(**file);
    ASSERT_TRUE(footer.ok()) << footer.status().ToString();
    const auto& bytes = (*footer)->footer_bytes();
    CompactReader r(bytes->data(), static_cast<size_t>(bytes->size()));
    std::string modified;
    ASSERT_TRUE(CopyStruct(r, &modified));
    ASSERT_GT(modified.size(), static_cast<size_t>(bytes->size()) + 100);
    Arena arena;
    FileMetaData md;
    size_t consumed = 0;
    Status st = DecodeFileMetaData({reinterpret_cast<const uint8_t*>(modified.data()), modified.size()}, &arena, &md,
                                   nullptr, &consumed);
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(consumed, modified.size());
    EXPECT_TRUE(md == (*footer)->metadata());
    // And re-encoding drops them again: the original bytes come back.
    BufferBuilder out;
    ASSERT_TRUE(EncodeFileMetaData(md, &out).ok());
    std::string_view original = bytes->view();
    original.remove_suffix(static_cast<size_t>((*footer)->trailing_bytes()));
    EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(out.data()), static_cast<size_t>(out.size())), original);
  }
}

}  // namespace
}  // namespace quiver::parquet

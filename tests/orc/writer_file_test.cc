// The ORC file writer's contract around the values: what it refuses and how it says so (types
// without an ORC form, decimals wider than their precision, bloom filters on columns it cannot
// hash or does not have), bloom filters that hold every value of their row group and let the
// ORC scan skip stripes, unsigned 64-bit integers kept whole as decimal(20, 0), and dense unions
// read back as unions of the same tags and values.
#include <gtest/gtest.h>

#include <fstream>

#include "quiver/columnar/builder.h"
#include "quiver/io/output_stream.h"
#include "quiver/orc/reader/file_reader.h"
#include "quiver/orc/writer/file_writer.h"
#include "quiver/stream/orc_scan.h"
#include "orc/orc_dump.h"
#include "testing/dense_union.h"
#include "testing/random_array.h"
#include "testing/scratch_dir.h"

namespace quiver::orc {
namespace {

Status WriteOne(const SchemaPtr& schema, const std::vector<Array>& columns, OrcWriterOptions options = {},
                std::string* bytes = nullptr) {
  io::BufferOutputStream out;
  QUIVER_ASSIGN_OR_RETURN(auto w, OrcFileWriter::Open(&out, schema, options));
  const int64_t rows = columns.empty() ? 0 : columns[0].length();
  QUIVER_RETURN_NOT_OK(w->Write(std::make_shared<RecordBatch>(schema, rows, columns)));
  QUIVER_RETURN_NOT_OK(w->Close());
  QUIVER_ASSIGN_OR_RETURN(auto buf, out.Finish());
  if (bytes != nullptr) *bytes = std::string(buf->view());
  return Status::OK();
}

// Stripes end where the rows say (row groups, bytes of values), not where batches do: the same
// rows give the same file however they arrive (a CSV reader's batches follow its thread count).
TEST(OrcWriterFile, SameRowsInOtherBatchesGiveTheSameBytes) {
  const SchemaPtr schema = std::make_shared<Schema>(std::vector<Field>{
      field("i64", int64()), field("f64", float64()), field("s", utf8()), field("d", date32()),
      field("l", list(int32())), field("st", struct_({field("a", utf8()), field("b", list(float64()))})),
      field("m", map(utf8(), int64()))});
  testing::RandomArrays random(5);
  constexpr int64_t kRows = 30000;
  std::vector<Array> cols;
  for (const Field& f : schema->fields()) cols.push_back(random.Make(f.type, kRows, 0.1));
  const auto whole = std::make_shared<RecordBatch>(schema, kRows, cols);
  OrcWriterOptions options;
  options.stripe_bytes = 200 << 10;  // several stripes
  options.row_index_stride = 1000;
  auto write = [&](const std::vector<std::shared_ptr<RecordBatch>>& batches, int64_t* stripes) -> std::string {
    io::BufferOutputStream out;
    auto w = OrcFileWriter::Open(&out, schema, options);
    EXPECT_TRUE(w.ok()) << w.status().ToString();
    for (const auto& b : batches) EXPECT_TRUE((*w)->Write(b).ok());
    EXPECT_TRUE((*w)->Close().ok());
    *stripes = (*w)->num_stripes();
    auto bytes = out.Finish();
    return bytes.ok() ? std::string((*bytes)->view()) : std::string();
  };
  int64_t stripes = 0;
  const std::string one = write({whole}, &stripes);
  EXPECT_GT(stripes, 2);
  for (int64_t step : {int64_t{999}, int64_t{4096}, int64_t{12345}}) {
    std::vector<std::shared_ptr<RecordBatch>> pieces;
    for (int64_t r = 0, k = 0; r < kRows; ++k) {
      const int64_t n = std::min(kRows - r, step + 31 * (k % 4));
      pieces.push_back(whole->Slice(r, n));
      r += n;
    }
    int64_t piece_stripes = 0;
    const std::string many = write(pieces, &piece_stripes);
    EXPECT_EQ(piece_stripes, stripes) << step;
    EXPECT_TRUE(many == one) << "batches of about " << step << " rows give other bytes (" << many.size() << " against "
                             << one.size() << ")";
  }
}

TEST(OrcWriterFile, TimeOfDayHasNoOrcType) {
  auto schema = std::make_shared<Schema>(std::vector<Field>{field("t", time64(TimeUnit::kMicro))});
  io::BufferOutputStream out;
  auto w = OrcFileWriter::Open(&out, schema);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.status().message(),
            "column 't': ORC has no type for time64[us] (no time-of-day type); cast it or leave the column out");
}

TEST(OrcWriterFile, DecimalWiderThanItsPrecisionIsRefused) {
  auto type = decimal128(4, 1);
  auto schema = std::make_shared<Schema>(std::vector<Field>{field("d", type)});
  FixedSizeBinaryBuilder b(type);
  ASSERT_TRUE(b.AppendDecimal(9999).ok());  // 999.9 fits
  ASSERT_TRUE(b.AppendDecimal(-12345).ok());  // one digit too many
  const Status st = WriteOne(schema, {*b.Finish()});
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.message(), "column 'd': the value -1234.5 has more than the 4 digits of its type decimal(4, 1)");
}

TEST(OrcWriterFile, BloomFilterColumnsAreChecked) {
  auto schema = std::make_shared<Schema>(
      std::vector<Field>{field("ts", timestamp(TimeUnit::kMicro)), field("s", struct_({field("x", utf8())}))});
  io::BufferOutputStream out;
  OrcWriterOptions o;
  o.bloom_filter_columns = {"nope"};
  EXPECT_EQ(OrcFileWriter::Open(&out, schema, o).status().message(),
            "bloom filter for column 'nope': the schema has no such column");
  o.bloom_filter_columns = {"ts"};
  EXPECT_EQ(OrcFileWriter::Open(&out, schema, o).status().message(),
            "bloom filter for column 'ts': quiver writes ORC bloom filters for integers, dates, floats, strings and "
            "binary, not timestamp[us]");
  o.bloom_filter_columns = {"s.x"};
  EXPECT_TRUE(OrcFileWriter::Open(&out, schema, o).ok());
}

class OrcWriterBloom : public testing::ScratchDirTest {};

TEST_F(OrcWriterBloom, FiltersHoldTheirGroupsValuesAndSkipStripes) {
  auto schema = std::make_shared<Schema>(std::vector<Field>{field("s", utf8()), field("n", int64())});
  OrcWriterOptions o;
  o.bloom_filter_columns = {"s"};
  o.row_index_stride = 1000;
  o.compression = format::kZlib;
  io::BufferOutputStream out;
  auto w = OrcFileWriter::Open(&out, schema, o);
  ASSERT_TRUE(w.ok());
  auto value = [](int64_t i) { return "key-" + std::to_string((i * 7919) % 100000); };
  for (int64_t stripe = 0; stripe < 3; ++stripe) {
    BinaryBuilder sb(utf8());
    NumericBuilder<int64_t> nb(int64());
    for (int64_t i = stripe * 5000; i < (stripe + 1) * 5000; ++i) {
      ASSERT_TRUE(sb.Append(value(i)).ok());
      ASSERT_TRUE(nb.Append(i).ok());
    }
    ASSERT_TRUE((*w)->Write(std::make_shared<RecordBatch>(schema, 5000, std::vector<Array>{*sb.Finish(), *nb.Finish()})).ok());
    ASSERT_TRUE((*w)->FlushStripe().ok());
  }
  ASSERT_TRUE((*w)->Close().ok());
  auto buf = out.Finish();
  ASSERT_TRUE(buf.ok());
  std::ofstream(Path("b.orc"), std::ios::binary).write(reinterpret_cast<const char*>((*buf)->data()), (*buf)->size());

  auto reader = OrcFileReader::Open(Path("b.orc"));
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  ASSERT_EQ((*reader)->num_stripes(), 3);
  int64_t absent_hits = 0;
  for (int s = 0; s < 3; ++s) {
    auto sf = (*reader)->ReadStripeFooter(s);
    ASSERT_TRUE(sf.ok());
    EXPECT_EQ(sf->columns[1].bloom_encoding, format::kBloomUtf8);
    auto bytes = (*reader)->ReadStream(s, *sf, 1, format::stream_kind::kBloomFilterUtf8);
    ASSERT_TRUE(bytes.ok());
    ASSERT_NE(*bytes, nullptr);
    auto index = DecodeBloomFilterIndex((*bytes)->view());
    ASSERT_TRUE(index.ok());
    ASSERT_EQ(index->bloom_filter.size(), 5u);
    for (size_t g = 0; g < 5; ++g) {
      for (int64_t i = s * 5000 + static_cast<int64_t>(g) * 1000, e = i + 1000; i < e; ++i) {
        ASSERT_TRUE(stream::OrcBloomMayContain(index->bloom_filter[g], value(i))) << s << " " << g << " " << i;
      }
      for (int j = 0; j < 1000; ++j) absent_hits += stream::OrcBloomMayContain(index->bloom_filter[g], "absent-" + std::to_string(j));
    }
  }
  EXPECT_LT(absent_hits, 15 * 1000 / 10) << "sized for 5% false positives";
  // A value within every stripe's bounds but in none: the filters skip all three stripes.
  std::shared_ptr<OrcFileReader> shared(std::move(*reader));
  stream::OrcScanOptions so;
  so.where = stream::OrcWhere{"s", parquet::CompareOp::kEq, "key-50000x"};
  auto scan = stream::OrcScan::Make(shared, so);
  ASSERT_TRUE(scan.ok()) << scan.status().ToString();
  auto rows = (*scan)->ReadAll();
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*scan)->counters().skipped_by_bloom_filter, 3);
  so.where = stream::OrcWhere{"s", parquet::CompareOp::kEq, value(7777)};
  auto found = stream::OrcScan::Make(shared, so);
  ASSERT_TRUE(found.ok());
  auto got = (*found)->ReadAll();
  ASSERT_TRUE(got.ok());
  int64_t n = 0;
  for (const auto& b : *got) n += b->num_rows();
  EXPECT_EQ(n, 1);
  EXPECT_EQ((*found)->counters().skipped_by_bloom_filter, 2);
}

TEST_F(OrcWriterBloom, UInt64KeepsEveryValueAsDecimal20) {
  auto schema = std::make_shared<Schema>(std::vector<Field>{field("u", uint64())});
  NumericBuilder<uint64_t> b(uint64());
  ASSERT_TRUE(b.Append(18446744073709551615ULL).ok());
  ASSERT_TRUE(b.Append(0).ok());
  std::string bytes;
  ASSERT_TRUE(WriteOne(schema, {*b.Finish()}, {}, &bytes).ok());
  std::ofstream(Path("u.orc"), std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  auto reader = OrcFileReader::Open(Path("u.orc"));
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ((*reader)->TypeString(0), "struct<u:decimal(20,0)>");
  auto sel = (*reader)->Select({});
  auto batch = (*reader)->ReadStripe(0, *sel);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ((*batch)->column(0).ToString(), "[18446744073709551615, 0]");
}

// quiver has no registered writer id: Footer.writer is the one Apache ORC's readers give every
// unregistered writer (without it, readers took the file for ORC Java's).
TEST_F(OrcWriterBloom, FooterWriterIdIsTheUnregisteredOne) {
  auto schema = std::make_shared<Schema>(std::vector<Field>{field("i", int32())});
  NumericBuilder<int32_t> b(int32());
  ASSERT_TRUE(b.Append(1).ok());
  std::string bytes;
  ASSERT_TRUE(WriteOne(schema, {*b.Finish()}, {}, &bytes).ok());
  std::ofstream(Path("w.orc"), std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  auto reader = OrcFileReader::Open(Path("w.orc"));
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->footer().writer, std::optional<uint32_t>(2147483647u));
  EXPECT_EQ((*reader)->footer().software_version, std::optional<std::string>("quiver"));
}

TEST_F(OrcWriterBloom, DenseUnionReadsBackWithItsTagsAndNulls) {
  const Array u = testing::SmallUnion();
  auto schema = std::make_shared<Schema>(std::vector<Field>{field("u", u.type())});
  std::string bytes;
  ASSERT_TRUE(WriteOne(schema, {u.Slice(1, 5)}, {}, &bytes).ok());
  std::ofstream(Path("u.orc"), std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  auto reader = OrcFileReader::Open(Path("u.orc"));
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->TypeString(0), "struct<u:uniontype<int,string>>");
  auto sel = (*reader)->Select({});
  auto batch = (*reader)->ReadStripe(0, *sel);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  const Array& got = (*batch)->column(0);
  // ORC keeps no member names: the reader names them by tag, with the tags as type codes.
  EXPECT_EQ(got.type()->ToString(), "dense_union<tag0: int32=0, tag1: string=1>");
  ASSERT_TRUE(got.Validate().ok()) << got.Validate().ToString();
  std::string rows;
  for (int64_t i = 0; i < got.length(); ++i) {
    testing::OrcDumpValue(*got.data(), i, &rows);
    rows += "\n";
  }
  EXPECT_EQ(rows, "{\"tag\": 1, \"value\": \"x\"}\n{\"tag\": 0, \"value\": 20}\nnull\n{\"tag\": 1, \"value\": \"y\"}\n"
                  "{\"tag\": 0, \"value\": null}\n");
}

}  // namespace
}  // namespace quiver::orc

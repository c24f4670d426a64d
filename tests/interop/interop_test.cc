// DuckDB and Polars (pinned npm packages, installed by scripts/interop-setup.sh) read Parquet
// files quiver wrote: every codec, with and without dictionaries, typed and lineitem-shaped
// tables, checked against the source CSV as DuckDB reads it (check.mjs); nested tables written
// through the library, checked value by value against quiver's JSON Lines of the same rows
// (check_values.mjs); and files DuckDB and Polars wrote, read by quiver (write.mjs, then
// check.mjs on quiver's CSV of them). Skipped when node/npm are missing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "quiver/columnar/builder.h"
#include "quiver/io/output_stream.h"
#include "quiver/jsonl/writer.h"
#include "quiver/parquet/writer/file_writer.h"
#include "testing/parquet_bytes.h"
#include "testing/run_cli.h"

namespace quiver {
namespace {

namespace fs = std::filesystem;
using testing::RunCli;
using testing::RunShell;


class Interop : public ::testing::Test {
 protected:
  void SetUp() override {
    auto setup = testing::SetUpInteropEngines(&node_dir_);
    if (setup.code != 0) GTEST_SKIP() << "DuckDB/Polars unavailable, interop not checked: " << setup.out;
    dir_ = fs::path("/tmp") / ("quiver-interop-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  // Runs check.mjs; returns its JSON line, failing the test when an engine disagrees.
  std::string Check(const std::string& parquet, const std::string& csv, const std::string& delim = ",",
                    const std::string& extra = "") {
    auto r = RunShell("node " + node_dir_ + "/check.mjs " + parquet + " " + csv + " --delim '" + delim + "' " + extra);
    EXPECT_EQ(r.code, 0) << parquet << ": " << r.out;
    EXPECT_NE(r.out.find("\"ok\":true"), std::string::npos) << r.out;
    return r.out;
  }
  // Runs check_values.mjs: every value of FILE.parquet against EXPECTED.jsonl, by `id`.
  std::string CheckValues(const std::string& parquet, const std::string& jsonl) {
    auto r = RunShell("node " + node_dir_ + "/check_values.mjs " + parquet + " " + jsonl + " --key id");
    EXPECT_EQ(r.code, 0) << parquet << ": " << r.out;
    EXPECT_NE(r.out.find("\"ok\":true"), std::string::npos) << r.out;
    return r.out;
  }
  std::string Path(const std::string& n) const { return (dir_ / n).string(); }
  std::string node_dir_;
  fs::path dir_;
};

TEST_F(Interop, TypedTableUnderEveryCodecAndEncoding) {
  const std::string csv = Path("typed.csv");
  {
    std::ofstream o(csv);
    o << "id,small,price,amount,big_amount,name,day,ts,tstz,flag,t\n";
    for (int i = 0; i < 3000; ++i) {
      o << (i == 7 ? "-9223372036854775808" : std::to_string(i * 1000003LL)) << "," << (i % 200 - 100) << ","
        << (i % 13 == 0 ? "" : std::to_string(i) + ".25") << "," << (i % 500) << "." << (i % 100 < 10 ? "0" : "")
        << (i % 100) << "," << (i % 2 ? "-" : "") << "123456789012345678901234." << (i % 10000) << ","
        << (i % 17 == 0 ? "" : i % 5 == 0 ? "\"quoted, \"\"x\"\"\"" : i % 3 == 0 ? "日本語 " + std::to_string(i % 40)
                                                                               : "name" + std::to_string(i % 50))
        << "," << (1970 + i % 80) << "-0" << (1 + i % 9) << "-1" << (i % 10) << ","
        << "2024-03-0" << (1 + i % 9) << " 1" << (i % 10) << ":2" << (i % 10) << ":00.123456,"
        << "2001-02-03 04:05:0" << (i % 10) << "Z," << (i % 3 == 0 ? "" : i % 2 ? "true" : "false") << ","
        << "12:34:5" << (i % 10) << "\n";
    }
  }
  const std::string types =
      "id=int64,small=int32,price=double,amount=decimal(9,2),big_amount=decimal(30,4),name=string,day=date,"
      "ts=timestamp,tstz=timestamptz,flag=bool,t=time";
  for (const char* codec : {"snappy", "zstd", "lz4_raw", "gzip", "brotli", "none"}) {
    for (const char* dict : {"--dictionary", "--no-dictionary"}) {
      const std::string pq = Path(std::string(codec) + dict + ".parquet");
      auto r = RunCli("convert " + csv + " " + pq + " --types '" + types + "' --compression " + codec + " " + dict +
                      " --row-group-size 1000 --page-size 4096");
      ASSERT_EQ(r.exit_code, 0) << r.err;
      // Statistics of every type against DuckDB's pruning, once per dictionary setting.
      const std::string json = Check(pq, csv, ",", std::string(codec) == "snappy" ? "--extremes" : "");
      for (const char* want : {"\"id\":\"BIGINT\"", "\"small\":\"INTEGER\"", "\"amount\":\"DECIMAL(9,2)\"",
                               "\"big_amount\":\"DECIMAL(30,4)\"", "\"day\":\"DATE\"", "\"ts\":\"TIMESTAMP\"",
                               "\"tstz\":\"TIMESTAMP WITH TIME ZONE\"", "\"flag\":\"BOOLEAN\"", "\"t\":\"TIME\"",
                               "\"name\":\"VARCHAR\"", "\"price\":\"DOUBLE\"", "\"name\":\"DataType(String)\"",
                               "\"day\":\"DataType(Date)\"", "\"id\":\"DataType(Int64)\""}) {
        EXPECT_NE(json.find(want), std::string::npos) << codec << dict << ": " << want << " in " << json;
      }
    }
  }
}

// Every value encoding on the physical types it suits, in V1 and V2 pages.
TEST_F(Interop, ColumnEncodings) {
  const std::string csv = Path("enc.csv");
  {
    std::ofstream o(csv);
    o << "id,small,price,amount,big,name,prefixed,ts,day,dbss,i64bss,bigbss,flag\n";
    for (int i = 0; i < 4000; ++i) {
      const bool null = i % 9 == 4;
      o << i * 7 - 3000 << "," << (null ? "" : std::to_string(i % 1000 - 500)) << "," << (null ? "" : std::to_string(i) + ".125")
        << "," << (i % 500) << "." << (10 + i % 90) << "," << (i % 2 ? "-" : "") << "12345678901234567890." << (1000 + i % 9000)
        << "," << (null ? "" : "name" + std::to_string(i % 77)) << ",https://example.com/items/" << i / 3 << ","
        << "2024-03-0" << (1 + i % 9) << " 1" << (i % 10) << ":2" << (i % 10) << ":00," << (1970 + i % 80) << "-0"
        << (1 + i % 9) << "-1" << (i % 10) << "," << (null ? "" : std::to_string(i * 0.5)) << "," << i * 1000003LL << ","
        << "9876543210987654321." << i % 10 << "," << (i % 3 ? "true" : "false") << "\n";
    }
  }
  const std::string types =
      "id=int64,small=int32,price=double,amount=decimal(9,2),big=decimal(30,4),name=string,prefixed=string,"
      "ts=timestamp,day=date,dbss=double,i64bss=int64,bigbss=decimal(30,1),flag=bool";
  const std::string enc =
      "id=delta_binary_packed,small=delta_binary_packed,price=byte_stream_split,amount=delta_binary_packed,"
      "big=plain,name=delta_length_byte_array,prefixed=delta_byte_array,ts=delta_binary_packed,"
      "day=delta_binary_packed,dbss=byte_stream_split,i64bss=delta_binary_packed,bigbss=plain,flag=plain";
  for (const char* version : {"1", "2"}) {
    const std::string pq = Path(std::string("enc-v") + version + ".parquet");
    auto r = RunCli("convert " + csv + " " + pq + " --types '" + types + "' --column-encoding '" + enc +
                    "' --page-size 4096 --row-group-size 1500 --compression zstd --page-version " + version);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string json = Check(pq, csv, ",", "--meta --extremes");
    EXPECT_NE(json.find("\"rows\":4000"), std::string::npos) << json;
    for (const char* want : {"\"path_in_schema\":\"id\",", "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY",
                             "BYTE_STREAM_SPLIT"}) {
      EXPECT_NE(json.find(want), std::string::npos) << want << " in " << json;
    }
    for (const char* col : {"id", "small", "price", "amount", "big", "name", "prefixed", "ts", "day", "dbss", "i64bss", "bigbss"}) {
      const size_t at = json.find(std::string("\"path_in_schema\":\"") + col + "\"");
      ASSERT_NE(at, std::string::npos) << col;
      const size_t e = json.find("\"encodings\":\"", at);
      EXPECT_EQ(json.find("RLE_DICTIONARY", e) < json.find('}', e), false) << col << ": " << json.substr(e, 60);
    }
  }
  auto bad = RunCli("convert " + csv + " " + Path("bad.parquet") + " --types '" + types + "' --column-encoding name=delta_binary_packed");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("DELTA_BINARY_PACKED does not apply to BYTE_ARRAY"), std::string::npos) << bad.err;
}

TEST_F(Interop, LineitemDefaultsAndSmallRowGroups) {
  const std::string csv = Path("li.csv");
  ASSERT_EQ(RunCli("gen lineitem --rows 100000 -o " + csv).exit_code, 0);
  for (const std::string extra : {"", " --compression zstd --row-group-size 30000 --no-dictionary",
                                  " --row-group-bytes 4000000 --page-version 2"}) {
    const std::string pq = Path("li.parquet");
    auto r = RunCli("convert " + csv + " " + pq + extra);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string json = Check(pq, csv);
    EXPECT_NE(json.find("\"rows\":100000"), std::string::npos) << json;
    if (extra.find("row-group-bytes") != std::string::npos) {
      auto meta = RunCli("meta " + pq);
      const size_t at = meta.out.find("row groups: ");
      ASSERT_NE(at, std::string::npos) << meta.out;
      EXPECT_GT(std::stoi(meta.out.substr(at + 12)), 3) << meta.out;  // ~20 MB of lineitem in memory
    }
  }
}

TEST_F(Interop, AllNullColumnsAndEmptyFiles) {
  const std::string nulls = Path("nulls.csv");
  std::ofstream(nulls) << "a,b,c\n1,,\n2,,\n3,,\n";
  const std::string empty = Path("empty.csv");
  std::ofstream(empty) << "a,b,c\n";
  for (const std::string& csv : {nulls, empty}) {
    for (const char* dict : {"--dictionary", "--no-dictionary"}) {
      const std::string pq = csv + dict + ".parquet";
      auto r = RunCli("convert " + csv + " " + pq + " --types 'a=int64,b=int64,c=string' " + dict);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const std::string json = Check(pq, csv);
      EXPECT_NE(json.find(csv == empty ? "\"rows\":0" : "\"rows\":3"), std::string::npos) << json;
      EXPECT_NE(json.find("\"c\":\"VARCHAR\""), std::string::npos) << json;
    }
  }
}

// Long strings (ASCII and multi-byte UTF-8): chunk statistics truncated to 64 bytes and marked
// inexact, as DuckDB's parquet_metadata shows them; filters at the extremes (check.mjs) prove the
// truncated bounds still cover every value; the page index is there or not by option.
TEST_F(Interop, PageIndexAndTruncatedStatistics) {
  const std::string csv = Path("long.csv");
  {
    std::ofstream o(csv);
    o << "id,ascii,utf8,short\n";
    for (int i = 0; i < 6000; ++i) {
      std::string e;
      for (int k = 0; k < 40; ++k) e += i % 2 ? "\xC3\xA9" : "\xE6\x97\xA5";  // é or 日
      o << i << "," << std::string(100, static_cast<char>('a' + i / 1000)) << i << "," << e << i << ",s" << i % 7 << "\n";
    }
  }
  for (const std::string extra : {"", " --no-page-index", " --statistics-truncate 0", " --dictionary"}) {
    const std::string pq = Path("long.parquet");
    auto r = RunCli("convert " + csv + " " + pq + " --no-dictionary --page-size 4096 --row-group-size 2500" + extra);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string json = Check(pq, csv, ",", "--meta --extremes");
    EXPECT_NE(json.find("\"rows\":6000"), std::string::npos) << json;
    // quiver meta shows where each chunk's page index is.
    auto meta = RunCli("meta " + pq);
    ASSERT_EQ(meta.exit_code, 0) << meta.err;
    EXPECT_EQ(meta.out.find("column_index ") != std::string::npos, extra != " --no-page-index") << meta.out;
    EXPECT_EQ(meta.out.find("offset_index ") != std::string::npos, extra != " --no-page-index") << meta.out;
    if (extra == " --statistics-truncate 0") {
      EXPECT_NE(json.find("\"stats_max_value\":\"" + std::string(100, 'c') + "2499\",\"min_is_exact\":true,\"max_is_exact\":true"),
                std::string::npos) << json;
      continue;
    }
    // Row group 0 holds rows 0..2499: 'a' x100 then 0..999, 'b'.., 'c' x100 then 2000..2499.
    EXPECT_NE(json.find("\"stats_min_value\":\"" + std::string(64, 'a') + "\",\"stats_max_value\":\"" +
                        std::string(63, 'c') + "d\",\"min_is_exact\":false,\"max_is_exact\":false"),
              std::string::npos) << extra << ": " << json;
    // 日 (3 bytes) x21 is 63 bytes: the max keeps whole code points and increments the last, 日 -> 旦.
    std::string ri, mx;
    for (int k = 0; k < 21; ++k) ri += "\xE6\x97\xA5";
    mx = ri.substr(0, 60) + "\xE6\x97\xA6";
    EXPECT_NE(json.find("\"stats_max_value\":\"" + mx + "\""), std::string::npos) << extra << ": " << json;
    EXPECT_NE(json.find("\"path_in_schema\":\"short\",\"stats_min_value\":\"s0\",\"stats_max_value\":\"s6\",\"min_is_exact\":true"),
              std::string::npos) << json;
  }
}

// Nested rows from a seeded generator: values DuckDB, Polars and quiver's JSON Lines writer
// print alike (integers below 2^53, floats in quarters, unique map keys), nulls and empty
// lists at every level.
class NestedRows {
 public:
  explicit NestedRows(uint64_t seed) : rng_(seed) {}
  std::shared_ptr<RecordBatch> Make(const SchemaPtr& schema, int64_t first_id, int64_t n) {
    std::vector<Array> cols;
    for (int c = 0; c < schema->num_fields(); ++c) {
      auto b = MakeBuilder(schema->field(c).type);
      EXPECT_TRUE(b.ok());
      for (int64_t i = 0; i < n; ++i) {
        if (c == 0) {
          EXPECT_TRUE(static_cast<NumericBuilder<int64_t>*>(b->get())->Append(first_id + i).ok());
        } else {
          Append(b->get(), 0);
        }
      }
      auto a = (*b)->Finish();
      EXPECT_TRUE(a.ok());
      cols.push_back(*a);
    }
    return std::make_shared<RecordBatch>(schema, n, std::move(cols));
  }

 private:
  int64_t Int(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng_); }
  void Ok(const Status& st) { EXPECT_TRUE(st.ok()) << st.ToString(); }
  void Append(ArrayBuilder* b, int depth) {
    const DataType& t = *b->type();
    if (Int(0, 9) == 0) return Ok(b->AppendNull());
    switch (t.id()) {
      case TypeId::kBool: return Ok(static_cast<BooleanBuilder*>(b)->Append(Int(0, 1) == 1));
      case TypeId::kInt8: return Ok(static_cast<NumericBuilder<int8_t>*>(b)->Append(static_cast<int8_t>(Int(-128, 127))));
      case TypeId::kInt16: return Ok(static_cast<NumericBuilder<int16_t>*>(b)->Append(static_cast<int16_t>(Int(-30000, 30000))));
      case TypeId::kInt32: return Ok(static_cast<NumericBuilder<int32_t>*>(b)->Append(static_cast<int32_t>(Int(-2000000000, 2000000000))));
      case TypeId::kInt64: return Ok(static_cast<NumericBuilder<int64_t>*>(b)->Append(Int(-(int64_t{1} << 52), int64_t{1} << 52)));
      case TypeId::kFloat32: return Ok(static_cast<NumericBuilder<float>*>(b)->Append(static_cast<float>(Int(-40000, 40000)) / 4.0f));
      case TypeId::kFloat64: return Ok(static_cast<NumericBuilder<double>*>(b)->Append(static_cast<double>(Int(-4000000, 4000000)) / 8.0));
      case TypeId::kString: {
        static const char* words[] = {"", "a", "quiver", "日本語", "with \"quote\"", "comma, here", "line\nbreak"};
        return Ok(static_cast<BinaryBuilder*>(b)->Append(std::string(words[Int(0, 6)]) + std::to_string(Int(0, 30))));
      }
      case TypeId::kList: {
        auto* lb = static_cast<ListBuilder*>(b);
        Ok(lb->Append());
        const int64_t n = depth > 3 ? 0 : Int(0, 4);
        for (int64_t i = 0; i < n; ++i) Append(lb->value_builder(), depth + 1);
        return;
      }
      case TypeId::kStruct: {
        auto* sb = static_cast<StructBuilder*>(b);
        Ok(sb->Append());
        for (int i = 0; i < sb->num_fields(); ++i) Append(sb->field_builder(i), depth + 1);
        return;
      }
      case TypeId::kMap: {
        auto* mb = static_cast<MapBuilder*>(b);
        Ok(mb->Append());
        const int64_t n = Int(0, 3);
        const int64_t base = Int(0, 1000) * 10;
        for (int64_t i = 0; i < n; ++i) {  // distinct keys within a map
          const DataType& kt = *mb->key_builder()->type();
          if (kt.id() == TypeId::kString) Ok(static_cast<BinaryBuilder*>(mb->key_builder())->Append("k" + std::to_string(base + i)));
          else Ok(static_cast<NumericBuilder<int32_t>*>(mb->key_builder())->Append(static_cast<int32_t>(base + i)));
          Append(mb->item_builder(), depth + 1);
        }
        return;
      }
      default: ADD_FAILURE() << "no generator for " << t.ToString();
    }
  }
  std::mt19937_64 rng_;
};

Status WriteNested(const SchemaPtr& schema, const std::vector<std::shared_ptr<RecordBatch>>& batches,
                   const parquet::ParquetWriterOptions& opts, const std::string& parquet, const std::string& jsonl) {
  {
    QUIVER_ASSIGN_OR_RETURN(auto bytes, testing::WriteParquetBytes(schema, batches, opts));
    std::ofstream(parquet, std::ios::binary).write(reinterpret_cast<const char*>(bytes->data()), bytes->size());
  }
  io::BufferOutputStream out;
  jsonl::JsonlWriter j(&out);
  for (const auto& b : batches) QUIVER_RETURN_NOT_OK(j.Write(*b));
  QUIVER_RETURN_NOT_OK(out.Flush());
  QUIVER_ASSIGN_OR_RETURN(auto bytes, out.Finish());
  std::ofstream(jsonl, std::ios::binary).write(reinterpret_cast<const char*>(bytes->data()), bytes->size());
  return Status::OK();
}

SchemaPtr NestedSchema() {
  return std::make_shared<const Schema>(std::vector<Field>{
      field("id", int64(), false),
      field("l", list(int32())),
      field("ll", list(list(utf8()))),
      field("s", struct_({field("a", int16()), field("b", list(float32())), field("c", struct_({field("d", utf8())}))})),
      field("m", map(utf8(), int32())),
      field("ml", map(int32(), list(utf8()))),
      field("ls", list(struct_({field("x", boolean()), field("y", utf8())}))),
      field("deep", list(list(list(int8())))),
      field("req", list(int64(), /*value_nullable=*/false), /*nullable=*/false),
      field("f", float64())});
}

TEST_F(Interop, NestedListsStructsAndMaps) {
  const SchemaPtr schema = NestedSchema();
  NestedRows gen(42);
  // `req` has no nulls anywhere; the generator's nulls are dropped by rebuilding it.
  std::vector<std::shared_ptr<RecordBatch>> batches;
  int64_t id = 0;
  for (int64_t n : {1500, 1, 0, 2499}) {
    auto b = gen.Make(schema, id, n);
    id += n;
    ListBuilder req(schema->field(8).type, std::make_unique<NumericBuilder<int64_t>>(int64()));
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_TRUE(req.Append().ok());
      for (int64_t k = 0; k < i % 4; ++k) ASSERT_TRUE(static_cast<NumericBuilder<int64_t>*>(req.value_builder())->Append(i * 10 + k).ok());
    }
    std::vector<Array> cols = b->columns();
    cols[8] = *req.Finish();
    batches.push_back(std::make_shared<RecordBatch>(schema, n, std::move(cols)));
  }
  for (int variant = 0; variant < 2; ++variant) {
    parquet::ParquetWriterOptions opts;
    opts.codec = variant == 0 ? compress::Codec::kSnappy : compress::Codec::kZstd;
    opts.dictionary = variant == 0;
    opts.row_group_rows = 1000;
    opts.page_size = 1024;
    const std::string pq = Path("nested" + std::to_string(variant) + ".parquet"), js = Path("nested.jsonl");
    ASSERT_TRUE(WriteNested(schema, batches, opts, pq, js).ok());
    const std::string json = CheckValues(pq, js);
    EXPECT_NE(json.find("\"rows\":4000"), std::string::npos) << json;
    for (const char* want : {"\"l\":\"INTEGER[]\"", "\"ll\":\"VARCHAR[][]\"",
                             "\"s\":\"STRUCT(a SMALLINT, b FLOAT[], c STRUCT(d VARCHAR))\"",
                             "\"m\":\"MAP(VARCHAR, INTEGER)\"", "\"ml\":\"MAP(INTEGER, VARCHAR[])\"",
                             "\"ls\":\"STRUCT(x BOOLEAN, y VARCHAR)[]\"", "\"deep\":\"TINYINT[][][]\"",
                             "\"req\":\"BIGINT[]\"", "\"l\":\"DataType(List(DataType(Int32)))\"",
                             "\"deep\":\"DataType(List(DataType(List(DataType(List(DataType(Int8)))))))\""}) {
      EXPECT_NE(json.find(want), std::string::npos) << want << " in " << json;
    }
  }
  // The checker itself notices a wrong value: row 0's expectation replaced by row 1's.
  const std::string js = Path("nested.jsonl"), bad = Path("bad.jsonl");
  std::ifstream in(js);
  std::string first, second, rest;
  std::getline(in, first);
  std::getline(in, second);
  std::ofstream out(bad);
  out << std::string(second).replace(second.find("\"id\":1,"), 7, "\"id\":0,") << "\n" << second << "\n" << in.rdbuf();
  out.close();
  auto r = RunShell("node " + node_dir_ + "/check_values.mjs " + Path("nested0.parquet") + " " + bad + " --key id");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("duckdb: id 0, column"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("polars: id 0, column"), std::string::npos) << r.out;
}

TEST_F(Interop, DataPageV2) {
  const std::string csv = Path("v2.csv");
  {
    std::ofstream o(csv);
    o << "id,name,price,flag\n";
    for (int i = 0; i < 5000; ++i) {
      o << i << "," << (i % 11 == 0 ? "" : "n" + std::to_string(i % 300)) << "," << (i % 7 == 0 ? "" : std::to_string(i) + ".5")
        << "," << (i % 3 == 0 ? "" : i % 2 ? "true" : "false") << "\n";
    }
  }
  for (const char* codec : {"snappy", "zstd", "none"}) {
    for (const char* dict : {"--dictionary", "--no-dictionary"}) {
      const std::string pq = Path(std::string("v2-") + codec + dict + ".parquet");
      auto r = RunCli("convert " + csv + " " + pq + " --page-version 2 --page-size 2048 --row-group-size 1500 --compression " +
                      codec + " " + dict + " --types 'id=int64,name=string,price=double,flag=bool'");
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const std::string json = Check(pq, csv, ",", "--extremes");
      EXPECT_NE(json.find("\"rows\":5000"), std::string::npos) << json;
      auto meta = RunCli("meta " + pq);
      EXPECT_NE(meta.out.find("DATA_PAGE_V2"), std::string::npos) << meta.out;
    }
  }
  // Nested columns in V2 pages (which must start at row boundaries).
  const SchemaPtr schema = NestedSchema();
  NestedRows gen(7);
  auto batch = gen.Make(schema, 0, 3000);
  std::vector<Array> cols = batch->columns();
  ListBuilder req(schema->field(8).type, std::make_unique<NumericBuilder<int64_t>>(int64()));
  for (int64_t i = 0; i < 3000; ++i) ASSERT_TRUE(req.Append().ok());
  cols[8] = *req.Finish();
  batch = std::make_shared<RecordBatch>(schema, 3000, std::move(cols));
  parquet::ParquetWriterOptions opts;
  opts.page_version = 2;
  opts.page_size = 1024;
  opts.row_group_rows = 1000;
  const std::string pq = Path("nested-v2.parquet"), js = Path("nested-v2.jsonl");
  ASSERT_TRUE(WriteNested(schema, {batch}, opts, pq, js).ok());
  EXPECT_NE(CheckValues(pq, js).find("\"rows\":3000"), std::string::npos);
}

// The other direction: files DuckDB and Polars wrote with their own writers (each compression
// they share with quiver), read by quiver and written out as CSV; check.mjs then compares the
// engine's file, as DuckDB and Polars read it, with quiver's CSV cast to the file's types.
TEST_F(Interop, QuiverReadsFilesDuckDbAndPolarsWrote) {
  const std::string csv = Path("source.csv");
  {
    std::ofstream o(csv);
    o << "id,price,name,day,flag,ts\n";
    for (int i = 0; i < 2000; ++i) {
      o << (i == 3 ? "-9223372036854775808" : std::to_string(i * 7919LL)) << ","
        << (i % 11 == 0 ? "" : std::to_string(i % 977) + "." + std::to_string(i % 100)) << ","
        << (i % 13 == 0 ? "" : i % 5 == 0 ? "\"a, \"\"b\"\"\"" : i % 3 == 0 ? "日本語 " + std::to_string(i % 40)
                                                                        : "name" + std::to_string(i % 50))
        << "," << (1990 + i % 30) << "-0" << (1 + i % 9) << "-1" << (i % 10) << "," << (i % 2 ? "true" : "false")
        << ",2024-03-0" << (1 + i % 9) << " 1" << (i % 10) << ":2" << (i % 10) << ":00.25\n";
    }
  }
  for (const char* engine : {"duckdb", "polars"}) {
    for (const char* codec : {"snappy", "zstd", "gzip", "uncompressed"}) {
      const std::string tag = std::string(engine) + "-" + codec;
      const std::string pq = Path(tag + ".parquet"), back = Path(tag + ".csv");
      auto w = RunShell("node " + node_dir_ + "/write.mjs " + engine + " " + csv + " " + pq + " --compression " + codec);
      ASSERT_EQ(w.code, 0) << tag << ": " << w.out;
      ASSERT_NE(w.out.find("\"rows\":2000"), std::string::npos) << tag << ": " << w.out;
      auto r = RunCli("convert " + pq + " " + back);
      ASSERT_EQ(r.exit_code, 0) << tag << ": " << r.err;
      EXPECT_NE(r.err.find("2000 rows, 0 rejected"), std::string::npos) << tag << ": " << r.err;
      EXPECT_NE(Check(pq, back).find("\"rows\":2000"), std::string::npos) << tag;
    }
  }
}

}  // namespace
}  // namespace quiver

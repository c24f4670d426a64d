// Files the ORC writer makes, read back by Apache ORC C++ (../shared/peers/orc/bin): orc-contents
// prints the same values as quiver's JSON Lines output of the source (lineitem clean and messy
// under every codec; random arrays of every type, nested and with nulls at every level, cut into
// several stripes), and orc-metadata / orc-statistics show the encodings, statistics and row
// index meant. Skipped with a message when the tools are absent.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "quiver/io/output_stream.h"
#include "quiver/jsonl/writer.h"
#include "quiver/orc/writer/file_writer.h"
#include "testing/dense_union.h"
#include "testing/random_array.h"
#include "testing/run_cli.h"
#include "testing/scratch_dir.h"

namespace quiver::orc {
namespace {

namespace fs = std::filesystem;
using testing::CliResult;
using testing::RunCli;

std::string ToolsDir() { return (fs::path(QUIVER_SOURCE_DIR) / ".." / "shared" / "peers" / "orc" / "bin").string(); }

#define SKIP_WITHOUT_ORC_TOOLS()                                                                              \
  if (!fs::exists(ToolsDir() + "/orc-contents")) {                                                           \
    GTEST_SKIP() << "Apache ORC C++ tools not found at " << ToolsDir() << " (see ../shared/peers/orc/README.md)"; \
  }

// A tool's stdout (stderr to the test log); TZ=UTC so timestamps print as written.
std::string Tool(const std::string& args, int* code = nullptr) {
  std::string out;
  FILE* p = popen(("TZ=UTC " + ToolsDir() + "/" + args).c_str(), "r");
  if (p == nullptr) return out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  const int st = pclose(p);
  if (code != nullptr) *code = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
  return out;
}

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// orc-contents spaces its JSON ("a": 1, "b": 2); quiver does not.
std::string Unspaced(const std::string& line) {
  std::string out;
  bool in_string = false, escaped = false;
  for (char c : line) {
    if (in_string) {
      out += c;
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
      out += c;
    } else if (c != ' ') {
      out += c;
    }
  }
  return out;
}

// --- a small JSON tree: scalars keep their text (strings with their quotes and escapes)

struct Json {
  enum Kind { kScalar, kArray, kObject } kind = kScalar;
  std::string text;
  std::vector<std::pair<std::string, Json>> members;  // object
  std::vector<Json> items;                            // array
};

class JsonParser {
 public:
  explicit JsonParser(std::string_view s) : s_(s) {}
  Json Parse() {
    Space();
    Json j;
    if (s_[i_] == '{') {
      j.kind = Json::kObject;
      ++i_;
      Space();
      while (s_[i_] != '}') {
        std::string key = String();
        Space();
        ++i_;  // ':'
        j.members.emplace_back(key.substr(1, key.size() - 2), Parse());
        Space();
        if (s_[i_] == ',') ++i_;
        Space();
      }
      ++i_;
    } else if (s_[i_] == '[') {
      j.kind = Json::kArray;
      ++i_;
      Space();
      while (s_[i_] != ']') {
        j.items.push_back(Parse());
        Space();
        if (s_[i_] == ',') ++i_;
        Space();
      }
      ++i_;
    } else if (s_[i_] == '"') {
      j.text = String();
    } else {
      const size_t b = i_;
      while (i_ < s_.size() && s_[i_] != ',' && s_[i_] != '}' && s_[i_] != ']' &&
             !std::isspace(static_cast<unsigned char>(s_[i_]))) {
        ++i_;
      }
      j.text = std::string(s_.substr(b, i_ - b));
    }
    return j;
  }

 private:
  void Space() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  std::string String() {
    const size_t b = i_++;
    while (s_[i_] != '"') i_ += s_[i_] == '\\' ? 2 : 1;
    ++i_;
    return std::string(s_.substr(b, i_ - b));
  }
  std::string_view s_;
  size_t i_ = 0;
};

const Json& Member(const Json& j, const std::string& key) {
  for (const auto& [k, v] : j.members) {
    if (k == key) return v;
  }
  static const Json missing{Json::kScalar, "<missing>", {}, {}};
  return missing;
}

std::string Unquoted(const std::string& s) { return s.size() >= 2 && s[0] == '"' ? s.substr(1, s.size() - 2) : s; }

// Decimal text without trailing fraction zeros ("1.50" and "1.5" alike; "2.00" is "2").
std::string TrimDecimal(std::string s) {
  if (s.find('.') == std::string::npos) return s;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

// The difference between orc-contents' value `o` and quiver's `q` of a column of `type`, or "".
std::string Diff(const Json& o, const Json& q, const DataType& type, const std::string& path) {
  auto differ = [&](const std::string& a, const std::string& b) {
    return fmt::format("{}: orc-contents {} , quiver {}", path, a, b);
  };
  if (o.kind == Json::kScalar && o.text == "null") return q.text == "null" && q.kind == Json::kScalar ? "" : differ("null", q.text);
  if (q.kind == Json::kScalar && q.text == "null") return differ(o.text, "null");
  switch (type.id()) {
    case TypeId::kStruct: {
      if (o.members.size() != q.members.size()) return differ("struct of " + std::to_string(o.members.size()), std::to_string(q.members.size()));
      for (size_t i = 0; i < o.members.size(); ++i) {
        if (o.members[i].first != q.members[i].first) return differ(o.members[i].first, q.members[i].first);
        std::string d = Diff(o.members[i].second, q.members[i].second, *type.field(static_cast<int>(i)).type,
                             path + "." + o.members[i].first);
        if (!d.empty()) return d;
      }
      return "";
    }
    case TypeId::kList:
    case TypeId::kMap: {
      if (o.items.size() != q.items.size()) return differ(std::to_string(o.items.size()) + " items", std::to_string(q.items.size()));
      for (size_t i = 0; i < o.items.size(); ++i) {
        std::string d;
        if (type.id() == TypeId::kList) {
          d = Diff(o.items[i], q.items[i], *type.field(0).type, path + "[" + std::to_string(i) + "]");
        } else {
          d = Diff(o.items[i], q.items[i], *type.field(0).type, path + "{" + std::to_string(i) + "}");
        }
        if (!d.empty()) return d;
      }
      return "";
    }
    case TypeId::kBinary:
    case TypeId::kFixedSizeBinary: {  // a list of byte values against "0x.." hex
      std::string hex = "\"0x";
      for (const Json& b : o.items) hex += fmt::format("{:02x}", std::stoi(b.text));
      hex += "\"";
      return hex == q.text ? "" : differ(hex, q.text);
    }
    case TypeId::kDecimal128:
    case TypeId::kUInt64: {
      const std::string a = TrimDecimal(Unquoted(o.text)), b = TrimDecimal(Unquoted(q.text));
      return a == b ? "" : differ(a, b);
    }
    case TypeId::kFloat16:
    case TypeId::kFloat32: {
      if (q.text == "\"NaN\"" || q.text == "NaN") return o.text.find("nan") != std::string::npos || o.text == "NaN" ? "" : differ(o.text, q.text);
      // orc-contents prints floats with 6 significant digits.
      const double a = std::strtod(o.text.c_str(), nullptr), b = std::strtod(q.text.c_str(), nullptr);
      return std::abs(a - b) <= 5e-6 * std::max(std::abs(a), std::abs(b)) ? "" : differ(o.text, q.text);
    }
    case TypeId::kFloat64: {
      if (q.text == "\"NaN\"" || q.text == "NaN") return o.text.find("nan") != std::string::npos || o.text == "NaN" ? "" : differ(o.text, q.text);
      return std::strtod(o.text.c_str(), nullptr) == std::strtod(q.text.c_str(), nullptr) ? "" : differ(o.text, q.text);
    }
    case TypeId::kDate32:
    case TypeId::kTimestamp: {  // "2009-03-01 00:00:00.0" against "2009-03-01 00:00:00"; "242-05-28" against "0242-05-28"
      auto norm = [](std::string s) {
        s = Unquoted(s);
        const size_t digits = s[0] == '-' ? 1 : 0;
        while (s.size() > digits + 1 && s[digits] == '0' && s[digits + 1] != '-') s.erase(digits, 1);
        if (const size_t z = s.find_first_of("Z+"); z != std::string::npos && z > 10) s.resize(z);
        while (s.size() > 1 && s.find('.') != std::string::npos && s.back() == '0') s.pop_back();
        if (!s.empty() && s.back() == '.') s.pop_back();
        for (char& c : s) c = c == 'T' ? ' ' : c;
        return s;
      };
      return norm(o.text) == norm(q.text) ? "" : differ(o.text, q.text);
    }
    default: return o.text == q.text ? "" : differ(o.text, q.text);
  }
}

class OrcWriterInterop : public testing::ScratchDirTest {};

TEST_F(OrcWriterInterop, LineitemReadsBackUnderEveryCodec) {
  SKIP_WITHOUT_ORC_TOOLS();
  for (const bool messy : {false, true}) {
    const std::string csv = Path(messy ? "messy.csv" : "clean.csv");
    ASSERT_EQ(RunCli(fmt::format("gen lineitem -n 25000 {} -o {}", messy ? "--messy" : "", csv)).exit_code, 0);
    const CliResult expected = RunCli("cat --format jsonl " + csv);
    ASSERT_EQ(expected.exit_code, 0) << expected.err;
    const std::vector<std::string> want = Lines(expected.out);
    ASSERT_EQ(want.size(), 25000u);
    for (const char* codec : {"zlib", "snappy", "lz4", "zstd", "none"}) {
      SCOPED_TRACE(fmt::format("{} {}", messy ? "messy" : "clean", codec));
      const std::string orc = Path(fmt::format("{}-{}.orc", messy ? "messy" : "clean", codec));
      const CliResult conv = RunCli(fmt::format("convert {} {} --compression {}", csv, orc, codec));
      ASSERT_EQ(conv.exit_code, 0) << conv.err;
      int code = 0;
      const std::vector<std::string> got = Lines(Tool("orc-contents " + orc, &code));
      ASSERT_EQ(code, 0);
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(Unspaced(got[i]), want[i]) << "row " << i;
      const std::string meta = Tool("orc-metadata " + orc);
      EXPECT_NE(meta.find(fmt::format("\"compression\": \"{}\"", codec)), std::string::npos) << meta;
    }
  }
}

TEST_F(OrcWriterInterop, EveryTypeNestedAndNullReadsBack) {
  SKIP_WITHOUT_ORC_TOOLS();
  const auto inner = struct_({field("s", utf8()), field("d", list(float64()))});
  const SchemaPtr schema = std::make_shared<Schema>(std::vector<Field>{
      field("b", boolean()), field("i8", int8()), field("i16", int16()), field("i32", int32()), field("i64", int64()),
      field("u8", uint8()), field("u16", uint16()), field("u32", uint32()), field("u64", uint64()),
      field("f16", float16()), field("f32", float32()), field("f64", float64()),
      field("dec38", decimal128(38, 10)), field("dec9", decimal128(9, 2)), field("date", date32()),
      field("ts_s", timestamp(TimeUnit::kSecond)), field("ts_ms", timestamp(TimeUnit::kMilli)),
      field("ts_us", timestamp(TimeUnit::kMicro)), field("ts_ns_utc", timestamp(TimeUnit::kNano, "UTC")),
      field("str", utf8()), field("bin", binary()), field("fsb", fixed_size_binary(3)),
      field("list", list(int32())), field("list_struct", list(inner)), field("map", map(utf8(), int64())),
      field("nested", struct_({field("x", int16()), field("y", struct_({field("z", date32())}))})),
  });
  testing::RandomArrays random(16);
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (int64_t rows : {7000, 13, 9000, 0, 4000}) {
    std::vector<Array> cols;
    for (const Field& f : schema->fields()) {
      if (f.name == "dec9") {  // values within the precision: the random ones pass 9 digits
        FixedSizeBinaryBuilder b(f.type);
        for (int64_t i = 0; i < rows + 5; ++i) {
          ASSERT_TRUE((i % 7 == 3 ? b.AppendNull() : b.AppendDecimal(static_cast<__int128>((i * 7919) % 1999999999) - 999999999)).ok());
        }
        auto a = b.Finish();
        ASSERT_TRUE(a.ok());
        cols.push_back(a->Slice(5, rows));
        continue;
      }
      if (f.type->id() == TypeId::kTimestamp) {  // 1906..2096, before and after 1970 and 2015, any fraction
        NumericBuilder<int64_t> b(f.type);
        const int64_t per_second = f.type->unit() == TimeUnit::kSecond ? 1
                                   : f.type->unit() == TimeUnit::kMilli ? 1000
                                   : f.type->unit() == TimeUnit::kMicro ? 1000000 : 1000000000;
        for (int64_t i = 0; i < rows + 5; ++i) {
          const int64_t seconds = (i * 104729) % 6000000000 - 2000000000;
          const int64_t fraction = i % 3 == 0 ? 0 : (i * 7907) % per_second;
          ASSERT_TRUE((i % 11 == 4 ? b.AppendNull() : b.Append(seconds * per_second + fraction)).ok());
        }
        auto a = b.Finish();
        ASSERT_TRUE(a.ok());
        cols.push_back(a->Slice(5, rows));
        continue;
      }
      cols.push_back(random.Make(f.type, rows + 5, 0.2).Slice(5, rows));
    }
    batches.push_back(std::make_shared<RecordBatch>(schema, rows, cols));
  }
  for (uint32_t codec : {format::kZstd, format::kNone}) {
    SCOPED_TRACE(codec);
    const std::string path = Path("every.orc");
    OrcWriterOptions options;
    options.compression = codec;
    options.stripe_bytes = 1 << 20;  // several stripes
    options.compression_block_size = 4096;
    io::BufferOutputStream out;
    auto w = OrcFileWriter::Open(&out, schema, options);
    ASSERT_TRUE(w.ok()) << w.status().ToString();
    for (const auto& b : batches) ASSERT_TRUE((*w)->Write(b).ok());
    ASSERT_TRUE((*w)->Close().ok());
    EXPECT_GT((*w)->num_stripes(), 1);
    auto bytes = out.Finish();
    ASSERT_TRUE(bytes.ok());
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>((*bytes)->data()), (*bytes)->size());

    io::BufferOutputStream jsonl;
    jsonl::JsonlWriter jw(&jsonl);
    for (const auto& b : batches) ASSERT_TRUE(jw.Write(*b).ok());
    auto expected = jsonl.Finish();
    ASSERT_TRUE(expected.ok());
    const std::vector<std::string> want = Lines(std::string((*expected)->view()));
    int code = 0;
    const std::vector<std::string> got = Lines(Tool("orc-contents " + path, &code));
    ASSERT_EQ(code, 0);
    ASSERT_EQ(got.size(), want.size());
    // Held: a reference into the temporary struct type would dangle.
    const auto row_type_ptr = struct_(schema->fields());
    const DataType& row_type = *row_type_ptr;
    for (size_t i = 0; i < got.size(); ++i) {
      const std::string d = Diff(JsonParser(got[i]).Parse(), JsonParser(want[i]).Parse(), row_type, "row " + std::to_string(i));
      ASSERT_EQ(d, "");
    }
  }
}

// A dense union as an ORC uniontype: orc-contents shows each row's tag (the member's index, not
// quiver's type code) and value; a null union is null, a null member value a tag with null.
TEST_F(OrcWriterInterop, UnionsReadBackWithTheirTags) {
  SKIP_WITHOUT_ORC_TOOLS();
  const Array u = testing::SmallUnion();
  const SchemaPtr schema = std::make_shared<Schema>(std::vector<Field>{field("u", u.type())});
  io::BufferOutputStream out;
  auto w = OrcFileWriter::Open(&out, schema);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  ASSERT_TRUE((*w)->Write(std::make_shared<RecordBatch>(schema, u.length(), std::vector<Array>{u})).ok());
  ASSERT_TRUE((*w)->Write(std::make_shared<RecordBatch>(schema, 3, std::vector<Array>{u.Slice(2, 3)})).ok());
  ASSERT_TRUE((*w)->Close().ok());
  auto bytes = out.Finish();
  ASSERT_TRUE(bytes.ok());
  const std::string path = Path("union.orc");
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>((*bytes)->data()), (*bytes)->size());
  int code = 0;
  const std::vector<std::string> got = Lines(Tool("orc-contents " + path, &code));
  ASSERT_EQ(code, 0);
  const std::vector<std::string> want = {
      R"({"u": {"tag": 0, "value": 10}})", R"({"u": {"tag": 1, "value": "x"}})", R"({"u": {"tag": 0, "value": 20}})",
      R"({"u": null})",                   R"({"u": {"tag": 1, "value": "y"}})", R"({"u": {"tag": 0, "value": null}})",
      R"({"u": {"tag": 0, "value": 20}})", R"({"u": null})",                   R"({"u": {"tag": 1, "value": "y"}})"};
  EXPECT_EQ(got, want);
  EXPECT_NE(Tool("orc-metadata " + path).find(R"("type": "struct<u:uniontype<int,string>>")"), std::string::npos);
}

TEST_F(OrcWriterInterop, MetadataShowsTheEncodingsStreamsAndRowIndexMeant) {
  SKIP_WITHOUT_ORC_TOOLS();
  const std::string csv = Path("li.csv"), orc = Path("li.orc");
  ASSERT_EQ(RunCli(fmt::format("gen lineitem -n 25000 -o {}", csv)).exit_code, 0);
  const CliResult conv = RunCli(fmt::format("convert {} {} --compression zlib", csv, orc));
  ASSERT_EQ(conv.exit_code, 0) << conv.err;
  const Json meta = JsonParser(Tool("orc-metadata -v " + orc)).Parse();
  EXPECT_EQ(Member(meta, "rows").text, "25000");
  EXPECT_EQ(Member(meta, "compression").text, "\"zlib\"");
  EXPECT_EQ(Member(meta, "compression block").text, "262144");
  EXPECT_EQ(Member(meta, "row index stride").text, "10000");
  EXPECT_EQ(Member(meta, "format").text, "\"0.12\"");
  // No registered writer id: the one Apache ORC's readers give any unregistered writer.
  EXPECT_EQ(Member(meta, "software version").text, "\"Unknown(2147483647) quiver\"");
  EXPECT_EQ(Member(meta, "stripe count").text, "1");
  const Json& stripe = Member(meta, "stripes").items.at(0);
  EXPECT_EQ(Member(stripe, "timezone").text, "\"UTC\"");
  // Encodings: integers and dates RLE v2, doubles direct, the low-cardinality strings as
  // dictionaries of their distinct values, l_comment (all distinct) direct after its first group.
  std::map<int, std::string> encodings;
  for (const Json& e : Member(stripe, "encodings").items) {
    std::string text = Unquoted(Member(e, "encoding").text);
    if (Member(e, "count").text != "<missing>") text += " " + Member(e, "count").text;
    encodings[std::stoi(Member(e, "column").text)] = text;
  }
  const std::map<int, std::string> want_encodings = {
      {0, "direct"}, {1, "direct rle2"}, {2, "direct rle2"}, {3, "direct rle2"}, {4, "direct rle2"},
      {5, "direct"}, {6, "direct"}, {7, "direct"}, {8, "direct"},
      {9, "dictionary rle2 3"}, {10, "dictionary rle2 2"},
      {11, "direct rle2"}, {12, "direct rle2"}, {13, "direct rle2"},
      {14, "dictionary rle2 4"}, {15, "dictionary rle2 7"}, {16, "direct rle2"}};
  EXPECT_EQ(encodings, want_encodings);
  // Streams: every column's row index first, then its data streams.
  std::map<int, std::string> kinds;
  bool data_seen = false, index_after_data = false;
  for (const Json& st : Member(stripe, "streams").items) {
    const std::string kind = Unquoted(Member(st, "kind").text);
    kinds[std::stoi(Member(st, "column").text)] += kind + " ";
    index_after_data |= data_seen && kind == "index";
    data_seen |= kind != "index";
  }
  EXPECT_FALSE(index_after_data);
  EXPECT_EQ(kinds[0], "index ");
  EXPECT_EQ(kinds[1], "index data ");
  EXPECT_EQ(kinds[5], "index data ");
  EXPECT_EQ(kinds[9], "index data length dictionary ");
  EXPECT_EQ(kinds[16], "index data length ");

  // The row index statistics (orc-statistics -i) of l_orderkey, per 10,000 rows, against the
  // values orc-contents reads.
  std::vector<int64_t> keys;
  for (const std::string& line : Lines(Tool("orc-contents --columns=0 " + orc))) {
    keys.push_back(std::stoll(Member(JsonParser(line).Parse(), "l_orderkey").text));
  }
  ASSERT_EQ(keys.size(), 25000u);
  const std::string stats = Tool("orc-statistics -i " + orc);
  const size_t column1 = stats.find("--- Column 1 ---");
  ASSERT_NE(column1, std::string::npos) << stats;
  for (int g = 0; g < 3; ++g) {
    int64_t lo = INT64_MAX, hi = INT64_MIN, sum = 0;
    for (int64_t i = g * 10000; i < std::min<int64_t>((g + 1) * 10000, 25000); ++i) {
      lo = std::min(lo, keys[i]), hi = std::max(hi, keys[i]), sum += keys[i];
    }
    const size_t at = stats.find(fmt::format("--- RowIndex {} ---", g), column1);
    ASSERT_NE(at, std::string::npos);
    const std::string want = fmt::format("Data type: Integer\nValues: {}\nHas null: no\nMinimum: {}\nMaximum: {}\nSum: {}\n",
                                         g < 2 ? 10000 : 5000, lo, hi, sum);
    EXPECT_EQ(stats.substr(stats.find('\n', at) + 1, want.size()), want) << "row group " << g;
  }
}

// ORC as convert's input, by its name and by its magic: the rows quiver wrote come back equal
// through Parquet and CSV (no peer needed).
TEST_F(OrcWriterInterop, ConvertReadsOrcByNameAndByMagic) {
  const std::string csv = Path("in.csv"), orc = Path("in.orc"), bare = Path("in-bare");
  ASSERT_EQ(RunCli(fmt::format("gen lineitem -n 3000 -o {}", csv)).exit_code, 0);
  const CliResult want = RunCli("cat --format jsonl " + csv);
  ASSERT_EQ(want.exit_code, 0) << want.err;
  ASSERT_EQ(RunCli(fmt::format("convert {} {}", csv, orc)).exit_code, 0);
  std::filesystem::copy_file(orc, bare);
  for (const std::string& in : {orc, bare}) {
    SCOPED_TRACE(in);
    const std::string pq = in + ".parquet", back = in + ".jsonl";
    const CliResult to_pq = RunCli(fmt::format("convert {} {}", in, pq));
    ASSERT_EQ(to_pq.exit_code, 0) << to_pq.err;
    const CliResult from_pq = RunCli("cat --format jsonl " + pq);
    ASSERT_EQ(from_pq.exit_code, 0) << from_pq.err;
    EXPECT_EQ(from_pq.out, want.out);
    ASSERT_EQ(RunCli(fmt::format("convert {} {}", in, back)).exit_code, 0);
    std::ifstream f(back);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(f), {}), want.out);
  }
}

}  // namespace
}  // namespace quiver::orc

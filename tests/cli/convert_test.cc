// quiver convert: CSV to Parquet (every codec) read back by cat/schema/meta, CSV to CSV and
// JSON Lines, Parquet to CSV, no output file when a row is bad under --on-error fail, and
// --partition-by's Hive-style folders (escaped values, nulls, nothing left behind on error).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "testing/run_cli.h"

namespace quiver {
namespace {

using testing::RunCli;
namespace fs = std::filesystem;

class Convert : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path("/tmp") / ("quiver-convert-" + std::to_string(getpid()));
    fs::create_directories(dir_);
    csv_ = (dir_ / "in.csv").string();
    std::ofstream(csv_) << "id|name|price|day|flag\n"
                           "1|\"a|b\"|1.5|2024-01-02|true\n"
                           "2||-0.25|2024-02-29|false\n"
                           "3|日本語|1e300||true\n"
                           "-9223372036854775808|\"x\"\"y\"|0|1970-01-01|\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
  std::string csv_;
};

TEST_F(Convert, CsvToParquetReadsBackThroughCatSchemaAndMeta) {
  const std::string pq = Path("out.parquet");
  auto r = RunCli("convert " + csv_ + " " + pq);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("4 rows, 0 rejected"), std::string::npos) << r.err;
  auto want = RunCli("cat " + csv_ + " --format csv");
  auto got = RunCli("cat " + pq + " --format csv");
  ASSERT_EQ(got.exit_code, 0) << got.err;
  EXPECT_EQ(got.out, want.out);
  auto s = RunCli("schema " + pq);
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_NE(s.out.find("id: OPTIONAL INT64 INTEGER(64,true)"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("name: OPTIONAL BYTE_ARRAY STRING"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("day: OPTIONAL INT32 DATE"), std::string::npos) << s.out;
  EXPECT_NE(s.out.find("flag: OPTIONAL BOOLEAN"), std::string::npos) << s.out;
  auto m = RunCli("meta " + pq);
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_NE(m.out.find("created by: quiver version 0.1.0"), std::string::npos) << m.out;
  EXPECT_NE(m.out.find("rows: 4"), std::string::npos) << m.out;
  EXPECT_NE(m.out.find("min -9223372036854775808, max 3, null_count 0"), std::string::npos) << m.out;
}

TEST_F(Convert, EveryCompressionAndRowGroupSize) {
  auto want = RunCli("cat " + csv_ + " --format csv");
  for (const char* codec : {"snappy", "zstd", "lz4_raw", "gzip", "brotli", "none"}) {
    const std::string pq = Path(std::string(codec) + ".parquet");
    auto r = RunCli("convert " + csv_ + " " + pq + " --compression " + codec + " --row-group-size 3 --no-dictionary");
    ASSERT_EQ(r.exit_code, 0) << codec << ": " << r.err;
    auto got = RunCli("cat " + pq + " --format csv");
    EXPECT_EQ(got.out, want.out) << codec;
    auto m = RunCli("meta " + pq);
    EXPECT_NE(m.out.find("row groups: 2"), std::string::npos) << m.out;
    const std::string name = std::string(codec) == "none" ? "UNCOMPRESSED" : std::string(codec) == "lz4_raw" ? "LZ4_RAW"
                             : std::string(codec) == "zstd" ? "ZSTD" : std::string(codec) == "gzip" ? "GZIP"
                             : std::string(codec) == "brotli" ? "BROTLI" : "SNAPPY";
    EXPECT_NE(m.out.find("INT64 " + name + ", encodings [PLAIN, RLE]"), std::string::npos) << m.out;
  }
  auto bad = RunCli("convert " + csv_ + " " + Path("x.parquet") + " --compression lzo");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_FALSE(fs::exists(Path("x.parquet")));
}

TEST_F(Convert, CsvToCsvJsonlAndParquetToCsv) {
  auto r = RunCli("convert " + csv_ + " " + Path("clean.csv"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream f(Path("clean.csv"));
  std::string text((std::istreambuf_iterator<char>(f)), {});
  EXPECT_EQ(text,
            "id,name,price,day,flag\n1,a|b,1.5,2024-01-02,true\n2,,-0.25,2024-02-29,false\n3,日本語,1e+300,,true\n"
            "-9223372036854775808,\"x\"\"y\",0,1970-01-01,\n");
  r = RunCli("convert " + csv_ + " " + Path("rows.jsonl"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream j(Path("rows.jsonl"));
  std::string first;
  std::getline(j, first);
  EXPECT_EQ(first, "{\"id\":1,\"name\":\"a|b\",\"price\":1.5,\"day\":\"2024-01-02\",\"flag\":true}");
  ASSERT_EQ(RunCli("convert " + csv_ + " " + Path("a.parquet")).exit_code, 0);
  r = RunCli("convert " + Path("a.parquet") + " " + Path("back.csv"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream b(Path("back.csv"));
  std::string back((std::istreambuf_iterator<char>(b)), {});
  EXPECT_EQ(back, text);
}

// A Parquet file whose name has no extension quiver knows (a download, "part-0", "x.pq") is
// recognised by its magic, by cat and by convert; a CSV file without one is still read as CSV.
TEST_F(Convert, ParquetWithoutAKnownExtensionIsFoundByItsMagic) {
  ASSERT_EQ(RunCli("convert " + csv_ + " " + Path("a.parquet")).exit_code, 0);
  fs::copy_file(Path("a.parquet"), Path("a.pq"));
  fs::copy_file(Path("a.parquet"), Path("part-0"));
  fs::copy_file(csv_, Path("plain"));
  auto want = RunCli("cat " + csv_ + " --format csv");
  ASSERT_EQ(want.exit_code, 0) << want.err;
  for (const char* name : {"a.pq", "part-0"}) {
    auto got = RunCli("cat " + Path(name) + " --format csv");
    ASSERT_EQ(got.exit_code, 0) << name << ": " << got.err;
    EXPECT_EQ(got.out, want.out) << name;
    auto r = RunCli("convert " + Path(name) + " " + Path(std::string(name) + ".csv"));
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
    auto back = RunCli("cat " + Path(std::string(name) + ".csv") + " --format csv");
    EXPECT_EQ(back.out, want.out) << name;
  }
  auto csv = RunCli("cat " + Path("plain") + " --format csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out, want.out);
}

TEST_F(Convert, BadRowUnderOnErrorFailLeavesNoFileAndNamesTheLine) {
  const std::string bad = Path("bad.csv");
  {
    std::ofstream o(bad);
    o << "a,b\n";
    for (int i = 0; i < 1000; ++i) o << i << "," << i * 2 << "\n";
    o << "1001,notanumber\n";
  }
  const std::string pq = Path("bad.parquet");
  auto r = RunCli("convert " + bad + " " + pq + " --types a=int64,b=int64 --on-error fail");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("bad.csv:1002:2 'b'"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(pq));
  for (const auto& e : fs::directory_iterator(dir_)) {
    EXPECT_EQ(e.path().filename().string().find(".quiver-"), std::string::npos) << e.path();
  }
  r = RunCli("convert " + bad + " " + pq + " --types a=int64,b=int64 --on-error skip");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("1000 rows, 1 rejected"), std::string::npos) << r.err;
}

TEST_F(Convert, PartitionByWritesHiveFoldersWithoutThePartitionColumns) {
  const std::string in = Path("p.csv");
  std::ofstream(in) << "id|flag|day|price\n"
                       "1|A|2024-01-02|1.5\n"
                       "2|a/b=c|2024-01-02|2.5\n"
                       "3||2024-01-03|3.5\n"
                       "4|A|2024-01-03|4.5\n"
                       "5|A|2024-01-02|5.5\n";
  const std::string out = Path("parts");
  auto r = RunCli("convert " + in + " " + out + " --partition-by flag --types flag=string");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("5 rows, 0 rejected"), std::string::npos) << r.err;
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(out)) {
    if (e.is_regular_file()) files.push_back(fs::relative(e.path(), out).string());
  }
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"flag=A/part-00000.parquet", "flag=__HIVE_DEFAULT_PARTITION__/part-00000.parquet",
                                             "flag=a%2Fb%3Dc/part-00000.parquet"}));
  auto a = RunCli("cat " + out + "/flag=A/part-00000.parquet --format csv");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, "id,day,price\n1,2024-01-02,1.5\n4,2024-01-03,4.5\n5,2024-01-02,5.5\n");
  auto n = RunCli("cat '" + out + "/flag=__HIVE_DEFAULT_PARTITION__/part-00000.parquet' --format csv");
  EXPECT_EQ(n.out, "id,day,price\n3,2024-01-03,3.5\n");

  // Two levels, the second a date.
  const std::string out2 = Path("parts2");
  r = RunCli("convert " + in + " " + out2 + " --partition-by flag,day --types flag=string");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto d = RunCli("cat " + out2 + "/flag=A/day=2024-01-02/part-00000.parquet --format csv");
  ASSERT_EQ(d.exit_code, 0) << d.err;
  EXPECT_EQ(d.out, "id,price\n1,1.5\n5,5.5\n");
  EXPECT_TRUE(fs::exists(out2 + "/flag=A/day=2024-01-03/part-00000.parquet"));

  // The target exists: refused, and the existing folder is left as it was.
  r = RunCli("convert " + in + " " + out + " --partition-by flag");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("exists"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(out + "/flag=A/part-00000.parquet"));
}

// A partition's rows come from many batches (a Parquet input of 7-row groups) and gather into
// its column buffers batch after batch: nulls, strings, booleans, doubles and dates of every
// partition must read back exactly as the input had them, in input order.
TEST_F(Convert, PartitionRowsGatheredAcrossBatchesKeepValuesNullsAndOrder) {
  const std::string in = Path("g.csv");
  std::string want[3];
  for (auto& w : want) w = "id,s,b,x,d\n";
  {
    std::ofstream o(in);
    o << "id|k|s|b|x|d\n";
    for (int i = 0; i < 300; ++i) {
      const int k = (i * 7) % 3;
      const std::string s = i % 5 == 0 ? "" : "s" + std::string(static_cast<size_t>(i % 11), 'q') + std::to_string(i);
      const std::string b = i % 4 == 0 ? "" : (i % 3 == 0 ? "true" : "false");
      const std::string x = i % 6 == 0 ? "" : std::to_string(i) + ".25";
      const std::string d = i % 9 == 0 ? "" : "2024-01-" + std::string(i % 28 + 1 < 10 ? "0" : "") + std::to_string(i % 28 + 1);
      o << i << "|" << k << "|" << s << "|" << b << "|" << x << "|" << d << "\n";
      want[k] += std::to_string(i) + "," + s + "," + b + "," + x + "," + d + "\n";
    }
  }
  const std::string pq = Path("g.parquet");
  auto r = RunCli("convert " + in + " " + pq + " --row-group-size 7 --types s=string,b=bool,x=float64,d=date");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string out = Path("gparts");
  r = RunCli("convert " + pq + " " + out + " --partition-by k");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (int k = 0; k < 3; ++k) {
    auto c = RunCli(fmt::format("cat {}/k={}/part-00000.parquet --format csv", out, k));
    ASSERT_EQ(c.exit_code, 0) << c.err;
    EXPECT_EQ(c.out, want[k]) << k;
  }
}

TEST_F(Convert, PartitionByErrorsLeaveNothingBehind) {
  auto r = RunCli("convert " + csv_ + " " + Path("nope") + " --partition-by missing");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("no column 'missing'"), std::string::npos) << r.err;
  r = RunCli("convert " + csv_ + " " + Path("all") + " --partition-by id,name,price,day,flag");
  EXPECT_NE(r.exit_code, 0);
  r = RunCli("convert " + csv_ + " " + Path("x.csv") + " --partition-by id");
  EXPECT_NE(r.exit_code, 0);
  // A bad row late in the input, after partitions were written.
  const std::string bad = Path("bad.csv");
  {
    std::ofstream o(bad);
    o << "a,b\n";
    for (int i = 0; i < 200000; ++i) o << i % 3 << "," << i << "\n";
    o << "1,notanumber\n";
  }
  r = RunCli("convert " + bad + " " + Path("badparts") + " --types a=int64,b=int64 --partition-by a");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("notanumber"), std::string::npos) << r.err;
  for (const auto& e : fs::directory_iterator(dir_)) {
    const std::string name = e.path().filename().string();
    EXPECT_TRUE(name == "in.csv" || name == "bad.csv") << name;
  }
}

// Row groups, stripes and record batches are cut by the rows and the options only: the thread
// count and the CSV block size (which decide how the reader chunks the text) change no byte.
TEST_F(Convert, SameBytesAtAnyThreadCountAndBlockSize) {
  const std::string li = Path("li.csv");
  auto gen = RunCli("gen lineitem --rows 150000 -o " + li);
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  for (const std::string ext : {"parquet", "orc", "arrow"}) {
    std::string first;
    for (const std::string run : {"--threads 1", "--threads 2", "--threads 4", "--threads 2 --block-size 65536",
                                  "--threads 1 --block-size 300000"}) {
      const std::string out = Path("li." + ext);
      auto r = RunCli("convert " + li + " " + out + " --row-group-size 50000 " + run);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      std::ifstream in(out, std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)), {});
      if (first.empty()) first = bytes;
      else EXPECT_TRUE(bytes == first) << ext << " with " << run << " wrote " << bytes.size() << " bytes, --threads 1 " << first.size();
      fs::remove(out);
    }
  }
}

TEST_F(Convert, BadBlockSizeIsAnError) {
  auto r = RunCli("convert " + csv_ + " " + Path("o.parquet") + " --block-size 0");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find(csv_ + ": block_size must be at least 1, got 0"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(Path("o.parquet")));
}

TEST_F(Convert, UnknownOutputFormatIsAnError) {
  auto r = RunCli("convert " + csv_ + " " + Path("out.xyz"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--to"), std::string::npos) << r.err;
}

// A header-only CSV keeps its header through cat --format csv and convert to CSV (as DuckDB
// writes it); to Parquet it is a file with the schema and 0 rows; JSON Lines has no line.
TEST_F(Convert, HeaderOnlyCsvKeepsItsHeader) {
  const std::string in = Path("header.csv");
  std::ofstream(in) << "id,name,when\n";
  auto r = RunCli("cat --format csv " + in);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id,name,when\n");
  r = RunCli("cat --format csv --columns when,id " + in);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "when,id\n");
  r = RunCli("convert " + in + " " + Path("out.csv"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream f(Path("out.csv"));
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(f), {}), "id,name,when\n");
  r = RunCli("convert " + in + " " + Path("out.tsv"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream t(Path("out.tsv"));
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(t), {}), "id\tname\twhen\n");
  r = RunCli("convert " + in + " " + Path("out.jsonl"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(fs::file_size(Path("out.jsonl")), 0u);
  r = RunCli("convert " + in + " " + Path("out.parquet"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunCli("cat --format csv " + Path("out.parquet"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id,name,when\n");
  r = RunCli("convert " + Path("out.parquet") + " " + Path("back.csv"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream b(Path("back.csv"));
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(b), {}), "id,name,when\n");
}

// A header cell that is not UTF-8 (a stray Windows-1252 byte) fails the conversion and leaves
// no file, as an invalid value does; --replace-invalid-utf8 repairs it as it repairs values.
TEST_F(Convert, HeaderNameThatIsNotUtf8) {
  const std::string in = Path("survey.csv");
  std::ofstream(in) << "id,How satisfied were you with the caf\xe9?\n1,4\n2,5\n";
  auto r = RunCli("convert " + in + " " + Path("out.parquet"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "quiver: " + in + ":1:2: header: invalid UTF-8, got \"How satisfied were you with the caf\\xe9?\" "
                   "(byte 3); the file may be in another encoding: pass --encoding latin1 (or --replace-invalid-utf8)\n");
  EXPECT_FALSE(fs::exists(Path("out.parquet")));
  r = RunCli("convert --replace-invalid-utf8 " + in + " " + Path("out.parquet"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunCli("cat --format csv " + Path("out.parquet"));
  EXPECT_EQ(r.out, "id,How satisfied were you with the caf\xEF\xBF\xBD?\n1,4\n2,5\n");
  r = RunCli("convert --encoding latin1 " + in + " " + Path("latin.parquet"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunCli("schema " + Path("latin.parquet"));
  EXPECT_NE(r.out.find("How satisfied were you with the caf\xC3\xA9?: OPTIONAL INT64"), std::string::npos) << r.out;
}

// Files that are not text fail in one line that names what they look like, and no byte of
// them reaches the terminal.
TEST_F(Convert, BinaryInputIsRefusedInOneLine) {
  std::string noise;
  for (int i = 0; i < 2000; ++i) noise += static_cast<char>((i * 7919 + 13) % 256);
  std::ofstream(Path("noise.csv"), std::ios::binary) << noise;
  auto r = RunCli("cat " + Path("noise.csv"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "quiver: " + Path("noise.csv") + ": not CSV text: binary data (NUL byte at byte 61); if it is text, "
                   "pass its encoding (--encoding utf-16 or --encoding latin1)\n");
  EXPECT_TRUE(r.out.empty());
  // A Parquet file that lost its first bytes, under a name that does not say Parquet.
  ASSERT_EQ(RunCli("convert " + csv_ + " " + Path("t.parquet")).exit_code, 0);
  std::ifstream pq(Path("t.parquet"), std::ios::binary);
  std::string bytes(std::istreambuf_iterator<char>(pq), {});
  std::ofstream(Path("cut.dat"), std::ios::binary) << bytes.substr(4);
  r = RunCli("convert " + Path("cut.dat") + " " + Path("cut.parquet"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "quiver: " + Path("cut.dat") +
                       ": not CSV text: a damaged Parquet file (its footer ends in PAR1, but it does not start with PAR1)\n");
  EXPECT_FALSE(fs::exists(Path("cut.parquet")));
}

}  // namespace
}  // namespace quiver

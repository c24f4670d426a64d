// DuckDB and Polars (pinned npm packages, installed by scripts/interop-setup.sh) read Parquet
// files quiver wrote: every codec, with and without dictionaries, typed and lineitem-shaped
// tables, checked against the source CSV as DuckDB reads it. Skipped when node/npm are missing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "testing/run_cli.h"

namespace quiver {
namespace {

namespace fs = std::filesystem;
using testing::RunCli;

struct Shell {
  int code;
  std::string out;
};
Shell RunShell(const std::string& cmd) {
  Shell s{-1, ""};
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) return s;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) s.out.append(buf, n);
  const int st = pclose(p);
  s.code = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
  return s;
}

class Interop : public ::testing::Test {
 protected:
  void SetUp() override {
    node_dir_ = (fs::path(QUIVER_CLI_PATH).parent_path() / "interop").string();
    auto setup = RunShell(std::string("bash ") + QUIVER_SOURCE_DIR + "/scripts/interop-setup.sh " + node_dir_);
    if (setup.code != 0) GTEST_SKIP() << "DuckDB/Polars unavailable, interop not checked: " << setup.out;
    dir_ = fs::path("/tmp") / ("quiver-interop-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  // Runs check.mjs; returns its JSON line, failing the test when an engine disagrees.
  std::string Check(const std::string& parquet, const std::string& csv, const std::string& delim = ",") {
    auto r = RunShell("node " + node_dir_ + "/check.mjs " + parquet + " " + csv + " --delim '" + delim + "'");
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
      const std::string json = Check(pq, csv);
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

TEST_F(Interop, LineitemDefaultsAndSmallRowGroups) {
  const std::string csv = Path("li.csv");
  ASSERT_EQ(RunCli("gen lineitem --rows 100000 -o " + csv).exit_code, 0);
  for (const std::string extra : {"", " --compression zstd --row-group-size 30000 --no-dictionary"}) {
    const std::string pq = Path("li.parquet");
    auto r = RunCli("convert " + csv + " " + pq + extra);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string json = Check(pq, csv);
    EXPECT_NE(json.find("\"rows\":100000"), std::string::npos) << json;
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

}  // namespace
}  // namespace quiver

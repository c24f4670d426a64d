// Arrow IPC through the program: convert to and from .arrow/.feather/.arrows (and Parquet), cat
// --format arrow piped into another command, stdin told apart by its first bytes, schema of an
// IPC file, and the flag errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "testing/run_cli.h"

namespace quiver {
namespace {

namespace fs = std::filesystem;
using testing::RunCli;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class IpcCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("quiver-ipc-cli-" + std::to_string(getpid()));
    fs::create_directories(dir_);
    std::ofstream o(P("in.csv"));
    o << "id,name,price,day,flag\n";
    for (int i = 0; i < 2500; ++i) {
      o << i << "," << (i % 7 == 0 ? "" : "n" + std::to_string(i % 13)) << "," << i << ".5,2024-01-"
        << (10 + i % 20) << "," << (i % 3 ? "true" : "false") << "\n";
    }
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string P(const std::string& n) const { return (dir_ / n).string(); }
  fs::path dir_;
};

TEST_F(IpcCli, ConvertRoundTripsThroughEveryIpcFormAndParquet) {
  ASSERT_EQ(RunCli("convert " + P("in.csv") + " " + P("ref.csv")).exit_code, 0);
  const std::string ref = Slurp(P("ref.csv"));
  for (const std::string ext : {"arrow", "feather", "arrows"}) {
    for (const std::string comp : {"", " --compression lz4", " --compression zstd"}) {
      SCOPED_TRACE(ext + comp);
      auto w = RunCli("convert " + P("in.csv") + " " + P("t." + ext) + comp);
      ASSERT_EQ(w.exit_code, 0) << w.err;
      EXPECT_EQ(Slurp(P("t." + ext)).substr(0, 6) == "ARROW1", ext != "arrows");
      // IPC -> Parquet -> IPC -> CSV equals CSV -> CSV.
      ASSERT_EQ(RunCli("convert " + P("t." + ext) + " " + P("t.parquet")).exit_code, 0);
      ASSERT_EQ(RunCli("convert " + P("t.parquet") + " " + P("u.arrow")).exit_code, 0);
      auto back = RunCli("convert " + P("u.arrow") + " " + P("back.csv"));
      ASSERT_EQ(back.exit_code, 0) << back.err;
      EXPECT_EQ(Slurp(P("back.csv")), ref);
    }
  }
  // An IPC file or stream with another extension is known by its first bytes.
  fs::copy_file(P("t.arrow"), P("noext"));
  auto r = RunCli("convert " + P("noext") + " " + P("back2.csv"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Slurp(P("back2.csv")), ref);
  fs::copy_file(P("t.arrows"), P("noext-stream"));
  r = RunCli("convert " + P("noext-stream") + " " + P("back3.csv"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Slurp(P("back3.csv")), ref);
}

TEST_F(IpcCli, CatWritesTheStreamFormatToAPipe) {
  ASSERT_EQ(RunCli("convert " + P("in.csv") + " " + P("t.parquet")).exit_code, 0);
  auto r = RunCli("cat " + P("t.parquet") + " --format arrow --columns name,id | " + QUIVER_CLI_PATH +
                  " convert - " + P("piped.csv") + " --from arrows");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string got = Slurp(P("piped.csv"));
  EXPECT_EQ(got.substr(0, got.find('\n', got.find('\n') + 1) + 1), "name,id\n,0\n");
  EXPECT_EQ(std::count(got.begin(), got.end(), '\n'), 2501);
  auto shown = RunCli("cat " + P("t.parquet") + " --format arrow --limit 2 > " + P("two.arrows") + " && " +
                      QUIVER_CLI_PATH + " cat " + P("two.arrows") + " --format csv");
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_EQ(Slurp(P("two.arrows")).substr(0, 4), std::string("\xff\xff\xff\xff"));  // the stream format
  EXPECT_EQ(shown.out, "id,name,price,day,flag\n0,,0.5,2024-01-10,false\n1,n1,1.5,2024-01-11,true\n");
}

TEST_F(IpcCli, StdinIsReadAsArrowByItsFirstBytes) {
  const std::string q = QUIVER_CLI_PATH;
  ASSERT_EQ(RunCli("convert " + P("in.csv") + " " + P("ref.csv")).exit_code, 0);
  const std::string ref = Slurp(P("ref.csv"));
  ASSERT_EQ(RunCli("convert " + P("in.csv") + " " + P("t.arrows")).exit_code, 0);
  ASSERT_EQ(RunCli("convert " + P("in.csv") + " " + P("t.arrow")).exit_code, 0);
  // The stream (continuation marker) and the file format (ARROW1), without --from.
  for (const std::string f : {"t.arrows", "t.arrow"}) {
    SCOPED_TRACE(f);
    auto r = RunCli("cat - --format csv < " + P(f));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, ref);
  }
  // Through a pipe, into Parquet.
  auto r = RunCli("cat " + P("t.arrow") + " --format arrow | " + q + " convert - " + P("piped.parquet"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunCli("cat " + P("piped.parquet") + " --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, ref);
  r = RunCli("schema - < " + P("t.arrows"));
  EXPECT_EQ(r.out, "id: int64\nname: string\nprice: double\nday: date32\nflag: bool\n");
  // CSV on stdin, plain or gzip, still reaches the CSV reader whole after the look at its head.
  r = RunCli("cat - --format csv < " + P("in.csv"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, ref);
  r = RunCli("cat - --format csv < " + P("in.csv") + " | gzip -c | " + q + " cat - --format csv");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, ref);
  // A stream cut inside its first message fails with where it stopped.
  r = RunCli("cat - --format arrow < " + P("t.arrows") + " | head -c 100 | " + q + " cat -");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "quiver: <stdin>: Arrow IPC message metadata at byte 8 is cut short: 92 of 408 bytes\n");
}

TEST_F(IpcCli, SchemaOfAnIpcFile) {
  ASSERT_EQ(RunCli("convert " + P("in.csv") + " " + P("t.arrows")).exit_code, 0);
  auto r = RunCli("schema " + P("t.arrows"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id: int64\nname: string\nprice: double\nday: date32\nflag: bool\n");
  r = RunCli("schema --json " + P("t.arrows"));
  EXPECT_EQ(r.out.substr(0, r.out.find("\"fields\"")), "{\"file\":\"" + P("t.arrows") + "\",\"format\":\"arrows\",");
}

TEST_F(IpcCli, BadCompressionAndBadInputAreNamed) {
  auto r = RunCli("convert " + P("in.csv") + " " + P("t.arrow") + " --compression snappy");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "quiver: Arrow IPC compression 'snappy' is not one of none, lz4 (LZ4_FRAME), zstd\n");
  EXPECT_FALSE(fs::exists(P("t.arrow")));
  {
    std::ofstream o(P("bad.arrow"));
    o << "ARROW1\0\0garbage";
  }
  r = RunCli("cat " + P("bad.arrow"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "quiver: " + P("bad.arrow") + ": starts with ARROW1 but does not end with it: not a whole Arrow IPC file\n");
}

}  // namespace
}  // namespace quiver

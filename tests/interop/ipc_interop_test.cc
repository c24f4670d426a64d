// Arrow IPC files and streams quiver writes, read by Polars equal to the Parquet file of the same
// rows (flat typed columns, every body compression, nested parquet-testing files); and IPC files
// and streams Polars writes (with its view types), read by quiver to the same CSV as the Parquet
// file. Skipped when node/npm are missing.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "testing/corpus.h"
#include "testing/run_cli.h"

namespace quiver {
namespace {

namespace fs = std::filesystem;
using testing::RunCli;
using testing::RunShell;

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class IpcInterop : public ::testing::Test {
 protected:
  void SetUp() override {
    auto setup = testing::SetUpInteropEngines(&node_dir_);
    if (setup.code != 0) GTEST_SKIP() << "Polars unavailable, IPC interop not checked: " << setup.out;
    dir_ = fs::path("/tmp") / ("quiver-ipc-interop-" + std::to_string(getpid()));
    fs::create_directories(dir_);
    std::ofstream o(P("typed.csv"));
    o << "id,small,price,amount,name,day,flag\n";
    for (int i = 0; i < 3000; ++i) {
      o << i * 1000003LL << "," << (i % 200 - 100) << "," << (i % 13 == 0 ? "" : std::to_string(i) + ".25") << ","
        << (i % 500) << "." << (i % 90 + 10) << "," << (i % 17 == 0 ? "" : "name " + std::to_string(i % 50)) << ","
        << (1970 + i % 80) << "-0" << (1 + i % 9) << "-1" << (i % 10) << "," << (i % 3 == 0 ? "" : i % 2 ? "true" : "false")
        << "\n";
    }
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  void PolarsReads(const std::string& ipc, const std::string& parquet) {
    auto r = RunShell("node " + node_dir_ + "/ipc.mjs check " + ipc + " " + parquet);
    EXPECT_EQ(r.code, 0) << ipc << ": " << r.out;
    EXPECT_NE(r.out.find("\"ok\":true"), std::string::npos) << r.out;
  }
  std::string P(const std::string& n) const { return (dir_ / n).string(); }
  std::string node_dir_;
  fs::path dir_;
};

TEST_F(IpcInterop, PolarsReadsWhatQuiverWrites) {
  const std::string types = " --types 'amount=decimal(9,2)'";
  ASSERT_EQ(RunCli("convert " + P("typed.csv") + " " + P("typed.parquet") + types).exit_code, 0);
  for (const std::string out : {"t.arrow", "t.arrows", "t.feather"}) {
    for (const std::string comp : {"none", "lz4", "zstd"}) {
      SCOPED_TRACE(out + " " + comp);
      auto w = RunCli("convert " + P("typed.csv") + " " + P(out) + types + " --compression " + comp);
      ASSERT_EQ(w.exit_code, 0) << w.err;
      PolarsReads(P(out), P("typed.parquet"));
    }
  }
}

TEST_F(IpcInterop, PolarsReadsNestedColumnsQuiverWrites) {
  QUIVER_CORPUS_OR_SKIP(root);
  // Not nested_maps.snappy.parquet: Polars 0.25 reads a null map inside a list of structs as an
  // empty map from IPC (and from the original Parquet file), though quiver reads the null back
  // from both the IPC and the Parquet file it wrote.
  for (const char* name : {"nested_lists.snappy.parquet", "nested_structs.rust.parquet", "list_columns.parquet"}) {
    SCOPED_TRACE(name);
    const std::string src = (root / "parquet-testing" / "data" / name).string();
    // The reference is quiver's own Parquet of the file, so both sides hold quiver's types.
    ASSERT_EQ(RunCli("convert " + src + " " + P("n.parquet")).exit_code, 0);
    auto w = RunCli("convert " + src + " " + P("n.arrow"));
    ASSERT_EQ(w.exit_code, 0) << w.err;
    PolarsReads(P("n.arrow"), P("n.parquet"));
  }
}

TEST_F(IpcInterop, QuiverReadsWhatPolarsWrites) {
  ASSERT_EQ(RunCli("convert " + P("typed.csv") + " " + P("typed.parquet") + " --types 'amount=decimal(9,2)'").exit_code, 0);
  ASSERT_EQ(RunCli("convert " + P("typed.parquet") + " " + P("ref.csv")).exit_code, 0);
  const std::string ref = Slurp(P("ref.csv"));
  ASSERT_GT(ref.size(), 50000u);
  for (const std::string out : {"pl.arrow", "pl.arrows"}) {
    for (const std::string comp : {"uncompressed", "lz4", "zstd"}) {
      SCOPED_TRACE(out + " " + comp);
      auto w = RunShell("node " + node_dir_ + "/ipc.mjs write " + P("typed.parquet") + " " + P(out) + " " + comp);
      ASSERT_EQ(w.code, 0) << w.out;
      auto r = RunCli("convert " + P(out) + " " + P("back.csv"));
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(Slurp(P("back.csv")), ref);
    }
  }
}

}  // namespace
}  // namespace quiver

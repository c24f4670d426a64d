#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "quiver/cli/progress.h"
#include "quiver/dataset/partitioned_writer.h"
#include "quiver/parquet/writer/file_writer.h"
#include "testing/run_cli.h"

namespace quiver {
namespace {

using testing::RunCli;

TEST(Cli, HelpListsCommands) {
  auto r = RunCli("--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("Usage: quiver"), std::string::npos);
  EXPECT_NE(r.out.find("gen"), std::string::npos);
  EXPECT_NE(r.out.find("quiver: columnar data files (CSV, Parquet, ORC) — convert, inspect, read"), std::string::npos) << r.out;
  // convert names the formats it reads and writes, ORC among them.
  EXPECT_NE(r.out.find("Convert CSV, Parquet, ORC or Arrow IPC to Parquet, ORC, CSV, JSON Lines or Arrow IPC"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Print a Parquet, ORC or Arrow IPC file's schema"), std::string::npos) << r.out;
}

// convert's flags are bound to the library's option structs: the defaults it shows are theirs.
TEST(Cli, ConvertDefaultsAreTheLibrarys) {
  const parquet::ParquetWriterOptions pq;
  EXPECT_EQ(pq.row_group_rows, 122880);  // DuckDB's
  auto r = RunCli("convert --help");
  EXPECT_EQ(r.exit_code, 0);
  for (const std::string& want :
       {"--row-group-size INT=" + std::to_string(pq.row_group_rows), "--page-size INT=" + std::to_string(pq.page_size),
        "--statistics-truncate INT:NONNEGATIVE=" + std::to_string(pq.statistics_truncate_length),
        std::string("--compression TEXT=snappy"),
        "in [1 - 1048576]=" + std::to_string(dataset::PartitionedWriteOptions{}.memory_budget >> 20)}) {
    EXPECT_NE(r.out.find(want), std::string::npos) << want << "\n" << r.out;
  }
}

TEST(Cli, Version) {
  auto r = RunCli("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, std::string("quiver ") + QUIVER_VERSION_STRING + "\n");
}

TEST(Cli, UsageErrorsExitTwo) {
  auto r = RunCli("");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("quiver: ", 0), 0u) << r.err;
  r = RunCli("frobnicate x.csv");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "quiver: unknown command 'frobnicate'\nRun 'quiver --help' for the list of commands.\n");
  r = RunCli("gen lineitem --rows notanumber");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--rows"), std::string::npos) << r.err;
}

TEST(Cli, FailuresExitOneWithContext) {
  auto r = RunCli("gen nosuch");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "quiver: gen: unknown dataset 'nosuch' (known: lineitem, logs)\n");
  r = RunCli("gen lineitem -o /nonexistent-dir/x.csv");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("quiver: /nonexistent-dir/x.csv: cannot create a temporary file in /nonexistent-dir: ", 0), 0u)
      << r.err;
}

TEST(Cli, GenLineitemIsDeterministic) {
  auto r = RunCli("gen lineitem --rows 3 --seed 7");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto again = RunCli("gen lineitem --rows 3 --seed 7");
  EXPECT_EQ(r.out, again.out);
  std::istringstream lines(r.out);
  std::string header, row;
  std::getline(lines, header);
  EXPECT_EQ(header,
            "l_orderkey,l_partkey,l_suppkey,l_linenumber,l_quantity,l_extendedprice,l_discount,l_tax,"
            "l_returnflag,l_linestatus,l_shipdate,l_commitdate,l_receiptdate,l_shipinstruct,l_shipmode,l_comment");
  int rows = 0;
  while (std::getline(lines, row)) {
    ++rows;
    EXPECT_EQ(std::count(row.begin(), row.end(), ','), 15) << row;
  }
  EXPECT_EQ(rows, 3);
}

TEST(Cli, GenWritesFileAtomically) {
  std::string path = "/tmp/quiver-gen-test-" + std::to_string(getpid()) + ".csv";
  auto r = RunCli("gen lineitem --rows 1000 --delimiter '|' -o " + path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("1000 rows"), std::string::npos) << r.err;
  std::ifstream f(path);
  std::string line;
  int n = 0;
  while (std::getline(f, line)) ++n;
  EXPECT_EQ(n, 1001);
  std::filesystem::remove(path);
}

TEST(Cli, MessyLineitemHasQuotedFieldsWithNewlines) {
  auto r = RunCli("gen lineitem --rows 200 --messy");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("\"\""), std::string::npos);
  // More physical lines than records: some quoted comments span lines.
  EXPECT_GT(std::count(r.out.begin(), r.out.end(), '\n'), 201);
}

TEST(Progress, RendersBarRateAndEta) {
  std::string s = cli::Progress::Render("convert", 50'000'000, 100'000'000, 12345, 2.0, 80);
  EXPECT_EQ(s.rfind("convert [", 0), 0u) << s;
  EXPECT_NE(s.find(" 50%"), std::string::npos) << s;
  EXPECT_NE(s.find("12345 rows 25 MB/s ETA 2s"), std::string::npos) << s;
  std::string unknown = cli::Progress::Render("gen", 2048, 0, 10, 1.0, 80);
  EXPECT_EQ(unknown, "gen 2.0 KiB 10 rows 0 MB/s");
}

}  // namespace
}  // namespace quiver

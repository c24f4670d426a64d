#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "testing/run_cli.h"

namespace quiver {
namespace {

using testing::RunCli;

class CsvCommands : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = "/tmp/quiver-cli-csv-" + std::to_string(getpid()) + ".csv";
    std::ofstream(path_) << "id;name;when\n1;\"a;b\";2024-01-02\n2;c;2024-02-03\n";
  }
  void TearDown() override { std::filesystem::remove(path_); }
  std::string path_;
};

TEST_F(CsvCommands, SniffPrintsDialectAndSchema) {
  auto r = RunCli("sniff " + path_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "delimiter: ;\nquote: \"\nescape: doubled quote\nheader: true\nskip_lines: 0\ncolumns: 3\n"
            "  id: int64\n  name: string\n  when: date32\n");
}

// --lenient joins a header wrapped over two lines, and sniff says so.
TEST_F(CsvCommands, SniffShowsAJoinedHeader) {
  std::ofstream(path_) << "Exported 2024-05-01\nid,unit\nprice,qty\n1,2.5,3\n2,4.5,5\n3,1.5,6\n";
  auto r = RunCli("sniff --lenient " + path_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "delimiter: ,\nquote: \"\nescape: doubled quote\nheader: true (joined from 2 lines)\nskip_lines: 1\n"
            "columns: 3\n  id: int64\n  unit price: double\n  qty: int64\n");
}

// A date column that is not ISO shows the format it is read by; --types names one.
TEST_F(CsvCommands, SniffShowsADateFormat) {
  std::ofstream(path_) << "id,when,stamp\n1,24/08/2008,2015/01/01 01:00:00\n2,1/2/2008,2015/01/02 13:00:00\n";
  auto r = RunCli("sniff " + path_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "delimiter: ,\nquote: \"\nescape: doubled quote\nheader: true\nskip_lines: 0\ncolumns: 3\n"
            "  id: int64\n  when: date32 (format %d/%m/%Y)\n  stamp: timestamp[us] (format %Y/%m/%d %H:%M:%S)\n");
  std::ofstream(path_) << "id,when\n1,1/2/2008\n2,3/4/08\n";
  r = RunCli("cat " + path_ + " --format csv --types 'when=date:%m/%d/%y' --two-digit-years-from 1950");
  EXPECT_EQ(r.err, "quiver: " + path_ + ":2:2 'when': cannot convert to date32 with format '%m/%d/%y', got \"1/2/2008\" (byte 10)\n");
  std::ofstream(path_) << "id,when\n1,1/2/08\n2,3/4/49\n";
  r = RunCli("cat " + path_ + " --format csv --types 'when=date:%m/%d/%y' --two-digit-years-from 1950");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id,when\n1,2008-01-02\n2,2049-03-04\n");
}

TEST_F(CsvCommands, CatFormats) {
  auto r = RunCli("cat " + path_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "id  name  when\n--  ----  ----------\n1   a;b   2024-01-02\n2   c     2024-02-03\n");
  r = RunCli("cat " + path_ + " --format csv");
  EXPECT_EQ(r.out, "id,name,when\n1,a;b,2024-01-02\n2,c,2024-02-03\n");
  r = RunCli("cat " + path_ + " --format jsonl --columns when,id --limit 1");
  EXPECT_EQ(r.out, "{\"when\":\"2024-01-02\",\"id\":1}\n");
  r = RunCli("cat - --format csv --delimiter ';' < " + path_);
  EXPECT_EQ(r.out, "id,name,when\n1,a;b,2024-01-02\n2,c,2024-02-03\n");
}

TEST_F(CsvCommands, ErrorsAndOptions) {
  auto r = RunCli("cat " + path_ + " --columns nope");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "quiver: " + path_ + ": no column named 'nope'\n");
  r = RunCli("cat " + path_ + " --types 'id=bool'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "quiver: " + path_ + ":3:1 'id': cannot convert to bool, got \"2\" (byte 32)\n");
  r = RunCli("cat " + path_ + " --on-error maybe");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "quiver: --on-error must be fail, skip or null, got 'maybe'\n");
  r = RunCli("cat " + path_ + " --types 'id=bool' --on-error null --format csv");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "id,name,when\ntrue,a;b,2024-01-02\n,c,2024-02-03\n");
  EXPECT_EQ(r.err, "quiver: " + path_ + ": 2 rows read, 2 written, 0 rejected, 1 cells nulled, 0 rows repaired (0 extra fields dropped), 0 blank lines skipped\n");
  r = RunCli("cat /nonexistent.csv");
  EXPECT_EQ(r.err, "quiver: /nonexistent.csv: No such file or directory\n");
}

}  // namespace
}  // namespace quiver

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

// The library's errors name options and problem kinds; the program says which flag to pass.
TEST_F(CsvCommands, ErrorsNameTheFlagsToPass) {
  std::ofstream(path_) << "id,name\n1,a\n2,b\nthree,c\n";
  auto r = RunCli("cat " + path_ + " --infer-rows 1");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "quiver: " + path_ + ":4:1 'id': cannot convert to int64, got \"three\" (byte 16); the type was "
                   "inferred from the first 1 rows: use --types 'id=string' or --infer-all\n");
  // A type given, not inferred: no hint.
  r = RunCli("cat " + path_ + " --types id=int64");
  EXPECT_EQ(r.err, "quiver: " + path_ + ":4:1 'id': cannot convert to int64, got \"three\" (byte 16)\n");
  std::ofstream(path_) << "a,b\n1,ok\n2,bad\xff\n";
  r = RunCli("cat " + path_);
  EXPECT_EQ(r.err, "quiver: " + path_ + ":3:2 'b': invalid UTF-8, got \"bad\\xff\" (byte 11); the file may be in another "
                   "encoding: pass --encoding latin1 (or --replace-invalid-utf8)\n");
  r = RunCli("cat " + path_ + " --types nope=int64");
  EXPECT_EQ(r.err, "quiver: " + path_ + ": --types names column 'nope', which the file does not have\n");
  r = RunCli("cat " + path_ + " --types 'a=int64:%Y'");
  EXPECT_EQ(r.err, "quiver: --types entry 'a=int64:%Y': only date, timestamp and timestamptz take a format\n");
  r = RunCli("cat " + path_ + " --types 'a=date:%m/%d/%y'");
  EXPECT_EQ(r.err, "quiver: " + path_ + ": column 'a': date format '%m/%d/%y' has a two-digit year (%y): say which "
                   "century with --two-digit-years-from YEAR (e.g. 1930 reads 30..99 as 1930..1999 and 00..29 as "
                   "2000..2029)\n");
  r = RunCli("cat - --infer-all < " + path_);
  EXPECT_EQ(r.err, "quiver: --infer-all reads the input twice: give a file, not stdin\n");
  r = RunCli("cat " + path_ + " --rejects /tmp/r.csv");
  EXPECT_EQ(r.err, "quiver: --rejects needs --on-error skip\n");
  // A quoted field still open after all the input read ahead (4 MiB).
  {
    std::ofstream o(path_);
    o << "id,text\n1,\"start";
    for (int i = 0; i < 300000; ++i) o << "\nline " << i << ", more";
    o << "\"\n2,plain\n";
  }
  r = RunCli("cat " + path_);
  EXPECT_EQ(r.err, "quiver: could not detect the CSV quoting: a field opened by \" near the start is still open after "
                   "4194304 bytes, the most read ahead (give --quote '\"' for one long quoted field, or --quote none "
                   "if the quote is text)\n");
}

// --rejects: the dropped rows in file order, written by the CSV writer; only after the whole
// input was read.
TEST_F(CsvCommands, RejectsFileListsDroppedRowsInFileOrder) {
  std::ofstream(path_) << "a,b\n1,x\nzz,y\n3\n4,w\n";
  const std::string rejects = path_ + ".rejects.csv";
  auto r = RunCli("cat " + path_ + " --types a=int64 --on-error skip --format csv --rejects " + rejects);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "a,b\n1,x\n4,w\n");
  std::ifstream f(rejects);
  std::string content((std::istreambuf_iterator<char>(f)), {});
  EXPECT_EQ(content,
            "line,reason,record\n"
            "3,column 1 'a': cannot convert to int64,\"zz,y\"\n"
            "4,\"expected 2 fields, got 1\",3\n");
  std::filesystem::remove(rejects);
  r = RunCli("cat " + path_ + " --types a=int64 --on-error skip --limit 1 --format csv --rejects " + rejects);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(std::filesystem::exists(rejects));
  const std::string out = path_ + ".parquet";
  r = RunCli("convert " + path_ + " " + out + " --types a=int64 --on-error skip --rejects " + rejects);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream g(rejects);
  std::string again((std::istreambuf_iterator<char>(g)), {});
  EXPECT_EQ(again, content);
  std::filesystem::remove(rejects);
  std::filesystem::remove(out);
}

}  // namespace
}  // namespace quiver

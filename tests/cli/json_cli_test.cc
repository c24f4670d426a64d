// JSON input through the commands: cat, schema, convert (to Parquet, CSV, ORC, Arrow and back),
// formats told by extension, content only for unknown extensions and stdin, unreadable
// extensions refused by name, CSV-only flags refused for JSON.
#include <gtest/gtest.h>

#include <fstream>

#include "testing/run_cli.h"
#include "testing/scratch_dir.h"

namespace quiver {
namespace {

using testing::RunCli;
using testing::RunShell;

class JsonCli : public testing::ScratchDirTest {
 protected:
  std::string Write(const std::string& name, const std::string& text) {
    std::ofstream(Path(name), std::ios::binary) << text;
    return Path(name);
  }
};

const char kEvents[] = "{\"a\":1,\"b\":\"x\",\"n\":{\"k\":[1,2]}}\n{\"a\":2,\"b\":\"y\",\"n\":null}\n";

TEST_F(JsonCli, JsonlIsReadAsJsonNotCsv) {
  const std::string in = Write("events.jsonl", kEvents);
  auto r = RunCli("cat " + in + " --format jsonl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"a\":1,\"b\":\"x\",\"n\":{\"k\":[1,2]}}\n{\"a\":2,\"b\":\"y\",\"n\":null}\n");
  auto s = RunCli("schema " + in);
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_EQ(s.out, "a: int64\nb: string\nn: struct<k: list<item: int64>>\n");
  auto sniff = RunCli("sniff " + in);
  ASSERT_EQ(sniff.exit_code, 0) << sniff.err;
  EXPECT_EQ(sniff.out,
            "format: json (JSON Lines)\ncolumns: 3\n  a: int64\n  b: string\n  n: struct<k: list<item: int64>>\n");
  // A one-line file is one row, not a header.
  auto one = RunCli("cat " + Write("one.ndjson", "{\"a\":1}\n") + " --format csv");
  EXPECT_EQ(one.out, "a\n1\n");
}

TEST_F(JsonCli, ConvertToEveryFormatAndBack) {
  const std::string in = Write("events.jsonl", kEvents);
  for (const char* ext : {"parquet", "orc", "arrow"}) {
    const std::string out = Path(std::string("e.") + ext);
    auto c = RunCli("convert " + in + " " + out);
    ASSERT_EQ(c.exit_code, 0) << ext << ": " << c.err;
    auto back = RunCli("cat " + out + " --format jsonl");
    ASSERT_EQ(back.exit_code, 0) << back.err;
    EXPECT_EQ(back.out, "{\"a\":1,\"b\":\"x\",\"n\":{\"k\":[1,2]}}\n{\"a\":2,\"b\":\"y\",\"n\":null}\n") << ext;
  }
  const std::string flat = Write("flat.json", "[{\"a\":1,\"b\":\"x\"},{\"a\":2.5,\"b\":null}]");
  auto c = RunCli("convert " + flat + " " + Path("flat.csv"));
  ASSERT_EQ(c.exit_code, 0) << c.err;
  std::ifstream f(Path("flat.csv"));
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "a,b\n1,x\n2.5,\n");
}

TEST_F(JsonCli, ContentDecidesOnlyForUnknownExtensionsAndStdin) {
  auto stdin_json = RunShell("printf '{\"a\":7}\\n' | " + std::string(QUIVER_CLI_PATH) + " cat - --format csv");
  EXPECT_EQ(stdin_json.out, "a\n7\n");
  auto noext = RunCli("cat " + Write("export", "  [{\"a\":3}]") + " --format csv");
  EXPECT_EQ(noext.out, "a\n3\n");
  // A .csv holding JSON is read as CSV: the extension is not second-guessed.
  auto csv = RunCli("schema " + Write("x.csv", "{\"a\":1}\n{\"a\":2}\n"));
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.find("a: int64"), std::string::npos) << csv.out;
}

TEST_F(JsonCli, UnreadableExtensionsAreRefusedByName) {
  const std::string x = Write("report.xlsx", "a,b\n1,2\n");
  auto r = RunCli("convert " + x + " " + Path("r.parquet"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "quiver: " + x +
                       ": quiver cannot read an Excel workbook (its extension says so); export it as CSV, JSON, "
                       "Parquet, ORC or Arrow first, or name the format (--from) if the extension is wrong\n");
  auto cat = RunCli("cat " + Write("d.avro", "x"));
  EXPECT_EQ(cat.exit_code, 1);
  EXPECT_NE(cat.err.find("cannot read an Avro file"), std::string::npos) << cat.err;
  auto named = RunCli("convert " + x + " " + Path("r.parquet") + " --from csv");
  EXPECT_EQ(named.exit_code, 0) << named.err;
}

TEST_F(JsonCli, JsonFlagsAndErrors) {
  const std::string in = Write("e.jsonl", "{\"a\":1,\"d\":\"2024-01-02\"}\n{\"a\":\"x\",\"d\":null}\n");
  auto bad = RunCli("cat " + in);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.err, "quiver: " + in + ":2: 'a' is a string here but an integer at line 1; declare its type (--types "
                     "'a=string' keeps either as text)\n");
  auto typed = RunCli("cat " + in + " --types a=string,d=date --format jsonl");
  ASSERT_EQ(typed.exit_code, 0) << typed.err;
  EXPECT_EQ(typed.out, "{\"a\":\"1\",\"d\":\"2024-01-02\"}\n{\"a\":\"x\",\"d\":null}\n");
  auto s = RunCli("schema " + in + " --json");
  EXPECT_EQ(s.exit_code, 1);
  auto late = RunCli("cat " + Write("late.jsonl", "{\"a\":1}\n{\"a\":1,\"z\":2}\n") + " --infer-rows 1");
  EXPECT_EQ(late.exit_code, 1);
  EXPECT_NE(late.err.find("late.jsonl:2: key 'z' is not in the schema"), std::string::npos) << late.err;
  auto csv_flag = RunCli("cat " + in + " --delimiter ';'");
  EXPECT_EQ(csv_flag.exit_code, 1);
  EXPECT_EQ(csv_flag.err, "quiver: --delimiter applies to CSV input, not JSON\n");
  auto null_flag = RunCli("cat " + in + " --on-error null");
  EXPECT_EQ(null_flag.err, "quiver: --on-error null applies to CSV input, not JSON\n");
}

// --on-error skip leaves out malformed lines and lines that do not convert, reports how many,
// and --rejects lists them (line, reason, text) as it does for CSV; the output has the others.
TEST_F(JsonCli, SkipAndRejects) {
  const std::string in = Write("s.jsonl", "{\"a\":1,\"b\":\"x\"}\n{\"a\":\"bad\",\"b\":\"z\"}\n{\"a\":4,\"b\"\n\n{\"a\":5,\"b\":\"w\"}\n");
  const std::string out = Path("s.parquet"), rejects = Path("rejects.csv");
  auto r = RunCli("convert " + in + " " + out + " --types a=int64 --on-error skip --rejects " + rejects);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find(": 2 rows, 2 rejected,"), std::string::npos) << r.err;
  std::ifstream f(rejects);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(f), {}),
            "line,reason,record\n2,\"'a' is int64, got a string: bad\",\"{\"\"a\"\":\"\"bad\"\",\"\"b\"\":\"\"z\"\"}\"\n"
            "3,\"column 11: malformed JSON: the text ends inside a value, found the end of the line\",\"{\"\"a\"\":4,\"\"b\"\"\"\n");
  auto cat = RunCli("cat " + out + " --format csv");
  EXPECT_EQ(cat.out, "a,b\n1,x\n5,w\n");
  auto shown = RunCli("cat " + in + " --types a=int64 --on-error skip --format csv");
  EXPECT_EQ(shown.out, "a,b\n1,x\n5,w\n");
  EXPECT_EQ(shown.err, "quiver: " + in + ": 2 rows read, 2 rejected\n");
  auto no_skip = RunCli("cat " + in + " --types a=int64 --rejects " + Path("r2.csv"));
  EXPECT_EQ(no_skip.err, "quiver: --rejects needs --on-error skip\n");
}

}  // namespace
}  // namespace quiver

// `quiver schema` and `quiver meta` end to end: output, selection flags, and one-line errors
// with exit code 1 for bad files.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "testing/corpus.h"
#include "testing/run_cli.h"

namespace quiver {
namespace {

using quiver::testing::RunCli;

TEST(SchemaCommandTest, PrintsTreeWithLevelsAndTypes) {
  QUIVER_CORPUS_OR_SKIP(dir);
  auto path = (dir / "parquet-testing/data/nested_maps.snappy.parquet").string();
  auto r = RunCli("schema " + path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "spark_schema (5 leaf columns)\n"
            "  a: OPTIONAL group MAP\n"
            "    key_value: REPEATED group\n"
            "      key: REQUIRED BYTE_ARRAY UTF8  [column 0, def 2, rep 1, string]\n"
            "      value: OPTIONAL group MAP\n"
            "        key_value: REPEATED group\n"
            "          key: REQUIRED INT32  [column 1, def 4, rep 2, int32]\n"
            "          value: REQUIRED BOOLEAN  [column 2, def 4, rep 2, bool]\n"
            "  b: REQUIRED INT32  [column 3, def 0, rep 0, int32]\n"
            "  c: REQUIRED DOUBLE  [column 4, def 0, rep 0, double]\n");
}

TEST(SchemaCommandTest, JsonAndColumnSelection) {
  QUIVER_CORPUS_OR_SKIP(dir);
  auto path = (dir / "parquet-testing/data/alltypes_plain.parquet").string();
  auto r = RunCli("schema --json --columns id,timestamp_col " + path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"num_columns\":11,\"num_rows\":8"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("{\"name\":\"timestamp_col\",\"repetition\":\"OPTIONAL\",\"physical_type\":\"INT96\","
                       "\"column_index\":10,\"path\":\"timestamp_col\",\"max_definition_level\":1,"
                       "\"max_repetition_level\":0,\"quiver_type\":\"timestamp[us]\",\"nullable\":true}"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("bool_col"), std::string::npos);
  auto bad = RunCli("schema --columns nope " + path);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.err.rfind("quiver: " + path + ": no column 'nope' (top-level columns: id, bool_col,", 0), 0u) << bad.err;
}

TEST(MetaCommandTest, SummaryRowGroupsAndStatistics) {
  QUIVER_CORPUS_OR_SKIP(dir);
  auto path = (dir / "parquet-testing/data/alltypes_tiny_pages.parquet").string();
  auto r = RunCli("meta --columns id,date_string_col " + path);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("rows: 7300\nrow groups: 1\nleaf columns: 13\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  column 0 id: INT32 UNCOMPRESSED, encodings [PLAIN, RLE, BIT_PACKED], values 7300, "
                       "compressed 37325 B, uncompressed 37325 B\n"
                       "    data_page_offset 4, column_index 323583+3919, offset_index 394311+3503\n"
                       "    statistics: min 0, max 7299, null_count 0\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("statistics: min 01/01/09, max 12/31/10"), std::string::npos);
  EXPECT_EQ(r.out.find("bool_col"), std::string::npos);  // not selected, not decoded
  // Timestamps print as timestamps.
  auto ts = RunCli("meta " + (dir / "parquet-testing/data/nested_structs.rust.parquet").string());
  ASSERT_EQ(ts.exit_code, 0) << ts.err;
  EXPECT_NE(ts.out.find("statistics: min 1970-01-01T00:00:00.000000Z"), std::string::npos);
  auto js = RunCli("meta --json --row-group 0 --columns bool_col " +
                   (dir / "parquet-testing/data/alltypes_plain.parquet").string());
  ASSERT_EQ(js.exit_code, 0) << js.err;
  EXPECT_NE(js.out.find("\"row_groups\":[{\"index\":0,\"num_rows\":8,\"total_byte_size\":671,\"columns\":[{\"column\":1,"
                        "\"path\":\"bool_col\",\"physical_type\":\"BOOLEAN\""),
            std::string::npos)
      << js.out;
}

TEST(MetaCommandTest, BadFilesGiveOneLineAndExitCode1) {
  QUIVER_CORPUS_OR_SKIP(dir);
  auto good = (dir / "parquet-testing/data/alltypes_plain.parquet").string();
  auto r = RunCli("meta --row-group 3 " + good);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "quiver: " + good + ": footer: row group 3 out of range (the file has 1)\n");

  std::ifstream in(good, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::memset(bytes.data() + bytes.size() - 8, 0xff, 4);
  std::string tmp = "/tmp/quiver-schema-meta-test-" + std::to_string(getpid()) + ".parquet";
  std::ofstream(tmp, std::ios::binary) << bytes;
  for (const char* cmd : {"meta ", "schema "}) {
    auto b = RunCli(cmd + tmp);
    EXPECT_EQ(b.exit_code, 1);
    EXPECT_EQ(b.err, "quiver: " + tmp + ": footer length 4294967295 exceeds file size " + std::to_string(bytes.size()) + "\n");
    EXPECT_TRUE(b.out.empty());
  }
  std::remove(tmp.c_str());

  auto enc = (dir / "parquet-testing/data/uniform_encryption.parquet.encrypted").string();
  auto e = RunCli("meta " + enc);
  EXPECT_EQ(e.exit_code, 1);
  EXPECT_EQ(e.err, "quiver: " + enc + ": encrypted Parquet file: the footer is encrypted with AES_GCM_V1 and no footer "
                   "key was given (its key metadata: \"kf\")\n");
  auto k = RunCli("meta " + enc + " --footer-key 0123456789012345 --json");
  EXPECT_EQ(k.exit_code, 0) << k.err;
  EXPECT_NE(k.out.find("\"num_rows\":50"), std::string::npos) << k.out;

  auto bad = (dir / "parquet-testing/bad_data/PARQUET-1481.parquet").string();
  auto s = RunCli("schema " + bad);
  EXPECT_EQ(s.exit_code, 1);
  EXPECT_EQ(s.err, "quiver: " + bad + ": schema element 'Handle' has unknown physical type -7\n");
}

}  // namespace
}  // namespace quiver

// `quiver cat FILE.parquet`: the CLI dispatches Parquet files to ParquetFileReader.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "testing/corpus.h"

namespace {

// Runs a shell command; returns stdout+stderr and sets the exit status.
std::string RunShell(const std::string& cmd, int* status) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  *status = pclose(p);
  return out;
}

TEST(ParquetCat, JsonlWithColumnsAndLimit) {
  QUIVER_CORPUS_OR_SKIP(root);
  const std::string file = (root / "parquet-testing/data/alltypes_plain.parquet").string();
  int status = -1;
  std::string out = RunShell(std::string(QUIVER_CLI_PATH) + " cat '" + file + "' --format jsonl --columns double_col,id --limit 2", &status);
  EXPECT_EQ(status, 0) << out;
  EXPECT_EQ(out, "{\"double_col\":0,\"id\":4}\n{\"double_col\":10.1,\"id\":5}\n");
}

TEST(ParquetCat, Csv) {
  QUIVER_CORPUS_OR_SKIP(root);
  const std::string file = (root / "parquet-testing/data/int32_with_null_pages.parquet").string();
  int status = -1;
  std::string out = RunShell(std::string(QUIVER_CLI_PATH) + " cat '" + file + "' --format csv --limit 2", &status);
  EXPECT_EQ(status, 0) << out;
  EXPECT_EQ(out, "int32_field\n-654807448\n-465559769\n") << out;
}

TEST(ParquetCat, NestedMapsAsJsonl) {
  QUIVER_CORPUS_OR_SKIP(root);
  const std::string file = (root / "parquet-testing/data/nested_maps.snappy.parquet").string();
  int status = -1;
  std::string out = RunShell(std::string(QUIVER_CLI_PATH) + " cat '" + file + "' --format jsonl --limit 1", &status);
  EXPECT_EQ(status, 0) << out;
  EXPECT_EQ(out, "{\"a\":[{\"key\":\"a\",\"value\":[{\"key\":1,\"value\":true},{\"key\":2,\"value\":false}]}],"
                 "\"b\":1,\"c\":1}\n");
}

TEST(ParquetCat, CorruptChecksumIsAnError) {
  QUIVER_CORPUS_OR_SKIP(root);
  const std::string file = (root / "parquet-testing/data/datapage_v1-corrupt-checksum.parquet").string();
  int status = 0;
  std::string out = RunShell(std::string(QUIVER_CLI_PATH) + " cat '" + file + "'", &status);
  EXPECT_NE(status, 0);
  EXPECT_NE(out.find("page CRC mismatch"), std::string::npos) << out;
}

}  // namespace

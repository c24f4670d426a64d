// `quiver cat/schema` on encrypted Parquet files: keys as raw text, hex:, base64: or from a keys
// file; the errors for missing and malformed keys (never echoing a key).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "testing/corpus.h"
#include "testing/run_cli.h"

namespace quiver {
namespace {

using quiver::testing::RunCli;

TEST(EncryptionCliTest, KeysOnTheCommandLineAndInAFile) {
  QUIVER_CORPUS_OR_SKIP(dir);
  const std::string f = (dir / "parquet-testing/data/encrypt_columns_and_footer.parquet.encrypted").string();
  auto raw = RunCli("cat " + f +
                    " --footer-key 0123456789012345 --column-key double_field=1234567890123450"
                    " --column-key float_field=base64:MTIzNDU2Nzg5MDEyMzQ1MQ== --format csv --limit 2"
                    " --columns int32_field,float_field,double_field");
  ASSERT_EQ(raw.exit_code, 0) << raw.err;
  EXPECT_EQ(raw.out, "int32_field,float_field,double_field\n00:00:00,0,0\n00:00:00.001,1.1,1.1111111\n");
  const std::string keys = "/tmp/quiver-cli-keys-" + std::to_string(getpid()) + ".txt";
  {
    std::ofstream out(keys);
    out << "footer=hex:30313233343536373839303132333435\ndouble_field=1234567890123450\nfloat_field=1234567890123451\n";
  }
  auto file = RunCli("cat " + f + " --keys-file " + keys + " --format csv --limit 2 --columns int32_field,float_field,double_field");
  std::remove(keys.c_str());
  ASSERT_EQ(file.exit_code, 0) << file.err;
  EXPECT_EQ(file.out, raw.out);
}

TEST(EncryptionCliTest, Errors) {
  QUIVER_CORPUS_OR_SKIP(dir);
  const std::string f = (dir / "parquet-testing/data/encrypt_columns_plaintext_footer.parquet.encrypted").string();
  auto missing = RunCli("cat " + f + " --format csv");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err,
            "quiver: " + f + ": columns 'float_field', 'double_field' are encrypted and their keys were not given\n");
  auto some = RunCli("cat " + f + " --format csv --limit 1 --columns boolean_field,int32_field");
  EXPECT_EQ(some.exit_code, 0) << some.err;
  EXPECT_EQ(some.out, "boolean_field,int32_field\ntrue,00:00:00\n");
  auto bad = RunCli("cat " + f + " --footer-key hex:0123zz");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_EQ(bad.err, "quiver: --footer-key: hex: holds a character that is not a hex digit\n");
  auto len = RunCli("cat " + f + " --column-key double_field=secretsecret");
  EXPECT_EQ(len.exit_code, 1);
  EXPECT_EQ(len.err, "quiver: --column-key double_field: a key is hex:DIGITS, base64:TEXT or exactly 16, 24 or 32 "
                     "characters; got 12 characters\n");
  EXPECT_EQ(len.err.find("secret"), std::string::npos);
}

}  // namespace
}  // namespace quiver

namespace quiver {
namespace {

// convert writes what cat reads back, in every mode; outputs are named .pqe so that the suite's
// DuckDB check of kept Parquet files (which has no keys) skips them.
TEST(EncryptionCliTest, ConvertRoundTripsInEveryMode) {
  const std::string dir = "/tmp/quiver-cli-crypt-" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  const std::string csv = dir + "/in.csv", out = dir + "/out.pqe";
  ASSERT_EQ(RunCli("gen lineitem --rows 20000 -o " + csv).exit_code, 0);
  const auto want = RunCli("cat " + csv + " --format csv");
  ASSERT_EQ(want.exit_code, 0);
  const std::string keys = " --footer-key 0123456789012345 --column-key l_comment=hex:31323334353637383930313233343530";
  const char* modes[] = {"", " --plaintext-footer", " --encryption-algorithm gcm-ctr",
                         " --column-key l_comment=1234567890123450 --bloom-filter l_comment",
                         " --aad-prefix tester --no-aad-storage", " --plaintext-footer --column-key l_orderkey=1234567890123451"};
  for (const char* mode : modes) {
    SCOPED_TRACE(mode);
    auto w = RunCli("convert " + csv + " " + out + " --to parquet --row-group-size 10000 --page-size 1024 --footer-key 0123456789012345" +
                    mode);
    ASSERT_EQ(w.exit_code, 0) << w.err;
    std::string read_keys = keys + (std::string(mode).find("tester") != std::string::npos ? " --aad-prefix tester" : "") +
                            (std::string(mode).find("l_orderkey") != std::string::npos
                                 ? " --column-key l_orderkey=1234567890123451" : "");
    auto r = RunCli("cat " + out + read_keys + " --format csv");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, want.out);
  }
  // The last file's footer is plaintext: its other columns read without keys.
  auto some = RunCli("cat " + out + " --columns l_partkey --limit 1 --format csv");
  EXPECT_EQ(some.exit_code, 0) << some.err;
  EXPECT_EQ(some.out, "l_partkey\n92292\n");
  auto none = RunCli("cat " + out + " --format csv");
  EXPECT_EQ(none.err, "quiver: " + out + ": column 'l_orderkey' is encrypted and its key was not given\n");
  // Without the AAD prefix a file that does not store it cannot be read.
  ASSERT_EQ(RunCli("convert " + csv + " " + out + " --to parquet --footer-key 0123456789012345 --aad-prefix p "
                   "--no-aad-storage").exit_code, 0);
  auto no_aad = RunCli("cat " + out + " --footer-key 0123456789012345");
  EXPECT_EQ(no_aad.err, "quiver: " + out + ": the file's AAD prefix is not stored in it and was not given; it is "
                        "needed to read the file\n");
  auto wrong = RunCli("convert " + csv + " " + out + " --to parquet --plaintext-footer");
  EXPECT_EQ(wrong.err, "quiver: writing an encrypted Parquet file needs a footer key (--footer-key or footer= in --keys-file)\n");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace quiver

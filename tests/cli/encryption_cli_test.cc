// `quiver cat/schema` on encrypted Parquet files: keys as raw text, hex:, base64: or from a keys
// file; the errors for missing and malformed keys (never echoing a key).
#include <gtest/gtest.h>

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

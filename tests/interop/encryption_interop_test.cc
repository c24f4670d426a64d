// Parquet modular encryption across engines, with a footer key: DuckDB reads what quiver writes
// to the values of the same rows written without a key, and quiver reads what
// DuckDB writes to the values of DuckDB's unencrypted twin. Skipped when node/npm are missing.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "testing/node_script.h"
#include "testing/run_cli.h"

namespace quiver {
namespace {

using testing::RunCli;
using testing::RunShell;

// node encryption_probe.mjs read FILE [KEY]: one JSON line of DuckDB's aggregates over the file
// (count, sums, a hash of every column's text), read with the footer key KEY when given.
// node encryption_probe.mjs write PLAIN ENCRYPTED KEY: the same DuckDB-made rows (ints, doubles,
// decimals, dates, strings with a dictionary, nulls; two row groups) written without and with
// the footer key. DuckDB writes encrypted files without httpfs only after force_mbedtls_unsafe.
constexpr char kScript[] = R"JS(
import { DuckDBInstance } from '@duckdb/node-api';
const [mode, a, b, c] = process.argv.slice(2);
const q = (s) => `'${String(s).replaceAll("'", "''")}'`;
const con = await (await DuckDBInstance.create(':memory:')).connect();
await con.run(`SET force_mbedtls_unsafe = 'true'`);
const rows = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJS();
const big = (k, v) => (typeof v === 'bigint' ? v.toString() : v);
if (mode === 'write') {
  await con.run(`PRAGMA add_parquet_key('k', ${q(c)})`);
  const sel = `SELECT i::BIGINT AS id, (i * 7 % 1000)::INTEGER AS small, CASE WHEN i % 11 = 0 THEN NULL ELSE i * 0.25 END AS dbl,
    (i % 10000)::DECIMAL(12,2) / 100 AS price, DATE '2001-01-01' + (i % 3000)::INTEGER AS day,
    'name ' || (i % 50) AS name, CASE WHEN i % 13 = 0 THEN NULL ELSE repeat('x', (i % 40)::INTEGER) END AS text
    FROM range(25000) t(i)`;
  await con.run(`COPY (${sel}) TO ${q(a)} (FORMAT parquet, ROW_GROUP_SIZE 12500)`);
  await con.run(`COPY (${sel}) TO ${q(b)} (FORMAT parquet, ROW_GROUP_SIZE 12500, ENCRYPTION_CONFIG {footer_key: 'k'})`);
  console.log(JSON.stringify({ ok: true }));
} else {
  let src = `read_parquet(${q(a)}, file_row_number = true)`;
  if (b) {
    await con.run(`PRAGMA add_parquet_key('k', ${q(b)})`);
    src = `read_parquet(${q(a)}, file_row_number = true, encryption_config = {footer_key: 'k'})`;
  }
  const cols = (await rows(`DESCRIBE SELECT * FROM ${src}`)).map((r) => r.column_name).filter((n) => n !== 'file_row_number');
  const hashes = cols.map((n) => `md5(string_agg(coalesce("${n}"::VARCHAR, '<null>'), '|' ORDER BY file_row_number)) AS "${n}"`);
  const r = await rows(`SELECT count(*)::BIGINT AS rows, ${hashes.join(', ')} FROM ${src}`);
  console.log(JSON.stringify(r[0], big));
}
)JS";

constexpr char kKey[] = "0123456789abcdef";  // the raw 16-character form both engines take

class InteropEncryption : public testing::NodeScriptTest {
 protected:
  void SetUp() override { SetUpScript("encryption interop", "encryption_probe", kScript); }
  std::string DuckRead(const std::string& file, const std::string& key = "") {
    auto r = RunShell("node " + script_ + " read " + file + (key.empty() ? "" : " " + key) + " 2>&1");
    EXPECT_EQ(r.code, 0) << r.out;
    return r.out;
  }
};

TEST_F(InteropEncryption, DuckDbReadsQuiversFooterKeyFiles) {
  const std::string csv = Path("li.csv"), plain = Path("plain.parquet");
  ASSERT_EQ(RunCli("gen lineitem --rows 30000 -o " + csv).exit_code, 0);
  auto r = RunCli("convert " + csv + " " + plain + " --row-group-size 10000");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string want = DuckRead(plain);
  ASSERT_NE(want.find("\"rows\":\"30000\""), std::string::npos) << want;
  // AES_GCM_V1 only: DuckDB 1.5 refuses AES_GCM_CTR_V1 files ("only AES_GCM_V1 is supported").
  const std::string enc = Path("enc.parquet");
  r = RunCli("convert " + csv + " " + enc + " --row-group-size 10000 --footer-key " + kKey);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(DuckRead(enc, kKey), want);
}

TEST_F(InteropEncryption, QuiverReadsDuckDbsEncryptedFiles) {
  const std::string plain = Path("duck-plain.parquet"), enc = Path("duck-enc.parquet");
  auto w = RunShell("node " + script_ + " write " + plain + " " + enc + " " + kKey + " 2>&1");
  ASSERT_EQ(w.code, 0) << w.out;
  auto want = RunCli("cat --format csv " + plain);
  ASSERT_EQ(want.exit_code, 0) << want.err;
  ASSERT_EQ(std::count(want.out.begin(), want.out.end(), '\n'), 25001);
  auto got = RunCli(std::string("cat --format csv ") + enc + " --footer-key " + kKey);
  ASSERT_EQ(got.exit_code, 0) << got.err;
  EXPECT_TRUE(got.out == want.out) << got.out.substr(0, 300);
  // Without the key it is refused, not read as something else.
  auto none = RunCli("cat --format csv " + enc);
  EXPECT_NE(none.exit_code, 0);
  EXPECT_NE(none.err.find("key"), std::string::npos) << none.err;
}

}  // namespace
}  // namespace quiver

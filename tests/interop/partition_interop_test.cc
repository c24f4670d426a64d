// DuckDB reads a `convert --partition-by` folder as a Hive-partitioned dataset
// (read_parquet('dir/**/*.parquet', hive_partitioning=true)) with the same rows as the source
// CSV: escaped values decoded, __HIVE_DEFAULT_PARTITION__ read as null, the partition columns
// typed by DuckDB's own inference. Skipped when node/npm are missing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "testing/run_cli.h"

namespace quiver {
namespace {

namespace fs = std::filesystem;
using testing::RunCli;
using testing::RunShell;


// node check_partitioned.mjs DIR CSV DELIM. Every column of the dataset, cast to the type DuckDB gives it, compared
// as a multiset (EXCEPT ALL both ways) with the CSV read as text and cast to the same types.
constexpr char kScript[] = R"JS(
import { DuckDBInstance } from '@duckdb/node-api';
const [dir, csv, delim] = process.argv.slice(2);
const q = (s) => `'${String(s).replaceAll("'", "''")}'`;
const ident = (s) => `"${String(s).replaceAll('"', '""')}"`;
const con = await (await DuckDBInstance.create(':memory:')).connect();
const rows = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJS();
const ds = `read_parquet(${q(dir + '/**/*.parquet')}, hive_partitioning=true)`;
const src = `read_csv(${q(csv)}, delim=${q(delim)}, header=true, all_varchar=true)`;
const desc = await rows(`DESCRIBE SELECT * FROM ${ds}`);
const a = desc.map((r) => `${ident(r.column_name)}::${r.column_type}`).join(', ');
const b = desc.map((r) => `CAST(${ident(r.column_name)} AS ${r.column_type})`).join(', ');
const [{ n }] = await rows(`SELECT count(*)::INT AS n FROM ${ds}`);
const [{ x }] = await rows(`SELECT count(*)::INT AS x FROM (SELECT ${a} FROM ${ds} EXCEPT ALL SELECT ${b} FROM ${src})`);
const [{ y }] = await rows(`SELECT count(*)::INT AS y FROM (SELECT ${b} FROM ${src} EXCEPT ALL SELECT ${a} FROM ${ds})`);
const [{ f }] = await rows(`SELECT count(DISTINCT filename)::INT AS f FROM read_parquet(${q(dir + '/**/*.parquet')}, filename=true)`);
console.log(JSON.stringify({ ok: x === 0 && y === 0, rows: n, files: f, only_in_dataset: x, only_in_csv: y,
  columns: desc.map((r) => `${r.column_name}:${r.column_type}`) }));
)JS";

TEST(InteropPartition, DuckDbReadsTheHiveFolderWithTheSameRows) {
  std::string node_dir;
  auto setup = testing::SetUpInteropEngines(&node_dir);
  if (setup.code != 0) GTEST_SKIP() << "DuckDB unavailable, partitioned interop not checked: " << setup.out;
  const fs::path dir = fs::path("/tmp") / ("quiver-interop-part-" + std::to_string(getpid()));
  fs::create_directories(dir);
  // Beside the npm packages, so that its imports resolve.
  const std::string script = node_dir + "/check_partitioned.mjs";
  std::ofstream(script) << kScript;
  const std::string csv = (dir / "in.csv").string();
  {
    std::ofstream o(csv);
    o << "id|region|day|price|note\n";
    const char* regions[] = {"north", "south/east", "a=b", "100%", "two words", ""};
    for (int i = 0; i < 5000; ++i) {
      o << i << "|" << regions[i % 6] << "|2024-0" << (1 + i % 5) << "-15|" << (i % 97) << ".5|"
        << (i % 11 == 0 ? "" : "note " + std::to_string(i % 300)) << "\n";
    }
  }
  for (const char* by : {"region", "region,day"}) {
    const std::string out = (dir / (std::string("ds-") + (by[6] ? "2" : "1"))).string();
    auto r = RunCli("convert " + csv + " " + out + " --partition-by " + by + " --types region=string");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto c = RunShell("node " + script + " " + out + " " + csv + " '|'");
    EXPECT_EQ(c.code, 0) << c.out;
    EXPECT_NE(c.out.find("\"ok\":true"), std::string::npos) << by << ": " << c.out;
    EXPECT_NE(c.out.find("\"rows\":5000"), std::string::npos) << c.out;
    EXPECT_NE(c.out.find(std::string("\"files\":") + (by[6] ? "30" : "6")), std::string::npos) << c.out;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace quiver

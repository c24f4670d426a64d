// Bloom filters across engines: DuckDB's parquet_bloom_probe finds every value quiver inserted
// and excludes most absent ones, and DuckDB reads the file's values unchanged (check.mjs);
// quiver's probe agrees with DuckDB's, row group by row group, on a file DuckDB wrote with its
// own filters. Skipped when node/npm are missing.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "quiver/io/file.h"
#include "quiver/parquet/bloom_filter.h"
#include "quiver/parquet/footer.h"
#include "quiver/parquet/schema.h"
#include "quiver/stream/scan_literal.h"
#include "testing/node_script.h"
#include "testing/run_cli.h"

namespace quiver {
namespace {

namespace fs = std::filesystem;
using testing::RunCli;
using testing::RunShell;

// node bloom_probe.mjs probe FILE COLUMN TYPE VALUE...: one line per value, the row groups'
// bloom_filter_excludes as 0/1 characters ("01" = not excluded from group 0, excluded from 1).
// node bloom_probe.mjs write FILE: a DuckDB-written file (dictionary columns, so DuckDB adds
// filters), 30,000 rows in three row groups.
constexpr char kScript[] = R"JS(
import { DuckDBInstance } from '@duckdb/node-api';
const [mode, file, column, type, ...values] = process.argv.slice(2);
const q = (s) => `'${String(s).replaceAll("'", "''")}'`;
const con = await (await DuckDBInstance.create(':memory:')).connect();
const rows = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJS();
if (mode === 'write') {
  await con.run(`COPY (SELECT (i % 997)::INTEGER AS i, 'name ' || (i % 1500) AS s, DATE '2020-01-01' + (i % 400)::INTEGER AS d,
    (i % 2000)::BIGINT * 1000003 AS b FROM range(30000) t(i)) TO ${q(file)} (FORMAT parquet, ROW_GROUP_SIZE 10000)`);
  const m = await rows(`SELECT path_in_schema AS c, count(bloom_filter_offset)::INT AS n FROM parquet_metadata(${q(file)}) GROUP BY 1 ORDER BY 1`);
  console.log(JSON.stringify(m));
} else {
  for (const v of values) {
    const r = await rows(`SELECT row_group_id, bloom_filter_excludes AS x FROM parquet_bloom_probe(${q(file)}, ${q(column)}, CAST(${q(v)} AS ${type})) ORDER BY row_group_id`);
    console.log(r.map((e) => (e.x ? '1' : '0')).join(''));
  }
}
)JS";

class InteropBloom : public testing::NodeScriptTest {
 protected:
  void SetUp() override { SetUpScript("bloom filter interop", "bloom_probe", kScript); }

  // DuckDB's answers, one string of row-group flags per value.
  std::vector<std::string> DuckProbe(const std::string& file, const std::string& column, const std::string& type,
                                     const std::vector<std::string>& values) {
    std::string cmd = "node " + script_ + " probe " + file + " " + column + " " + type;
    for (const auto& v : values) cmd += " '" + v + "'";
    auto r = RunShell(cmd);
    EXPECT_EQ(r.code, 0) << r.out;
    std::vector<std::string> out;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    EXPECT_EQ(out.size(), values.size()) << r.out;
    // After a failed count, placeholders keep the callers' indexing of the answers defined.
    if (out.size() != values.size()) out.assign(values.size(), std::string(64, '?'));
    return out;
  }

  // quiver's answers in the same form.
  static std::vector<std::string> QuiverProbe(const std::string& path, const std::string& column,
                                              const std::vector<std::string>& values) {
    std::vector<std::string> out;
    auto file = io::OpenFile(path);
    auto footer = parquet::ReadFooter(**file);
    EXPECT_TRUE(footer.ok()) << footer.status().ToString();
    auto tree = parquet::SchemaTree::Make((*footer)->metadata().schema);
    const int c = tree->FindColumn(column);
    std::vector<std::optional<parquet::BloomFilter>> filters;
    for (const auto& rg : (*footer)->metadata().row_groups) {
      auto f = parquet::ReadBloomFilter(**file, *rg.columns[static_cast<uint32_t>(c)].meta_data);
      EXPECT_TRUE(f.ok()) << f.status().ToString();
      filters.push_back(std::move(*f));
    }
    for (const auto& v : values) {
      auto bytes = stream::BloomProbeBytes(*tree, c, v);
      EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
      std::string flags;
      for (const auto& f : filters) flags += f && !f->MightContain(*bytes) ? '1' : '0';
      out.push_back(flags);
    }
    return out;
  }
};

TEST_F(InteropBloom, DuckDbProbesFindQuiversValues) {
  const std::string csv = Path("in.csv");
  {
    std::ofstream o(csv);
    o << "id,name,day,amount\n";
    // Two row groups of 3000 rows: names n0..n299 in the first, n300..n599 in the second.
    for (int i = 0; i < 6000; ++i) {
      o << i * 11 << ",n" << (i / 3000) * 300 + i % 300 << ",2021-0" << 1 + (i / 3000) * 5 << "-1" << i % 10 << ","
        << (i % 17 == 0 ? "" : std::to_string(i % 500)) << "\n";
    }
  }
  const std::string pq = Path("q.parquet");
  auto r = RunCli("convert " + csv + " " + pq + " --row-group-size 3000 --bloom-filter id,name,day,amount");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // DuckDB and Polars read the values unchanged.
  auto c = RunShell("node " + node_dir_ + "/check.mjs " + pq + " " + csv + " --delim ','");
  EXPECT_EQ(c.code, 0) << c.out;
  EXPECT_NE(c.out.find("\"ok\":true"), std::string::npos) << c.out;

  std::vector<std::string> present, absent;
  for (int i = 0; i < 600; i += 7) present.push_back("n" + std::to_string(i));
  for (int i = 0; i < 200; ++i) absent.push_back("x" + std::to_string(i));
  auto p = DuckProbe(pq, "name", "VARCHAR", present);
  for (size_t k = 0; k < present.size(); ++k) {
    const int n = std::stoi(present[k].substr(1));
    // Never excluded from the group that holds the value.
    EXPECT_EQ(p[k][n < 300 ? 0 : 1], '0') << present[k] << " " << p[k];
  }
  auto a = DuckProbe(pq, "name", "VARCHAR", absent);
  int excluded = 0;
  for (const auto& f : a) excluded += static_cast<int>(std::count(f.begin(), f.end(), '1'));
  EXPECT_GE(excluded, 2 * 200 * 90 / 100) << "DuckDB excluded " << excluded << " of 400";
  // quiver agrees with DuckDB on every probe.
  EXPECT_EQ(QuiverProbe(pq, "name", present), p);
  EXPECT_EQ(QuiverProbe(pq, "name", absent), a);

  // Integers (no dictionary here: every id distinct), dates and a nullable integer column.
  std::vector<std::string> ids = {"0", "11", "32989", "33000", "65989", "5", "12", "-11", "66000"};
  auto di = DuckProbe(pq, "id", "BIGINT", ids);
  EXPECT_EQ(di[0][0], '0');
  EXPECT_EQ(di[2][0], '0');
  EXPECT_EQ(di[3][1], '0');
  EXPECT_EQ(di[4][1], '0');
  EXPECT_EQ(QuiverProbe(pq, "id", ids), di);
  std::vector<std::string> days = {"2021-01-10", "2021-06-19", "2021-01-20", "2021-06-01", "1999-12-31"};
  auto dd = DuckProbe(pq, "day", "DATE", days);
  EXPECT_EQ(dd[0], "01");
  EXPECT_EQ(dd[1], "10");
  EXPECT_EQ(QuiverProbe(pq, "day", days), dd);
  std::vector<std::string> amounts = {"0", "1", "499", "500", "100000"};
  auto da = DuckProbe(pq, "amount", "BIGINT", amounts);
  EXPECT_EQ(da[2], "00");
  EXPECT_EQ(QuiverProbe(pq, "amount", amounts), da);
}

TEST_F(InteropBloom, QuiverAgreesWithDuckDbOnDuckDbFilters) {
  const std::string pq = Path("duck.parquet");
  auto w = RunShell("node " + script_ + " write " + pq);
  ASSERT_EQ(w.code, 0) << w.out;
  // DuckDB 1.5.6 writes a filter for each dictionary-encoded column of each row group.
  EXPECT_NE(w.out.find("{\"c\":\"s\",\"n\":3}"), std::string::npos) << w.out;
  EXPECT_NE(w.out.find("{\"c\":\"i\",\"n\":3}"), std::string::npos) << w.out;
  std::vector<std::string> names, ints, dates, bigs;
  for (int i = 0; i < 1600; i += 13) names.push_back("name " + std::to_string(i));
  names.push_back("name");
  names.push_back("");
  for (int i = -5; i < 1010; i += 9) ints.push_back(std::to_string(i));
  for (int d = 1; d <= 28; d += 3) dates.push_back("2021-02-" + std::string(d < 10 ? "0" : "") + std::to_string(d));
  dates.push_back("2019-12-31");
  for (int i = 1990; i < 2010; ++i) bigs.push_back(std::to_string(int64_t{i} * 1000003));
  EXPECT_EQ(QuiverProbe(pq, "s", names), DuckProbe(pq, "s", "VARCHAR", names));
  EXPECT_EQ(QuiverProbe(pq, "i", ints), DuckProbe(pq, "i", "INTEGER", ints));
  EXPECT_NE(w.out.find("{\"c\":\"d\",\"n\":3}"), std::string::npos) << w.out;
  EXPECT_EQ(QuiverProbe(pq, "d", dates), DuckProbe(pq, "d", "DATE", dates));
  // b: 2,000 distinct values per group; DuckDB gives up its dictionary (and filter) in some
  // groups, where both answer "maybe".
  EXPECT_EQ(QuiverProbe(pq, "b", bigs), DuckProbe(pq, "b", "BIGINT", bigs));
  // Every present name is found in every group (each holds all 1500); most absent ones are excluded.
  const auto q = QuiverProbe(pq, "s", names);
  int absent = 0, excluded = 0;
  for (size_t k = 0; k < names.size(); ++k) {
    const bool present = k + 2 < names.size() && std::stoi(names[k].substr(5)) < 1500;
    if (present) {
      EXPECT_EQ(q[k], "000") << names[k];
    } else {
      absent += 3;
      excluded += static_cast<int>(std::count(q[k].begin(), q[k].end(), '1'));
    }
  }
  EXPECT_GE(excluded * 10, absent * 8) << excluded << " of " << absent;
}

// --max-open-partitions: DuckDB reads the Hive tree with the same row count per partition as
// the source has, files reopened as part-00001... included.
TEST_F(InteropBloom, DuckDbReadsPartitionsWrittenUnderTheOpenFileCap) {
  const std::string csv = Path("p.csv");
  {
    std::ofstream o(csv);
    o << "id,k,v\n";
    for (int i = 0; i < 9000; ++i) o << i << ",g" << (i * 13) % 40 << "," << i % 101 << "\n";
  }
  const std::string pq = Path("p.parquet");
  ASSERT_EQ(RunCli("convert " + csv + " " + pq + " --row-group-size 1000").exit_code, 0);
  const std::string out = Path("tree");
  auto r = RunCli("convert " + pq + " " + out + " --partition-by k --max-open-partitions 3 --row-group-size 100");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string js = node_dir_ + "/partition_counts.mjs";
  std::ofstream(js) << R"JS(
import { DuckDBInstance } from '@duckdb/node-api';
const [dir, csv] = process.argv.slice(2);
const q = (s) => `'${String(s).replaceAll("'", "''")}'`;
const con = await (await DuckDBInstance.create(':memory:')).connect();
const rows = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJS();
const a = await rows(`SELECT k, count(*)::INT AS n, sum(v)::BIGINT::VARCHAR AS s FROM read_parquet(${q(dir + '/**/*.parquet')}, hive_partitioning=true) GROUP BY k ORDER BY k`);
const b = await rows(`SELECT k, count(*)::INT AS n, sum(v)::BIGINT::VARCHAR AS s FROM read_csv(${q(csv)}) GROUP BY k ORDER BY k`);
const [{ f }] = await rows(`SELECT count(DISTINCT filename)::INT AS f FROM read_parquet(${q(dir + '/**/*.parquet')}, filename=true)`);
console.log(JSON.stringify({ same: JSON.stringify(a) === JSON.stringify(b), groups: a.length, files: f }));
)JS";
  auto c = RunShell("node " + js + " " + out + " " + csv);
  EXPECT_EQ(c.code, 0) << c.out;
  // 9 batches of 25 rows for each of 40 partitions, row groups of 100, 3 files open at once: a
  // partition's file opens at its first row group and is finished when 3 others were written
  // since, so partitions go on in new files.
  EXPECT_NE(c.out.find("{\"same\":true,\"groups\":40,\"files\":"), std::string::npos) << c.out;
  const size_t at = c.out.find("\"files\":");
  ASSERT_NE(at, std::string::npos) << c.out;
  EXPECT_GT(std::stoi(c.out.substr(at + 8)), 40) << c.out;
}

}  // namespace
}  // namespace quiver

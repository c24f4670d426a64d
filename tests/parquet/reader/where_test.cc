// `quiver cat FILE --where 'col op literal'` against DuckDB's `SELECT * ... WHERE` on the same
// file (the same multiset of rows, compared by DuckDB itself on quiver's CSV output), on a
// quiver-written file of many row groups and on corpus files; and which row groups the
// statistics let the reader skip. Skipped when node/npm are missing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "quiver/parquet/reader/file_reader.h"
#include "testing/corpus.h"
#include "testing/run_cli.h"

namespace quiver::parquet {
namespace {

namespace fs = std::filesystem;
using testing::RunCli;
using testing::RunShell;

// node where.mjs FILE.parquet OUT.csv 'SQL condition' [COLUMNS]: the rows of the file satisfying the
// condition (DuckDB) and those in OUT.csv (quiver, read as text and cast to DuckDB's column
// types) compared as multisets with EXCEPT ALL both ways.
constexpr char kScript[] = R"JS(
import { DuckDBInstance } from '@duckdb/node-api';
import { statSync } from 'node:fs';
const [pq, csv, cond, cols = '*'] = process.argv.slice(2);
const q = (s) => `'${String(s).replaceAll("'", "''")}'`;
const ident = (s) => `"${String(s).replaceAll('"', '""')}"`;
const con = await (await DuckDBInstance.create(':memory:')).connect();
const rows = async (sql) => (await con.runAndReadAll(sql)).getRowObjectsJS();
const src = `(SELECT ${cols} FROM read_parquet(${q(pq)}) WHERE ${cond})`;
const desc = await rows(`DESCRIBE SELECT * FROM ${src}`);
const [{ n }] = await rows(`SELECT count(*)::INT AS n FROM ${src}`);
let x = n, y = 0, m = 0;
if (statSync(csv).size > 0) {
  const text = `read_csv(${q(csv)}, header=true, all_varchar=true, delim=',', quote='"', escape='"')`;
  const a = desc.map((r) => `${ident(r.column_name)}`).join(', ');
  const b = desc.map((r) => `CAST(${ident(r.column_name)} AS ${r.column_type})`).join(', ');
  [{ m }] = await rows(`SELECT count(*)::INT AS m FROM ${text}`);
  [{ x }] = await rows(`SELECT count(*)::INT AS x FROM (SELECT ${a} FROM ${src} EXCEPT ALL SELECT ${b} FROM ${text})`);
  [{ y }] = await rows(`SELECT count(*)::INT AS y FROM (SELECT ${b} FROM ${text} EXCEPT ALL SELECT ${a} FROM ${src})`);
}
console.log(JSON.stringify({ ok: x === 0 && y === 0 && n === m, duckdb_rows: n, quiver_rows: m, only_in_duckdb: x, only_in_quiver: y }));
)JS";

class Where : public ::testing::Test {
 protected:
  void SetUp() override {
    auto setup = testing::SetUpInteropEngines(&node_dir_);
    if (setup.code != 0) GTEST_SKIP() << "DuckDB unavailable, --where not compared: " << setup.out;
    dir_ = fs::path("/tmp") / ("quiver-where-" + std::to_string(getpid()));
    fs::create_directories(dir_);
    script_ = node_dir_ + "/where_check.mjs";
    std::ofstream(script_) << kScript;
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  // quiver's rows for `where` (CSV; `columns` only, when given) checked by DuckDB against its
  // own WHERE `sql`.
  std::string Compare(const std::string& pq, const std::string& where, const std::string& sql,
                      const std::string& columns = "") {
    const std::string out = (dir_ / "out.csv").string();
    auto r = RunCli("cat '" + pq + "' --format csv --where \"" + where + "\"" +
                    (columns.empty() ? "" : " --columns " + columns) + " > " + out);
    EXPECT_EQ(r.exit_code, 0) << where << ": " << r.err;
    auto c = RunShell("node " + script_ + " '" + pq + "' " + out + " \"" + sql + "\" " +
                      (columns.empty() ? "'*'" : columns));
    EXPECT_EQ(c.code, 0) << c.out;
    EXPECT_NE(c.out.find("\"ok\":true"), std::string::npos) << pq << " where " << where << ": " << c.out;
    return c.out;
  }

  std::string node_dir_, script_;
  fs::path dir_;
};

TEST_F(Where, QuiverWrittenRowGroupsMatchDuckDb) {
  const std::string csv = (dir_ / "in.csv").string();
  {
    std::ofstream o(csv);
    o << "id,u,price,mode,day,ts,flag\n";
    const char* modes[] = {"AIR", "RAIL", "SHIP", "TRUCK", "é-mail", "REG AIR"};
    for (int i = 0; i < 10000; ++i) {
      o << i << "," << (i % 3 == 0 ? "" : std::to_string(4000000000LL + i % 500)) << ","
        << (i % 11 == 0 ? "" : std::to_string(i % 1000) + ".25") << "," << (i % 13 == 0 ? "" : modes[i % 6])
        << "," << "2024-" << (i < 5000 ? "01-" : "02-") << (10 + i % 18) << ","
        << "2024-03-01 " << (10 + i / 1000) << ":" << (10 + i % 50) << ":00," << (i % 4 == 0 ? "true" : "false")
        << "\n";
    }
  }
  const std::string pq = (dir_ / "rg.parquet").string();
  auto conv = RunCli("convert " + csv + " " + pq +
                     " --types 'id=int64,u=int64,price=double,mode=string,day=date,ts=timestamp,flag=bool'"
                     " --row-group-size 1000");
  ASSERT_EQ(conv.exit_code, 0) << conv.err;

  auto reader = ParquetFileReader::Open(pq);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  ASSERT_EQ((*reader)->num_row_groups(), 10);
  auto groups = [&](const char* column, CompareOp op, Literal v) {
    auto p = (*reader)->BindPredicate(column, op, std::move(v));
    EXPECT_TRUE(p.ok()) << p.status().ToString();
    return p.ok() ? (*reader)->RowGroupsMayMatch(*p) : std::vector<int>{-1};
  };
  EXPECT_EQ(groups("id", CompareOp::kLt, Literal::Int(2500)), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(groups("id", CompareOp::kGe, Literal::Int(9000)), (std::vector<int>{9}));
  EXPECT_EQ(groups("id", CompareOp::kEq, Literal::Int(4321)), (std::vector<int>{4}));
  EXPECT_EQ(groups("id", CompareOp::kEq, Literal::Int(-1)), (std::vector<int>{}));
  EXPECT_EQ(groups("day", CompareOp::kGe, Literal::Int(19754)), (std::vector<int>{5, 6, 7, 8, 9}));  // 2024-02-01
  EXPECT_EQ(groups("mode", CompareOp::kGt, Literal::Bytes("zzz")), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(groups("mode", CompareOp::kGt, Literal::Bytes("\xff")), (std::vector<int>{}));
  EXPECT_EQ(groups("u", CompareOp::kGt, Literal::Int(4000000499LL)), (std::vector<int>{}));
  EXPECT_EQ(groups("u", CompareOp::kGt, Literal::Int(4000000498LL)).size(), 10u);
  EXPECT_FALSE((*reader)->BindPredicate("id", CompareOp::kEq, Literal::Bytes("x")).ok());
  EXPECT_FALSE((*reader)->BindPredicate("nope", CompareOp::kEq, Literal::Int(1)).ok());

  const std::pair<const char*, const char*> cases[] = {
      {"id < 2500", "id < 2500"},
      {"id >= 9990", "id >= 9990"},
      {"id = 4321", "id = 4321"},
      {"id != 0", "id <> 0"},
      {"id = -5", "id = -5"},
      {"u > 4000000400", "u > 4000000400"},
      {"u <= 4000000002", "u <= 4000000002"},
      {"price > 990", "price > 990"},
      {"price <= 0.25", "price <= 0.25"},
      {"mode = 'AIR'", "mode = 'AIR'"},
      {"mode >= 'SHIP'", "mode >= 'SHIP'"},
      {"mode > 'TRUCK'", "mode > 'TRUCK'"},
      {"day >= 2024-02-20", "day >= DATE '2024-02-20'"},
      {"day < 2024-01-11", "day < DATE '2024-01-11'"},
      {"ts > '2024-03-01 18:59:00'", "ts > TIMESTAMP '2024-03-01 18:59:00'"},
      {"ts = '2024-03-01 12:30:00'", "ts = TIMESTAMP '2024-03-01 12:30:00'"},
      {"flag = true", "flag = true"},
  };
  for (const auto& [where, sql] : cases) Compare(pq, where, sql);
  // The statistics skipped row groups: --format none reports how many were read.
  auto r = RunCli("cat " + pq + " --format none --where 'id >= 9990'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"rows\":10,\"row_groups_read\":1,\"row_groups\":10,"), std::string::npos) << r.out;
}

// The JSON number after `"key":` in `--format none` output; -1 when absent.
int64_t JsonInt(const std::string& out, const std::string& key) {
  const size_t at = out.find("\"" + key + "\":");
  if (at == std::string::npos) return -1;
  return std::stoll(out.substr(at + key.size() + 3));
}

// A file of many pages per row group (the writer checks page sizes every 4096 rows) with a page
// index and a bloom filter on `s`: rows
// read only from the pages (and row groups) that may match, still equal to DuckDB's WHERE, and
// the skipped row groups and pages reported as the reader API counts them.
TEST_F(Where, PageIndexAndBloomFilterSkippingMatchesDuckDb) {
  const std::string csv = (dir_ / "pages.csv").string();
  {
    std::ofstream o(csv);
    o << "id,v,s,comment\n";
    for (int i = 0; i < 200000; ++i) {
      char s[16];
      std::snprintf(s, sizeof s, "s%04d", i / 100);
      o << 2 * i << "," << (i % 17 == 5 ? "" : std::to_string(i * 37 % 1000)) << "," << s << ","
        << std::string(static_cast<size_t>(i * 7919 % 61), static_cast<char>('a' + i % 26)) << i << "\n";
    }
  }
  const std::string pq = (dir_ / "pages.parquet").string();
  auto conv = RunCli("convert " + csv + " " + pq +
                     " --types 'id=int64,v=int32,s=string,comment=string' --row-group-size 50000 --page-size 2048"
                     " --column-encoding id=plain --bloom-filter s");
  ASSERT_EQ(conv.exit_code, 0) << conv.err;
  auto reader = ParquetFileReader::Open(pq);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  ASSERT_EQ((*reader)->num_row_groups(), 4);
  // An odd id just below a page's first row: inside group 0's [min, max], outside every page.
  int64_t gap = -1;
  for (int64_t x = 1; x < 100000 && gap < 0; x += 2) {
    auto p = (*reader)->BindPredicate("id", CompareOp::kEq, Literal::Int(x));
    ASSERT_TRUE(p.ok());
    auto sel = (*reader)->PageRowsMayMatch(*p, 0);
    ASSERT_TRUE(sel.ok()) << sel.status().ToString();
    if (!sel->all && sel->ranges.empty()) gap = x;
  }
  ASSERT_GT(gap, 0) << "no page boundary found in group 0";

  const std::pair<std::string, std::string> cases[] = {
      {"id < 1400", "id < 1400"},
      {"id >= 399000", "id >= 399000"},
      {"id = 12346", "id = 12346"},
      {"id = " + std::to_string(gap), "id = " + std::to_string(gap)},
      {"id > 9000", "id > 9000"},
      {"v = 999", "v = 999"},
      {"s = 's0123'", "s = 's0123'"},
      {"s = 's0012x'", "s = 's0012x'"},
      {"s <= 's0003'", "s <= 's0003'"},
      {"comment > 'z'", "comment > 'z'"},
  };
  for (const auto& [where, sql] : cases) Compare(pq, where, sql);
  Compare(pq, "id < 1400", "id < 1400", "comment,v");

  // What --format none reports, against the reader API on the same predicate.
  auto counts = [&](const std::string& where) {
    auto r = RunCli("cat " + pq + " --format none --where '" + where + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out;
  };
  std::string out = counts("id < 1400");
  EXPECT_EQ(JsonInt(out, "rows"), 700) << out;
  EXPECT_EQ(JsonInt(out, "row_groups_read"), 1) << out;
  {
    auto p = (*reader)->BindPredicate("id", CompareOp::kLt, Literal::Int(1400));
    ASSERT_TRUE(p.ok());
    auto sel = (*reader)->PageRowsMayMatch(*p, 0);
    ASSERT_TRUE(sel.ok());
    ASSERT_FALSE(sel->all);
    auto b = (*reader)->ReadRowGroups({0}, {}, {*sel});
    ASSERT_TRUE(b.ok()) << b.status().ToString();
    EXPECT_GT((*reader)->data_pages_skipped(), 0);
    EXPECT_EQ(JsonInt(out, "data_pages_skipped"), (*reader)->data_pages_skipped()) << out;
  }
  out = counts("id = " + std::to_string(gap));
  EXPECT_EQ(JsonInt(out, "rows"), 0) << out;
  EXPECT_EQ(JsonInt(out, "row_groups_read"), 0) << out;
  EXPECT_EQ(JsonInt(out, "row_groups_skipped_by_page_index"), 1) << out;
  out = counts("s = 's0012x'");  // inside group 0's bounds, not in its bloom filter
  EXPECT_EQ(JsonInt(out, "row_groups_read"), 0) << out;
  EXPECT_EQ(JsonInt(out, "row_groups_skipped_by_bloom"), 1) << out;
  out = counts("s = 's0012'");
  EXPECT_EQ(JsonInt(out, "rows"), 100) << out;
  EXPECT_EQ(JsonInt(out, "row_groups_read"), 1) << out;
  EXPECT_EQ(JsonInt(out, "row_groups_skipped_by_bloom"), 0) << out;
}

TEST_F(Where, CorpusFilesMatchDuckDb) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path data = root / "parquet-testing/data";
  struct Case {
    const char* file;
    const char* where;
    const char* sql;
    const char* columns = "";
  };
  const Case cases[] = {
      // string_col is BYTE_ARRAY without annotation (binary, printed as hex): compared, not shown.
      {"alltypes_plain.parquet", "id >= 4", "id >= 4", "id,bool_col,int_col,bigint_col,float_col,double_col"},
      {"alltypes_plain.parquet", "string_col = '1'", "string_col = '1'", "id,int_col"},
      {"alltypes_tiny_pages_plain.parquet", "int_col < 3", "int_col < 3"},
      {"alltypes_tiny_pages_plain.parquet", "double_col != 10.1", "double_col <> 10.1"},
      {"alltypes_tiny_pages.parquet", "date_string_col = '01/01/09'", "date_string_col = '01/01/09'"},
      {"int32_with_null_pages.parquet", "int32_field > 0", "int32_field > 0"},
      {"data_index_bloom_encoding_stats.parquet", "String = 'Hello'", "String = 'Hello'"},
      {"single_nan.parquet", "mycol > 1", "mycol > 1"},
      {"nan_in_stats.parquet", "x >= 1", "x >= 1"},
      // Truncated (inexact) string bounds; binary columns left out (CSV shows them as hex).
      {"binary_truncated_min_max.parquet", "utf8_full_truncation > 'Kf'", "utf8_full_truncation > 'Kf'",
       "utf8_full_truncation,utf8_partial_truncation,utf8_no_truncation"},
      {"binary_truncated_min_max.parquet", "utf8_partial_truncation >= 'Bob'", "utf8_partial_truncation >= 'Bob'",
       "utf8_full_truncation,utf8_partial_truncation,utf8_no_truncation"},
      {"binary_truncated_min_max.parquet", "utf8_no_truncation != 'Al'", "utf8_no_truncation <> 'Al'",
       "utf8_full_truncation,utf8_partial_truncation,utf8_no_truncation"},
      // IEEE 754 total order (not used for skipping) beside type order; -0 = 0; NaN counts.
      {"floating_orders_nan_count.parquet", "double_typedef > 3", "double_typedef > 3",
       "float_ieee754,float_typedef,double_ieee754,double_typedef"},
      {"floating_orders_nan_count.parquet", "double_ieee754 = 0", "double_ieee754 = 0",
       "float_ieee754,float_typedef,double_ieee754,double_typedef"},
      {"floating_orders_nan_count.parquet", "float_typedef < -1", "float_typedef < -1",
       "float_ieee754,float_typedef,double_ieee754,double_typedef"},
      {"sort_columns.parquet", "a > 1", "a > 1"},
      {"sort_columns.parquet", "b = 'c'", "b = 'c'"},
  };
  for (const Case& c : cases) {
    const fs::path f = data / c.file;
    if (!fs::exists(f)) {
      ADD_FAILURE() << "corpus file missing: " << f;
      continue;
    }
    Compare(f.string(), c.where, c.sql, c.columns);
  }
}

TEST(WhereCli, BadPredicatesAreCleanErrors) {
  QUIVER_CORPUS_OR_SKIP(root);
  const std::string f = (root / "parquet-testing/data/alltypes_plain.parquet").string();
  auto r = RunCli("cat " + f + " --where 'id ~ 3'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--where 'id ~ 3': no operator; expected 'column op literal'"), std::string::npos) << r.err;
  r = RunCli("cat " + f + " --where 'nope = 3'");
  EXPECT_NE(r.err.find("--where: no column named 'nope'"), std::string::npos) << r.err;
  r = RunCli("cat " + f + " --where 'id = 3.5'");
  EXPECT_NE(r.err.find("--where: '3.5' is not an integer (column 'id' is int32)"), std::string::npos) << r.err;
  r = RunCli("cat " + f + " --where 'timestamp_col = 2009-04-01'");
  EXPECT_NE(r.err.find(f + ": column 'timestamp_col': comparisons on INT96 timestamps are not supported"),
            std::string::npos) << r.err;
  r = RunCli("cat " + f + " --where 'id = 1' --format csv --limit 1");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, 3), "id,");
  EXPECT_NE(r.out.find("\n1,"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace quiver::parquet

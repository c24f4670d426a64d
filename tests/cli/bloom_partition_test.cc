// quiver convert --bloom-filter (filters located by meta, text and JSON, and probed through the
// library; parquet to parquet; option errors), and --partition-by robustness: SIGINT/SIGTERM
// mid-run leaves neither the output nor its temporary folder, and --max-open-partitions
// finishes least recently written files and continues their partitions in new ones.
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "quiver/io/file.h"
#include "quiver/parquet/bloom_filter.h"
#include "quiver/parquet/footer.h"
#include "quiver/parquet/schema.h"
#include "quiver/stream/scan_literal.h"
#include "testing/fed_cli.h"
#include "testing/run_cli.h"

namespace quiver {
namespace {

using testing::RunCli;
namespace fs = std::filesystem;

class BloomPartition : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path("/tmp") / ("quiver-bloom-cli-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

// Every row group's filter of column `name`, probed for `value` given as text.
std::vector<bool> Probe(const std::string& path, const std::string& name, const std::string& value) {
  std::vector<bool> out;
  auto file = io::OpenFile(path);
  EXPECT_TRUE(file.ok());
  auto footer = parquet::ReadFooter(**file);
  EXPECT_TRUE(footer.ok());
  auto tree = parquet::SchemaTree::Make((*footer)->metadata().schema);
  const int c = tree->FindColumn(name);
  EXPECT_GE(c, 0);
  auto bytes = stream::BloomProbeBytes(*tree, c, value);
  EXPECT_TRUE(bytes.ok()) << bytes.status().ToString();
  for (const auto& rg : (*footer)->metadata().row_groups) {
    auto f = parquet::ReadBloomFilter(**file, *rg.columns[static_cast<uint32_t>(c)].meta_data);
    EXPECT_TRUE(f.ok()) << f.status().ToString();
    EXPECT_TRUE(f->has_value()) << "no filter on " << name;
    if (!f.ok() || !f->has_value()) return {};
    out.push_back((*f)->MightContain(*bytes));
  }
  return out;
}

TEST_F(BloomPartition, ConvertWritesBloomFiltersThatMetaShowsAndProbesFind) {
  const std::string csv = Path("in.csv");
  {
    std::ofstream o(csv);
    o << "id|city|day|score\n";
    // Row group 0 (rows 0..999) holds cities c0..c49, row group 1 cities c50..c99.
    for (int i = 0; i < 2000; ++i) {
      o << i * 3 << "|c" << (i / 1000) * 50 + i % 50 << "|2024-01-" << (i < 1000 ? "05" : "20") << "|" << i % 7 << "\n";
    }
  }
  const std::string pq = Path("out.parquet");
  auto r = RunCli("convert " + csv + " " + pq + " --row-group-size 1000 --bloom-filter id,city,day --bloom-filter-fpp 0.01");
  ASSERT_EQ(r.exit_code, 0) << r.err;

  auto m = RunCli("meta " + pq);
  ASSERT_EQ(m.exit_code, 0) << m.err;
  size_t lines = 0;
  for (size_t p = m.out.find(", bloom_filter "); p != std::string::npos; p = m.out.find(", bloom_filter ", p + 1)) ++lines;
  EXPECT_EQ(lines, 6u) << m.out;  // three columns, two row groups
  auto j = RunCli("meta " + pq + " --json --columns city --row-group 1");
  ASSERT_EQ(j.exit_code, 0) << j.err;
  EXPECT_NE(j.out.find("\"bloom_filter_offset\":"), std::string::npos) << j.out;
  // 50 distinct cities at 1%: 59.9 bytes, 64 with a power of two, plus the 16-byte header.
  EXPECT_NE(j.out.find("\"bloom_filter_length\":80"), std::string::npos) << j.out;
  auto s = RunCli("meta " + pq + " --json --columns score");
  EXPECT_EQ(s.out.find("bloom_filter"), std::string::npos) << s.out;

  EXPECT_EQ(Probe(pq, "city", "c7"), (std::vector<bool>{true, false}));
  EXPECT_EQ(Probe(pq, "city", "c77"), (std::vector<bool>{false, true}));
  EXPECT_EQ(Probe(pq, "id", "2997"), (std::vector<bool>{true, false}));
  EXPECT_EQ(Probe(pq, "id", "3000"), (std::vector<bool>{false, true}));
  EXPECT_EQ(Probe(pq, "day", "2024-01-20"), (std::vector<bool>{false, true}));
  EXPECT_EQ(Probe(pq, "city", "nowhere"), (std::vector<bool>{false, false}));

  // The same through `quiver meta --bloom-probe`.
  auto b = RunCli("meta " + pq + " --bloom-probe city=c7");
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(b.out, "row group 0: city = c7: maybe present\nrow group 1: city = c7: absent\n");
  b = RunCli("meta " + pq + " --bloom-probe day=2024-01-20 --json --row-group 1");
  EXPECT_EQ(b.out, "{\"column\":\"day\",\"value\":\"2024-01-20\",\"row_groups\":[{\"index\":1,\"bloom_filter\":true,"
                   "\"excluded\":false}]}\n");
  b = RunCli("meta " + pq + " --bloom-probe score=3");
  EXPECT_EQ(b.out, "row group 0: score = 3: no bloom filter\nrow group 1: score = 3: no bloom filter\n");
  b = RunCli("meta " + pq + " --bloom-probe id=x");
  EXPECT_EQ(b.exit_code, 1);
  EXPECT_EQ(b.err, "quiver: " + pq + ": 'x' is not an integer (column 'id' is int64)\n");
  b = RunCli("meta " + pq + " --bloom-probe nope=1");
  EXPECT_NE(b.err.find("--bloom-probe: no column 'nope'"), std::string::npos) << b.err;

  // Parquet to Parquet keeps the values and writes new filters.
  const std::string pq2 = Path("again.parquet");
  r = RunCli("convert " + pq + " " + pq2 + " --row-group-size 1000 --bloom-filter city");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(RunCli("cat " + pq2 + " --format csv").out, RunCli("cat " + pq + " --format csv").out);
  EXPECT_EQ(Probe(pq2, "city", "c77"), (std::vector<bool>{false, true}));
}

// --bloom-probe reads its value as --where reads its literal (one parser): a timestamp as cat
// prints it, a signed integer with '+', and the same errors.
TEST_F(BloomPartition, BloomProbeParsesValuesAsWhereDoes) {
  const std::string csv = Path("ts.csv");
  {
    std::ofstream o(csv);
    o << "id,ts\n";
    for (int i = 0; i < 2000; ++i) o << i << ",2024-01-" << (i < 1000 ? "05" : "20") << " 10:00:" << i % 60 / 10 << i % 10 << "\n";
  }
  const std::string pq = Path("ts.parquet");
  auto r = RunCli("convert " + csv + " " + pq + " --row-group-size 1000 --bloom-filter id,ts --bloom-filter-fpp 0.01");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto w = RunCli("cat " + pq + " --where 'ts=2024-01-20 10:00:07' --format csv");
  ASSERT_EQ(w.exit_code, 0) << w.err;
  EXPECT_EQ(w.out, "id,ts\n1027,2024-01-20 10:00:07\n1087,2024-01-20 10:00:07\n1147,2024-01-20 10:00:07\n"
                   "1207,2024-01-20 10:00:07\n1267,2024-01-20 10:00:07\n1327,2024-01-20 10:00:07\n"
                   "1387,2024-01-20 10:00:07\n1447,2024-01-20 10:00:07\n1507,2024-01-20 10:00:07\n"
                   "1567,2024-01-20 10:00:07\n1627,2024-01-20 10:00:07\n1687,2024-01-20 10:00:07\n"
                   "1747,2024-01-20 10:00:07\n1807,2024-01-20 10:00:07\n1867,2024-01-20 10:00:07\n"
                   "1927,2024-01-20 10:00:07\n1987,2024-01-20 10:00:07\n");
  auto b = RunCli("meta " + pq + " --bloom-probe 'ts=2024-01-20 10:00:07'");
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(b.out, "row group 0: ts = 2024-01-20 10:00:07: absent\nrow group 1: ts = 2024-01-20 10:00:07: maybe present\n");
  b = RunCli("meta " + pq + " --bloom-probe id=+1500");
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(b.out, "row group 0: id = +1500: absent\nrow group 1: id = +1500: maybe present\n");
  EXPECT_EQ(RunCli("cat " + pq + " --where id=+1500 --format csv").out, "id,ts\n1500,2024-01-20 10:00:00\n");
  b = RunCli("meta " + pq + " --bloom-probe 'ts=2024-01-20 10:00:07.5x'");
  EXPECT_EQ(b.exit_code, 1);
  EXPECT_EQ(b.err, "quiver: " + pq + ": '2024-01-20 10:00:07.5x' is not a timestamp (YYYY-MM-DD[ HH:MM[:SS[.ffffff]]]) "
                   "(column 'ts' is timestamp[us])\n");
  w = RunCli("cat " + pq + " --where 'ts=2024-01-20 10:00:07.5x'");
  EXPECT_EQ(w.err, "quiver: --where: '2024-01-20 10:00:07.5x' is not a timestamp (YYYY-MM-DD[ HH:MM[:SS[.ffffff]]]) "
                   "(column 'ts' is timestamp[us])\n");
}

TEST_F(BloomPartition, BloomFilterOptionErrors) {
  const std::string csv = Path("in.csv");
  std::ofstream(csv) << "a,flag\n1,true\n";
  auto r = RunCli("convert " + csv + " " + Path("x.parquet") + " --bloom-filter a,nope");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("bloom filter for an unknown column 'nope' (columns: a, flag)"), std::string::npos) << r.err;
  r = RunCli("convert " + csv + " " + Path("x.parquet") + " --bloom-filter flag");
  EXPECT_NE(r.err.find("column 'flag': no bloom filter for BOOLEAN values"), std::string::npos) << r.err;
  r = RunCli("convert " + csv + " " + Path("x.parquet") + " --bloom-filter a --bloom-filter-fpp 1.5");
  EXPECT_NE(r.err.find("bloom filter false-positive probability must be in (0, 1), got 1.5"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(Path("x.parquet")));
}

// Rows of every Parquet file under `dir`, by partition folder.
std::map<std::string, int64_t> RowsByPartition(const fs::path& dir, int* files) {
  std::map<std::string, int64_t> rows;
  *files = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    ++*files;
    auto file = io::OpenFile(e.path().string());
    auto footer = parquet::ReadFooter(**file);
    EXPECT_TRUE(footer.ok()) << e.path();
    rows[fs::relative(e.path().parent_path(), dir).string()] += (*footer)->metadata().num_rows;
  }
  return rows;
}

// A partition's rows, in order, from its files part-00000.parquet, part-00001.parquet, ... as
// CSV without the header; *files says how many there were.
std::string PartitionRows(const std::string& folder, int* files) {
  std::string all;
  for (*files = 0; fs::exists(fmt::format("{}/part-{:05d}.parquet", folder, *files)); ++*files) {
    auto c = RunCli(fmt::format("cat {}/part-{:05d}.parquet --format csv", folder, *files));
    EXPECT_EQ(c.exit_code, 0) << c.err;
    all += c.out.substr(c.out.find('\n') + 1);
  }
  return all;
}

// Row groups of 40 rows: each partition writes one every 2 or 3 batches, opening its file then;
// with 4 files open at once, the least recently written is finished and its partition goes on
// in a new file, its rows in order across them.
TEST_F(BloomPartition, MaxOpenPartitionsContinuesPartitionsInNewFiles) {
  const std::string csv = Path("in.csv");
  {
    std::ofstream o(csv);
    o << "id|k|v\n";
    for (int i = 0; i < 6000; ++i) o << i << "|k" << (i * 7) % 30 << "|" << i % 13 << "\n";
  }
  // Parquet input of 500-row groups: each group is one batch, which touches every partition.
  const std::string pq = Path("in.parquet");
  ASSERT_EQ(RunCli("convert " + csv + " " + pq + " --row-group-size 500").exit_code, 0);
  const std::string out = Path("parts");
  auto r = RunCli("convert " + pq + " " + out +
                  " --partition-by k --max-open-partitions 4 --row-group-size 40 --bloom-filter v");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("6000 rows"), std::string::npos) << r.err;
  int files = 0;
  auto rows = RowsByPartition(out, &files);
  EXPECT_EQ(rows.size(), 30u);
  for (const auto& [part, n] : rows) EXPECT_EQ(n, 200) << part;
  EXPECT_GT(files, 30);
  int k3_files = 0;
  const std::string all = PartitionRows(out + "/k=k3", &k3_files);
  EXPECT_GT(k3_files, 1);
  std::string want;
  for (int i = 0; i < 6000; ++i) {
    if ((i * 7) % 30 == 3) want += std::to_string(i) + "," + std::to_string(i % 13) + "\n";
  }
  EXPECT_EQ(all, want);
  // Every row group but a file's last holds 40 rows.
  for (int f = 0; f < k3_files; ++f) {
    auto file = io::OpenFile(fmt::format("{}/k=k3/part-{:05d}.parquet", out, f));
    ASSERT_TRUE(file.ok());
    auto footer = parquet::ReadFooter(**file);
    ASSERT_TRUE(footer.ok());
    const auto& groups = (*footer)->metadata().row_groups;
    for (size_t g = 0; g + 1 < groups.size(); ++g) EXPECT_EQ(groups[g].num_rows, 40) << f << " " << g;
  }

  // Without the cap: one file per partition.
  const std::string out2 = Path("parts2");
  ASSERT_EQ(RunCli("convert " + pq + " " + out2 + " --partition-by k --row-group-size 40").exit_code, 0);
  RowsByPartition(out2, &files);
  EXPECT_EQ(files, 30);
  r = RunCli("convert " + pq + " " + Path("parts3") + " --partition-by k --bloom-filter k");
  EXPECT_NE(r.err.find("--bloom-filter: 'k' is a partition column, whose value is in the folder name"), std::string::npos)
      << r.err;
  r = RunCli("convert " + pq + " " + Path("parts3") + " --partition-by k --max-open-partitions 0");
  EXPECT_NE(r.err.find("--max-open-partitions must be at least 1, got 0"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(Path("parts3")));
}

// The row groups of one file, by their row counts.
std::vector<int64_t> RowGroupRows(const std::string& path) {
  std::vector<int64_t> out;
  auto file = io::OpenFile(path);
  EXPECT_TRUE(file.ok()) << path;
  if (!file.ok()) return out;
  auto footer = parquet::ReadFooter(**file);
  EXPECT_TRUE(footer.ok()) << path;
  if (!footer.ok()) return out;
  for (const auto& rg : (*footer)->metadata().row_groups) out.push_back(rg.num_rows);
  return out;
}

// --partition-buffer-mb 1 with 500 partitions each getting rows in all 40 batches (~9 MB of
// strings): past the budget the partitions' rows go to the spill file, and come back whole when
// their files are written: one file and one row group of all 80 rows per partition.
TEST_F(BloomPartition, BufferBudgetSpillsRowsAndKeepsRowGroupsWhole) {
  const std::string csv = Path("wide.csv");
  const std::string pad(200, 'x');
  {
    std::ofstream o(csv);
    o << "id|k|s\n";
    for (int i = 0; i < 40000; ++i) o << i << "|" << i % 500 << "|" << pad << i << "\n";
  }
  const std::string pq = Path("wide.parquet");
  ASSERT_EQ(RunCli("convert " + csv + " " + pq + " --row-group-size 1000").exit_code, 0);
  const std::string out = Path("wparts");
  auto r = RunCli("convert " + pq + " " + out + " --partition-by k --partition-buffer-mb 1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  int files = 0;
  auto rows = RowsByPartition(out, &files);
  EXPECT_EQ(files, 500);
  EXPECT_EQ(rows.size(), 500u);
  for (const auto& [part, n] : rows) EXPECT_EQ(n, 80) << part;
  EXPECT_EQ(RowGroupRows(out + "/k=7/part-00000.parquet"), std::vector<int64_t>{80});
  auto c = RunCli("cat " + out + "/k=7/part-00000.parquet --format csv");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  std::string want = "id,s\n";
  for (int i = 7; i < 40000; i += 500) want += std::to_string(i) + "," + pad + std::to_string(i) + "\n";
  EXPECT_EQ(c.out, want);
  // The spill file had no name in the tree.
  for (const auto& e : fs::recursive_directory_iterator(out)) {
    EXPECT_EQ(e.path().filename().string().rfind(".spill", 0), std::string::npos) << e.path();
  }
  r = RunCli("convert " + pq + " " + Path("wparts2") + " --partition-by k --partition-buffer-mb 0");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_FALSE(fs::exists(Path("wparts2")));
}

// A lineitem sample (~8 MB of CSV) under a 1 MiB budget, by its 7 ship modes with row groups
// of 5000 rows and by its 2,526 ship dates with the default row group size: every row is in its
// partition, in input order (read back equal to the input's rows with that value, by quiver's
// reader), one file per partition, and every row group full but each file's last (the ship
// dates: each file one row group of all its rows, gathered back from the spill file).
TEST_F(BloomPartition, SmallBudgetKeepsValuesAndFullRowGroups) {
  const std::string csv = Path("li.csv");
  ASSERT_EQ(RunCli("gen lineitem --rows 60000 -o " + csv).exit_code, 0);
  const std::string all = Path("li.parquet");
  ASSERT_EQ(RunCli("convert " + csv + " " + all).exit_code, 0);
  for (const auto& [col, group] : std::vector<std::pair<std::string, int>>{{"l_shipmode", 5000}, {"l_shipdate", 122880}}) {
    const std::string out = Path("li-" + col);
    auto r = RunCli(fmt::format("convert {} {} --partition-by {} --partition-buffer-mb 1 --row-group-size {}", csv, out,
                                col, group));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::set<std::string> parts;
    int64_t total = 0, files = 0, groups = 0, small = 0;
    for (const auto& e : fs::recursive_directory_iterator(out)) {
      if (!e.is_regular_file()) continue;
      ++files;
      parts.insert(e.path().parent_path().string());
      const auto g = RowGroupRows(e.path().string());
      ASSERT_FALSE(g.empty()) << e.path();
      for (size_t i = 0; i + 1 < g.size(); ++i) small += g[i] != group;
      for (int64_t n : g) total += n;
      groups += static_cast<int64_t>(g.size());
      EXPECT_LE(g.back(), group) << e.path();
    }
    EXPECT_EQ(total, 60000) << col;
    EXPECT_EQ(files, static_cast<int64_t>(parts.size())) << col;
    EXPECT_EQ(small, 0) << col;
    // At most one partial row group per partition.
    EXPECT_LE(groups, 60000 / group + static_cast<int64_t>(parts.size())) << col;
    // Two partitions' rows against the whole file's rows with that value, in order.
    const std::vector<std::string> values =
        col == "l_shipmode" ? std::vector<std::string>{"AIR", "TRUCK"} : std::vector<std::string>{"1995-03-15", "1998-08-01"};
    std::string kept;
    for (const char* c : {"l_orderkey", "l_partkey", "l_suppkey", "l_linenumber", "l_quantity", "l_extendedprice",
                          "l_discount", "l_tax", "l_returnflag", "l_linestatus", "l_shipdate", "l_commitdate",
                          "l_receiptdate", "l_shipinstruct", "l_shipmode", "l_comment"}) {
      if (c == col) continue;
      kept += kept.empty() ? c : std::string(",") + c;
    }
    for (const std::string& v : values) {
      // The partition's files lack the partition column.
      auto want = RunCli(fmt::format("cat {} --where \"{} = {}\" --columns {} --format csv", all, col, v, kept));
      ASSERT_EQ(want.exit_code, 0) << want.err;
      const std::string expect = want.out.substr(want.out.find('\n') + 1);
      int n = 0;
      const std::string got = PartitionRows(out + "/" + col + "=" + v, &n);
      EXPECT_EQ(n, 1) << col << "=" << v;
      EXPECT_FALSE(got.empty()) << col << "=" << v;
      EXPECT_EQ(got, expect) << col << "=" << v;
    }
  }
}

// `quiver convert - OUT --partition-by k` reading a pipe this test feeds; once partition files
// exist in the temporary folder, the signal arrives. Neither OUT nor the temporary folder may
// remain.
void InterruptPartitionedConvert(const fs::path& dir, int sig) {
  const std::string out = (dir / ("parts-" + std::to_string(sig))).string();
  std::string chunk;
  for (int i = 0; i < 20000; ++i) chunk += std::to_string(i % 50) + ",value " + std::to_string(i) + "\n";
  // Up to ~2 GB; the signal ends it long before.
  testing::FedCli convert({"convert", "-", out, "--partition-by", "k", "--row-group-size", "1000", "--types",
                           "k=int64,v=string"},
                          "k,v\n", chunk, 5000);
  // Wait for a partition file in the temporary folder ".parts-N.quiver-XXXXXX".
  const std::string prefix = ".parts-" + std::to_string(sig) + ".quiver-";
  bool seen = false;
  for (int t = 0; t < 600 && !seen; ++t) {
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().filename().string().rfind(prefix, 0) != 0) continue;
      std::error_code ec;
      seen = fs::exists(e.path() / "k=7" / "part-00000.parquet", ec) && fs::file_size(e.path() / "k=7" / "part-00000.parquet", ec) > 4;
    }
    if (!seen) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(seen) << "no partition file appeared";
  const int status = convert.SignalAndWait(sig);
  ASSERT_TRUE(WIFSIGNALED(status)) << status;
  EXPECT_EQ(WTERMSIG(status), sig);
  for (const auto& e : fs::directory_iterator(dir)) {
    ADD_FAILURE() << "left behind after signal " << sig << ": " << e.path().filename().string();
  }
}

TEST_F(BloomPartition, InterruptRemovesThePartitionTemporaryFolder) {
  InterruptPartitionedConvert(dir_, SIGINT);
  InterruptPartitionedConvert(dir_, SIGTERM);
}

}  // namespace
}  // namespace quiver

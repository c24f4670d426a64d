// JSON → Parquet by `quiver convert` equals DuckDB's own read_json of the same file
// (check_json.mjs): the generated nested logs and JSON Lines lineitem, and a hand-written file of
// edge values (escapes, non-ASCII text, nulls at every level, empty arrays, missing keys, keys in
// varying order), at 1 and 2 threads. Skipped when node/npm are missing.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "testing/run_cli.h"

namespace quiver {
namespace {

namespace fs = std::filesystem;

TEST(JsonInterop, ConvertedParquetEqualsDuckDbReadJson) {
  std::string node_dir;
  auto setup = testing::SetUpInteropEngines(&node_dir);
  if (setup.code != 0) GTEST_SKIP() << "DuckDB unavailable, JSON input not checked against it: " << setup.out;
  const fs::path dir = fs::path("/tmp") / fmt::format("quiver-json-interop-{}", getpid());
  fs::create_directories(dir);
  const std::string edge = (dir / "edge.jsonl").string();
  std::ofstream(edge, std::ios::binary)
      << "{\"id\":1,\"s\":\"caf\\u00e9 \\\"q\\\" \\\\ \\n tab\\t\",\"o\":{\"a\":[1,2,null],\"b\":{\"c\":null}},\"f\":1}\n"
         "{\"o\":null,\"id\":2,\"s\":\"日本語 😀\",\"f\":2.5}\n"
         "\n"
         "{\"id\":3,\"s\":null,\"o\":{\"a\":[],\"b\":null},\"f\":-0.125}\n"
         "{\"id\":4,\"o\":{\"b\":{\"c\":\"x\"},\"a\":null}}\n";
  struct Case {
    std::string name, gen;
  };
  const Case cases[] = {
      {"edge", ""},
      {"logs", "gen logs -n 30000 --seed 3"},
      {"lineitem", "gen lineitem --format jsonl -n 30000"},
  };
  for (const Case& c : cases) {
    const std::string in = c.gen.empty() ? edge : (dir / (c.name + ".jsonl")).string();
    if (!c.gen.empty()) {
      auto g = testing::RunCli(fmt::format("{} -o {}", c.gen, in));
      ASSERT_EQ(g.exit_code, 0) << g.err;
    }
    for (int threads : {1, 2}) {
      const std::string out = (dir / fmt::format("{}-{}.parquet", c.name, threads)).string();
      auto conv = testing::RunCli(fmt::format("convert {} {} --threads {}", in, out, threads));
      ASSERT_EQ(conv.exit_code, 0) << c.name << ": " << conv.err;
      auto check = testing::RunShell("node " + node_dir + "/check_json.mjs " + in + " " + out);
      EXPECT_EQ(check.code, 0) << c.name << ", " << threads << " threads: " << check.out;
      EXPECT_NE(check.out.find("\"ok\":true"), std::string::npos) << check.out;
    }
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace quiver

// A `convert` killed with SIGKILL (as the OOM killer kills) at any point of its run leaves no
// file in its output folder: the output is unnamed until it is complete (io/atomic_file.h).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <algorithm>
#include <atomic>
#include <vector>

#include "testing/fed_cli.h"
#include "testing/scratch_dir.h"

namespace quiver {
namespace {

namespace fs = std::filesystem;

// Whether process `pid` holds an unnamed file of folder `dir` open ("/dir/#123 (deleted)").
bool HoldsUnnamedFileIn(pid_t pid, const fs::path& dir) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path("/proc") / std::to_string(pid) / "fd", ec)) {
    const std::string target = fs::read_symlink(e.path(), ec).string();
    if (!ec && target.rfind(dir.string() + "/", 0) == 0 && target.find("(deleted)") != std::string::npos) return true;
  }
  return false;
}

std::vector<std::string> Names(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

using ConvertKilled = testing::ScratchDirTest;

TEST_F(ConvertKilled, SigkillAtAnyPointLeavesNoFileInTheOutputFolder) {
  const fs::path out_dir = dir_ / "out";
  fs::create_directories(out_dir);
  std::string chunk;
  for (int i = 0; i < 20000; ++i) chunk += std::to_string(i) + ",value " + std::to_string(i * 7) + "\n";

  int killed_while_writing = 0;
  for (const char* to : {"parquet", "orc", "arrow", "csv"}) {
    const fs::path out = out_dir / (std::string("big.") + to);
    for (int delay_ms : {0, 5, 30, 120}) {
      // The input never ends: the convert runs, writing as rows come, until it is killed.
      testing::FedCli convert({"convert", "-", out.string(), "--types", "k=int64,v=string", "--names", "k,v", "--header",
                               "false"},
                              "", chunk);
      // Until the output exists as an unnamed file, then `delay_ms` into writing it.
      bool writing = false;
      for (int t = 0; t < 100000 && !writing && !convert.Ended(); ++t) {
        writing = HoldsUnnamedFileIn(convert.pid(), out_dir);
        if (!writing) std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
      const int status = convert.SignalAndWait(SIGKILL);
      EXPECT_TRUE(writing) << to << ": no unnamed output file seen while the convert ran";
      if (writing && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) ++killed_while_writing;
      EXPECT_EQ(Names(out_dir), std::vector<std::string>{}) << to << " killed " << delay_ms << " ms into writing";
    }
  }
  EXPECT_EQ(killed_while_writing, 16);
}

}  // namespace
}  // namespace quiver

// A test fixture for checks by another engine through a node script of the test's own: the
// pinned engines installed (the test skipped when node or npm are missing), a scratch folder,
// and the script written beside the engines, where node finds their packages.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "testing/run_cli.h"

namespace quiver::testing {

class NodeScriptTest : public ::testing::Test {
 protected:
  // Call from SetUp, then return if IsSkipped(). `what` names the check a skip leaves undone.
  void SetUpScript(const std::string& what, const std::string& name, const char* text) {
    auto setup = SetUpInteropEngines(&node_dir_);
    if (setup.code != 0) GTEST_SKIP() << "DuckDB unavailable, " << what << " not checked: " << setup.out;
    dir_ = std::filesystem::path("/tmp") / ("quiver-" + name + "-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
    // Every test of a suite writes the script while others, in parallel processes, may be
    // running it: a whole copy is renamed over it, so a reader never meets it half written.
    script_ = node_dir_ + "/" + name + ".mjs";
    const std::string tmp = script_ + "." + std::to_string(getpid()) + ".tmp";
    std::ofstream(tmp) << text;
    std::filesystem::rename(tmp, script_);
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  std::string Path(const std::string& n) const { return (dir_ / n).string(); }

  std::string node_dir_, script_;
  std::filesystem::path dir_;
};

}  // namespace quiver::testing

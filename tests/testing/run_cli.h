// Runs the built `quiver` program (or any shell command) and captures its exit code and output.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "testing/keep_parquet.h"

namespace quiver::testing {

// After a `convert` that succeeded: copies of the Parquet files it wrote (an argument naming a
// .parquet file or a folder, written since `since`) for the suite's DuckDB check (keep_parquet.h).
inline void KeepConvertOutputs(const std::string& args, std::filesystem::file_time_type since) {
  if (args.rfind("convert ", 0) != 0 || std::getenv("QUIVER_KEEP_PARQUET_DIR") == nullptr) return;
  // Encrypted outputs need their keys, which the suite's check does not have (the encryption
  // interop test reads them with DuckDB and the keys).
  if (args.find("--footer-key") != std::string::npos) return;
  namespace fs = std::filesystem;
  std::istringstream words(args);
  std::string w;
  std::error_code ec;
  auto fresh_parquet = [&](const fs::path& p) {
    return p.extension() == ".parquet" && fs::is_regular_file(p, ec) && fs::last_write_time(p, ec) >= since;
  };
  while (words >> w) {
    if (w.size() >= 2 && (w.front() == '\'' || w.front() == '"')) w = w.substr(1, w.size() - 2);
    const fs::path p(w);
    if (fresh_parquet(p)) {
      KeepParquetFile(p, "cli");
    } else if (w != "." && w != "/" && fs::is_directory(p, ec) && fs::last_write_time(p, ec) >= since) {
      for (const auto& e : fs::recursive_directory_iterator(p, ec)) {
        if (fresh_parquet(e.path())) KeepParquetFile(e.path(), "cli");
      }
    }
  }
}

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// `args` is appended to the program path as a shell command line (quote as needed).
inline CliResult RunCli(const std::string& args) {
  static int counter = 0;
  std::string err_path = "/tmp/quiver-cli-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + ".err";
  std::string cmd = std::string("QUIVER_PROGRESS=0 ") + QUIVER_CLI_PATH + " " + args + " 2>" + err_path;
  CliResult r;
  // Coarse file system clocks: a second of slack (an input written just before is kept twice).
  const auto since = std::filesystem::file_time_type::clock::now() - std::chrono::seconds(1);
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) r.out.append(buf, n);
  int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::ifstream e(err_path);
  std::stringstream ss;
  ss << e.rdbuf();
  r.err = ss.str();
  std::remove(err_path.c_str());
  if (r.exit_code == 0) KeepConvertOutputs(args, since);
  return r;
}

struct ShellResult {
  int code = -1;
  std::string out;  // stdout and stderr together
};

// Runs `cmd` through the shell with stderr merged into stdout (for node checks and setup scripts).
inline ShellResult RunShell(const std::string& cmd) {
  ShellResult s;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (p == nullptr) return s;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) s.out.append(buf, n);
  const int st = pclose(p);
  s.code = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
  return s;
}

// Installs the pinned DuckDB and Polars (scripts/interop-setup.sh) in the folder the interop
// suites run node in, beside the quiver binary, and sets *node_dir to it. A nonzero code means
// the engines are unavailable (the caller skips, with the output as the reason).
inline ShellResult SetUpInteropEngines(std::string* node_dir) {
  *node_dir = (std::filesystem::path(QUIVER_CLI_PATH).parent_path() / "interop").string();
  return RunShell(std::string("bash ") + QUIVER_SOURCE_DIR + "/scripts/interop-setup.sh " + *node_dir);
}

}  // namespace quiver::testing

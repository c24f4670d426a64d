// Runs the built `quiver` program (or any shell command) and captures its exit code and output.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace quiver::testing {

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

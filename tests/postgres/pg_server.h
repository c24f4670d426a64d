// A PostgreSQL 15 server of the tests' own (Debian's binaries): initdb in a temporary folder,
// run as an unprivileged user when the tests run as root (the server refuses root), listening
// only on a Unix socket in that folder; one per test process, stopped at its end.
#pragma once

#include <gtest/gtest.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "testing/run_cli.h"

namespace quiver::testing {

class PgServer {
 public:
  static constexpr const char* kBin = "/usr/lib/postgresql/15/bin";
  static bool Available() {
    namespace fs = std::filesystem;
    return fs::exists(std::string(kBin) + "/initdb") && fs::exists(std::string(kBin) + "/pg_ctl") &&
           fs::exists(std::string(kBin) + "/postgres");
  }

  // Empty on success, else what failed (with the server's log).
  std::string Start() {
    char tmpl[] = "/tmp/quiver-pg-XXXXXX";
    if (mkdtemp(tmpl) == nullptr) return "mkdtemp failed";
    dir_ = tmpl;
    if (geteuid() == 0) {
      const passwd* pw = getpwnam("nobody");
      if (pw == nullptr) return "no user 'nobody' to run the server as";
      if (::chown(dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0) return "chown failed";
      as_user_ = "setpriv --reuid=nobody --regid=nogroup --clear-groups ";
    }
    const ShellResult init = RunShell("cd / && " + as_user_ + kBin + "/initdb -D " + dir_ +
                                      "/data -U postgres -A trust -E UTF8 --no-locale --no-sync");
    if (init.code != 0) return "initdb failed: " + init.out;
    // One password-checked role, for the authentication test; every other local user trusted.
    {
      std::ofstream hba(dir_ + "/data/pg_hba.conf");
      hba << "local all pwuser scram-sha-256\nlocal all all trust\n";
    }
    if (!Ctl("start -w -t 60 -l " + dir_ + "/log -o \"-k " + dir_ + " -c listen_addresses='' -c fsync=off\"")) {
      return "pg_ctl start failed: " + Log();
    }
    const ShellResult role = RunShell("psql -X -q -h " + dir_ + " -U postgres -d postgres -c \"CREATE ROLE pwuser "
                                      "LOGIN SUPERUSER PASSWORD 'Secr3t-pw'\"");
    if (role.code != 0) return "psql failed: " + role.out;
    return "";
  }
  bool Ctl(const std::string& args) {
    return RunShell("cd / && " + as_user_ + kBin + "/pg_ctl -D " + dir_ + "/data " + args).code == 0;
  }
  // Stops (mode: fast, immediate) and, when `remove`, deletes the folder.
  void Stop(const std::string& mode = "fast", bool remove = true) {
    if (dir_.empty()) return;
    Ctl("stop -w -m " + mode);
    if (remove) {
      std::filesystem::remove_all(dir_);
      dir_.clear();
    }
  }
  bool Restart() {
    return Ctl("start -w -t 60 -l " + dir_ + "/log -o \"-k " + dir_ + " -c listen_addresses='' -c fsync=off\"");
  }
  std::string Log() const {
    std::ifstream in(dir_ + "/log");
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  const std::string& dir() const { return dir_; }
  std::string conninfo() const { return "host=" + dir_ + " user=postgres dbname=postgres"; }

 private:
  std::string dir_;
  std::string as_user_;
};

// The one server of this test process: started before the first test, stopped after the last.
class PgEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    if (!PgServer::Available()) {
      why_ = std::string("PostgreSQL 15 binaries missing under ") + PgServer::kBin +
             " (install Debian's postgresql-15: make deps)";
      return;
    }
    why_ = server_.Start();
    if (!why_.empty()) {
      why_ = "could not start PostgreSQL: " + why_;
      server_.Stop();
    } else {
      running_ = true;
    }
  }
  void TearDown() override {
    if (running_) server_.Stop();
  }
  static PgEnvironment* Get() { return instance_; }
  PgServer* server() { return running_ ? &server_ : nullptr; }
  const std::string& why_not() const { return why_; }

  static inline PgEnvironment* instance_ = nullptr;

 private:
  PgServer server_;
  bool running_ = false;
  std::string why_;
};

inline const bool kPgEnvironmentRegistered = [] {
  PgEnvironment::instance_ = new PgEnvironment();
  ::testing::AddGlobalTestEnvironment(PgEnvironment::instance_);
  return true;
}();

}  // namespace quiver::testing

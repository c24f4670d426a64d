// Loads that fail half-way leave the target exactly as it was: the COPY connections killed
// (pg_terminate_backend), SIGINT to quiver, the server stopped (pg_ctl stop -m immediate). The
// input comes down a pipe, so the load is surely under way (pg_stat_progress_copy counts rows)
// when the fault comes.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "postgres/pg_test_util.h"
#include "testing/run_cli.h"

namespace quiver::testing {
namespace {

class PgFaultTest : public PgTest {
 protected:
  void SetUp() override {
    PgTest::SetUp();
    if (IsSkipped()) return;
    signal(SIGPIPE, SIG_IGN);
    table_ = std::string("f_") + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& c : table_) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    Exec("CREATE TABLE " + table_ + " (id bigint, s text)");
    Exec("INSERT INTO " + table_ + " VALUES (1, 'one'), (2, 'two'), (3, 'three')");
  }
  void TearDown() override {
    if (in_ >= 0) close(in_);
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    std::remove(err_path_.c_str());
  }

  // quiver load - CONNINFO --table T --truncate, its stdin a pipe of ours.
  void Spawn() {
    err_path_ = server_->dir() + "-" + table_ + ".err";
    int p[2];
    ASSERT_EQ(pipe(p), 0);
    const std::string ci = conninfo();
    pid_ = fork();
    if (pid_ == 0) {
      dup2(p[0], 0);
      close(p[0]);
      close(p[1]);
      const int fd = open(err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(fd, 2);
      dup2(fd, 1);
      setenv("QUIVER_PROGRESS", "0", 1);
      execl(QUIVER_CLI_PATH, "quiver", "load", "-", ci.c_str(), "--table", table_.c_str(), "--truncate",
            "--types", "id=int64,s=string", "-j", "2", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(p[0]);
    in_ = p[1];
    Feed("id,s\n");
  }
  bool Feed(const std::string& text) {
    for (size_t at = 0; at < text.size();) {
      const ssize_t n = write(in_, text.data() + at, text.size() - at);
      if (n <= 0) return false;
      at += static_cast<size_t>(n);
    }
    return true;
  }
  std::string Rows(int n) {
    std::string s;
    for (int i = 0; i < n; ++i, ++next_) s += std::to_string(next_) + ",row " + std::to_string(next_) + " of the fault test\n";
    return s;
  }
  // Feeds rows until the server reports COPY rows received (false if it never does).
  bool FeedUntilCopying() {
    for (int round = 0; round < 400; ++round) {
      if (!Feed(Rows(20000))) return false;
      const std::string n = One("SELECT coalesce(sum(tuples_processed), 0) FROM pg_stat_progress_copy");
      if (n != "0" && n.rfind("ERROR", 0) != 0) return true;
    }
    return false;
  }
  // Some more input after the fault (quiver sees it on its next batch), then the end; the exit code.
  int FinishInput() {
    for (int i = 0; i < 20; ++i) {
      if (!Feed(Rows(20000))) break;
    }
    close(in_);
    in_ = -1;
    int st = 0;
    waitpid(pid_, &st, 0);
    pid_ = -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  }
  std::string Err() const {
    std::ifstream in(err_path_);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  std::string Target() { return One("SELECT string_agg(id || ':' || s, ',' ORDER BY id) FROM " + table_); }

  std::string table_, err_path_;
  pid_t pid_ = -1;
  int in_ = -1;
  int64_t next_ = 100;
};

TEST_F(PgFaultTest, ConnectionKilled) {
  Spawn();
  ASSERT_TRUE(FeedUntilCopying()) << Err();
  EXPECT_EQ(One("SELECT count(*) > 0 FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = 'quiver' AND query LIKE 'COPY%') t"),
            "t");
  EXPECT_EQ(FinishInput(), 1);
  const std::string err = Err();
  EXPECT_NE(err.find("quiver: postgres: loading \"public\".\"f_connectionkilled\": "), std::string::npos) << err;
  EXPECT_TRUE(err.find("terminating connection due to administrator command") != std::string::npos ||
              err.find("server closed the connection unexpectedly") != std::string::npos)
      << err;
  EXPECT_EQ(Target(), "1:one,2:two,3:three");
  EXPECT_EQ(StagingTables(), 0);
}

TEST_F(PgFaultTest, Sigint) {
  Spawn();
  ASSERT_TRUE(FeedUntilCopying()) << Err();
  ASSERT_EQ(kill(pid_, SIGINT), 0);
  EXPECT_EQ(FinishInput(), 1);
  EXPECT_EQ(Err(), "quiver: load: interrupted; \"public\".\"f_sigint\" is unchanged\n");
  EXPECT_EQ(Target(), "1:one,2:two,3:three");
  EXPECT_EQ(StagingTables(), 0);
}

// The server goes away mid-load: nothing can be dropped then, so the staging table stays until
// the next load into the schema finds its session gone and drops it (docs/postgres.md).
TEST_F(PgFaultTest, ServerStopped) {
  Spawn();
  ASSERT_TRUE(FeedUntilCopying()) << Err();
  server_->Stop("immediate", /*remove=*/false);
  EXPECT_EQ(FinishInput(), 1);
  const std::string err = Err();
  EXPECT_NE(err.find("quiver: postgres: loading \"public\".\"f_serverstopped\": "), std::string::npos) << err;
  ASSERT_TRUE(server_->Restart()) << server_->Log();
  auto c = postgres::Connection::Open(conninfo());
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  conn_ = std::move(*c);
  EXPECT_EQ(Target(), "1:one,2:two,3:three");
  EXPECT_EQ(StagingTables(), 1);
  const std::string small = server_->dir() + "-small.csv";
  std::ofstream(small) << "x\n1\n";
  CliResult r = RunCli("load " + small + " '" + conninfo() + "' --table after_restart");
  std::remove(small.c_str());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(StagingTables(), 0);
  EXPECT_EQ(Target(), "1:one,2:two,3:three");
}

}  // namespace
}  // namespace quiver::testing

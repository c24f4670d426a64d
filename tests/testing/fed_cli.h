// The built `quiver` program run with a pipe for its standard input that a thread keeps feeding,
// for tests that signal or kill a command in the middle of its work.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <climits>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace quiver::testing {

class FedCli {
 public:
  // Runs `quiver args...` (stdout and stderr to /dev/null, no progress bar) and writes `head`, then
  // `chunk` `repeats` times (or until Stop), into its standard input.
  FedCli(const std::vector<std::string>& args, std::string head, std::string chunk, int repeats = INT_MAX)
      : head_(std::move(head)), chunk_(std::move(chunk)) {
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(fds[0], 0);
      close(fds[0]);
      close(fds[1]);
      setenv("QUIVER_PROGRESS", "0", 1);
      if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(126);
      std::vector<char*> argv{const_cast<char*>("quiver")};
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(QUIVER_CLI_PATH, argv.data());
      _exit(127);
    }
    close(fds[0]);
    in_ = fds[1];
    signal(SIGPIPE, SIG_IGN);  // the feeder's writes fail once the command is gone
    feeder_ = std::thread([this, repeats] {
      if (!WriteAll(head_)) return;
      for (int n = 0; n < repeats && !stop_; ++n) {
        if (!WriteAll(chunk_)) return;
      }
    });
  }
  FedCli(const FedCli&) = delete;
  FedCli& operator=(const FedCli&) = delete;
  ~FedCli() { (void)SignalAndWait(SIGKILL); }

  pid_t pid() const { return pid_; }
  // Whether the command has ended (it is not reaped: SignalAndWait still gives its status).
  bool Ended() const {
    siginfo_t info{};
    return pid_ > 0 && waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid != 0;
  }

  // Sends `sig`, waits for the command and stops the feeder; the command's wait status.
  int SignalAndWait(int sig) {
    if (pid_ > 0 && !waited_) {
      kill(pid_, sig);
      waitpid(pid_, &status_, 0);
      waited_ = true;
    }
    stop_ = true;
    if (feeder_.joinable()) feeder_.join();
    if (in_ >= 0) close(in_);
    in_ = -1;
    return status_;
  }

 private:
  bool WriteAll(const std::string& s) {
    for (size_t off = 0; off < s.size();) {
      const ssize_t w = write(in_, s.data() + off, s.size() - off);
      if (w <= 0) return false;
      off += static_cast<size_t>(w);
    }
    return true;
  }

  std::string head_, chunk_;
  pid_t pid_ = -1;
  int in_ = -1;
  int status_ = 0;
  bool waited_ = false;
  std::atomic<bool> stop_{false};
  std::thread feeder_;
};

}  // namespace quiver::testing

// ThreadPool and TaskGroup: run whole units of work (chunks, column chunks, row groups) on a
// few threads; the first error cancels the group's tasks that have not started yet.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "quiver/core/status.h"

namespace quiver {

class ThreadPool {
 public:
  // 0 threads means std::thread::hardware_concurrency().
  explicit ThreadPool(int num_threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int num_threads() const { return static_cast<int>(workers_.size()); }
  // `urgent` tasks go to the front of the queue (work that others wait on, such as a read).
  void Submit(std::function<void()> task, bool urgent = false);
  // Runs one queued task on the calling thread; false when the queue was empty. Lets a
  // thread that waits on a group help instead of blocking a worker.
  bool RunOne();

  // A process-wide pool sized to the machine (QUIVER_THREADS overrides).
  static ThreadPool* Default();

 private:
  void WorkerLoop();

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

class TaskGroup {
 public:
  // A null pool runs every task inline in Submit (single-threaded work, no hand-off).
  explicit TaskGroup(ThreadPool* pool = ThreadPool::Default()) : pool_(pool), state_(std::make_shared<State>()) {}
  // Waits for the tasks still running; a group must not be abandoned with work in flight.
  ~TaskGroup();

  // Queues `task` (at the front when `urgent`); skipped (counted as Cancelled) if the group has
  // failed before it starts.
  void Submit(std::function<Status()> task, bool urgent = false);
  // Waits for every submitted task, helping to run queued work meanwhile; returns the first
  // error, or OK.
  Status Wait();
  // True once a task failed or Cancel() was called; long tasks may poll it.
  bool cancelled() const { return state_->cancelled.load(std::memory_order_relaxed); }
  void Cancel(Status reason = Status::Cancelled("cancelled"));

 private:
  struct State {
    std::mutex mu;
    std::condition_variable cv;
    int64_t pending = 0;
    Status first_error;
    std::atomic<bool> cancelled{false};
  };
  static void RecordError(State& s, Status st);

  ThreadPool* pool_;
  std::shared_ptr<State> state_;
};

}  // namespace quiver

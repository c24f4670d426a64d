#include "quiver/core/thread_pool.h"

#include <cstdlib>

namespace quiver {

ThreadPool::ThreadPool(int num_threads) {
  if (num_threads <= 0) num_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  workers_.reserve(static_cast<size_t>(num_threads));
  for (int i = 0; i < num_threads; ++i) workers_.emplace_back([this] { WorkerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::Submit(std::function<void()> task, bool urgent) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (urgent) queue_.push_front(std::move(task));
    else queue_.push_back(std::move(task));
  }
  cv_.notify_one();
}

bool ThreadPool::RunOne() {
  std::function<void()> task;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (queue_.empty()) return false;
    task = std::move(queue_.front());
    queue_.pop_front();
  }
  task();
  return true;
}

void ThreadPool::WorkerLoop() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stop_ and drained
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

ThreadPool* ThreadPool::Default() {
  static ThreadPool* pool = [] {
    int n = 0;
    if (const char* env = std::getenv("QUIVER_THREADS")) n = std::atoi(env);
    return new ThreadPool(n);
  }();
  return pool;
}

TaskGroup::~TaskGroup() { (void)Wait(); }

void TaskGroup::RecordError(State& s, Status st) {
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.first_error.ok()) s.first_error = std::move(st);
  s.cancelled.store(true, std::memory_order_relaxed);
}

void TaskGroup::Cancel(Status reason) { RecordError(*state_, std::move(reason)); }

void TaskGroup::Submit(std::function<Status()> task, bool urgent) {
  if (pool_ == nullptr) {
    if (!state_->cancelled.load(std::memory_order_relaxed)) {
      Status st = task();
      if (!st.ok()) RecordError(*state_, std::move(st));
    }
    return;
  }
  {
    std::lock_guard<std::mutex> lock(state_->mu);
    ++state_->pending;
  }
  pool_->Submit([state = state_, task = std::move(task)] {
    if (!state->cancelled.load(std::memory_order_relaxed)) {
      Status st = task();
      if (!st.ok()) RecordError(*state, std::move(st));
    }
    std::lock_guard<std::mutex> lock(state->mu);
    if (--state->pending == 0) state->cv.notify_all();
  }, urgent);
}

Status TaskGroup::Wait() {
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(state_->mu);
      if (state_->pending == 0) return state_->first_error;
    }
    // Help: the queued task may be ours, or one ours is waiting behind.
    if (pool_ == nullptr || !pool_->RunOne()) {
      std::unique_lock<std::mutex> lock(state_->mu);
      state_->cv.wait_for(lock, std::chrono::milliseconds(1), [this] { return state_->pending == 0; });
    }
  }
}

}  // namespace quiver

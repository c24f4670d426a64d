#include "quiver/stream/read_ahead.h"

namespace quiver::stream {

ReadAhead::ReadAhead(std::unique_ptr<BatchReader> source, size_t max_batches)
    : source_(std::move(source)), schema_(source_->schema()) {
  max_ = max_batches > 0 ? max_batches : std::max<size_t>(source_->read_ahead_batches(), 1);
  stats_ = source_->stats();
  thread_ = std::thread([this] { Run(); });
}

ReadAhead::~ReadAhead() {
  {
    std::lock_guard<std::mutex> l(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

Result<std::shared_ptr<RecordBatch>> ReadAhead::Next() {
  std::unique_lock<std::mutex> l(mu_);
  cv_.wait(l, [&] { return !queue_.empty() || done_; });
  if (queue_.empty()) {
    stats_ = final_stats_;
    if (!error_.ok()) return error_;
    return std::shared_ptr<RecordBatch>();
  }
  auto [batch, stats] = std::move(queue_.front());
  queue_.pop_front();
  stats_ = stats;
  cv_.notify_all();
  return batch;
}

void ReadAhead::Run() {
  for (;;) {
    auto b = source_->Next();
    const ReadStats stats = source_->stats();
    std::unique_lock<std::mutex> l(mu_);
    if (!b.ok() || !*b) {
      if (!b.ok()) error_ = b.status();
      final_stats_ = stats;
      done_ = true;
      cv_.notify_all();
      return;
    }
    cv_.wait(l, [&] { return queue_.size() < max_ || stop_; });
    if (stop_) return;
    queue_.emplace_back(std::move(*b), stats);
    cv_.notify_all();
  }
}

}  // namespace quiver::stream

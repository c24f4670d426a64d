// ReadAhead: a BatchReader that runs another on its own thread, a bounded number of batches
// ahead, so that reading the next batches overlaps whatever the caller does with the last ones.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "quiver/stream/batch_stream.h"

namespace quiver::stream {

class ReadAhead final : public BatchReader {
 public:
  // `max_batches` 0: the source's read_ahead_batches(). The source's schema is taken now; its
  // stats are read on the thread after each batch and handed out with it.
  explicit ReadAhead(std::unique_ptr<BatchReader> source, size_t max_batches = 0);
  // Stops the thread (a batch being read is finished first).
  ~ReadAhead() override;

  const SchemaPtr& schema() const override { return schema_; }
  Result<std::shared_ptr<RecordBatch>> Next() override;
  // The source's stats as they were after the last batch handed out; at the end, final.
  ReadStats stats() const override { return stats_; }
  size_t read_ahead_batches() const override { return max_; }

  // The source, to be looked at only once Next has returned the end or an error.
  BatchReader* source() const { return source_.get(); }

 private:
  void Run();

  std::unique_ptr<BatchReader> source_;
  SchemaPtr schema_;
  size_t max_;
  ReadStats stats_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::pair<std::shared_ptr<RecordBatch>, ReadStats>> queue_;
  Status error_;
  ReadStats final_stats_;
  bool done_ = false, stop_ = false;
  std::thread thread_;
};

}  // namespace quiver::stream

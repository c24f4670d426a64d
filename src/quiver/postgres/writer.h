// PostgreSQL as a batch stream: PostgresWriter loads the batches into a table all or nothing
// (load.h), so stream::Copy from any reader loads any input. Batches are queued (a bounded
// number) and each of N connections takes the next, encodes it in binary COPY form and sends
// it while the others encode or send theirs.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "quiver/postgres/load.h"
#include "quiver/stream/batch_stream.h"

namespace quiver::postgres {

class Connection;

class PostgresWriter final : public stream::BatchWriter {
 public:
  // Connects (one connection to plan and commit, `options.connections` to COPY), checks the
  // target (PlanLoad), drops stale staging tables, creates this load's and starts every COPY.
  static Result<std::unique_ptr<PostgresWriter>> Open(const std::string& conninfo, SchemaPtr schema,
                                                      LoadOptions options);
  ~PostgresWriter() override;

  // Queues the batch (waiting while the queue is full); an error a connection met is returned
  // by the next call.
  Status Write(const std::shared_ptr<RecordBatch>& batch) override;
  // Ends every COPY and commits: the target shows every row, or (on any error) none.
  Status Finish() override;
  // Stops the COPYs and drops the staging table; the target is as it was.
  void Abort() override;
  int64_t bytes_written() const override { return bytes_.load(); }

  const LoadPlan& plan() const { return plan_; }

 private:
  struct Task {
    std::shared_ptr<RecordBatch> batch;
    int64_t first_row;
  };
  struct Worker;

  PostgresWriter() = default;
  void Run(Worker* w);
  // The first error any thread met (others are consequences), recorded once.
  void Fail(Status st);
  bool Cancelled() const { return options_.cancel != nullptr && options_.cancel->load(); }
  Status Stop(bool commit);

  LoadOptions options_;
  LoadPlan plan_;
  SchemaPtr schema_;
  std::unique_ptr<Connection> control_;
  std::vector<std::unique_ptr<Worker>> workers_;

  std::mutex mu_;
  std::condition_variable queue_changed_;
  std::deque<Task> queue_;
  bool closed_ = false;  // no more batches
  bool aborting_ = false;
  Status error_;
  std::atomic<bool> failed_{false};
  bool done_ = false;  // Finish or Abort ran

  int64_t next_row_ = 0;
  std::atomic<int64_t> bytes_{0};
};

}  // namespace quiver::postgres

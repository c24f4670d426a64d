#include "quiver/postgres/writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "quiver/postgres/connection.h"
#include "quiver/postgres/copy_encoder.h"

namespace quiver::postgres {

struct PostgresWriter::Worker {
  std::unique_ptr<Connection> conn;
  std::unique_ptr<CopyEncoder> encoder;
  EncodedRows rows;
  std::thread thread;
  // Per batch sent on this connection: the stream's rows before it, and its first input row,
  // to turn the "line N" of a server's COPY error into the input's row.
  std::vector<std::pair<int64_t, int64_t>> batches;
  int64_t sent_rows = 0;
};

namespace {

// The server names the staging table and the line of this connection's COPY stream; the user
// knows the target and the input's rows.
Status ServerError(const Status& st, const LoadPlan& plan, const std::vector<std::pair<int64_t, int64_t>>& batches) {
  std::string msg = st.message();
  for (size_t at = msg.find(plan.staging_name); at != std::string::npos; at = msg.find(plan.staging_name, at)) {
    msg.replace(at, plan.staging_name.size(), plan.table_name);
  }
  // ", line N" (1-based within this connection's stream).
  int64_t line = 0;
  for (size_t at = msg.find(", line "); at != std::string::npos && line == 0; at = msg.find(", line ", at + 1)) {
    const char* digits = msg.data() + at + 7;
    auto [end, ec] = std::from_chars(digits, msg.data() + msg.size(), line);
    if (ec != std::errc() || end == digits) line = 0;
  }
  if (line > 0 && !batches.empty()) {
    auto it = std::upper_bound(batches.begin(), batches.end(), std::make_pair(line - 1, INT64_MAX));
    if (it != batches.begin()) {
      --it;
      msg += fmt::format(" (input row {})", it->second + (line - 1 - it->first) + 1);
    }
  }
  return Status(st.code(), fmt::format("postgres: loading {}: {}", plan.target, msg));
}

}  // namespace

Result<std::unique_ptr<PostgresWriter>> PostgresWriter::Open(const std::string& conninfo, SchemaPtr schema,
                                                             LoadOptions options) {
  if (options.connections < 1 || options.connections > 256) {
    return Status::Invalid(fmt::format("postgres: connections must be 1 to 256, got {}", options.connections));
  }
  std::unique_ptr<PostgresWriter> w(new PostgresWriter());
  w->done_ = true;  // nothing to undo until the staging table exists
  w->options_ = std::move(options);
  w->schema_ = std::move(schema);
  QUIVER_ASSIGN_OR_RETURN(w->control_, Connection::Open(conninfo));
  QUIVER_ASSIGN_OR_RETURN(w->plan_, PlanLoad(*w->schema_, w->options_, w->control_.get()));
  QUIVER_RETURN_NOT_OK(DropStaleStaging(*w->control_, w->plan_.schema_name).WithContext("postgres: dropping stale staging tables"));
  Status created = CreateStaging(*w->control_, w->plan_);
  if (!created.ok()) {
    DropStaging(*w->control_, w->plan_);
    return std::move(created).WithContext("postgres: creating the staging table");
  }
  const std::string header = CopyEncoder::Header();
  for (int i = 0; i < w->options_.connections; ++i) {
    auto worker = std::make_unique<Worker>();
    Status st;
    Result<std::unique_ptr<Connection>> conn = Connection::Open(conninfo);
    if (!conn.ok()) st = conn.status();
    if (st.ok()) {
      worker->conn = std::move(*conn);
      Result<std::unique_ptr<CopyEncoder>> enc = CopyEncoder::Make(w->schema_, w->plan_.types);
      if (!enc.ok()) st = enc.status();
      if (st.ok()) worker->encoder = std::move(*enc);
    }
    if (st.ok()) st = worker->conn->BeginCopy(w->plan_.copy);
    if (st.ok()) st = worker->conn->PutCopy(reinterpret_cast<const uint8_t*>(header.data()), static_cast<int64_t>(header.size()));
    if (!st.ok()) {
      w->workers_.clear();
      DropStaging(*w->control_, w->plan_);
      return st;
    }
    w->workers_.push_back(std::move(worker));
  }
  w->done_ = false;
  for (auto& worker : w->workers_) {
    Worker* raw = worker.get();
    worker->thread = std::thread([p = w.get(), raw] { p->Run(raw); });
  }
  return w;
}

PostgresWriter::~PostgresWriter() {
  if (!done_) Abort();
}

void PostgresWriter::Fail(Status st) {
  std::lock_guard<std::mutex> lock(mu_);
  if (error_.ok()) error_ = std::move(st);
  failed_.store(true);
  queue_changed_.notify_all();
}

void PostgresWriter::Run(Worker* w) {
  // Sent in pieces so that an interrupt is seen within one piece.
  constexpr int64_t kPiece = int64_t{4} << 20;
  bool drained = false;
  for (;;) {
    Task t;
    {
      std::unique_lock<std::mutex> lock(mu_);
      queue_changed_.wait(lock, [&] { return !queue_.empty() || closed_ || aborting_ || failed_.load(); });
      if (aborting_ || failed_.load()) break;
      if (queue_.empty()) {
        drained = true;  // closed, every batch taken
        break;
      }
      t = std::move(queue_.front());
      queue_.pop_front();
      queue_changed_.notify_all();
    }
    if (Cancelled()) {
      Fail(Status::Cancelled("postgres: load interrupted"));
      break;
    }
    Status st = w->encoder->Encode(*t.batch, t.first_row, &w->rows);
    if (!st.ok()) {
      Fail(std::move(st).WithContext("postgres: " + plan_.target));
      break;
    }
    w->batches.emplace_back(w->sent_rows, t.first_row);
    w->sent_rows += t.batch->num_rows();
    t.batch.reset();
    for (int64_t at = 0; at < w->rows.size() && st.ok(); at += kPiece) {
      if (failed_.load() || Cancelled()) break;
      st = w->conn->PutCopy(w->rows.data() + at, std::min(kPiece, w->rows.size() - at));
    }
    if (!st.ok()) {
      Fail(ServerError(st, plan_, w->batches));
      break;
    }
    bytes_ += w->rows.size();
  }
  if (drained && !failed_.load() && !Cancelled()) {
    const std::string trailer = CopyEncoder::Trailer();
    Status st = w->conn->PutCopy(reinterpret_cast<const uint8_t*>(trailer.data()), static_cast<int64_t>(trailer.size()));
    if (st.ok()) st = w->conn->EndCopy();
    if (!st.ok()) Fail(ServerError(st, plan_, w->batches));
    bytes_ += 2;
    return;
  }
  if (Cancelled()) Fail(Status::Cancelled("postgres: load interrupted"));
  w->conn->AbortCopy("quiver load stopped");
}

Status PostgresWriter::Write(const std::shared_ptr<RecordBatch>& batch) {
  if (done_) return Status::Invalid("postgres: Write after Finish or Abort");
  if (Cancelled()) return Status::Cancelled("postgres: load interrupted");
  const size_t cap = static_cast<size_t>(options_.queued_batches > 0 ? options_.queued_batches : 2 * options_.connections);
  std::unique_lock<std::mutex> lock(mu_);
  queue_changed_.wait(lock, [&] { return queue_.size() < cap || failed_.load(); });
  if (failed_.load()) return error_;
  queue_.push_back(Task{batch, next_row_});
  next_row_ += batch->num_rows();
  queue_changed_.notify_all();
  return Status::OK();
}

Status PostgresWriter::Stop(bool commit) {
  if (done_) return Status::Invalid("postgres: the load has ended");
  done_ = true;
  {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    if (!commit) aborting_ = true;
    queue_changed_.notify_all();
  }
  for (auto& w : workers_) {
    if (w->thread.joinable()) w->thread.join();
  }
  if (commit && !failed_.load()) {
    Status st = Cancelled() ? Status::Cancelled("postgres: load interrupted") : CommitLoad(*control_, plan_);
    if (st.ok()) {
      workers_.clear();
      control_.reset();  // its session's end releases the staging lock
      return Status::OK();
    }
    if (!st.IsCancelled()) st = Status(st.code(), fmt::format("postgres: committing into {}: {}", plan_.target, st.message()));
    Fail(std::move(st));
  }
  workers_.clear();
  DropStaging(*control_, plan_);
  control_.reset();
  std::lock_guard<std::mutex> lock(mu_);
  return commit ? error_ : Status::OK();
}

Status PostgresWriter::Finish() { return Stop(true); }

void PostgresWriter::Abort() {
  if (!done_) (void)Stop(false);
}

}  // namespace quiver::postgres

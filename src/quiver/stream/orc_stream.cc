// OrcStreamReader (orc_stream.h). Each top-level column is a strand: a task on the pool that
// decodes that column's next batches in order, up to `lead` batches past the one the consumer
// waits for, moving from stripe to stripe on its own. Columns are independent within a stripe,
// so the threads stay busy while any column has work, and no batch waits for a whole stripe.
#include "quiver/stream/orc_stream.h"

#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>

namespace quiver::stream {

struct OrcStreamReader::Pipeline {
  struct Batch {
    size_t stripe_pos;  // index into `stripes`
    int64_t rows;
  };
  struct Slot {
    std::vector<std::shared_ptr<ArrayData>> columns;
    std::vector<Status> errors;
    size_t filled = 0;
  };
  struct Strand {
    size_t next = 0;  // the next batch this column decodes
    bool running = false;
    bool failed = false;
    std::shared_ptr<orc::OrcFileReader::StripeCursor> cursor;
    size_t cursor_pos = SIZE_MAX;
  };
  struct OpenStripe {
    bool ready = false;  // the footer was read (or failed)
    Status status;
    std::shared_ptr<orc::OrcFileReader::StripeCursor> cursor;
    size_t taken = 0;  // strands that moved onto it; dropped from the map when all have
  };

  const orc::OrcFileReader* file = nullptr;
  orc::OrcFileReader::Selection selection;
  std::vector<int> stripes;
  MemoryPool* pool = nullptr;
  ThreadPool* threads = nullptr;
  size_t ncols = 0;
  size_t lead = 2;
  std::vector<Batch> batches;

  std::mutex mu;
  std::condition_variable cv;
  size_t consumed = 0;    // batches handed out; slots[0] is batch `consumed`
  std::deque<Slot> slots;  // batches consumed .. consumed + slots.size()
  std::vector<Strand> strands;
  std::map<size_t, OpenStripe> open;
  bool stopping = false;

  size_t Limit() const { return std::min(batches.size(), consumed + lead); }

  // Under mu: slots for every batch a strand may decode now, and a task for every idle strand
  // with work below the limit.
  void Schedule() {
    const size_t limit = Limit();
    while (consumed + slots.size() < limit) {
      Slot s;
      s.columns.resize(ncols);
      s.errors.resize(ncols);
      slots.push_back(std::move(s));
    }
    if (threads == nullptr) return;
    for (size_t k = 0; k < ncols; ++k) {
      Strand& st = strands[k];
      if (!st.running && !st.failed && st.next < limit) {
        st.running = true;
        threads->Submit([this, k] { Run(k); });
      }
    }
  }

  // Under mu (`lock`): the cursor of the stripe batch b lies in, for strand k.
  Status MoveTo(size_t k, size_t b, std::unique_lock<std::mutex>& lock) {
    Strand& st = strands[k];
    const size_t pos = batches[b].stripe_pos;
    if (st.cursor_pos == pos) return Status::OK();
    if (st.cursor != nullptr) {
      st.cursor->Close(k);
      st.cursor.reset();
    }
    auto it = open.find(pos);
    if (it == open.end()) {
      // The first strand to reach the stripe reads its footer (small; others wait on the lock).
      it = open.emplace(pos, OpenStripe{}).first;
      lock.unlock();
      auto c = file->OpenStripe(stripes[pos], selection, pool);
      lock.lock();
      it = open.find(pos);
      if (c.ok()) it->second.cursor = std::shared_ptr<orc::OrcFileReader::StripeCursor>(std::move(*c));
      else it->second.status = c.status();
      it->second.ready = true;
      cv.notify_all();
    }
    // Another strand may be opening it right now: wait for its result.
    while (!it->second.ready) {
      cv.wait(lock);
      it = open.find(pos);
    }
    OpenStripe& o = it->second;
    if (!o.status.ok()) return o.status;
    st.cursor = o.cursor;
    st.cursor_pos = pos;
    if (++o.taken == ncols) open.erase(it);
    return Status::OK();
  }

  // Decodes batch b of column k into its slot. Under mu (`lock`), which is released meanwhile.
  void Step(size_t k, size_t b, std::unique_lock<std::mutex>& lock) {
    Strand& st = strands[k];
    Status moved = MoveTo(k, b, lock);
    Result<std::shared_ptr<ArrayData>> r = moved;
    if (moved.ok()) {
      std::shared_ptr<orc::OrcFileReader::StripeCursor> cursor = st.cursor;
      lock.unlock();
      r = cursor->Next(k, batches[b].rows);
      lock.lock();
    }
    Slot& slot = slots[b - consumed];
    if (r.ok()) {
      slot.columns[k] = std::move(*r);
    } else {
      slot.errors[k] = r.status();
      st.failed = true;
    }
    ++slot.filled;
    st.next = b + 1;
    if (st.next == batches.size() && st.cursor != nullptr) {
      st.cursor->Close(k);
      st.cursor.reset();
    }
  }

  // Strand k's task: its batches up to the limit, then it goes idle until Schedule resumes it.
  void Run(size_t k) {
    std::unique_lock<std::mutex> lock(mu);
    Strand& st = strands[k];
    while (!stopping && !st.failed && st.next < Limit()) {
      Step(k, st.next, lock);
      // Only a finished batch at the front wakes the consumer (no switch per column).
      if (slots.front().filled == ncols) cv.notify_all();
    }
    st.running = false;
    cv.notify_all();
  }

  ~Pipeline() {
    std::unique_lock<std::mutex> lock(mu);
    stopping = true;
    cv.wait(lock, [this] {
      for (const Strand& s : strands) {
        if (s.running) return false;
      }
      return true;
    });
  }
};

Result<std::unique_ptr<OrcStreamReader>> OrcStreamReader::Open(const std::string& path, const std::vector<std::string>& columns,
                                                               orc::OrcReaderOptions options) {
  QUIVER_ASSIGN_OR_RETURN(auto file, orc::OrcFileReader::Open(path, options));
  return Make(std::shared_ptr<orc::OrcFileReader>(std::move(file)), columns);
}

Result<std::unique_ptr<OrcStreamReader>> OrcStreamReader::Make(std::shared_ptr<orc::OrcFileReader> file,
                                                               const std::vector<std::string>& columns, std::vector<int> stripes) {
  auto r = std::unique_ptr<OrcStreamReader>(new OrcStreamReader());
  auto pipe = std::make_unique<Pipeline>();
  QUIVER_ASSIGN_OR_RETURN(pipe->selection, file->Select(columns));
  // The reader decodes in file order; the batches' columns follow the order asked for.
  SchemaPtr file_order = file->SelectedSchema(pipe->selection);
  std::vector<Field> fields;
  if (columns.empty()) {
    for (int i = 0; i < file_order->num_fields(); ++i) r->order_.push_back(i);
  } else {
    for (const auto& c : columns) {
      QUIVER_RETURN_NOT_OK(file->ColumnIdOf(c).status());
      // The top-level field holding the path.
      for (int i = 0; i < file_order->num_fields(); ++i) {
        const std::string& name = file_order->field(i).name;
        if (c == name || (c.size() > name.size() && c.compare(0, name.size(), name) == 0 && c[name.size()] == '.')) {
          if (std::find(r->order_.begin(), r->order_.end(), i) == r->order_.end()) r->order_.push_back(i);
          break;
        }
      }
    }
  }
  for (int i : r->order_) fields.push_back(file_order->field(i));
  r->schema_ = std::make_shared<Schema>(std::move(fields));
  if (stripes.empty()) {
    for (int i = 0; i < file->num_stripes(); ++i) stripes.push_back(i);
  }
  for (int s : stripes) {
    if (s < 0 || s >= file->num_stripes()) {
      return Status::Invalid(fmt::format("{}: no stripe {} (the file has {})", file->path(), s, file->num_stripes()));
    }
  }
  const int64_t batch_rows = std::max<int64_t>(1, file->options().batch_rows);
  for (size_t pos = 0; pos < stripes.size(); ++pos) {
    const int64_t rows = static_cast<int64_t>(file->footer().stripes[static_cast<size_t>(stripes[pos])].number_of_rows);
    // A stripe without rows is still one (empty) batch.
    int64_t at = 0;
    do {
      const int64_t k = std::min(batch_rows, rows - at);
      pipe->batches.push_back({pos, k});
      at += k;
    } while (at < rows);
  }
  r->recycle_ = RecyclingPool::Make(file->options().pool, kScanRecycling);
  pipe->file = file.get();
  pipe->stripes = std::move(stripes);
  pipe->pool = r->recycle_;
  pipe->threads = file->options().thread_pool;
  pipe->ncols = static_cast<size_t>(file_order->num_fields());
  pipe->strands.resize(pipe->ncols);
  // Two batches ahead per thread keep every thread busy while the consumer holds one.
  pipe->lead = pipe->threads != nullptr ? static_cast<size_t>(2 + pipe->threads->num_threads()) : 1;
  r->pipe_ = std::move(pipe);
  r->file_ = std::move(file);
  return r;
}

OrcStreamReader::~OrcStreamReader() {
  pipe_.reset();
  if (recycle_ != nullptr) recycle_->Close();
}

Result<std::shared_ptr<RecordBatch>> OrcStreamReader::Next() {
  QUIVER_RETURN_NOT_OK(failed_);
  Pipeline& p = *pipe_;
  Pipeline::Slot slot;
  size_t b;
  {
    std::unique_lock<std::mutex> lock(p.mu);
    if (p.consumed >= p.batches.size()) return std::shared_ptr<RecordBatch>();
    b = p.consumed;
    p.Schedule();
    if (p.threads == nullptr) {
      for (size_t k = 0; k < p.ncols; ++k) p.Step(k, b, lock);
    }
    p.cv.wait(lock, [&p] { return p.slots.front().filled == p.ncols; });
    slot = std::move(p.slots.front());
    p.slots.pop_front();
    ++p.consumed;
    p.Schedule();
  }
  // The first failed column, in column order, whatever the threads.
  for (Status& e : slot.errors) {
    if (!e.ok()) {
      failed_ = e;
      return e;
    }
  }
  const int64_t rows = p.batches[b].rows;
  std::vector<Array> cols;
  for (int i : order_) cols.emplace_back(std::move(slot.columns[static_cast<size_t>(i)]));
  auto batch = std::make_shared<RecordBatch>(schema_, rows, std::move(cols));
  rows_ += batch->num_rows();
  bytes_ += batch->buffer_bytes();
  return batch;
}

ReadStats OrcStreamReader::stats() const {
  ReadStats s;
  s.rows_read = rows_;
  s.bytes_read = bytes_;
  s.input_size = file_->file_size();
  s.input_position = file_->num_rows() > 0 ? static_cast<int64_t>(static_cast<double>(s.input_size) * rows_ / file_->num_rows()) : 0;
  return s;
}

}  // namespace quiver::stream

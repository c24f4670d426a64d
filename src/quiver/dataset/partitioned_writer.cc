#include "quiver/dataset/partitioned_writer.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <span>
#include <type_traits>

#include "quiver/columnar/gather.h"
#include "quiver/dataset/hive.h"
#include "quiver/io/output_stream.h"

namespace quiver::dataset {

namespace fs = std::filesystem;

namespace {

// Descriptors left for everything but partition files (input, thread pool, stdio, libraries).
constexpr int64_t kFdMargin = 64;
// Each open partition file has its own stream buffer: small, as thousands may be open (and
// with 2 MiB pages a buffer's untouched bytes are resident too).
constexpr int64_t kStreamBuffer = 16 << 10;

// Open files allowed by RLIMIT_NOFILE, after raising its soft limit to the hard one.
int64_t OpenFileLimit() {
  rlimit lim{};
  if (::getrlimit(RLIMIT_NOFILE, &lim) != 0) return 64;
  if (lim.rlim_cur != lim.rlim_max) {
    rlimit raised = lim;
    raised.rlim_cur = lim.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) lim = raised;
  }
  // An unlimited or huge hard limit: the per-file stream buffer is the real bound then.
  const int64_t cur = lim.rlim_cur == RLIM_INFINITY ? int64_t{1} << 20
                                                    : static_cast<int64_t>(std::min<rlim_t>(lim.rlim_cur, rlim_t{1} << 20));
  return std::max<int64_t>(cur - kFdMargin, 16);
}

}  // namespace

struct PartitionedParquetWriter::Part {
  std::string relative;  // "a=1/b=x"
  int fd = -1;
  std::unique_ptr<io::FdOutputStream> stream;
  std::unique_ptr<parquet::ParquetFileWriter> writer;  // null while no file is open
  int files = 0;              // files started; the next is part-<files>.parquet
  uint64_t last_write = 0;
  // The rows it holds for its next row group, as row numbers in retained input batches: `runs`
  // says how many of `rows`, in order, belong to which batch (its retained slot). A row costs
  // the partition 4 bytes; the batches are counted once, however many partitions share them.
  std::vector<int32_t> rows;
  std::vector<std::pair<int64_t, int32_t>> runs;  // (slot, row count)
  // Rows written out to the spill file to keep within the budget, oldest first; read back,
  // ahead of the rows held, when the partition writes its next row group.
  std::vector<SpillSegment> spilled;
  int64_t rows_spilled = 0;
  int64_t held = 0;      // bytes it counts against the budget (Recount)
  ~Part() {
    writer.reset();
    stream.reset();
    if (fd >= 0) ::close(fd);
  }
  int64_t rows_held() const { return static_cast<int64_t>(rows.size()); }
};

Result<std::unique_ptr<PartitionedParquetWriter>> PartitionedParquetWriter::Open(const std::string& dir,
                                                                                 const SchemaPtr& schema,
                                                                                 PartitionedWriteOptions options) {
  if (options.max_open_files < 0) {
    return Status::Invalid(fmt::format("max open files must be at least 1, got {}", options.max_open_files));
  }
  if (options.memory_budget < 1) {
    return Status::Invalid(fmt::format("partition memory budget must be at least 1 byte, got {}", options.memory_budget));
  }
  if (options.partition_by.empty()) return Status::Invalid("no partition columns");
  std::unique_ptr<PartitionedParquetWriter> w(new PartitionedParquetWriter());
  w->max_open_ = options.max_open_files > 0 ? options.max_open_files : OpenFileLimit();
  w->buffer_budget_ = options.memory_budget;
  const std::vector<std::string>& columns = options.partition_by;
  std::vector<bool> is_key(static_cast<size_t>(schema->num_fields()), false);
  for (const std::string& c : columns) {
    const int found = schema->GetFieldIndex(c);
    if (found < 0) return Status::Invalid(fmt::format("partition columns: no column '{}'", c));
    if (is_key[static_cast<size_t>(found)]) return Status::Invalid(fmt::format("partition columns: '{}' named twice", c));
    is_key[static_cast<size_t>(found)] = true;
    w->key_columns_.push_back(found);
    w->key_names_.push_back(c);
  }
  std::vector<Field> fields;
  for (int i = 0; i < schema->num_fields(); ++i) {
    if (is_key[static_cast<size_t>(i)]) continue;
    w->data_columns_.push_back(i);
    fields.push_back(schema->field(i));
  }
  if (fields.empty()) return Status::Invalid("partition columns: every column is one; none would be left in the files");
  for (const auto& [name, bloom] : options.parquet.bloom_filters) {
    for (const std::string& c : columns) {
      if (name == c) {
        return Status::Invalid(
            fmt::format("bloom filter on '{}': a partition column, whose value is in the folder name", name));
      }
    }
  }
  w->data_schema_ = std::make_shared<const Schema>(std::move(fields), schema->metadata());
  w->options_ = std::move(options.parquet);

  std::error_code ec;
  if (fs::exists(dir, ec)) return Status::Invalid(fmt::format("{}: exists (a partitioned output replaces nothing)", dir));
  QUIVER_ASSIGN_OR_RETURN(w->temp_, io::TempDirectory::Create(dir));
  w->temp_dir_ = w->temp_->path();
  return w;
}

PartitionedParquetWriter::~PartitionedParquetWriter() { Abort(); }

void PartitionedParquetWriter::Abort() {
  parts_.clear();
  order_.clear();
  open_.clear();
  by_raw_key_.clear();
  spill_stream_.reset();
  if (spill_fd_ >= 0) ::close(spill_fd_);
  spill_fd_ = -1;
  if (temp_) temp_->Abandon();
}

PartitionedParquetWriter::Part* PartitionedParquetWriter::PartFor(const std::string& key) {
  auto it = parts_.find(key);
  if (it != parts_.end()) return it->second.get();
  auto part = std::make_unique<Part>();
  part->relative = key;
  Part* p = part.get();
  order_.push_back(p);
  parts_.emplace(key, std::move(part));
  return p;
}

void PartitionedParquetWriter::Recount(Part* p) {
  // The part itself, its name twice (here and in the key maps), its row lists and spill index.
  int64_t n = static_cast<int64_t>(sizeof(Part) + 2 * p->relative.capacity() + p->rows.capacity() * sizeof(int32_t) +
                                   p->runs.capacity() * sizeof(p->runs[0]) + p->spilled.capacity() * sizeof(SpillSegment));
  if (p->writer) n += p->writer->memory_estimate() + kStreamBuffer;
  buffered_ += n - p->held;
  p->held = n;
}

void PartitionedParquetWriter::Release(int64_t slot) {
  Retained& r = retained_[static_cast<size_t>(slot - retained_base_)];
  if (--r.parts > 0) return;
  buffered_ -= r.bytes;
  r.bytes = 0;
  r.batch.reset();
  while (!retained_.empty() && retained_.front().batch == nullptr) {
    retained_.pop_front();
    ++retained_base_;
  }
}

Result<std::vector<Array>> PartitionedParquetWriter::Gather(Part* p) {
  std::vector<GatherBuilder> acc;
  acc.reserve(data_columns_.size());
  for (const Field& f : data_schema_->fields()) acc.emplace_back(f.type, options_.pool);
  size_t at = 0;
  for (const auto& [slot, count] : p->runs) {
    const RecordBatch& batch = *retained_[static_cast<size_t>(slot - retained_base_)].batch;
    const std::span<const int32_t> rows(p->rows.data() + at, static_cast<size_t>(count));
    for (size_t c = 0; c < data_columns_.size(); ++c) {
      QUIVER_RETURN_NOT_OK(acc[c].Append(*batch.column(data_columns_[c]).data(), rows).WithContext(p->relative));
    }
    at += static_cast<size_t>(count);
  }
  std::vector<Array> out;
  out.reserve(acc.size());
  for (GatherBuilder& c : acc) {
    QUIVER_ASSIGN_OR_RETURN(Array a, c.Finish());
    out.push_back(std::move(a));
  }
  for (const auto& run : p->runs) Release(run.first);
  p->rows.clear();
  p->rows.shrink_to_fit();
  p->runs.clear();
  p->runs.shrink_to_fit();
  return out;
}

Status PartitionedParquetWriter::Spill(Part* p) {
  if (p->rows.empty()) return Status::OK();
  const int64_t n = p->rows_held();
  QUIVER_ASSIGN_OR_RETURN(std::vector<Array> columns, Gather(p));
  return SpillArrays(p, columns, n);
}

// A spilled segment: per data column its length and null count, then its buffers (validity,
// values or offsets, string bytes), each as a byte count (-1: none) and the bytes, padded to 16
// so that values read back in place are aligned for any type.
Status PartitionedParquetWriter::SpillArrays(Part* p, const std::vector<Array>& columns, int64_t rows) {
  if (spill_fd_ < 0) {
    std::string path = (fs::path(temp_dir_) / ".spill-XXXXXX").string();
    spill_fd_ = ::mkostemp(path.data(), O_CLOEXEC);
    if (spill_fd_ < 0) return Status::FromErrno(errno, path);
    // Nameless from now on: gone with the process whatever happens, never renamed into place.
    ::unlink(path.c_str());
    spill_stream_ = std::make_unique<io::FdOutputStream>(spill_fd_, path);
  }
  SpillSegment seg;
  seg.offset = spill_stream_->Tell();
  seg.rows = rows;
  static constexpr uint8_t kZeros[16] = {};
  for (const Array& a : columns) {
    const ArrayData& d = *a.data();
    if (d.offset != 0) return Status::Invalid("partition spill: a sliced array");  // Gather's never are
    const int64_t head[2] = {d.length, d.null_count};
    QUIVER_RETURN_NOT_OK(spill_stream_->Write(head, sizeof(head)));
    for (size_t b = 0; b < 3; ++b) {
      const Buffer* buf = b < d.buffers.size() ? d.buffers[b].get() : nullptr;
      const int64_t size = buf != nullptr ? buf->size() : -1;
      QUIVER_RETURN_NOT_OK(spill_stream_->Write(&size, sizeof(size)));
      if (size <= 0) continue;
      QUIVER_RETURN_NOT_OK(spill_stream_->Write(buf->data(), size));
      QUIVER_RETURN_NOT_OK(spill_stream_->Write(kZeros, (16 - size % 16) % 16));
    }
  }
  seg.length = spill_stream_->Tell() - seg.offset;
  p->spilled.push_back(seg);
  p->rows_spilled += seg.rows;
  Recount(p);
  ++spills_;
  return Status::OK();
}

Result<std::shared_ptr<RecordBatch>> PartitionedParquetWriter::ReadSpilled(const SpillSegment& seg) {
  QUIVER_RETURN_NOT_OK(spill_stream_->Flush());
  QUIVER_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> bytes, Buffer::Allocate(seg.length, options_.pool));
  for (int64_t got = 0; got < seg.length;) {
    const ssize_t n = ::pread(spill_fd_, bytes->mutable_data() + got, static_cast<size_t>(seg.length - got), seg.offset + got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? Status::FromErrno(errno, "partition spill file") : Status::IOError("partition spill file: short read");
    got += n;
  }
  int64_t at = 0;
  auto take = [&](int64_t* v) {
    std::memcpy(v, bytes->data() + at, sizeof(*v));
    at += static_cast<int64_t>(sizeof(*v));
  };
  std::vector<Array> columns;
  for (const Field& f : data_schema_->fields()) {
    auto d = std::make_shared<ArrayData>();
    d->type = f.type;
    take(&d->length);
    take(&d->null_count);
    const size_t nbuf = f.type->is_binary_like() ? 3 : 2;
    d->buffers.resize(nbuf);
    for (size_t b = 0; b < 3; ++b) {
      int64_t size = 0;
      take(&size);
      if (size < 0) continue;
      if (b < nbuf) d->buffers[b] = Buffer::Slice(bytes, at, size);
      at += size + (16 - size % 16) % 16;
    }
    if (at > seg.length || d->length != seg.rows) return Status::IOError("partition spill file: a segment does not parse");
    columns.emplace_back(std::move(d));
  }
  return std::make_shared<RecordBatch>(data_schema_, seg.rows, std::move(columns));
}

Status PartitionedParquetWriter::Drain(Part* p, bool whole) {
  const int64_t total = p->rows_spilled + p->rows_held();
  // Only whole row groups unless the file is finishing: the rows past the last one go back to
  // the spill file, so that no small row group is left between full ones.
  const int64_t write = whole ? total : total - total % options_.row_group_rows;
  if (write == 0) return Status::OK();
  if (p->writer == nullptr) QUIVER_RETURN_NOT_OK(OpenFile(p));
  p->last_write = ++clock_;
  // The spilled rows first, in the order they came, then the rows held.
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (const SpillSegment& seg : p->spilled) {
    auto batch = ReadSpilled(seg);
    if (!batch.ok()) return batch.status().WithContext(p->relative);
    batches.push_back(std::move(*batch));
  }
  p->spilled.clear();
  p->spilled.shrink_to_fit();
  p->rows_spilled = 0;
  if (!p->rows.empty()) {
    const int64_t n = p->rows_held();
    QUIVER_ASSIGN_OR_RETURN(std::vector<Array> columns, Gather(p));
    batches.push_back(std::make_shared<RecordBatch>(data_schema_, n, std::move(columns)));
  }
  // Written and encoded now, so that no row group waits in the writer outside the budget.
  int64_t done = 0;
  Status st;
  for (const auto& batch : batches) {
    const int64_t n = batch->num_rows();
    const int64_t take = std::min(n, write - done);
    if (take > 0) {
      st = p->writer->Write(take == n ? batch : batch->Slice(0, take));
      if (!st.ok()) break;
      done += take;
    }
    if (take < n) {
      // The tail, copied unsliced for the spill file.
      std::vector<Array> tail;
      std::vector<int32_t> rows(static_cast<size_t>(n - take));
      for (size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<int32_t>(take + static_cast<int64_t>(i));
      for (int c = 0; c < batch->num_columns(); ++c) {
        GatherBuilder acc(batch->column(c).type(), options_.pool);
        st = acc.Append(*batch->column(c).data(), rows);
        if (!st.ok()) break;
        QUIVER_ASSIGN_OR_RETURN(Array a, acc.Finish());
        tail.push_back(std::move(a));
      }
      if (st.ok()) st = SpillArrays(p, tail, n - take);
      if (!st.ok()) break;
    }
  }
  batches.clear();
  if (st.ok()) st = p->writer->FlushRowGroup();
  Recount(p);
  return st.WithContext(p->relative);
}

Status PartitionedParquetWriter::CloseFile(Part* p) {
  Status st = Drain(p, /*whole=*/true);
  if (st.ok() && p->writer == nullptr) return Status::OK();  // nothing was ever written
  if (st.ok()) st = p->writer->Close().WithContext(p->relative);
  if (st.ok()) st = p->stream->Flush().WithContext(p->relative);
  if (!st.ok()) return st;
  bytes_written_ += p->stream->Tell();
  p->writer.reset();
  p->stream.reset();
  const int fd = p->fd;
  p->fd = -1;
  open_.erase(std::find(open_.begin(), open_.end(), p));
  Recount(p);
  // Synced with every other file at Commit (one syncfs, not a journal commit per file).
  if (::close(fd) != 0) return Status::FromErrno(errno, p->relative);
  return Status::OK();
}

Status PartitionedParquetWriter::OpenFile(Part* part) {
  if (static_cast<int64_t>(open_.size()) >= max_open_) {
    Part* lru = *std::min_element(open_.begin(), open_.end(),
                                  [](const Part* a, const Part* b) { return a->last_write < b->last_write; });
    QUIVER_RETURN_NOT_OK(CloseFile(lru));
  }
  const fs::path folder = fs::path(temp_dir_) / part->relative;
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) return Status::IOError(fmt::format("{}: {}", folder.string(), ec.message()));
  const std::string file = (folder / fmt::format("part-{:05d}.parquet", part->files)).string();
  part->fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (part->fd < 0) return Status::FromErrno(errno, file);
  ++part->files;
  ++files_started_;
  open_.push_back(part);
  part->stream = std::make_unique<io::FdOutputStream>(part->fd, file, kStreamBuffer);
  QUIVER_ASSIGN_OR_RETURN(part->writer, parquet::ParquetFileWriter::Open(part->stream.get(), data_schema_, options_));
  Recount(part);
  return Status::OK();
}

// The key columns' raw values of row r (validity, then the value's bytes), which name the
// partition without formatting it: the Hive path is made only for a raw key not seen before.
void PartitionedParquetWriter::RawKey(const RecordBatch& batch, int64_t r, std::string* out) const {
  out->clear();
  for (int c : key_columns_) {
    const ArrayData& a = *batch.column(c).data();
    const uint8_t* v = a.validity();
    if (v != nullptr && !bit_util::GetBit(v, a.offset + r)) {
      out->push_back('\0');
      continue;
    }
    out->push_back('\1');
    const DataType& t = *a.type;
    if (t.is_binary_like()) {
      const int32_t* o = a.values<int32_t>(1) + r;
      const int32_t len = o[1] - o[0];
      out->append(reinterpret_cast<const char*>(&len), 4);
      out->append(reinterpret_cast<const char*>(a.buffers[2]->data()) + o[0], static_cast<size_t>(len));
    } else if (t.id() == TypeId::kBool) {
      out->push_back(bit_util::GetBit(a.buffers[1]->data(), a.offset + r) ? '\1' : '\0');
    } else if (t.is_fixed_width() && t.bit_width() % 8 == 0) {
      const int w = t.byte_width();
      out->append(reinterpret_cast<const char*>(a.buffers[1]->data()) + (a.offset + r) * w, static_cast<size_t>(w));
    } else {
      out->push_back('\2');
      *out += HivePartitionSegment("", batch.column(c), r);
    }
  }
}

Status PartitionedParquetWriter::Write(const std::shared_ptr<RecordBatch>& in) {
  const RecordBatch& batch = *in;
  const int64_t n = batch.num_rows();
  if (n == 0) return Status::OK();
  const int64_t slot = retained_base_ + static_cast<int64_t>(retained_.size());
  retained_.push_back(Retained{in, batch.buffer_bytes(), 0});
  buffered_ += retained_.back().bytes;
  std::string raw, last, key;
  Part* part = nullptr;
  std::vector<Part*> touched;
  for (int64_t r = 0; r < n; ++r) {
    RawKey(batch, r, &raw);
    if (part == nullptr || raw != last) {
      auto it = by_raw_key_.find(raw);
      if (it != by_raw_key_.end()) {
        part = it->second;
      } else {
        key.clear();
        for (size_t k = 0; k < key_columns_.size(); ++k) {
          if (k > 0) key.push_back('/');
          key += HivePartitionSegment(key_names_[k], batch.column(key_columns_[k]), r);
        }
        part = PartFor(key);
        by_raw_key_.emplace(raw, part);
      }
      last.swap(raw);
    }
    if (part->runs.empty() || part->runs.back().first != slot) {
      touched.push_back(part);
      part->runs.emplace_back(slot, 0);
      ++retained_.back().parts;
    }
    part->rows.push_back(static_cast<int32_t>(r));
    ++part->runs.back().second;
  }
  for (Part* p : touched) {
    p->last_write = ++clock_;
    Recount(p);
    // A full row group opens the part's file if it has none; another part whose file that
    // evicts writes out only the rows it holds, which came before, so its rows stay in order.
    if (p->rows_held() + p->rows_spilled >= options_.row_group_rows) QUIVER_RETURN_NOT_OK(Drain(p, /*whole=*/false));
  }
  return EnforceBudget();
}

Status PartitionedParquetWriter::EnforceBudget() {
  if (buffered_ <= buffer_budget_) return Status::OK();
  // Down to half the budget, so that the next batches do not each spill again at once. Batches
  // are freed when no partition holds rows of them, so the partitions holding rows of the
  // oldest batches go first, the ones holding most rows first among equals: segments are then
  // few and large, as every partition spills what it gathered since its last spill.
  const int64_t target = buffer_budget_ / 2;
  std::vector<Part*> holding;
  for (Part* p : order_) {
    if (!p->rows.empty()) holding.push_back(p);
  }
  std::sort(holding.begin(), holding.end(), [](const Part* a, const Part* b) {
    if (a->runs.front().first != b->runs.front().first) return a->runs.front().first < b->runs.front().first;
    return a->rows.size() > b->rows.size();
  });
  for (Part* p : holding) {
    if (buffered_ <= target) break;
    QUIVER_RETURN_NOT_OK(Spill(p));
  }
  if (buffered_ <= target) return Status::OK();
  // What is left is the open writers' footers: the largest files are finished (their
  // partitions continue in new files).
  std::vector<Part*> writers = open_;
  std::sort(writers.begin(), writers.end(), [](const Part* a, const Part* b) {
    return a->writer->memory_estimate() > b->writer->memory_estimate();
  });
  for (Part* p : writers) {
    if (buffered_ <= target) break;
    QUIVER_RETURN_NOT_OK(CloseFile(p));
  }
  return Status::OK();
}

Status PartitionedParquetWriter::Finish() {
  for (Part* p : order_) {
    if (p->writer != nullptr || !p->rows.empty() || !p->spilled.empty()) QUIVER_RETURN_NOT_OK(CloseFile(p));
  }
  parts_.clear();
  order_.clear();
  by_raw_key_.clear();
  spill_stream_.reset();
  if (spill_fd_ >= 0) {
    ::close(spill_fd_);
    spill_fd_ = -1;
  }
  return temp_->Commit();
}

}  // namespace quiver::dataset

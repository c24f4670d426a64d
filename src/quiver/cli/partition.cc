#include "quiver/cli/partition.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "quiver/columnar/pretty_print.h"
#include "quiver/io/atomic_file.h"
#include "quiver/io/output_stream.h"

namespace quiver::cli {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kDefaultPartition = "__HIVE_DEFAULT_PARTITION__";

// Descriptors left for everything but partition files (input, thread pool, stdio, libraries).
constexpr int64_t kFdMargin = 64;
// Each open partition file has its own stream buffer: small, as thousands may be open.
constexpr int64_t kStreamBuffer = 64 << 10;

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

// Bytes of memory the buffers of an array hold (a slice counts its whole buffers).
int64_t HeldBytes(const ArrayData& a) {
  int64_t n = 0;
  for (const auto& b : a.buffers) n += b ? b->size() : 0;
  for (const auto& c : a.children) n += HeldBytes(*c);
  return n;
}

bool NeedsEscape(unsigned char c) {
  if (c < 0x20 || c == 0x7f) return true;
  switch (c) {
    case '"': case '#': case '%': case '\'': case '*': case '/': case ':': case '=': case '?': case '\\':
    case '{': case '[': case ']': case '^':
      return true;
    default:
      return false;
  }
}

void AppendEscaped(std::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (unsigned char c : s) {
    if (NeedsEscape(c)) {
      out->push_back('%');
      out->push_back(kHex[c >> 4]);
      out->push_back(kHex[c & 15]);
    } else {
      out->push_back(static_cast<char>(c));
    }
  }
}

// Bits of a bitmap copied from `src` rows to consecutive positions.
template <typename Get>
Result<std::shared_ptr<Buffer>> GatherBits(const std::vector<int32_t>& rows, MemoryPool* pool, Get&& get) {
  const int64_t n = static_cast<int64_t>(rows.size());
  QUIVER_ASSIGN_OR_RETURN(auto buf, Buffer::AllocateZeroed(bit_util::BytesForBits(n), pool));
  uint8_t* bits = buf->mutable_data();
  for (int64_t i = 0; i < n; ++i) {
    if (get(rows[static_cast<size_t>(i)])) bit_util::SetBit(bits, i);
  }
  return buf;
}

template <int W>
void GatherFixed(const uint8_t* src, const std::vector<int32_t>& rows, uint8_t* dst) {
  for (size_t i = 0; i < rows.size(); ++i) std::memcpy(dst + i * W, src + static_cast<size_t>(rows[i]) * W, W);
}

}  // namespace

std::string HivePartitionSegment(std::string_view column, const Array& values, int64_t row) {
  std::string seg;
  AppendEscaped(column, &seg);
  seg.push_back('=');
  if (values.IsNull(row)) {
    seg += kDefaultPartition;
    return seg;
  }
  std::string text;
  FormatValue(values, row, &text);
  if (text.empty()) seg += kDefaultPartition;
  else AppendEscaped(text, &seg);
  return seg;
}

Result<Array> TakeRows(const Array& array, const std::vector<int32_t>& rows, MemoryPool* pool) {
  const ArrayData& a = *array.data();
  const DataType& t = *a.type;
  const int64_t n = static_cast<int64_t>(rows.size());
  auto out = std::make_shared<ArrayData>();
  out->type = a.type;
  out->length = n;
  out->buffers.resize(t.id() == TypeId::kString || t.id() == TypeId::kBinary ? 3 : 2);
  const uint8_t* v = a.validity();
  if (v != nullptr) {
    QUIVER_ASSIGN_OR_RETURN(out->buffers[0],
                            GatherBits(rows, pool, [&](int32_t r) { return bit_util::GetBit(v, a.offset + r); }));
    out->null_count = n - bit_util::CountSetBits(out->buffers[0]->data(), 0, n);
  }
  if (t.id() == TypeId::kString || t.id() == TypeId::kBinary) {
    const int32_t* offsets = a.values<int32_t>(1);
    const uint8_t* data = a.buffers[2]->data();
    int64_t bytes = 0;
    for (int32_t r : rows) bytes += offsets[r + 1] - offsets[r];
    if (bytes > INT32_MAX) return Status::Invalid("a partition's batch passed 2 GiB of strings");
    QUIVER_ASSIGN_OR_RETURN(auto off, Buffer::Allocate((n + 1) * 4, pool));
    QUIVER_ASSIGN_OR_RETURN(auto dat, Buffer::Allocate(std::max<int64_t>(bytes, 1), pool));
    int32_t* o = reinterpret_cast<int32_t*>(off->mutable_data());
    uint8_t* d = dat->mutable_data();
    int32_t pos = 0;
    o[0] = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int32_t r = rows[static_cast<size_t>(i)];
      const int32_t len = offsets[r + 1] - offsets[r];
      if (len > 0) std::memcpy(d + pos, data + offsets[r], static_cast<size_t>(len));
      pos += len;
      o[i + 1] = pos;
    }
    out->buffers[1] = std::move(off);
    out->buffers[2] = std::move(dat);
    return Array(out);
  }
  if (t.id() == TypeId::kBool) {
    const uint8_t* bits = a.buffers[1]->data();
    QUIVER_ASSIGN_OR_RETURN(out->buffers[1],
                            GatherBits(rows, pool, [&](int32_t r) { return bit_util::GetBit(bits, a.offset + r); }));
    return Array(out);
  }
  if (!t.is_fixed_width() || t.bit_width() % 8 != 0) {
    return Status::NotImplemented(fmt::format("--partition-by with a {} column", t.ToString()));
  }
  const int w = t.byte_width();
  QUIVER_ASSIGN_OR_RETURN(auto vals, Buffer::Allocate(std::max<int64_t>(n * w, 1), pool));
  const uint8_t* src = a.buffers[1]->data() + a.offset * w;
  uint8_t* dst = vals->mutable_data();
  switch (w) {
    case 1: GatherFixed<1>(src, rows, dst); break;
    case 2: GatherFixed<2>(src, rows, dst); break;
    case 4: GatherFixed<4>(src, rows, dst); break;
    case 8: GatherFixed<8>(src, rows, dst); break;
    case 16: GatherFixed<16>(src, rows, dst); break;
    default:
      for (size_t i = 0; i < rows.size(); ++i) {
        std::memcpy(dst + i * w, src + static_cast<size_t>(rows[i]) * w, static_cast<size_t>(w));
      }
  }
  out->buffers[1] = std::move(vals);
  return Array(out);
}

struct PartitionedParquetWriter::Part {
  std::string relative;  // "a=1/b=x"
  int fd = -1;
  std::unique_ptr<io::FdOutputStream> stream;
  std::unique_ptr<parquet::ParquetFileWriter> writer;  // null while no file is open
  int files = 0;              // files started; the next is part-<files>.parquet
  uint64_t last_write = 0;
  double buffered = 0;        // estimated bytes of the rows its writer holds
  std::vector<int32_t> rows;  // rows of the current batch
  ~Part() {
    writer.reset();
    stream.reset();
    if (fd >= 0) ::close(fd);
  }
};

Result<std::unique_ptr<PartitionedParquetWriter>> PartitionedParquetWriter::Open(
    const std::string& dir, SchemaPtr schema, const std::vector<std::string>& columns,
    parquet::ParquetWriterOptions options, int64_t max_open, int64_t buffer_bytes) {
  if (max_open < 0) return Status::Invalid(fmt::format("--max-open-partitions must be at least 1, got {}", max_open));
  if (buffer_bytes < 1) {
    return Status::Invalid(fmt::format("--partition-buffer-mb must be at least 1, got {} bytes", buffer_bytes));
  }
  std::unique_ptr<PartitionedParquetWriter> w(new PartitionedParquetWriter());
  w->max_open_ = max_open > 0 ? max_open : OpenFileLimit();
  w->buffer_budget_ = buffer_bytes;
  std::vector<bool> is_key(static_cast<size_t>(schema->num_fields()), false);
  for (const std::string& c : columns) {
    int found = -1;
    for (int i = 0; i < schema->num_fields(); ++i) {
      if (schema->field(i).name == c) found = i;
    }
    if (found < 0) return Status::Invalid(fmt::format("--partition-by: no column '{}'", c));
    if (is_key[static_cast<size_t>(found)]) return Status::Invalid(fmt::format("--partition-by: '{}' named twice", c));
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
  if (fields.empty()) return Status::Invalid("--partition-by: every column is a partition column; none would be left");
  for (const auto& [name, bloom] : options.bloom_filters) {
    for (const std::string& c : columns) {
      if (name == c) {
        return Status::Invalid(
            fmt::format("--bloom-filter: '{}' is a partition column, whose value is in the folder name", name));
      }
    }
  }
  w->data_schema_ = std::make_shared<const Schema>(std::move(fields), schema->metadata());
  w->options_ = std::move(options);

  std::error_code ec;
  if (fs::exists(dir, ec)) return Status::Invalid(fmt::format("{}: exists (a partitioned output replaces nothing)", dir));
  fs::path target(dir);
  if (target.filename().empty()) target = target.parent_path();
  const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string hidden = ".";
  hidden += target.filename().string();
  hidden += ".quiver-XXXXXX";
  std::string templ = (parent / hidden).string();
  if (::mkdtemp(templ.data()) == nullptr) return Status::FromErrno(errno, templ);
  w->dir_ = target.string();
  w->temp_dir_ = templ;
  // Ctrl-C and kill remove the folder too (the destructor does not run then).
  w->temp_slot_ = io::RegisterTempDirectory(templ);
  return w;
}

PartitionedParquetWriter::~PartitionedParquetWriter() {
  parts_.clear();
  if (!committed_ && !temp_dir_.empty()) {
    std::error_code ec;
    fs::remove_all(temp_dir_, ec);
  }
  io::UnregisterTempDirectory(temp_slot_);
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

Status PartitionedParquetWriter::CloseFile(Part* p) {
  Status st = p->writer->Close();
  if (st.ok()) st = p->stream->Flush();
  buffered_ -= p->buffered;
  p->buffered = 0;
  if (!st.ok()) return st.WithContext(p->relative);
  bytes_written_ += p->stream->Tell();
  if (::fsync(p->fd) != 0) return Status::FromErrno(errno, p->relative);
  p->writer.reset();
  p->stream.reset();
  const int fd = p->fd;
  p->fd = -1;
  if (::close(fd) != 0) return Status::FromErrno(errno, p->relative);
  open_.erase(std::find(open_.begin(), open_.end(), p));
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
  return Status::OK();
}

Status PartitionedParquetWriter::Write(const RecordBatch& batch) {
  const int64_t n = batch.num_rows();
  std::string key, last;
  Part* part = nullptr;
  std::vector<Part*> touched;
  for (int64_t r = 0; r < n; ++r) {
    key.clear();
    for (size_t k = 0; k < key_columns_.size(); ++k) {
      if (k > 0) key.push_back('/');
      key += HivePartitionSegment(key_names_[k], batch.column(key_columns_[k]), r);
    }
    if (part == nullptr || key != last) {
      part = PartFor(key);
      last = key;
    }
    if (part->rows.empty()) touched.push_back(part);
    part->rows.push_back(static_cast<int32_t>(r));
  }
  for (Part* p : touched) {
    // Files open only here, after the batch is grouped: an eviction never finishes a file
    // whose rows of this batch are still to come.
    p->last_write = ++clock_;
    if (p->writer == nullptr) QUIVER_RETURN_NOT_OK(OpenFile(p));
    std::vector<Array> columns;
    columns.reserve(data_columns_.size());
    for (int c : data_columns_) {
      if (static_cast<int64_t>(p->rows.size()) == n) {
        columns.push_back(batch.column(c));  // the whole batch is one partition
      } else {
        QUIVER_ASSIGN_OR_RETURN(Array a, TakeRows(batch.column(c), p->rows, options_.pool));
        columns.push_back(std::move(a));
      }
    }
    int64_t bytes = 0;
    for (const Array& a : columns) bytes += HeldBytes(*a.data());
    const int64_t rows = static_cast<int64_t>(p->rows.size());
    auto sub = std::make_shared<RecordBatch>(data_schema_, rows, std::move(columns));
    p->rows.clear();
    const int64_t before = p->writer->buffered_rows();
    Status st = p->writer->Write(sub);
    if (!st.ok()) return st.WithContext(p->relative);
    const int64_t after = p->writer->buffered_rows();
    // A full row group was written inside Write: what remains buffered is this batch's tail.
    const double now = after == before + rows ? p->buffered + static_cast<double>(bytes)
                                              : static_cast<double>(bytes) * static_cast<double>(after) / static_cast<double>(rows);
    buffered_ += now - p->buffered;
    p->buffered = now;
  }
  return EnforceBudget();
}

Status PartitionedParquetWriter::EnforceBudget() {
  if (buffered_ <= static_cast<double>(buffer_budget_)) return Status::OK();
  // Down to half the budget, so that the next batches do not each flush again at once.
  const double target = static_cast<double>(buffer_budget_) / 2;
  std::vector<Part*> held;
  for (Part* p : open_) {
    if (p->buffered > 0) held.push_back(p);
  }
  std::sort(held.begin(), held.end(), [](const Part* a, const Part* b) { return a->buffered > b->buffered; });
  for (Part* p : held) {
    if (buffered_ <= target) break;
    Status st = p->writer->FlushRowGroup();
    if (!st.ok()) return st.WithContext(p->relative);
    buffered_ -= p->buffered;
    p->buffered = 0;
    ++budget_flushes_;
  }
  if (buffered_ < 0.5) buffered_ = 0;  // rounding left by the double sums
  return Status::OK();
}

Status PartitionedParquetWriter::Commit() {
  for (Part* p : order_) {
    if (p->writer != nullptr) QUIVER_RETURN_NOT_OK(CloseFile(p));
  }
  parts_.clear();
  order_.clear();
  std::error_code ec;
  fs::rename(temp_dir_, dir_, ec);
  if (ec) return Status::IOError(fmt::format("{}: {}", dir_, ec.message()));
  committed_ = true;
  io::UnregisterTempDirectory(temp_slot_);
  temp_slot_ = -1;
  const fs::path parent = fs::path(dir_).has_parent_path() ? fs::path(dir_).parent_path() : fs::path(".");
  const int dfd = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return Status::OK();
}

}  // namespace quiver::cli

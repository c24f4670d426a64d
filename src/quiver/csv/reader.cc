#include "quiver/csv/reader.h"

#include <fmt/format.h>

#include <immintrin.h>
#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <set>

#include "quiver/columnar/concatenate.h"
#include "quiver/core/arena.h"
#include "quiver/core/thread_pool.h"
#include "quiver/core/utf8.h"
#include "quiver/csv/convert_internal.h"
#include "quiver/csv/infer_internal.h"
#include "quiver/csv/input_internal.h"
#include "quiver/csv/sniffer.h"
#include "quiver/csv/split_level_internal.h"
#include "quiver/csv/splitter_internal.h"
#include "quiver/csv/state_machine_internal.h"

namespace quiver::csv {

namespace {

constexpr int64_t kSniffBytes = int64_t{4} << 20;
// The next block is read this far into its buffer, so that the unfinished row at the end of
// the current block (usually a few hundred bytes) can be copied in front of it.
constexpr int64_t kHeadroom = int64_t{64} << 10;
// Every read asks for at least this many bytes: a transcoding source needs room for whole
// characters.
constexpr int64_t kMinRead = 64;

// Block buffers of megabytes live for the whole read: on 2 MiB huge pages one fault maps what
// would take 512 faults of 4 KB pages (each one expensive under virtualisation).
Result<std::shared_ptr<Buffer>> AllocateBlockBuffer(int64_t size) {
  return Buffer::Allocate(size, size >= Arena::kHugePageSize ? huge_page_memory_pool() : default_memory_pool());
}

// Column buffers of CSV chunks, kept when their batches are released and handed to the next
// chunks. Fresh pages cost a fault each (tens of microseconds under virtualisation, and
// threads that fault at once queue on the kernel's memory-map lock), and with the next block
// parsed while the caller still holds the last one's batches, the allocator would otherwise
// keep reaching for fresh ones. Blocks go by power-of-two classes; up to kKeep bytes wait
// (a few chunks' columns: more would stay resident beside the batches a consumer holds, and
// the allocator keeps what it is given back anyway),
// still charged to the process tracker. Process-wide, because batches outlive their reader;
// while no reader is open, freed blocks go straight back to the allocator.
class RecyclingPool final : public MemoryPool {
 public:
  static RecyclingPool* Get() {
    static RecyclingPool* pool = new RecyclingPool();
    return pool;
  }
  // Readers open: blocks are kept only while at least one is.
  void AddReader() {
    std::lock_guard<std::mutex> lock(mu_);
    ++readers_;
  }
  void RemoveReader() {
    std::vector<uint8_t*> drop;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (--readers_ > 0) return;
      for (auto& blocks : free_) {
        drop.insert(drop.end(), blocks.begin(), blocks.end());
        blocks.clear();
      }
      kept_ = 0;
    }
    for (uint8_t* p : drop) base_->Free(p);
  }

  Status Allocate(int64_t size, uint8_t** out) override {
    if (size >= kMinSize && size <= kMaxSize) {
      const int cls = ClassAtLeast(size);
      {
        std::lock_guard<std::mutex> lock(mu_);
        auto& blocks = free_[static_cast<size_t>(cls)];
        if (!blocks.empty()) {
          *out = blocks.back();
          blocks.pop_back();
          kept_ -= int64_t{1} << cls;
          return Status::OK();
        }
      }
      size = int64_t{1} << cls;  // so that the block fits its class when it comes back
    }
    return base_->Allocate(size, out);
  }
  Status Reallocate(int64_t new_size, uint8_t** ptr) override {
    const int64_t old = UsableSize(*ptr);
    if (new_size <= old) return Status::OK();
    uint8_t* fresh = nullptr;
    QUIVER_RETURN_NOT_OK(Allocate(new_size, &fresh));
    if (old > 0) std::memcpy(fresh, *ptr, static_cast<size_t>(old));
    Free(*ptr);
    *ptr = fresh;
    return Status::OK();
  }
  void Free(uint8_t* ptr) override {
    if (ptr == nullptr) return;
    const int64_t usable = base_->UsableSize(ptr);
    if (usable >= kMinSize && usable <= 2 * kMaxSize) {
      const int cls = 63 - __builtin_clzll(static_cast<uint64_t>(usable));  // usable >= 2^cls
      std::lock_guard<std::mutex> lock(mu_);
      if (readers_ > 0 && kept_ + (int64_t{1} << cls) <= kKeep) {
        free_[static_cast<size_t>(cls)].push_back(ptr);
        kept_ += int64_t{1} << cls;
        return;
      }
    }
    base_->Free(ptr);
  }
  int64_t UsableSize(const uint8_t* ptr) const override { return base_->UsableSize(ptr); }
  MemoryTracker* tracker() const override { return base_->tracker(); }
  const char* backend_name() const override { return "csv-recycling"; }

 private:
  static constexpr int64_t kMinSize = int64_t{16} << 10;
  static constexpr int64_t kMaxSize = int64_t{16} << 20;
  static constexpr int64_t kKeep = int64_t{16} << 20;
  static int ClassAtLeast(int64_t size) { return 64 - __builtin_clzll(static_cast<uint64_t>(size - 1)); }

  MemoryPool* base_ = default_memory_pool();
  std::mutex mu_;
  std::vector<uint8_t*> free_[64];
  int64_t kept_ = 0;
  int readers_ = 0;
};

struct RowRef {
  uint32_t start;  // first byte of the row
  uint32_t end;    // its terminator (or the end of input)
};

constexpr std::string_view kInvalidUtf8 = "invalid UTF-8";

// A problem found in a chunk, resolved to line numbers only when it is reported.
struct ChunkProblem {
  uint32_t pos = 0;   // byte offset (block-relative) of the field or row
  int col = -1;       // -1: the whole row
  std::string message;
  std::string value;
  ProblemKind kind = ProblemKind::kOther;
};

// A row dropped by on_error=skip, reported to the reject handler once the block is merged.
struct Reject {
  RowRef row;
  ProblemKind kind;
  int col;  // -1: the whole row
  std::string reason;
};

// Structural positions; grows without zero-filling: positions are always written before they are read.
struct PositionBuffer {
  std::unique_ptr<uint32_t[]> data;
  size_t capacity = 0;
  void Reserve(size_t n) {
    if (n > capacity) {
      data.reset(new uint32_t[n]);
      capacity = n;
    }
  }
  uint32_t& operator[](size_t i) { return data[i]; }
  const uint32_t& operator[](size_t i) const { return data[i]; }
};

// The field spans of the rows assembled and not yet converted, column-major: each column's
// spans lie together (`stride` apart from the next column's), so that each column's conversion
// pass reads them sequentially instead of one 8-byte span out of every row's 8 * ncols bytes.
struct FieldColumns {
  std::unique_ptr<FieldRef[]> buf;
  size_t rows = 0, stride = 0;
  size_t ncols = 0;

  void Init(size_t nc) {
    if (nc != ncols) {
      buf.reset();
      stride = 0;
      ncols = nc;
    }
    rows = 0;
  }
  // Room for `more` rows past the current ones; a larger stride moves the rows held.
  void Reserve(size_t more) {
    if (rows + more <= stride) return;
    const size_t s = std::max(rows + more, stride * 2);
    std::unique_ptr<FieldRef[]> bigger(new FieldRef[s * std::max<size_t>(ncols, 1)]);
    for (size_t j = 0; j < ncols && rows > 0; ++j) std::memcpy(&bigger[j * s], &buf[j * stride], rows * sizeof(FieldRef));
    buf = std::move(bigger);
    stride = s;
  }
  FieldRef* column(size_t j) { return buf.get() + j * stride; }
  const FieldRef* column(size_t j) const { return buf.get() + j * stride; }
  FieldRef& at(size_t row, size_t j) { return buf[j * stride + row]; }
  void clear() { rows = 0; }
};

// One parallel unit of a block: its byte range and what parsing it produced. Positions and
// field spans hold one slice at a time (the machine path: the whole block).
struct Chunk {
  uint32_t begin = 0, end = 0;
  uint64_t start_in_quote = 0;
  int64_t line_breaks = 0;  // in [begin, end)
  bool anomaly = false;

  PositionBuffer pos;  // the current slice's structural positions (kRowEndFlag on row ends)
  size_t count = 0;
  std::vector<RowRef> rows;      // rows assembled and not yet converted
  FieldColumns fields;           // their fields (block offsets)
  std::vector<ColumnBuilder> columns;

  int64_t unfinished = -1;  // start of a row that runs past the end of the block
  std::vector<Reject> rejected;
  std::vector<std::shared_ptr<RecordBatch>> batches;
  std::optional<ChunkProblem> problem;
  int64_t blank = 0, repaired = 0, dropped = 0, nulled = 0, rows_seen = 0;
};

// Where a chunk's walk over its rows stands. A chunk after the first begins mid-row unless
// a row ends right before it; that row belongs to the chunk it started in.
struct RowCursor {
  bool started = false;  // the chunk's first row has been found
  uint32_t row_start = 0, field_start = 0;
  std::vector<FieldRef> cur;  // fields of a row whose end has not been seen yet
};

}  // namespace

namespace {
std::atomic<int> g_split_level{-1};  // -1: none set

// Names made distinct in order: a name seen before gets _1, _2, ... (the first free suffix).
void MakeNamesUnique(std::vector<std::string>* names) {
  std::set<std::string> used;
  for (std::string& name : *names) {
    std::string unique = name;
    for (int k = 1; !used.insert(unique).second; ++k) unique = fmt::format("{}_{}", name, k);
    name = std::move(unique);
  }
}
}  // namespace

void SetSplitLevelForTesting(std::optional<SimdLevel> level) {
  g_split_level.store(level ? static_cast<int>(*level) : -1);
}
std::optional<SimdLevel> SplitLevelForTesting() {
  const int v = g_split_level.load();
  if (v < 0) return std::nullopt;
  return static_cast<SimdLevel>(v);
}

class CsvReader::Impl {
 public:
  Impl(std::unique_ptr<ByteSource> src, CsvOptions options) : src_(std::move(src)), opts_(std::move(options)) {
    RecyclingPool::Get()->AddReader();
  }
  ~Impl() {
    for (auto& g : groups_) {
      if (g) (void)g->Wait();
    }
    if (read_group_) (void)read_group_->Wait();
    chunks_[0].clear();
    chunks_[1].clear();
    RecyclingPool::Get()->RemoveReader();
  }

  Status Init();
  Result<std::shared_ptr<RecordBatch>> Next();

  Dialect dialect_;
  SchemaPtr schema_;
  CsvReadStats stats_;
  std::unique_ptr<ByteSource> src_;

 private:
  Status Fill(int64_t target);
  Status EnterRing(int64_t at_least = 0);
  Status LeaveRing(int64_t want);
  void ReadAhead(int half, int64_t want, uint64_t in_state);
  Status AdoptReadAhead(int64_t want, bool* speculated);
  Status ProcessBlock();
  Status StartChunk(Chunk& c);
  void SetUpChunks(uint32_t begin, uint32_t end);
  void SubmitChunk(size_t i, uint32_t len, bool at_end);
  Status ParseBlockMachine(uint32_t begin, uint32_t end, bool at_end);
  Status SplitMachine(uint32_t begin, uint32_t end, bool at_end, Chunk& c);
  void ParseChunk(Chunk& c, const SplitKernels& k, bool first, uint32_t len, bool at_end, bool block_end = true);
  bool TakeRows(Chunk& c, RowCursor& rc, const uint32_t* pos, size_t n, uint32_t offset, uint32_t limit);
  void EmitRow(Chunk& c, RowCursor& rc, uint32_t end);
  void EndOfBlock(Chunk& c, RowCursor& rc, uint32_t len, bool at_end);
  void ConvertRows(Chunk& c);
  void FinishChunk(Chunk& c);
  Status ReportProblem(const ChunkProblem& p) const;
  bool JoinHeaderLines(size_t preamble, std::vector<std::string>* names, size_t* header_start) const;
  Status HandleRejects(Chunk& c);
  Status Fail(Problem p, std::string message) const;
  std::string Where(uint32_t pos, int col) const;
  std::string CannotConvert(int col) const;  // "cannot convert to TYPE[ with format 'F']"
  friend class CsvReader;
  std::string DefaultName(int col) const;
  // Positions (chunks, rows, fields, problems) are offsets from the buffer's start, which stays
  // put while any chunk task runs: blocks of both ring halves can be parsed at once.
  const uint8_t* base() const { return buf_->data(); }
  int64_t LineAt(uint32_t pos) const { return lines_before_ + CountLineBreaks(base() + start_, pos - start_) + 1; }
  // The end of the bytes the current block may fill (64 bytes of padding stay past it).
  int64_t Limit() const { return ring_ ? (cur_ + 1) * half_ - 64 : buf_->size() - 64; }

  CsvOptions opts_;
  std::optional<SimdLevel> split_level_ = SplitLevelForTesting();  // nullopt: the CPU's best
  std::string name_;
  FieldSyntax syntax_;
  SplitConfig split_;
  MachineConfig machine_;
  bool force_machine_ = false;
  int ncols_ = 0;
  std::vector<std::string> names_;
  ThreadPool* pool_ = nullptr;
  std::unique_ptr<ThreadPool> own_pool_;
  int threads_ = 1;

  std::shared_ptr<Buffer> buf_;
  int64_t start_ = 0, end_ = 0;  // unread data is buf_[start_, end_)
  bool eof_ = false;
  // Ring mode (threads > 1, more than one block of input): buf_ holds two halves of half_
  // bytes; a block lies in one half after headroom_ bytes left free for the row cut off at the
  // end of the block before it. cur_ is the current block's half.
  bool ring_ = false;
  int64_t half_ = 0;
  int64_t headroom_ = kHeadroom;
  int cur_ = 0;
  // The next block, read into the other half by a pool task while the current one is parsed.
  // The task also takes the quote parity of each 1 MiB piece as it lands and queues the parse
  // of every chunk but the first, assuming the quote state `in_state` at its first new byte
  // (the state at the end of the current block). The assumption is checked once the current
  // block's unfinished row is known; if it fails, that work is dropped and done again. A read
  // error is reported when the block is taken up, after the current block's rows.
  struct Ahead {
    bool pending = false;
    int64_t end = 0;
    bool eof = false;
    Status status;
    uint64_t in_state = 0, out_state = 0;
    bool speculated = false;  // chunks 1.. of the half were queued
  } ahead_;
  uint64_t end_state_ = 0;  // the quote state at end_, from the current block's parities
  Status failed_;           // a reported problem: the read does not go on
  bool row_fills_block_ = false;
  bool finished_ = false;
  int64_t lines_before_ = 0;  // physical lines before buf_[start_]
  int64_t offset_before_ = 0;  // decoded bytes before buf_[start_]
  std::vector<Chunk> chunks_[2];  // the chunks of the block in each ring half (linear mode: [0])
  std::deque<std::shared_ptr<RecordBatch>> ready_;
  std::vector<bool> inferred_;  // per column: the type came from a sample (errors say so)
  // Per column: the format of a date or timestamp column that is not ISO (null: none); they
  // point into explicit_formats_ or into the inference candidates, which live for good.
  std::vector<const DateFormat*> formats_;
  std::vector<std::unique_ptr<DateFormat>> explicit_formats_;
  // Last, so that they are destroyed first: their destructors wait for tasks that use the
  // members above.
  std::unique_ptr<TaskGroup> groups_[2];  // chunk tasks per ring half
  std::unique_ptr<TaskGroup> read_group_;
};

Status CsvReader::Impl::Fill(int64_t target) {
  // Reads until `target` unread bytes are buffered (or the input ends). A source of known
  // size gets a buffer that holds it (up to a whole block and its headroom) at once, or the
  // ring when it holds more than a block and threads share the work; one of unknown size
  // starts small and doubles while data keeps coming, so a small input never pays for a
  // block-sized buffer. Growing moves only the unread bytes. The ring never grows: a block it
  // cannot hold leaves it first (LeaveRing).
  auto grow_to = [&](int64_t size) -> Status {
    QUIVER_ASSIGN_OR_RETURN(auto bigger, AllocateBlockBuffer(size + 64));
    if (buf_ && end_ > start_) std::memcpy(bigger->mutable_data(), buf_->data() + start_, static_cast<size_t>(end_ - start_));
    end_ -= start_;
    start_ = 0;
    buf_ = std::move(bigger);
    return Status::OK();
  };
  if (!buf_) {
    const int64_t block = opts_.block_size * threads_;
    int64_t first = std::min<int64_t>(target, 64 << 10);
    const int64_t known = src_->raw_size();
    if (pool_ != nullptr && known > std::max(target, block)) {
      QUIVER_RETURN_NOT_OK(EnterRing(target));
    } else {
      if (known >= 0) first = std::clamp<int64_t>(known, first, std::max(target, block + kHeadroom));
      QUIVER_RETURN_NOT_OK(grow_to(first + kMinRead));
    }
  }
  while (!eof_ && end_ - start_ < target) {
    if (Limit() - end_ < kMinRead) {
      if (ring_) {
        QUIVER_RETURN_NOT_OK(LeaveRing(target));
      } else if (Limit() < target + kMinRead) {
        QUIVER_RETURN_NOT_OK(grow_to(std::min<int64_t>(target, Limit() * 2) + kMinRead));
      } else {
        std::memmove(buf_->mutable_data(), buf_->data() + start_, static_cast<size_t>(end_ - start_));
        end_ -= start_;
        start_ = 0;
      }
    }
    QUIVER_ASSIGN_OR_RETURN(int64_t n, src_->Read(buf_->mutable_data() + end_, Limit() - end_));
    if (n == 0) eof_ = true;
    end_ += n;
    stats_.bytes_read += n;
  }
  return Status::OK();
}

// The unread bytes move to the start of a new ring, which from then on is read into half
// after half. A half holds headroom_ and a block, or the unread bytes, or `at_least` bytes
// (the first read), whichever is more.
Status CsvReader::Impl::EnterRing(int64_t at_least) {
  const int64_t block = std::max({opts_.block_size * threads_, end_ - start_, at_least});
  if (block > (int64_t{1} << 30)) return Status::OK();  // a giant row: stays linear
  const int64_t half = (headroom_ + block + kMinRead + 64 + 63) & ~int64_t{63};
  QUIVER_ASSIGN_OR_RETURN(auto ring, AllocateBlockBuffer(2 * half));
  if (buf_ && end_ > start_) std::memcpy(ring->mutable_data(), buf_->data() + start_, static_cast<size_t>(end_ - start_));
  end_ -= start_;
  start_ = 0;
  buf_ = std::move(ring);
  half_ = half;
  cur_ = 0;
  ring_ = true;
  return Status::OK();
}

// Back to one linear buffer of at least `want` bytes (a row longer than the headroom, or a
// block that one row fills); the speculative work in the other half is waited for first.
Status CsvReader::Impl::LeaveRing(int64_t want) {
  for (auto& g : groups_) (void)g->Wait();
  ahead_.speculated = false;
  const int64_t unread = end_ - start_;
  QUIVER_ASSIGN_OR_RETURN(auto lin, AllocateBlockBuffer(std::max(want, unread) + kMinRead + 64));
  if (unread > 0) std::memcpy(lin->mutable_data(), buf_->data() + start_, static_cast<size_t>(unread));
  buf_ = std::move(lin);
  start_ = 0;
  end_ = unread;
  ring_ = false;
  cur_ = 0;
  return Status::OK();
}

// On a pool thread, while the current block is parsed: `want` bytes of the next block (or
// what is left) into ring half `half`, after its headroom, in pieces of one chunk. Each
// piece's quote parity is taken while it is still in cache; the pieces after the first become
// chunks whose parse is queued at once (see Ahead).
void CsvReader::Impl::ReadAhead(int half, int64_t want, uint64_t in_state) {
  // 1 MiB pieces on blocks of 8 MiB or more; smaller blocks are cut as finely.
  const int64_t piece_bytes = std::clamp<int64_t>(want / 8, 256, 1 << 20);
  const SplitKernels& k = split_level_ ? GetSplitKernels(*split_level_) : ActiveSplitKernels();
  uint8_t* data = buf_->mutable_data();
  const int64_t first = half * half_ + headroom_;
  const int64_t stop = first + want;
  const int64_t cap = (half + 1) * half_ - 64;
  // A backslash-style escape could pair with the cut row's last byte: those dialects wait.
  const bool speculate = (split_.escape == 0 || split_.escape == split_.quote) && !force_machine_;
  std::vector<Chunk>& chunks = chunks_[half];
  // Sized once: queued tasks hold pointers into it (a short read leaves fewer pieces).
  if (speculate) chunks.resize(static_cast<size_t>((want + piece_bytes - 1) / piece_bytes) + 1);
  ahead_.speculated = false;
  // Chunk i (i >= 1) is queued once piece i + 1 is in, so that it can finish its last row
  // there; it may look up to `len` (exclusive), where the bytes read so far end but for one.
  auto queue = [&](size_t i, uint32_t len, bool block_end, bool at_end) {
    Chunk* c = &chunks[i];
    ahead_.speculated = true;
    groups_[half]->Submit([this, c, &k, len, block_end, at_end] {
      Status st = StartChunk(*c);
      if (!st.ok()) {
        c->problem = ChunkProblem{c->begin, -1, st.message(), {}};
        return Status::OK();
      }
      ParseChunk(*c, k, false, len, at_end, block_end);
      return Status::OK();
    });
  };
  uint64_t state = in_state;
  int64_t end = first;
  size_t pieces = 0;
  bool eof = false;
  Status status;
  while (end < stop && !eof && status.ok()) {
    const int64_t piece = end;
    const int64_t piece_end = std::min(stop, piece + piece_bytes);
    while (end < piece_end) {
      auto n = src_->Read(data + end, std::min(cap - end, std::max(piece_end - end, kMinRead)));
      if (!n.ok()) {
        status = n.status();
        break;
      }
      if (*n == 0) {
        eof = true;
        break;
      }
      end += *n;
    }
    if (end == piece || !speculate || !status.ok()) continue;
    Chunk& c = chunks[pieces];
    c.begin = static_cast<uint32_t>(piece);
    c.end = static_cast<uint32_t>(end);
    c.start_in_quote = state ? ~uint64_t{0} : 0;
    if (pieces > 0) chunks[pieces - 1].end = c.begin;
    if (split_.quote != 0) {
      uint64_t esc = 0;
      state ^= k.quote_parity(data + piece, static_cast<size_t>(end - piece), split_, &esc);
    }
    if (pieces >= 2) queue(pieces - 1, static_cast<uint32_t>(end - 1), false, false);
    ++pieces;
  }
  if (speculate && status.ok() && pieces >= 2) {
    chunks.resize(pieces);
    queue(pieces - 1, static_cast<uint32_t>(end), true, eof);
  }
  ahead_.end = end;
  ahead_.eof = eof;
  ahead_.status = std::move(status);
  ahead_.in_state = in_state;
  ahead_.out_state = state;
}

// The block read ahead becomes the unread data, after the current block's unfinished tail,
// which is copied into the headroom in front of it. When the tail is longer than that, both
// move into a linear buffer of at least `want` bytes. *speculated: chunks 1.. of the block
// were parsed from a quote state that the tail confirms; otherwise that work is dropped.
Status CsvReader::Impl::AdoptReadAhead(int64_t want, bool* speculated) {
  *speculated = false;
  QUIVER_RETURN_NOT_OK(read_group_->Wait());
  ahead_.pending = false;
  const int other = 1 - cur_;
  auto drop_speculation = [&] {
    if (ahead_.speculated) (void)groups_[other]->Wait();
    ahead_.speculated = false;
  };
  if (!ahead_.status.ok()) {
    drop_speculation();
    return ahead_.status;
  }
  const int64_t tail = end_ - start_;
  const int64_t first = other * half_ + headroom_;
  const int64_t got = ahead_.end - first;
  stats_.bytes_read += got;
  if (tail > headroom_) {
    drop_speculation();
    QUIVER_ASSIGN_OR_RETURN(auto lin, AllocateBlockBuffer(std::max(want, tail + got) + kMinRead + 64));
    std::memcpy(lin->mutable_data(), buf_->data() + start_, static_cast<size_t>(tail));
    if (got > 0) std::memcpy(lin->mutable_data() + tail, buf_->data() + first, static_cast<size_t>(got));
    buf_ = std::move(lin);
    ring_ = false;
    cur_ = 0;
    start_ = 0;
    end_ = tail + got;
    eof_ = ahead_.eof;
    // Longer rows than the headroom: the next ring leaves room for twice this one.
    while (headroom_ < 2 * tail) headroom_ *= 2;
    return Status::OK();
  }
  if (tail > 0) std::memcpy(buf_->mutable_data() + first - tail, buf_->data() + start_, static_cast<size_t>(tail));
  // The cut row starts outside quotes, so the state after it is its own quote parity.
  uint64_t tail_state = 0;
  if (split_.quote != 0 && tail > 0) {
    const SplitKernels& k = split_level_ ? GetSplitKernels(*split_level_) : ActiveSplitKernels();
    uint64_t esc = 0;
    tail_state = k.quote_parity(buf_->data() + first - tail, static_cast<size_t>(tail), split_, &esc);
  }
  if (ahead_.speculated && tail_state != ahead_.in_state) drop_speculation();
  *speculated = ahead_.speculated;
  cur_ = other;
  start_ = first - tail;
  end_ = ahead_.end;
  eof_ = ahead_.eof;
  end_state_ = tail_state ^ ahead_.in_state ^ ahead_.out_state;
  return Status::OK();
}

std::string CsvReader::Impl::CannotConvert(int col) const {
  std::string msg = fmt::format("cannot convert to {}", schema_->field(col).type->ToString());
  if (const DateFormat* f = formats_[static_cast<size_t>(col)]) msg += fmt::format(" with format '{}'", f->pattern());
  return msg;
}

std::string CsvReader::Impl::Where(uint32_t pos, int col) const {
  std::string w = fmt::format("{}:{}", name_, LineAt(pos));
  if (col >= 0) w += fmt::format(":{} '{}'", col + 1, EscapeForMessage(names_[static_cast<size_t>(col)]));
  return w;
}

std::string CsvReader::Impl::DefaultName(int c) const {
  // column0..column9, or column00.. when there are more than ten (names sort in order).
  int width = static_cast<int>(std::to_string(std::max(ncols_ - 1, 0)).size());
  return fmt::format("column{:0{}}", c, width);
}

Status CsvReader::Impl::Init() {
  name_ = src_->name();
  pool_ = ThreadPool::Default();
  threads_ = opts_.threads > 0 ? opts_.threads : pool_->num_threads();
  if (opts_.threads == 1) {
    pool_ = nullptr;  // everything on the calling thread
  } else if (opts_.threads > 0 && opts_.threads != pool_->num_threads()) {
    own_pool_ = std::make_unique<ThreadPool>(opts_.threads);
    pool_ = own_pool_.get();
  }
  for (auto& g : groups_) g = std::make_unique<TaskGroup>(pool_);
  read_group_ = std::make_unique<TaskGroup>(pool_);
  if (opts_.on_error != OnError::kSkip && opts_.on_reject) {
    return Status::Invalid("a reject handler (on_reject) needs on_error = skip");
  }
  QUIVER_RETURN_NOT_OK(Fill(std::max<int64_t>(kSniffBytes, opts_.block_size)));
  std::string_view sample(reinterpret_cast<const char*>(buf_->data()), static_cast<size_t>(std::min<int64_t>(end_, kSniffBytes)));
  const bool sample_is_all = eof_ && end_ <= kSniffBytes;

  // Dialect: what the options fix, plus what the sniffer finds.
  if (opts_.delimiter && opts_.quote && opts_.escape && opts_.skip_lines) {
    dialect_.delimiter = *opts_.delimiter;
    dialect_.quote = *opts_.quote;
    dialect_.escape = *opts_.escape;
    dialect_.skip_lines = *opts_.skip_lines;
    dialect_.comment = opts_.comment;
  } else if (end_ == 0) {
    dialect_.delimiter = opts_.delimiter.value_or(',');
    dialect_.quote = opts_.quote.value_or('"');
    dialect_.escape = opts_.escape.value_or(dialect_.quote);
    dialect_.skip_lines = opts_.skip_lines.value_or(0);
    dialect_.comment = opts_.comment;
  } else {
    QUIVER_ASSIGN_OR_RETURN(SniffResult sniffed, SniffDialect(sample, sample_is_all, opts_));
    dialect_ = sniffed.dialect;
  }
  split_ = SplitConfig{static_cast<uint8_t>(dialect_.delimiter), static_cast<uint8_t>(dialect_.quote),
                       static_cast<uint8_t>(dialect_.escape)};
  machine_.split = split_;
  machine_.comment = dialect_.comment;
  machine_.lenient = opts_.lenient;
  force_machine_ = dialect_.comment != '\0';
  syntax_ = FieldSyntax::From(opts_, dialect_);

  // Skip the preamble.
  size_t skip = SkipLines(buf_->data(), static_cast<size_t>(end_), dialect_.skip_lines);
  lines_before_ = CountLineBreaks(buf_->data(), skip);
  start_ = static_cast<int64_t>(skip);
  offset_before_ = start_;

  // Sample rows, split by the state machine (lenient: the sample only has to be indicative).
  const uint8_t* data = buf_->data() + start_;
  size_t avail = static_cast<size_t>(std::min<int64_t>(end_ - start_, kSniffBytes));
  bool avail_is_all = eof_ && static_cast<int64_t>(avail) == end_ - start_;
  std::unique_ptr<uint32_t[]> pos(new uint32_t[avail + 1]);
  MachineConfig mc = machine_;
  mc.lenient = true;
  MachineState ms;
  MachineResult mr = SplitWithStateMachine(data, avail, -1, avail_is_all, mc, &ms, pos.get());
  std::vector<std::vector<FieldRef>> rows;
  std::vector<uint32_t> row_ends;
  {
    uint32_t s = 0;
    std::vector<FieldRef> cur;
    auto finish_row = [&](uint32_t end) {
      if (!cur.empty() && end > cur.back().start && data[end - 1] == '\r') cur.back().end = end - 1;
      bool blank = cur.size() == 1 && cur[0].end == cur[0].start;
      bool comment = dialect_.comment != '\0' && cur[0].end > cur[0].start && data[cur[0].start] == static_cast<uint8_t>(dialect_.comment);
      if (!blank && !comment) {
        rows.push_back(cur);
        row_ends.push_back(end);
      }
      cur.clear();
    };
    for (size_t i = 0; i < mr.count && static_cast<int64_t>(rows.size()) <= opts_.infer_rows; ++i) {
      uint32_t p = pos[i] & kPositionMask;
      cur.push_back(FieldRef{s, p});
      s = p + 1;
      if (pos[i] & kRowEndFlag) finish_row(p);
    }
    if (avail_is_all && s < avail && static_cast<int64_t>(rows.size()) <= opts_.infer_rows) {
      cur.push_back(FieldRef{s, static_cast<uint32_t>(avail)});
      finish_row(static_cast<uint32_t>(avail));
    }
  }
  // Column count: the most common row width in the sample.
  if (!rows.empty()) {
    std::map<size_t, int64_t> freq;
    for (auto& r : rows) ++freq[r.size()];
    size_t mode = 0;
    int64_t best = -1;
    for (auto& [w, n] : freq) {
      if (n > best) {
        best = n;
        mode = w;
      }
    }
    // The first row's width, unless it is wider only by empty cells (a trailing delimiter
    // after a header) or the read is lenient.
    bool extras_empty = rows[0].size() > mode;
    for (size_t f = mode; f < rows[0].size() && extras_empty; ++f) extras_empty = rows[0][f].end == rows[0][f].start;
    ncols_ = static_cast<int>(rows[0].size() == mode || (!opts_.lenient && !extras_empty) ? rows[0].size() : mode);
  }
  if (!opts_.column_names.empty()) ncols_ = static_cast<int>(opts_.column_names.size());
  if (ncols_ == 0) ncols_ = 1;

  // Header: given, or detected as a first row that contradicts the types of the rows after it.
  auto padded = [&](const std::vector<FieldRef>& r) {
    std::vector<FieldRef> out(r.begin(), r.begin() + std::min<size_t>(r.size(), static_cast<size_t>(ncols_)));
    while (static_cast<int>(out.size()) < ncols_) out.push_back(FieldRef{FieldRef::kMissing, FieldRef::kMissing});
    return out;
  };
  TypeInferrer body(ncols_, syntax_);
  for (size_t r = 1; r < rows.size(); ++r) {
    auto f = padded(rows[r]);
    body.Add(data, f.data(), 1);
  }
  bool header = true;
  if (opts_.header) {
    header = *opts_.header;
  } else if (!opts_.column_names.empty() || rows.empty()) {
    header = false;
  } else {
    auto first = padded(rows[0]);
    bool contradicts = false, all_string = true, any_null = false;
    std::set<std::string> seen;
    bool dup = false;
    // The first row's own cells typed alone: a header's cells read as no number, date or boolean.
    TypeInferrer only(ncols_, syntax_);
    for (int c = 0; c < ncols_; ++c) {
      std::string_view text;
      bool quoted;
      if (!syntax_.Text(data, first[static_cast<size_t>(c)], false, &text, &quoted)) {
        any_null = true;
        continue;
      }
      only.AddValue(c, text);
      if (body.TypeOf(c)->id() != TypeId::kString) all_string = false;
      if (body.Contradicts(c, text)) contradicts = true;
      dup |= !seen.insert(std::string(text)).second;
    }
    bool typed = false;
    for (int c = 0; c < ncols_; ++c) typed |= only.TypeOf(c)->id() != TypeId::kString;
    if (rows.size() == 1) {
      // One row: a header only if none of its values reads as a number, date or boolean.
      header = !typed && !any_null;
    } else {
      // Otherwise a header when a cell is text over a typed column, or when every non-empty
      // cell sits over a text column, no value repeats and either no cell is empty or at
      // least two cells are text that reads as no number, date or boolean (survey exports
      // leave header cells empty; they get generated names).
      header = contradicts || (all_string && !dup && (!any_null || (seen.size() >= 2 && !typed)));
    }
  }
  // Lenient: a header spread over the last lines that sniffing took for a preamble, when the
  // first row after them is data.
  std::vector<std::string> joined;
  if (opts_.lenient && !header && !opts_.header && !opts_.skip_lines && opts_.column_names.empty() && skip > 0 &&
      !rows.empty()) {
    size_t header_start = 0;
    if (JoinHeaderLines(skip, &joined, &header_start)) {
      header = true;
      dialect_.skip_lines = CountLineBreaks(buf_->data(), header_start);
      dialect_.header_lines = CountLineBreaks(buf_->data() + header_start, skip - header_start);
      stats_.header_lines_joined = dialect_.header_lines;
    }
  }
  dialect_.header = header;

  // Names.
  if (!opts_.column_names.empty()) {
    names_ = opts_.column_names;
  } else if (!joined.empty()) {
    names_ = joined;
    MakeNamesUnique(&names_);
  } else if (header && !rows.empty()) {
    auto first = padded(rows[0]);
    for (int c = 0; c < ncols_; ++c) {
      std::string_view text;
      bool quoted = false;
      std::string name;
      const FieldRef& f = first[static_cast<size_t>(c)];
      if (f.start != FieldRef::kMissing) {
        if (syntax_.Text(data, f, true, &text, &quoted)) {
          if (quoted) syntax_.Unescape(text, &name);
          else name = std::string(text);
        }
      }
      // Header names lose surrounding spaces, as other engines do.
      while (!name.empty() && (name.front() == ' ' || name.front() == '\t')) name.erase(name.begin());
      while (!name.empty() && (name.back() == ' ' || name.back() == '\t')) name.pop_back();
      if (name.empty()) name = DefaultName(c);
      names_.push_back(std::move(name));
    }
    MakeNamesUnique(&names_);
  } else {
    for (int c = 0; c < ncols_; ++c) names_.push_back(DefaultName(c));
  }

  // Names become Parquet metadata, which must be valid UTF-8: an invalid name fails as an
  // invalid value does, or is repaired as values are (--replace-invalid-utf8).
  bool repaired = false;
  for (size_t c = 0; c < names_.size(); ++c) {
    if (IsValidUtf8(names_[c])) continue;
    if (opts_.replace_invalid_utf8) {
      names_[c] = RepairUtf8(names_[c]);
      repaired = true;
      continue;
    }
    Problem p;
    p.kind = ProblemKind::kInvalidUtf8;
    p.file = name_;
    p.column = static_cast<int>(c);
    p.reason = "invalid UTF-8";
    p.value = names_[c];
    std::string where = fmt::format("{}: column {} name", name_, c + 1);
    if (header && joined.empty() && opts_.column_names.empty()) {
      const uint32_t at = static_cast<uint32_t>(start_) + padded(rows[0])[c].start;
      p.line = LineAt(at);
      p.byte = offset_before_ + (at - start_);
      where = fmt::format("{}:{}:{}: header", name_, p.line, c + 1);
      std::string msg = fmt::format("{}: invalid UTF-8, got \"{}\" (byte {}); the file may be in another encoding", where,
                                    EscapeForMessage(names_[c]), p.byte);
      return Fail(std::move(p), std::move(msg));
    }
    std::string msg = fmt::format("{}: invalid UTF-8, got \"{}\"; the file may be in another encoding", where,
                                  EscapeForMessage(names_[c]));
    return Fail(std::move(p), std::move(msg));
  }
  if (repaired) MakeNamesUnique(&names_);  // two names may have become one

  // Types: explicit ones, then inference over the sample rows (the header excluded).
  // A joined header lies before the rows: every sampled row is data.
  const size_t header_rows = header && joined.empty() ? 1 : 0;
  TypeInferrer inferrer(ncols_, syntax_);
  for (size_t r = header_rows; r < rows.size(); ++r) {
    auto f = padded(rows[r]);
    inferrer.Add(data, f.data(), 1);
  }
  std::vector<Field> fields;
  for (int c = 0; c < ncols_; ++c) {
    const std::string& name = names_[static_cast<size_t>(c)];
    TypePtr t = opts_.infer_types ? inferrer.TypeOf(c) : utf8();
    const DateFormat* format = opts_.infer_types ? inferrer.FormatOf(c) : nullptr;
    bool inferred = opts_.infer_types;
    for (const auto& [n, explicit_type] : opts_.column_types) {
      if (n == name) {
        t = explicit_type;
        format = nullptr;
        inferred = false;
      }
    }
    for (const auto& [n, pattern] : opts_.column_formats) {
      if (n != name) continue;
      const bool timestamp = t->id() == TypeId::kTimestamp;
      if (!timestamp && t->id() != TypeId::kDate32) {
        return Status::Invalid(fmt::format("{}: column '{}' has a format ('{}') but is not a date or timestamp column",
                                           name_, n, pattern));
      }
      auto compiled = DateFormat::Compile(pattern, timestamp, opts_.two_digit_years_from);
      if (!compiled.ok()) return Status::Invalid(fmt::format("{}: column '{}': {}", name_, n, compiled.status().message()));
      explicit_formats_.push_back(std::make_unique<DateFormat>(std::move(*compiled)));
      format = explicit_formats_.back().get();
    }
    inferred_.push_back(inferred);
    formats_.push_back(format);
    fields.push_back(field(name, t));
  }
  auto unknown = [&](const std::string& n) -> Status {
    if (std::find(names_.begin(), names_.end(), n) != names_.end()) return Status::OK();
    return Status::Invalid(fmt::format("{}: column_types names column '{}', which the file does not have", name_, n));
  };
  for (const auto& [n, t] : opts_.column_types) QUIVER_RETURN_NOT_OK(unknown(n));
  for (const auto& [n, pattern] : opts_.column_formats) QUIVER_RETURN_NOT_OK(unknown(n));
  schema_ = std::make_shared<const Schema>(std::move(fields));

  // Step past the header row.
  if (header_rows == 0) {
  } else if (!row_ends.empty()) {
    uint32_t after = row_ends[0] + 1;
    if (after > static_cast<uint32_t>(end_ - start_)) after = static_cast<uint32_t>(end_ - start_);
    lines_before_ += CountLineBreaks(buf_->data() + start_, after);
    start_ += after;
    offset_before_ += after;
  } else {
    start_ = end_;  // a header and nothing else
  }
  return Status::OK();
}

// Wrapped exports spread a header over several physical lines, each with fewer fields than
// the data, so sniffing counts them as preamble. The last k >= 2 lines of `preamble` bytes
// (no blank line among them, the first with at least two fields) are one header when their
// fields add up to the column count (every line break ends a field) or exceed it by k - 1
// (every line break falls inside a cell, whose halves are joined by a space), and every
// resulting cell is non-empty text that reads as no number, date, time or boolean. The
// fewest lines that fit win.
bool CsvReader::Impl::JoinHeaderLines(size_t preamble, std::vector<std::string>* names, size_t* header_start) const {
  const uint8_t* data = buf_->data();
  std::unique_ptr<uint32_t[]> pos(new uint32_t[preamble + 1]);
  MachineConfig mc = machine_;
  mc.lenient = true;
  MachineState ms;
  MachineResult mr = SplitWithStateMachine(data, preamble, -1, true, mc, &ms, pos.get());
  struct Line {
    uint32_t start;
    std::vector<FieldRef> fields;
  };
  std::vector<Line> lines;
  Line cur{0, {}};
  uint32_t s = 0;
  for (size_t i = 0; i < mr.count; ++i) {
    const uint32_t p = pos[i] & kPositionMask;
    cur.fields.push_back(FieldRef{s, p});
    s = p + 1;
    if (pos[i] & kRowEndFlag) {
      if (p > cur.fields.back().start && data[p - 1] == '\r') cur.fields.back().end = p - 1;
      lines.push_back(std::move(cur));
      cur = Line{s, {}};
    }
  }
  const size_t n = static_cast<size_t>(ncols_);
  for (size_t k = 2; k <= std::min<size_t>(lines.size(), 8); ++k) {
    const size_t first = lines.size() - k;
    const auto& added = lines[first].fields;
    if (added.size() == 1 && added[0].end == added[0].start) break;  // a blank line ends the header
    if (added.size() < 2) continue;
    size_t total = 0;
    for (size_t j = first; j < lines.size(); ++j) total += lines[j].fields.size();
    const bool in_cell = total != n;
    if (in_cell && total - (k - 1) != n) continue;
    std::vector<std::string> cells;
    for (size_t j = first; j < lines.size(); ++j) {
      for (size_t f = 0; f < lines[j].fields.size(); ++f) {
        std::string_view text;
        bool quoted = false;
        std::string cell;
        if (syntax_.Text(data, lines[j].fields[f], true, &text, &quoted)) {
          if (quoted) syntax_.Unescape(text, &cell);
          else cell = std::string(text);
        }
        while (!cell.empty() && (cell.front() == ' ' || cell.front() == '\t')) cell.erase(cell.begin());
        while (!cell.empty() && (cell.back() == ' ' || cell.back() == '\t')) cell.pop_back();
        if (in_cell && j > first && f == 0) {
          if (!cells.back().empty() && !cell.empty()) cells.back() += ' ';
          cells.back() += cell;
        } else {
          cells.push_back(std::move(cell));
        }
      }
    }
    TypeInferrer types(ncols_, syntax_);
    bool text_only = true;
    for (int c = 0; c < ncols_ && text_only; ++c) {
      const std::string& cell = cells[static_cast<size_t>(c)];
      if (cell.empty()) {
        text_only = false;
        break;
      }
      types.AddValue(c, cell);
      text_only = types.TypeOf(c)->id() == TypeId::kString;
    }
    if (!text_only) continue;
    *names = std::move(cells);
    *header_start = lines[first].start;
    return true;
  }
  return false;
}

Status CsvReader::Impl::StartChunk(Chunk& c) {
  // Reset the per-block results, keeping every allocation for the next block.
  c.count = 0;
  c.line_breaks = 0;
  c.anomaly = false;
  c.rows.clear();
  c.fields.clear();
  c.unfinished = -1;
  c.rejected.clear();
  c.batches.clear();
  c.problem.reset();
  c.blank = c.repaired = c.dropped = c.nulled = c.rows_seen = 0;
  c.columns.resize(static_cast<size_t>(ncols_));
  for (int col = 0; col < ncols_; ++col) {
    QUIVER_RETURN_NOT_OK(c.columns[static_cast<size_t>(col)].Init(schema_->field(col).type, RecyclingPool::Get(),
                                                                  split_level_.value_or(ActiveSimdLevel()),
                                                                  formats_[static_cast<size_t>(col)]));
  }
  return Status::OK();
}

// Chunks over the current block [begin, end) of the current half, each starting where the
// bytes before it leave the quote state (their quote parity), never right after an escape
// character (its effect would cross over). Chunks of about 1 MiB balance the threads; each
// is parsed in slices (slice_bytes) so that a slice's bytes and spans stay in L2 while its
// columns are converted one after another. Each chunk becomes one batch (sliced to batch_rows).
void CsvReader::Impl::SetUpChunks(uint32_t begin, uint32_t end) {
  const SplitKernels& k = split_level_ ? GetSplitKernels(*split_level_) : ActiveSplitKernels();
  std::vector<Chunk>& chunks = chunks_[cur_];
  const uint8_t* data = base();
  const uint32_t len = end - begin;
  constexpr uint32_t kChunkBytes = 1u << 20;
  size_t nchunks = std::max<size_t>(static_cast<size_t>(threads_), (len + kChunkBytes - 1) / kChunkBytes);
  if (len < kChunkBytes) nchunks = 1;
  chunks.resize(nchunks);
  const bool esc = split_.escape != 0 && split_.escape != split_.quote;
  for (size_t i = 0; i < nchunks; ++i) {
    uint32_t b = begin + static_cast<uint32_t>(static_cast<uint64_t>(len) * i / nchunks);
    while (esc && b > begin && b < end && data[b - 1] == split_.escape) ++b;
    chunks[i].begin = i == 0 ? begin : std::max(b, chunks[i - 1].begin);
    if (i > 0) chunks[i - 1].end = chunks[i].begin;
  }
  chunks.back().end = end;
  uint64_t state = 0;
  for (Chunk& c : chunks) {
    c.start_in_quote = state ? ~uint64_t{0} : 0;
    if (split_.quote != 0) {
      uint64_t e = 0;
      state ^= k.quote_parity(data + c.begin, c.end - c.begin, split_, &e);
    }
  }
  end_state_ = state;
}

// Queues the parse of chunk i of the current block, which ends at `len`.
void CsvReader::Impl::SubmitChunk(size_t i, uint32_t len, bool at_end) {
  Chunk* c = &chunks_[cur_][i];
  groups_[cur_]->Submit([this, c, first = i == 0, len, at_end] {
    const SplitKernels& k = split_level_ ? GetSplitKernels(*split_level_) : ActiveSplitKernels();
    Status st = StartChunk(*c);
    if (!st.ok()) {
      c->problem = ChunkProblem{c->begin, -1, st.message(), {}};
      return Status::OK();
    }
    ParseChunk(*c, k, first, len, at_end);
    return Status::OK();
  });
}

// One chunk, one slice at a time: the slice is split, its rows assembled and converted while
// its bytes, positions and field spans are still in L2, and the values appended to the
// chunk's columns. The chunk's last row may run past its end: the split then continues into
// the next chunk's bytes (with the true quote state) until that row ends.
void CsvReader::Impl::ParseChunk(Chunk& c, const SplitKernels& k, bool first, uint32_t len, bool at_end, bool block_end) {
  if (c.begin >= c.end) return;
  const uint8_t* data = base();
  SplitCarry carry;
  carry.in_quote = c.start_in_quote;
  RowCursor rc;
  rc.cur.reserve(static_cast<size_t>(ncols_) + 4);
  if (first) {
    rc.started = true;  // the block starts with a row
    rc.row_start = rc.field_start = c.begin;
  } else {
    const uint8_t prev = data[c.begin - 1];
    carry.prev_boundary = (prev == split_.delimiter || prev == '\n' || prev == '\r') ? 1 : 0;
    carry.prev_closer = (split_.quote != 0 && prev == split_.quote && c.start_in_quote == 0) ? 1 : 0;
    // A row starts right at the chunk when the byte before it ended one (outside quotes, as
    // the splitter would have reported it: LF, or CR not followed by LF).
    rc.started = c.start_in_quote == 0 && (prev == '\n' || (prev == '\r' && data[c.begin] != '\n'));
    rc.row_start = rc.field_start = c.begin;
  }
  const uint32_t slice = static_cast<uint32_t>(std::clamp<int64_t>(opts_.slice_bytes, 64, int64_t{1} << 30));
  c.pos.Reserve(slice + kSplitOutputSlack);
  uint32_t at = c.begin;
  uint32_t window = std::min<uint32_t>(slice, 1024);  // past the chunk: usually one row is left
  bool done = false;
  while (!done) {
    uint32_t stop;
    if (at < c.end) {
      stop = at + std::min(slice, c.end - at);
    } else {
      stop = at + std::min(window, len - at);
      window = std::min(window * 2, slice);
    }
    // Before the end of the input the byte after the block is not known yet: a CR there may
    // be the first half of a CR LF, so it must not end a row (the row is left to the next block).
    const int next = stop < len || !block_end ? data[stop] : at_end ? -1 : '\n';
    const SplitResult r = k.split(data + at, stop - at, next, split_, &carry, c.pos.data.get());
    if (at < c.end) c.line_breaks += r.line_breaks;
    if (r.anomaly) {
      c.anomaly = true;  // the block is read again by the state machine
      return;
    }
    done = TakeRows(c, rc, c.pos.data.get(), r.count, at, c.end);
    if (!done && !rc.started && stop >= c.end) done = true;  // no row starts in this chunk
    at = stop;
    if (!done && at >= len) {
      if (at_end && carry.in_quote != 0) {
        c.anomaly = true;  // an unterminated quote: the state machine reports it
        return;
      }
      EndOfBlock(c, rc, len, at_end);
      done = true;
    }
    if (!c.rows.empty()) ConvertRows(c);
    if (c.problem && opts_.on_error == OnError::kFail) return;
  }
  FinishChunk(c);
}

Status CsvReader::Impl::SplitMachine(uint32_t begin, uint32_t end, bool at_end, Chunk& c) {
  const uint32_t len = end - begin;
  c.pos.Reserve(len + 1);
  MachineState st;
  // As in ParseChunk: a CR last in a block that is not the end of the input ends no row.
  MachineResult r = SplitWithStateMachine(base() + begin, len, at_end ? -1 : '\n', at_end, machine_, &st, c.pos.data.get());
  c.count = r.count;
  c.line_breaks = r.line_breaks;
  if (r.error != MachineError::kNone) {
    // Where the row holding the error starts decides its column number.
    uint32_t err = static_cast<uint32_t>(std::min<size_t>(r.error_pos, len ? len - 1 : 0));
    int col = 0;
    for (size_t i = 0; i < r.count && (c.pos[i] & kPositionMask) < err; ++i) {
      col = (c.pos[i] & kRowEndFlag) ? 0 : col + 1;
    }
    Problem p;
    p.kind = ProblemKind::kQuoting;
    p.file = name_;
    p.line = LineAt(begin + err);
    p.column = col;
    p.column_name = col < ncols_ && col < static_cast<int>(names_.size()) ? names_[static_cast<size_t>(col)] : std::string();
    p.byte = offset_before_ + (begin - start_) + err;
    p.reason = MachineErrorText(r.error);
    std::string msg = fmt::format("{}:{}:{}: {} (byte {})", name_, p.line, col + 1, p.reason, p.byte);
    return Fail(std::move(p), std::move(msg));
  }
  return Status::OK();
}

// The byte-by-byte path (comment lines, or a block the fast split could not read for sure):
// the whole block as one chunk.
Status CsvReader::Impl::ParseBlockMachine(uint32_t begin, uint32_t end, bool at_end) {
  std::vector<Chunk>& chunks = chunks_[cur_];
  chunks.resize(1);
  Chunk& c = chunks[0];
  c.begin = begin;
  c.end = end;
  QUIVER_RETURN_NOT_OK(StartChunk(c));
  QUIVER_RETURN_NOT_OK(SplitMachine(begin, end, at_end, c));
  RowCursor rc;
  rc.started = true;
  rc.row_start = rc.field_start = begin;
  if (!TakeRows(c, rc, c.pos.data.get(), c.count, begin, end)) EndOfBlock(c, rc, end, at_end);
  if (c.problem && opts_.on_error == OnError::kFail) return Status::OK();
  if (!c.rows.empty()) ConvertRows(c);
  if (c.problem && opts_.on_error == OnError::kFail) return Status::OK();
  FinishChunk(c);
  return Status::OK();
}

void CsvReader::Impl::EmitRow(Chunk& c, RowCursor& rc, uint32_t end) {
  const uint8_t* data = base();
  auto& cur = rc.cur;
  if (end > rc.row_start && data[end - 1] == '\r') cur.back().end = std::max(cur.back().start, end - 1);
  ++c.rows_seen;
  const size_t nf = cur.size();
  bool blank = nf == 1 && cur[0].end == cur[0].start;
  if (blank && ncols_ > 1) {
    ++c.blank;
    --c.rows_seen;
    return;
  }
  if (dialect_.comment != '\0' && cur[0].end > cur[0].start && data[cur[0].start] == static_cast<uint8_t>(dialect_.comment)) {
    --c.rows_seen;
    return;
  }
  RowRef row{rc.row_start, end};
  if (c.fields.ncols != static_cast<size_t>(ncols_)) c.fields.Init(static_cast<size_t>(ncols_));
  if (static_cast<int>(nf) != ncols_) {
    // Kept, padded with nulls or cut to the columns, with --on-error null, and with --lenient
    // unless --on-error skip drops it.
    if (opts_.on_error == OnError::kNull || (opts_.lenient && opts_.on_error == OnError::kFail)) {
      ++c.repaired;
      if (static_cast<int>(nf) > ncols_) c.dropped += static_cast<int64_t>(nf) - ncols_;
      c.fields.Reserve(1);
      const size_t r = c.fields.rows++;
      for (int f = 0; f < ncols_; ++f) {
        c.fields.at(r, static_cast<size_t>(f)) = f < static_cast<int>(nf) ? cur[static_cast<size_t>(f)]
                                                                        : FieldRef{FieldRef::kMissing, FieldRef::kMissing};
      }
      c.rows.push_back(row);
      return;
    }
    std::string reason = fmt::format("expected {} fields, got {}", ncols_, nf);
    if (opts_.on_error == OnError::kFail) {
      if (!c.problem) c.problem = ChunkProblem{rc.row_start, -1, reason, {}, ProblemKind::kFieldCount};
    } else {
      c.rejected.push_back(Reject{row, ProblemKind::kFieldCount, -1, std::move(reason)});
    }
    return;
  }
  c.fields.Reserve(1);
  const size_t r = c.fields.rows++;
  for (size_t f = 0; f < nf; ++f) c.fields.at(r, f) = cur[f];
  c.rows.push_back(row);
}

namespace {

// GCC 12's AVX-512 headers trip -Wmaybe-uninitialized on their own undefined pass-through
// operands once inlined.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

// TakeRows' fast path with AVX-512 for rows of 2..16 fields: a row's positions in one load,
// its flags checked at once (a row end exactly at the last field), its spans built in two
// registers and scattered to their columns. Stops before the first row that is not such a
// row (or at `limit`, returning true); `*idx`, `*row_start` and the counts advance.
__attribute__((target("avx512f,avx512bw,avx512vl,avx512dq"))) bool TakeFullRowsAvx512(
    const uint32_t* pos, size_t n, size_t nc, uint32_t offset, uint32_t limit, const uint8_t* data, FieldColumns& fields,
    std::vector<RowRef>& rows, int64_t* rows_seen, size_t* idx_io, uint32_t* row_start_io) {
  const __mmask16 lanes = static_cast<__mmask16>((1u << nc) - 1);
  const __mmask16 want = static_cast<__mmask16>(1u << (nc - 1));
  const long long stride = static_cast<long long>(fields.stride);
  // unpacklo/hi interleave within 128-bit lanes: fields 0,1,4,5,... and 2,3,6,7,...
  const __m512i fields_lo = _mm512_setr_epi64(0, 1, 4, 5, 8, 9, 12, 13);
  const __m512i fields_hi = _mm512_setr_epi64(2, 3, 6, 7, 10, 11, 14, 15);
  const __m512i nc_v = _mm512_set1_epi64(static_cast<long long>(nc));
  const __mmask8 mask_lo = _mm512_cmplt_epu64_mask(fields_lo, nc_v), mask_hi = _mm512_cmplt_epu64_mask(fields_hi, nc_v);
  const __m512i at_lo = _mm512_mullo_epi64(fields_lo, _mm512_set1_epi64(stride));
  const __m512i at_hi = _mm512_mullo_epi64(fields_hi, _mm512_set1_epi64(stride));
  const __m512i flag = _mm512_set1_epi32(static_cast<int>(kRowEndFlag));
  const __m512i position = _mm512_set1_epi32(static_cast<int>(kPositionMask));
  const __m512i base = _mm512_set1_epi32(static_cast<int>(offset));
  const __m512i one = _mm512_set1_epi32(1);
  size_t idx = *idx_io;
  uint32_t row_start = *row_start_io;
  bool past = false;
  while (idx + nc <= n) {
    const __m512i v = _mm512_maskz_loadu_epi32(lanes, pos + idx);
    if (_mm512_test_epi32_mask(v, flag) != want) break;
    const __m512i ends = _mm512_add_epi32(_mm512_and_si512(v, position), base);
    const __m512i starts =
        _mm512_alignr_epi32(_mm512_add_epi32(ends, one), _mm512_set1_epi32(static_cast<int>(row_start)), 15);
    FieldRef* out = fields.buf.get() + fields.rows;
    _mm512_mask_i64scatter_epi64(out, mask_lo, at_lo, _mm512_unpacklo_epi32(starts, ends), 8);
    _mm512_mask_i64scatter_epi64(out, mask_hi, at_hi, _mm512_unpackhi_epi32(starts, ends), 8);
    const uint32_t end = offset + (pos[idx + nc - 1] & kPositionMask);
    FieldRef& back = out[(nc - 1) * fields.stride];
    if (end > row_start && data[end - 1] == '\r') back.end = std::max(back.start, end - 1);
    rows.push_back(RowRef{row_start, end});
    ++fields.rows;
    ++*rows_seen;
    idx += nc;
    row_start = end + 1;
    if (row_start >= limit) {
      past = true;
      break;
    }
  }
  *idx_io = idx;
  *row_start_io = row_start;
  return past;
}

#pragma GCC diagnostic pop

}  // namespace

// Assembles the rows that end among pos[0, n) (block offsets: `offset` + position) and start
// before `limit`. True once the walk is past `limit` (the rest belongs to the next chunk) or
// stopped at a problem.
bool CsvReader::Impl::TakeRows(Chunk& c, RowCursor& rc, const uint32_t* pos, size_t n, uint32_t offset, uint32_t limit) {
  const uint8_t* data = base();
  size_t idx = 0;
  if (!rc.started) {
    // The chunk begins inside a row that an earlier chunk owns: skip to that row's end.
    while (idx < n && !(pos[idx] & kRowEndFlag)) ++idx;
    if (idx == n) return false;
    rc.started = true;
    rc.row_start = rc.field_start = offset + (pos[idx] & kPositionMask) + 1;
    ++idx;
    if (rc.row_start >= limit) return true;
  }
  // Rows of ncols fields are at most n / ncols (EmitRow makes room for any other row).
  const size_t nc = static_cast<size_t>(ncols_);
  if (c.fields.ncols != nc) c.fields.Init(nc);
  c.fields.Reserve(n / std::max<size_t>(nc, 1) + 2);
  c.rows.reserve(c.rows.size() + n / std::max<size_t>(nc, 1) + 2);
  // Rows of exactly ncols fields (nearly all of them) are copied straight from the positions;
  // anything else (a short or long row, a row across slices, comments) takes the general
  // path one position at a time, and the fast path resumes at the next row.
  const bool fast = dialect_.comment == '\0';
  const bool wide = nc >= 2 && nc <= 16 && split_level_.value_or(ActiveSimdLevel()) >= SimdLevel::kAvx512;
  uint32_t row_start = rc.row_start, field_start = rc.field_start;
  for (;;) {
    if (c.problem && opts_.on_error == OnError::kFail) return true;
    if (fast && rc.cur.empty()) {
      if (wide && TakeFullRowsAvx512(pos, n, nc, offset, limit, data, c.fields, c.rows, &c.rows_seen, &idx, &row_start)) {
        rc.row_start = rc.field_start = row_start;
        return true;
      }
      field_start = row_start;
      // Each field goes to its column's spans: one store per field, stride apart.
      const size_t stride = c.fields.stride;
      while (idx + nc <= n) {
        const uint32_t last = pos[idx + nc - 1];
        uint32_t inner = 0;
        for (size_t j = 0; j + 1 < nc; ++j) inner |= pos[idx + j];
        if (!(last & kRowEndFlag) || (inner & kRowEndFlag)) break;
        FieldRef* out = c.fields.buf.get() + c.fields.rows++;
        uint32_t s = field_start;
        for (size_t j = 0; j < nc; ++j) {
          const uint32_t at = offset + (pos[idx + j] & kPositionMask);
          out[j * stride] = FieldRef{s, at};
          s = at + 1;
        }
        const uint32_t end = offset + (last & kPositionMask);
        FieldRef& back = out[(nc - 1) * stride];
        if (end > row_start && data[end - 1] == '\r') back.end = std::max(back.start, end - 1);
        c.rows.push_back(RowRef{row_start, end});
        ++c.rows_seen;
        idx += nc;
        row_start = field_start = end + 1;
        if (row_start >= limit) {
          rc.row_start = rc.field_start = row_start;
          return true;
        }
      }
    }
    if (idx >= n) {
      rc.row_start = row_start;
      rc.field_start = field_start;
      return false;
    }
    const uint32_t p = pos[idx++];
    const uint32_t at = offset + (p & kPositionMask);
    rc.cur.push_back(FieldRef{field_start, at});
    field_start = at + 1;
    if (p & kRowEndFlag) {
      rc.row_start = row_start;
      EmitRow(c, rc, at);
      rc.cur.clear();
      row_start = field_start = at + 1;
      if (row_start >= limit) {
        rc.row_start = rc.field_start = row_start;
        return true;
      }
    }
  }
}

// Out of separators: the rest of the block is one row, unfinished unless the input ends.
void CsvReader::Impl::EndOfBlock(Chunk& c, RowCursor& rc, uint32_t len, bool at_end) {
  if (!rc.started || rc.row_start >= len) return;
  if (!at_end) {
    c.unfinished = rc.row_start;
    return;
  }
  rc.cur.push_back(FieldRef{rc.field_start, len});
  EmitRow(c, rc, len);
  rc.cur.clear();
  rc.row_start = rc.field_start = len;
}

// The rows assembled so far into the chunk's columns, one column at a time.
void CsvReader::Impl::ConvertRows(Chunk& c) {
  const uint8_t* data = base();
  const size_t nc = static_cast<size_t>(ncols_);
  if (opts_.on_error == OnError::kSkip) {
    // Rows with a value that does not convert are dropped before conversion, so every column
    // keeps the same rows.
    size_t kept = 0;
    for (size_t r = 0; r < c.rows.size(); ++r) {
      int bad = -1;
      for (int col = 0; col < ncols_ && bad < 0; ++col) {
        if (!FieldConverts(schema_->field(col).type, data, c.fields.at(r, static_cast<size_t>(col)), syntax_,
                           formats_[static_cast<size_t>(col)])) {
          bad = col;
        }
      }
      if (bad >= 0) {
        c.rejected.push_back(Reject{c.rows[r], ProblemKind::kConversion, bad, CannotConvert(bad)});
        continue;
      }
      if (kept != r) {
        c.rows[kept] = c.rows[r];
        for (size_t col = 0; col < nc; ++col) c.fields.at(kept, col) = c.fields.at(r, col);
      }
      ++kept;
    }
    c.rows.resize(kept);
    c.fields.rows = kept;
  }
  const int64_t nrows = static_cast<int64_t>(c.rows.size());
  if (nrows == 0) return;
  if (c.columns[0].length() == 0) {
    // The first rows of the chunk: size the columns for the whole chunk from their density.
    const uint64_t span = std::max<uint64_t>(1, c.rows.back().end + 1 - c.rows.front().start);
    const int64_t expect = static_cast<int64_t>(static_cast<uint64_t>(nrows) * (c.end - c.begin) / span) + nrows / 8 + 16;
    for (auto& col : c.columns) {
      Status st = col.Reserve(std::max(expect, nrows));
      if (!st.ok()) {
        c.problem = ChunkProblem{c.rows[0].start, -1, st.message(), {}};
        return;
      }
    }
  }
  // A few hundred rows at a time, every column: the rows' text (tens of KB) stays in L1 from
  // one column's pass to the next, where a pass per column over the whole slice would bring
  // it back from L2 for each column.
  constexpr int64_t kGroupRows = 256;
  for (int64_t g = 0; g < nrows; g += kGroupRows) {
    const int64_t n = std::min(kGroupRows, nrows - g);
    for (int col = 0; col < ncols_; ++col) {
      ConvertError err;
      Status st = c.columns[static_cast<size_t>(col)].Append(data, c.fields.column(static_cast<size_t>(col)) + g, n, syntax_,
                                                            opts_.on_error == OnError::kNull, &c.nulled, &err);
      if (!st.ok()) {
        c.problem = ChunkProblem{c.rows[static_cast<size_t>(g)].start, col, st.message(), {}};
        return;
      }
      if (err.failure != ConvertFailure::kNone) {
        // Columns convert one after another over the group, so a later column may hold a bad
        // cell in an earlier row: the first in file order is reported. Only a failed read
        // pays for this look.
        int bad_col = col;
        for (int later = col + 1; later < ncols_; ++later) {
          for (int64_t r = 0; r < err.row; ++r) {
            const FieldRef& lf = c.fields.at(static_cast<size_t>(g + r), static_cast<size_t>(later));
            if (!FieldConverts(schema_->field(later).type, data, lf, syntax_, formats_[static_cast<size_t>(later)])) {
              err.row = r;
              // A string cell fails only on its encoding.
              err.failure = schema_->field(later).type->id() == TypeId::kString ? ConvertFailure::kInvalidUtf8
                                                                                 : ConvertFailure::kBadValue;
              bad_col = later;
              break;
            }
          }
        }
        col = bad_col;
        const FieldRef& f = c.fields.at(static_cast<size_t>(g + err.row), static_cast<size_t>(col));
        std::string value(reinterpret_cast<const char*>(data) + f.start, f.end - f.start);
        std::string msg = err.failure == ConvertFailure::kInvalidUtf8
                              ? std::string(kInvalidUtf8)
                              : CannotConvert(col);
        c.problem = ChunkProblem{f.start, col, std::move(msg), std::move(value),
                                 err.failure == ConvertFailure::kInvalidUtf8 ? ProblemKind::kInvalidUtf8
                                                                             : ProblemKind::kConversion};
        return;
      }
    }
  }
  c.rows.clear();
  c.fields.clear();
}

// The chunk's columns become one batch (sliced to batch_rows).
void CsvReader::Impl::FinishChunk(Chunk& c) {
  const int64_t nrows = c.columns[0].length();
  if (nrows == 0) return;
  std::vector<Array> columns;
  columns.reserve(c.columns.size());
  for (auto& col : c.columns) {
    auto arr = col.Finish();
    if (!arr.ok()) {
      c.problem = ChunkProblem{c.begin, -1, arr.status().message(), {}};
      return;
    }
    columns.push_back(std::move(*arr));
  }
  auto batch = std::make_shared<RecordBatch>(schema_, nrows, std::move(columns));
  for (int64_t off = 0; off < nrows; off += opts_.batch_rows) {
    int64_t n = std::min(opts_.batch_rows, nrows - off);
    c.batches.push_back(off == 0 && n == nrows ? batch : batch->Slice(off, n));
  }
}

Status CsvReader::Impl::Fail(Problem p, std::string message) const {
  if (opts_.on_failure) opts_.on_failure(p);
  return Status::Invalid(std::move(message));
}

Status CsvReader::Impl::ReportProblem(const ChunkProblem& p) const {
  Problem problem;
  problem.kind = p.kind;
  problem.file = name_;
  problem.line = LineAt(p.pos);
  problem.column = p.col;
  if (p.col >= 0) problem.column_name = names_[static_cast<size_t>(p.col)];
  problem.byte = offset_before_ + (p.pos - start_);
  problem.reason = p.message;
  problem.value = p.value;
  problem.type_inferred = p.col >= 0 && inferred_[static_cast<size_t>(p.col)];
  std::string msg = fmt::format("{}: {}", Where(p.pos, p.col), p.message);
  if (p.col >= 0) {
    msg += fmt::format(", got \"{}\"", EscapeForMessage(p.value));
  }
  msg += fmt::format(" (byte {})", problem.byte);
  // The diagnosis only: what to change is the caller's to say in its own terms (the CLI names
  // its flags from the problem's kind).
  if (p.col >= 0 && p.kind == ProblemKind::kInvalidUtf8) msg += "; the file may be in another encoding";
  if (problem.type_inferred && p.kind == ProblemKind::kConversion) {
    msg += fmt::format("; the type was inferred from the first {} rows", opts_.infer_rows);
  }
  return Fail(std::move(problem), std::move(msg));
}

// The chunk's rejected rows to the handler, in file order (a row dropped for its field count
// is found while rows are assembled, one dropped for a value only when they are converted).
Status CsvReader::Impl::HandleRejects(Chunk& c) {
  if (!opts_.on_reject || c.rejected.empty()) return Status::OK();
  std::stable_sort(c.rejected.begin(), c.rejected.end(),
                   [](const Reject& a, const Reject& b) { return a.row.start < b.row.start; });
  Problem p;
  p.file = name_;
  for (const Reject& r : c.rejected) {
    std::string_view text(reinterpret_cast<const char*>(base()) + r.row.start, r.row.end - r.row.start);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    p.kind = r.kind;
    p.line = LineAt(r.row.start);
    p.column = r.col;
    p.column_name = r.col >= 0 ? names_[static_cast<size_t>(r.col)] : std::string();
    p.byte = offset_before_ + (r.row.start - start_);
    p.reason = r.reason;
    p.type_inferred = r.col >= 0 && inferred_[static_cast<size_t>(r.col)];
    QUIVER_RETURN_NOT_OK(opts_.on_reject(RejectedRow{p, text}));
  }
  return Status::OK();
}

Status CsvReader::Impl::ProcessBlock() {
  const int64_t target = opts_.block_size * threads_;
  // One row filled the last block (nothing consumed): this round reads twice as much.
  const int64_t want = std::max<int64_t>(target, row_fills_block_ ? (end_ - start_) * 2 : 0);
  bool speculated = false;
  if (ahead_.pending) QUIVER_RETURN_NOT_OK(AdoptReadAhead(want, &speculated));
  if (speculated && !eof_ && end_ - start_ < want) {
    // A row fills the block: it grows, and the chunks queued for it do not cover it.
    (void)groups_[cur_]->Wait();
    speculated = false;
  }
  if (ring_ && !speculated && start_ + want + kMinRead > Limit()) QUIVER_RETURN_NOT_OK(LeaveRing(want));
  QUIVER_RETURN_NOT_OK(Fill(want));
  // More input to come and threads to share it: continue in the ring (a no-op once there).
  if (pool_ != nullptr && !ring_ && !eof_) QUIVER_RETURN_NOT_OK(EnterRing());
  const int64_t avail = end_ - start_;
  if (avail > int64_t{kPositionMask} || end_ > int64_t{kPositionMask}) {
    Problem p;
    p.kind = ProblemKind::kRowTooLong;
    p.file = name_;
    p.line = lines_before_ + 1;
    p.byte = offset_before_;
    p.reason = "a single row longer than 2 GiB";
    return Fail(std::move(p), fmt::format("{}: a single row longer than 2 GiB (line {})", name_, lines_before_ + 1));
  }
  if (avail == 0) {
    finished_ = true;
    return Status::OK();
  }
  const uint32_t begin = static_cast<uint32_t>(start_);
  const uint32_t len = static_cast<uint32_t>(end_);
  const bool at_end = eof_;
  std::vector<Chunk>& chunks = chunks_[cur_];
  if (speculated) {
    chunks[0].begin = begin;
    chunks[0].start_in_quote = 0;
  } else {
    SetUpChunks(begin, len);
  }

  // The next block is read into the other half on the pool, ahead of this block's chunks, so
  // that its chunks are queued before this block's last ones finish.
  if (ring_ && !eof_) {
    ahead_.pending = true;
    read_group_->Submit(
        [this, half = 1 - cur_, target, state = end_state_] {
          ReadAhead(half, target, state);
          return Status::OK();
        },
        /*urgent=*/true);
  }

  bool anomaly = force_machine_;
  if (!anomaly) {
    for (size_t i = 0; i < (speculated ? 1 : chunks.size()); ++i) SubmitChunk(i, len, at_end);
    QUIVER_RETURN_NOT_OK(groups_[cur_]->Wait());
    // A chunk queued before the block was read whole could only look one piece ahead for the
    // end of its last row: a longer row sends the block through again.
    bool short_sighted = false;
    for (size_t i = 1; speculated && i + 1 < chunks.size(); ++i) short_sighted |= chunks[i].unfinished >= 0;
    if (short_sighted) {
      SetUpChunks(begin, len);
      for (size_t i = 0; i < chunks.size(); ++i) SubmitChunk(i, len, at_end);
      QUIVER_RETURN_NOT_OK(groups_[cur_]->Wait());
    }
    for (const auto& c : chunks) anomaly |= c.anomaly;
  }
  if (anomaly) QUIVER_RETURN_NOT_OK(ParseBlockMachine(begin, len, at_end));

  // Results in order: the first problem stops the read.
  uint32_t consumed = len;
  for (const Chunk& c : chunks) {
    if (c.problem) return ReportProblem(*c.problem);
    if (c.unfinished >= 0) consumed = std::min(consumed, static_cast<uint32_t>(c.unfinished));
  }
  for (Chunk& c : chunks) {
    QUIVER_RETURN_NOT_OK(HandleRejects(c));
    stats_.rows_read += c.rows_seen;
    stats_.rows_rejected += static_cast<int64_t>(c.rejected.size());
    stats_.cells_nulled += c.nulled;
    stats_.rows_repaired += c.repaired;
    stats_.fields_dropped += c.dropped;
    stats_.blank_lines += c.blank;
    for (auto& b : c.batches) {
      stats_.rows_written += b->num_rows();
      ready_.push_back(std::move(b));
    }
    c.batches.clear();
  }
  // The splits counted every line break of the block; the unconsumed tail's are not ours yet.
  int64_t breaks = 0;
  for (const auto& c : chunks) breaks += c.line_breaks;
  // A CR last in the block was not split as a line end (its LF may come next): not counted here.
  const uint32_t tail_end = !at_end && len > consumed && base()[len - 1] == '\r' ? len - 1 : len;
  lines_before_ += breaks - CountLineBreaks(base() + consumed, tail_end - consumed);
  offset_before_ += consumed - begin;
  row_fills_block_ = consumed == begin;
  start_ = consumed;
  if (at_end && start_ >= end_) finished_ = true;
  return Status::OK();
}

Result<std::shared_ptr<RecordBatch>> CsvReader::Impl::Next() {
  // A reported problem ends the read (the next block may already be in flight).
  if (!failed_.ok()) return failed_;
  while (ready_.empty() && !finished_) {
    Status st = ProcessBlock();
    if (!st.ok()) {
      failed_ = st;
      return st;
    }
  }
  if (!ready_.empty()) {
    auto b = std::move(ready_.front());
    ready_.pop_front();
    return b;
  }
  return std::shared_ptr<RecordBatch>();
}

CsvReader::CsvReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CsvReader::~CsvReader() = default;

namespace {

// --infer-all: a first pass reads every column as text and infers each column's type from all
// of its values; the second pass then reads with those types and the same dialect, so no late
// value can contradict a type guessed from a sample.
template <typename OpenFn>
Result<CsvOptions> InferOverWholeInput(CsvOptions options, const OpenFn& open) {
  CsvOptions first = options;
  first.infer_all = false;
  first.infer_types = false;
  first.on_error = OnError::kFail;
  first.on_reject = nullptr;
  QUIVER_ASSIGN_OR_RETURN(auto reader, open(first));
  const Dialect d = reader->dialect();
  const SchemaPtr schema = reader->schema();
  FieldSyntax syntax = FieldSyntax::From(options, d);
  TypeInferrer inferrer(schema->num_fields(), syntax);
  for (;;) {
    QUIVER_ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (!batch) break;
    for (int c = 0; c < batch->num_columns(); ++c) {
      BinaryArray col(batch->column(c));
      for (int64_t r = 0; r < batch->num_rows(); ++r) {
        // Empty values are nulls to inference, as they are in the sampled path.
        if (col.IsValid(r) && !col.GetView(r).empty()) inferrer.AddValue(c, col.GetView(r));
      }
    }
  }
  CsvOptions second = options;
  second.infer_all = false;
  second.delimiter = d.delimiter;
  second.quote = d.quote;
  second.escape = d.escape;
  second.header = d.header;
  second.skip_lines = d.skip_lines;
  if (d.header_lines > 1) {
    // A joined header: its lines are skipped and its names given.
    second.header = false;
    second.skip_lines = d.skip_lines + d.header_lines;
  }
  std::vector<std::pair<std::string, TypePtr>> types;
  for (int c = 0; c < schema->num_fields(); ++c) {
    const std::string& name = schema->field(c).name;
    TypePtr t = inferrer.TypeOf(c);
    const DateFormat* format = inferrer.FormatOf(c);
    for (const auto& [n, explicit_type] : options.column_types) {
      if (n == name) {
        t = explicit_type;
        format = nullptr;
      }
    }
    if (format != nullptr) second.column_formats.emplace_back(name, format->pattern());
    types.emplace_back(name, t);
  }
  second.column_types = std::move(types);
  if (!d.header || d.header_lines > 1) second.column_names = [&] {
    std::vector<std::string> names;
    for (const auto& f : schema->fields()) names.push_back(f.name);
    return names;
  }();
  return second;
}

}  // namespace

Result<std::unique_ptr<CsvReader>> CsvReader::Open(const std::string& path, CsvOptions options) {
  if (options.infer_all) {
    if (path == "-") return Status::Invalid("infer_all reads the input twice: give a file, not stdin");
    QUIVER_ASSIGN_OR_RETURN(options, InferOverWholeInput(std::move(options), [&](const CsvOptions& o) { return Open(path, o); }));
  }
  QUIVER_ASSIGN_OR_RETURN(auto src, OpenByteSource(path, options.encoding));
  auto impl = std::make_unique<Impl>(std::move(src), std::move(options));
  QUIVER_RETURN_NOT_OK(impl->Init());
  return std::unique_ptr<CsvReader>(new CsvReader(std::move(impl)));
}

Result<std::unique_ptr<CsvReader>> CsvReader::OpenBuffer(std::shared_ptr<Buffer> bytes, CsvOptions options,
                                                         std::string name) {
  if (options.infer_all) {
    QUIVER_ASSIGN_OR_RETURN(options, InferOverWholeInput(std::move(options), [&](const CsvOptions& o) {
      return OpenBuffer(bytes, o, name);
    }));
  }
  QUIVER_ASSIGN_OR_RETURN(auto src, OpenMemoryByteSource(std::move(bytes), std::move(name), options.encoding));
  auto impl = std::make_unique<Impl>(std::move(src), std::move(options));
  QUIVER_RETURN_NOT_OK(impl->Init());
  return std::unique_ptr<CsvReader>(new CsvReader(std::move(impl)));
}

const Dialect& CsvReader::dialect() const { return impl_->dialect_; }
const SchemaPtr& CsvReader::schema() const { return impl_->schema_; }
std::string CsvReader::column_format(int col) const {
  const DateFormat* f = impl_->formats_[static_cast<size_t>(col)];
  return f != nullptr ? f->pattern() : std::string();
}
Result<std::shared_ptr<RecordBatch>> CsvReader::Next() { return impl_->Next(); }
const CsvReadStats& CsvReader::stats() const { return impl_->stats_; }
int64_t CsvReader::input_position() const { return impl_->src_->raw_position(); }
int64_t CsvReader::input_size() const { return impl_->src_->raw_size(); }

Result<std::shared_ptr<RecordBatch>> CsvReader::ReadAll() {
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (;;) {
    QUIVER_ASSIGN_OR_RETURN(auto b, Next());
    if (!b) break;
    batches.push_back(std::move(b));
  }
  return ConcatenateBatches(schema(), batches);
}

}  // namespace quiver::csv

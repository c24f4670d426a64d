// CsvReader::Impl runs the reader's stages (block_buffer, schema_detect, the splitter,
// row_assembly, convert_rows, problem_report) over blocks: chunks in parallel, and the next
// block read and speculatively parsed while the current one is. About 920 lines: the
// read-ahead's speculation and the chunk scheduling share the ring's halves, chunks and task
// groups, so they stay in one class.
#include "quiver/csv/reader.h"

#include <fmt/format.h>

#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>

#include "quiver/columnar/concatenate.h"
#include "quiver/core/arena.h"
#include "quiver/core/recycling_pool.h"
#include "quiver/core/thread_pool.h"
#include "quiver/core/utf8.h"
#include "quiver/csv/block_buffer_internal.h"
#include "quiver/csv/convert_internal.h"
#include "quiver/csv/convert_rows_internal.h"
#include "quiver/csv/infer_internal.h"
#include "quiver/csv/infer_all_internal.h"
#include "quiver/csv/input_internal.h"
#include "quiver/csv/problem_report_internal.h"
#include "quiver/csv/row_assembly_internal.h"
#include "quiver/csv/schema_detect_internal.h"
#include "quiver/csv/sniffer.h"
#include "quiver/csv/split_level_internal.h"
#include "quiver/csv/splitter_internal.h"
#include "quiver/csv/state_machine_internal.h"

namespace quiver::csv {

namespace {

// The sample the dialect and the schema are detected from.
constexpr int64_t kSniffBytes = int64_t{4} << 20;

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

// One parallel unit of a block: its byte range and what parsing it produced. Positions and
// field spans hold one slice at a time (the machine path: the whole block).
struct Chunk : AssembledRows {
  uint32_t begin = 0, end = 0;
  uint64_t start_in_quote = 0;
  // The split's quote state at `end` (end_known: the split got there); xor start_in_quote, the
  // chunk's quote parity, from which the next chunk's true start state follows.
  uint64_t end_in_quote = 0;
  bool end_known = false;
  int64_t line_breaks = 0;  // in [begin, end)
  bool anomaly = false;

  PositionBuffer pos;  // the current slice's structural positions (kRowEndFlag on row ends)
  size_t count = 0;
  std::vector<TextColumnConverter> columns;

  std::vector<std::shared_ptr<RecordBatch>> batches;
  int64_t nulled = 0;
};

}  // namespace

namespace {
std::atomic<int> g_split_level{-1};  // -1: none set
std::atomic<bool> g_quote_guess{true};

}  // namespace

void SetQuoteGuessForTesting(bool guess) { g_quote_guess.store(guess); }

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
    RecyclingPool::Shared()->AddUser();
  }
  ~Impl() {
    for (auto& g : groups_) {
      if (g) (void)g->Wait();
    }
    if (read_group_) (void)read_group_->Wait();
    chunks_[0].clear();
    chunks_[1].clear();
    RecyclingPool::Shared()->RemoveUser();
  }

  Status Init();
  Result<std::shared_ptr<RecordBatch>> Next();

  Dialect dialect_;
  SchemaPtr schema_;
  CsvReadStats stats_;
  std::unique_ptr<ByteSource> src_;

 private:
  // The block buffer's reads, counted in the stats.
  Status Fill(int64_t target) {
    const int64_t before = block_.bytes_read;
    Status st = block_.Fill(target);
    stats_.bytes_read += block_.bytes_read - before;
    return st;
  }
  void ReadAhead(int half, int64_t want, uint64_t in_state, bool guess);
  void QueueAheadChunk(int half, size_t i, uint32_t len, bool block_end, bool at_end);
  Status CheckGuessedStates(uint32_t len, bool at_end);
  Status AdoptReadAhead(int64_t want, bool* speculated);
  Status ProcessBlock();
  Status StartChunk(Chunk& c);
  void SetUpChunks(uint32_t begin, uint32_t end);
  void SubmitChunk(size_t i, uint32_t len, bool at_end);
  Status ParseBlockMachine(uint32_t begin, uint32_t end, bool at_end);
  Status SplitMachine(uint32_t begin, uint32_t end, bool at_end, Chunk& c);
  void ParseChunk(Chunk& c, const SplitKernels& k, bool first, uint32_t len, bool at_end, bool block_end = true);
  void ConvertRows(Chunk& c) { csv::ConvertRows(Plan(), base(), c.end - c.begin, c, c.columns, &c.nulled); }
  void FinishChunk(Chunk& c) { FinishColumns(Plan(), c.columns, c.begin, &c.problem, &c.batches); }
  ConvertPlan Plan() const { return ConvertPlan{schema_, syntax_, formats_, inferred_, opts_.on_error, opts_.batch_rows}; }
  ProblemContext Problems() const { return ProblemContext{name_, names_, inferred_, opts_}; }
  Status ReportProblem(const ChunkProblem& p) const {
    return Problems().Report(p, LineAt(p.pos), offset_before_ + (p.pos - block_.start));
  }
  Status HandleRejects(Chunk& c);
  Status Fail(Problem p, std::string message) const { return Problems().Fail(std::move(p), std::move(message)); }
  friend class CsvReader;
  // Positions (chunks, rows, fields, problems) are offsets from the buffer's start, which stays
  // put while any chunk task runs: blocks of both ring halves can be parsed at once.
  const uint8_t* base() const { return block_.buf->data(); }
  int64_t LineAt(uint32_t pos) const { return lines_before_ + CountLineBreaks(base() + block_.start, pos - block_.start) + 1; }
  // The splitting and row kernels of the level tests set, else of the CPU.
  const SplitKernels& Kernels() const { return split_level_ ? GetSplitKernels(*split_level_) : ActiveSplitKernels(); }
  int64_t Limit() const { return block_.Limit(); }

  CsvOptions opts_;
  std::optional<SimdLevel> split_level_ = SplitLevelForTesting();  // nullopt: the CPU's best
  RowShape shape_;  // what row assembly needs, set once the schema is known
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

  BlockBuffer block_;  // buf, start/end of the unread bytes, eof; the ring and its current half
  // The next block, read into the other half by a pool task while the current one is parsed.
  // The task queues the parse of every chunk but the first as its 1 MiB piece lands, assuming
  // the quote state `in_state` at its first new byte (the state at the end of the current
  // block). The assumption is checked once the current block's unfinished row is known; if it
  // fails, that work is dropped and done again. Each piece's start state comes from the quote
  // parities of the pieces before it, or, while guess_quotes_ holds, is guessed to be outside
  // quotes (no pass over the piece before its parse); the guesses are checked against the
  // state each chunk's split ends in. A read error is reported when the block is taken up,
  // after the current block's rows.
  struct Ahead {
    bool pending = false;
    int64_t first = 0, end = 0;  // the block's bytes in the half
    bool eof = false;
    Status status;
    uint64_t in_state = 0, out_state = 0;
    bool speculated = false;  // chunks 1.. of the half were queued
    bool guessed = false;     // their start states were guessed, not taken from parities
  } ahead_;
  // Pieces read ahead start outside quotes until a guess fails: files without quoted line
  // breaks or delimiters near piece ends are then never read an extra time for parities.
  bool guess_quotes_ = g_quote_guess.load();
  // The quote state at block_.end: the parity of the current block from block_.start (0 or 1),
  // from its parities or, on a guessed block, once CheckGuessedStates has run.
  uint64_t end_state_ = 0;
  Status failed_;           // a reported problem: the read does not go on
  bool row_fills_block_ = false;
  bool finished_ = false;
  int64_t lines_before_ = 0;  // physical lines before block_.buf[block_.start]
  int64_t offset_before_ = 0;  // decoded bytes before block_.buf[block_.start]
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

// On a pool thread, while the current block is parsed: `want` bytes of the next block (or
// what is left) into ring half `half`, after its headroom, in pieces of one chunk. Unless
// `guess`, each piece's quote parity is taken while it is still in cache; the pieces after
// the first become chunks whose parse is queued at once (see Ahead).
void CsvReader::Impl::ReadAhead(int half, int64_t want, uint64_t in_state, bool guess) {
  // 1 MiB pieces on blocks of 8 MiB or more; smaller blocks are cut as finely.
  const int64_t piece_bytes = std::clamp<int64_t>(want / 8, 256, 1 << 20);
  const SplitKernels& k = Kernels();
  const uint8_t* data = block_.buf->data();
  auto started = block_.StartBlock(half);
  if (!started.ok()) {
    ahead_.speculated = false;
    ahead_.status = started.status();
    return;
  }
  const int64_t first = *started;
  const int64_t stop = first + want;
  const int64_t cap = block_.HalfStart(half) + block_.half - 64;
  // A backslash-style escape could pair with the cut row's last byte: those dialects wait.
  const bool speculate = (split_.escape == 0 || split_.escape == split_.quote) && !force_machine_;
  std::vector<Chunk>& chunks = chunks_[half];
  // Sized once: queued tasks hold pointers into it (a short read leaves fewer pieces).
  if (speculate) chunks.resize(static_cast<size_t>((want + piece_bytes - 1) / piece_bytes) + 1);
  ahead_.speculated = false;
  // Chunk i (i >= 1) is queued once piece i + 1 is in, so that it can finish its last row
  // there; it may look up to `len` (exclusive), where the bytes read so far end but for one.
  auto queue = [&](size_t i, uint32_t len, bool block_end, bool at_end) {
    ahead_.speculated = true;
    QueueAheadChunk(half, i, len, block_end, at_end);
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
      auto n = block_.ReadAt(end, std::min(cap - end, std::max(piece_end - end, kMinRead)));
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
    if (split_.quote != 0 && !guess) {
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
  ahead_.first = first;
  ahead_.end = end;
  ahead_.eof = eof;
  ahead_.status = std::move(status);
  ahead_.in_state = in_state;
  ahead_.out_state = state;
  ahead_.guessed = guess && split_.quote != 0;
}

// Queues the parse of chunk i (i >= 1) of the block read ahead into ring half `half`, which
// may look up to `len` (block_end: the block's end; at_end: the input's).
void CsvReader::Impl::QueueAheadChunk(int half, size_t i, uint32_t len, bool block_end, bool at_end) {
  Chunk* c = &chunks_[half][i];
  groups_[half]->Submit([this, c, len, block_end, at_end] {
    Status st = StartChunk(*c);
    if (!st.ok()) {
      c->problem = ChunkProblem{c->begin, -1, st.message(), {}, ProblemKind::kOther, st.code()};
      return Status::OK();
    }
    ParseChunk(*c, Kernels(), false, len, at_end, block_end);
    return Status::OK();
  });
}

// The block read ahead becomes the unread data, after the current block's unfinished tail,
// which is copied into the headroom in front of it. When the tail is longer than that, both
// move into a linear buffer of at least `want` bytes. *speculated: chunks 1.. of the block
// were parsed from a quote state that the tail confirms; otherwise that work is dropped.
Status CsvReader::Impl::AdoptReadAhead(int64_t want, bool* speculated) {
  *speculated = false;
  QUIVER_RETURN_NOT_OK(read_group_->Wait());
  ahead_.pending = false;
  const int other = 1 - block_.cur;
  auto drop_speculation = [&] {
    if (ahead_.speculated) (void)groups_[other]->Wait();
    ahead_.speculated = false;
  };
  if (!ahead_.status.ok()) {
    drop_speculation();
    return ahead_.status;
  }
  const int64_t tail = block_.end - block_.start;
  const int64_t first = ahead_.first;
  const int64_t got = ahead_.end - first;
  stats_.bytes_read += got;
  if (tail > block_.headroom) {
    drop_speculation();
    QUIVER_ASSIGN_OR_RETURN(auto lin, AllocateBlockBuffer(std::max(want, tail + got) + kMinRead + 64));
    std::memcpy(lin->mutable_data(), block_.buf->data() + block_.start, static_cast<size_t>(tail));
    if (got > 0) std::memcpy(lin->mutable_data() + tail, block_.buf->data() + first, static_cast<size_t>(got));
    block_.buf = std::move(lin);
    block_.ring = false;
    block_.cur = 0;
    block_.start = 0;
    block_.end = tail + got;
    block_.eof = ahead_.eof;
    // Longer rows than the headroom: the next ring leaves room for twice this one.
    while (block_.headroom < 2 * tail) block_.headroom *= 2;
    return Status::OK();
  }
  block_.PlaceTail(other, first);
  // The cut row starts outside quotes, so the state after it is its own quote parity.
  uint64_t tail_state = 0;
  if (split_.quote != 0 && tail > 0) {
    const SplitKernels& k = Kernels();
    uint64_t esc = 0;
    tail_state = k.quote_parity(block_.buf->data() + first - tail, static_cast<size_t>(tail), split_, &esc);
  }
  // Parities would have read the block ahead from the state the current block ends in
  // (end_state_ once its guesses are checked); guessed chunks are then checked one by one.
  if (ahead_.speculated && tail_state != (ahead_.guessed ? end_state_ : ahead_.in_state)) drop_speculation();
  *speculated = ahead_.speculated;
  block_.cur = other;
  block_.start = first - tail;
  block_.end = ahead_.end;
  block_.eof = ahead_.eof;
  end_state_ = tail_state ^ ahead_.in_state ^ ahead_.out_state;
  return Status::OK();
}

Status CsvReader::Impl::Init() {
  name_ = src_->name();
  // Sizes below one would make no progress; a threads count below 0 has no meaning.
  const std::pair<int64_t, const char*> sizes[] = {
      {opts_.block_size, "block_size"}, {opts_.slice_bytes, "slice_bytes"}, {opts_.batch_rows, "batch_rows"}};
  for (const auto& [v, name] : sizes) {
    if (v < 1) return Status::Invalid(fmt::format("{}: {} must be at least 1, got {}", name_, name, v));
  }
  if (opts_.threads < 0) return Status::Invalid(fmt::format("{}: threads must be 0 (all cores) or more, got {}", name_, opts_.threads));
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
  block_.src = src_.get();
  block_.block = opts_.block_size * threads_;
  block_.ring_allowed = pool_ != nullptr;
  // The speculative work in the other half reads the ring: it is waited for first.
  block_.before_leaving_ring = [this] {
    for (auto& g : groups_) (void)g->Wait();
    ahead_.speculated = false;
  };
  if (opts_.on_error != OnError::kSkip && opts_.on_reject) {
    return Status::Invalid("a reject handler (on_reject) needs on_error = skip");
  }
  QUIVER_RETURN_NOT_OK(Fill(std::max<int64_t>(kSniffBytes, opts_.block_size)));
  std::string_view sample(reinterpret_cast<const char*>(block_.buf->data()), static_cast<size_t>(std::min<int64_t>(block_.end, kSniffBytes)));
  const bool sample_is_all = block_.eof && block_.end <= kSniffBytes;

  // Dialect: what the options fix, plus what the sniffer finds.
  if (opts_.delimiter && opts_.quote && opts_.escape && opts_.skip_lines) {
    dialect_.delimiter = *opts_.delimiter;
    dialect_.delimiter_pad = opts_.delimiter_pad.value_or('\0');
    dialect_.quote = *opts_.quote;
    dialect_.escape = *opts_.escape;
    dialect_.skip_lines = *opts_.skip_lines;
    dialect_.comment = opts_.comment;
  } else if (block_.end == 0) {
    dialect_.delimiter = opts_.delimiter.value_or(',');
    dialect_.delimiter_pad = opts_.delimiter ? opts_.delimiter_pad.value_or('\0') : '\0';
    dialect_.quote = opts_.quote.value_or('"');
    dialect_.escape = opts_.escape.value_or(dialect_.quote);
    dialect_.skip_lines = opts_.skip_lines.value_or(0);
    dialect_.comment = opts_.comment;
  } else {
    QUIVER_ASSIGN_OR_RETURN(SniffResult sniffed, SniffDialect(sample, sample_is_all, opts_));
    dialect_ = sniffed.dialect;
    // A footer the sniffer found (lenient, whole input in hand) is cut off before any row is
    // split, so it neither becomes rows nor sways inference.
    if (sample_is_all && sniffed.table_end < sample.size()) {
      block_.end = static_cast<int64_t>(sniffed.table_end);
      stats_.footer_lines = dialect_.footer_lines;
      stats_.second_table_line = dialect_.second_table_line;
    }
  }
  split_ = SplitConfig{static_cast<uint8_t>(dialect_.delimiter), static_cast<uint8_t>(dialect_.quote),
                       static_cast<uint8_t>(dialect_.escape)};
  machine_.split = split_;
  machine_.comment = dialect_.comment;
  machine_.lenient = opts_.lenient;
  machine_.pad = static_cast<uint8_t>(dialect_.delimiter_pad);
  // The SIMD split knows one-byte delimiters only: a two-byte one is split by the machine.
  force_machine_ = dialect_.comment != '\0' || dialect_.delimiter_pad != '\0';
  syntax_ = FieldSyntax::From(opts_, dialect_);

  // Skip the preamble.
  size_t skip = SkipLines(block_.buf->data(), static_cast<size_t>(block_.end), dialect_.skip_lines);
  lines_before_ = CountLineBreaks(block_.buf->data(), skip);
  block_.start = static_cast<int64_t>(skip);
  offset_before_ = block_.start;

  // The schema from a sample of rows (schema_detect_internal.h).
  const uint8_t* data = block_.buf->data() + block_.start;
  size_t avail = static_cast<size_t>(std::min<int64_t>(block_.end - block_.start, kSniffBytes));
  bool avail_is_all = block_.eof && static_cast<int64_t>(avail) == block_.end - block_.start;
  const SampleRows sampled = SplitSample(data, avail, avail_is_all, machine_, opts_.infer_rows, Kernels());
  const auto& rows = sampled.rows;
  ncols_ = CountColumns(sampled, opts_);
  // The types of the sampled rows after the first, inferred once: what the first row is
  // weighed against to decide the header, and the columns' types when it is the header.
  std::optional<TypeInferrer> after_first;
  if (!opts_.header && opts_.column_names.empty() && !rows.empty()) {
    after_first.emplace(InferRows(data, sampled, 1, ncols_, syntax_, pool_));
  }
  bool header = DecideHeader(data, sampled, ncols_, syntax_, opts_, after_first ? &*after_first : nullptr);
  // Lenient: a header spread over the last lines that sniffing took for a preamble, when the
  // first row after them is data.
  std::vector<std::string> joined;
  if (opts_.lenient && !header && !opts_.header && !opts_.skip_lines && opts_.column_names.empty() && skip > 0 &&
      !rows.empty()) {
    size_t header_start = 0;
    if (JoinHeaderLines(block_.buf->data(), skip, machine_, syntax_, ncols_, &joined, &header_start)) {
      header = true;
      dialect_.skip_lines = CountLineBreaks(block_.buf->data(), header_start);
      dialect_.header_lines = CountLineBreaks(block_.buf->data() + header_start, skip - header_start);
      stats_.header_lines_joined = dialect_.header_lines;
    }
  }
  // Lenient: a header over two full lines ("DATE,DATE" over "Start,End"), the second naming
  // columns that the rows below type otherwise.
  size_t header_rows = 0;
  if (opts_.lenient && joined.empty() && !opts_.header && !opts_.skip_lines && opts_.column_names.empty() &&
      SecondHeaderRow(data, sampled, ncols_, syntax_, pool_, &joined)) {
    header = true;
    header_rows = 2;
    const uint32_t after = std::min<uint32_t>(sampled.row_ends[1] + 1, static_cast<uint32_t>(block_.end - block_.start));
    dialect_.header_lines = CountLineBreaks(data, after) + (after == block_.end - block_.start && after > 0 &&
                                                                    data[after - 1] != '\n' && data[after - 1] != '\r'
                                                                ? 1
                                                                : 0);
    stats_.header_lines_joined = dialect_.header_lines;
  }
  dialect_.header = header;

  if (!opts_.column_names.empty()) {
    names_ = opts_.column_names;
  } else if (!joined.empty()) {
    names_ = joined;
    MakeNamesUnique(&names_);
  } else if (header && !rows.empty()) {
    names_ = HeaderNames(data, rows[0], ncols_, syntax_);
  } else {
    for (int c = 0; c < ncols_; ++c) names_.push_back(DefaultName(c, ncols_));
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
      const uint32_t at = static_cast<uint32_t>(block_.start) + PadRow(rows[0], ncols_)[c].start;
      p.line = LineAt(at);
      p.byte = offset_before_ + (at - block_.start);
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
  // A header joined from preamble lines lies before the rows: every sampled row is data.
  if (header_rows == 0) header_rows = header && joined.empty() ? 1 : 0;
  // Lenient: a header with a field too many or too few (sniffing kept it as the line of
  // names above the table) is cut or padded as a row is, and counted as a repaired row; a
  // header ending in empty cells (a trailing delimiter) is not a repair.
  if (header_rows == 1 && opts_.lenient && static_cast<int>(rows[0].size()) != ncols_) {
    bool extras_empty = static_cast<int>(rows[0].size()) > ncols_;
    for (size_t f = static_cast<size_t>(ncols_); f < rows[0].size() && extras_empty; ++f) {
      extras_empty = rows[0][f].end == rows[0][f].start;
    }
    if (!extras_empty) {
      ++stats_.rows_repaired;
      if (static_cast<int>(rows[0].size()) > ncols_) stats_.fields_dropped += static_cast<int64_t>(rows[0].size()) - ncols_;
    }
  }
  ColumnTypes types;
  // The rows after the first were typed already when the first is the header.
  const bool typed = header_rows == 1 && after_first && static_cast<int>(names_.size()) == ncols_;
  QUIVER_RETURN_NOT_OK(ResolveTypes(data, sampled, header_rows, names_, syntax_, opts_, name_, &types,
                                    typed ? &*after_first : nullptr, pool_));
  inferred_ = std::move(types.inferred);
  formats_ = std::move(types.formats);
  explicit_formats_ = std::move(types.explicit_formats);
  schema_ = std::make_shared<const Schema>(std::move(types.fields));
  shape_ = RowShape{ncols_, dialect_.comment, opts_.on_error, opts_.lenient, static_cast<uint8_t>(dialect_.delimiter_pad)};

  // Step past the header row.
  if (header_rows == 0) {
  } else if (sampled.row_ends.size() >= header_rows) {
    uint32_t after = sampled.row_ends[header_rows - 1] + 1;
    if (after > static_cast<uint32_t>(block_.end - block_.start)) after = static_cast<uint32_t>(block_.end - block_.start);
    lines_before_ += CountLineBreaks(block_.buf->data() + block_.start, after);
    block_.start += after;
    offset_before_ += after;
  } else {
    block_.start = block_.end;  // a header and nothing else
  }
  return Status::OK();
}

Status CsvReader::Impl::StartChunk(Chunk& c) {
  // Reset the per-block results, keeping every allocation for the next block.
  c.count = 0;
  c.line_breaks = 0;
  c.anomaly = false;
  c.end_known = false;
  c.rows.clear();
  c.fields.clear();
  c.unfinished = -1;
  c.rejected.clear();
  c.batches.clear();
  c.problem.reset();
  c.blank = c.repaired = c.dropped = c.nulled = c.rows_seen = 0;
  c.columns.resize(static_cast<size_t>(ncols_));
  for (int col = 0; col < ncols_; ++col) {
    QUIVER_RETURN_NOT_OK(c.columns[static_cast<size_t>(col)].Init(schema_->field(col).type, RecyclingPool::Shared(),
                                                                  split_level_.value_or(ActiveSimdLevel()),
                                                                  formats_[static_cast<size_t>(col)],
                                                                  inferred_[static_cast<size_t>(col)]));
  }
  return Status::OK();
}

// Chunks over the current block [begin, end) of the current half, each starting where the
// bytes before it leave the quote state (their quote parity), never right after an escape
// character (its effect would cross over). Chunks of about 1 MiB balance the threads; each
// is parsed in slices (slice_bytes) so that a slice's bytes and spans stay in L2 while its
// columns are converted one after another. Each chunk becomes one batch (sliced to batch_rows).
void CsvReader::Impl::SetUpChunks(uint32_t begin, uint32_t end) {
  const SplitKernels& k = Kernels();
  std::vector<Chunk>& chunks = chunks_[block_.cur];
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

// The chunks read ahead of the current block were parsed from guessed quote states. The true
// state of each follows from the chunk before: its start state xor its quote parity, which
// its split ends in (a split that stopped short has the parity taken). A chunk guessed wrong
// is parsed again from its true state with the bounds the read-ahead gave it, so the block's
// chunks, and so its batches, are what they are when parities are taken first. A wrong guess
// turns guessing off for the read.
Status CsvReader::Impl::CheckGuessedStates(uint32_t len, bool at_end) {
  std::vector<Chunk>& chunks = chunks_[block_.cur];
  const SplitKernels& k = Kernels();
  uint64_t state = 0;
  bool wrong = false;
  for (size_t i = 0; i < chunks.size(); ++i) {
    Chunk& c = chunks[i];
    uint64_t parity;
    if (c.end_known) {
      parity = (c.end_in_quote ^ c.start_in_quote) != 0 ? 1 : 0;
    } else {
      uint64_t esc = 0;
      parity = c.end > c.begin ? k.quote_parity(base() + c.begin, c.end - c.begin, split_, &esc) : 0;
    }
    const uint64_t start = state ? ~uint64_t{0} : 0;
    if (c.start_in_quote != start) {
      c.start_in_quote = start;
      wrong = true;
      const bool last = i + 1 == chunks.size();
      QueueAheadChunk(block_.cur, i, last ? len : chunks[i + 1].end - 1, last, last && at_end);
    }
    state ^= parity;
  }
  end_state_ = state;
  if (!wrong) return Status::OK();
  guess_quotes_ = false;
  return groups_[block_.cur]->Wait();
}

// Queues the parse of chunk i of the current block, which ends at `len`.
void CsvReader::Impl::SubmitChunk(size_t i, uint32_t len, bool at_end) {
  Chunk* c = &chunks_[block_.cur][i];
  groups_[block_.cur]->Submit([this, c, first = i == 0, len, at_end] {
    const SplitKernels& k = Kernels();
    Status st = StartChunk(*c);
    if (!st.ok()) {
      c->problem = ChunkProblem{c->begin, -1, st.message(), {}, ProblemKind::kOther, st.code()};
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
    if (stop == c.end) {
      c.end_in_quote = carry.in_quote;
      c.end_known = true;
    }
    if (r.anomaly) {
      c.anomaly = true;  // the block is read again by the state machine
      return;
    }
    // A row ending first in the slice ends right after its previous byte.
    const bool cr = r.cr || (at > 0 && data[at - 1] == '\r');
    done = TakeRows(shape_, k, data, c, rc, c.pos.data.get(), r.count, at, c.end, cr);
    if (!done && !rc.started && stop >= c.end) done = true;  // no row starts in this chunk
    at = stop;
    if (!done && at >= len) {
      if (at_end && carry.in_quote != 0) {
        c.anomaly = true;  // an unterminated quote: the state machine reports it
        return;
      }
      EndOfBlock(shape_, data, c, rc, len, at_end);
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
    p.byte = offset_before_ + (begin - block_.start) + err;
    p.reason = MachineErrorText(r.error);
    std::string msg = fmt::format("{}:{}:{}: {} (byte {})", name_, p.line, col + 1, p.reason, p.byte);
    return Fail(std::move(p), std::move(msg));
  }
  return Status::OK();
}

// The byte-by-byte path (comment lines, or a block the fast split could not read for sure):
// the whole block as one chunk.
Status CsvReader::Impl::ParseBlockMachine(uint32_t begin, uint32_t end, bool at_end) {
  std::vector<Chunk>& chunks = chunks_[block_.cur];
  chunks.resize(1);
  Chunk& c = chunks[0];
  c.begin = begin;
  c.end = end;
  QUIVER_RETURN_NOT_OK(StartChunk(c));
  QUIVER_RETURN_NOT_OK(SplitMachine(begin, end, at_end, c));
  RowCursor rc;
  rc.started = true;
  rc.row_start = rc.field_start = begin;
  if (!TakeRows(shape_, Kernels(), base(), c, rc, c.pos.data.get(), c.count, begin, end)) {
    EndOfBlock(shape_, base(), c, rc, end, at_end);
  }
  if (c.problem && opts_.on_error == OnError::kFail) return Status::OK();
  if (!c.rows.empty()) ConvertRows(c);
  if (c.problem && opts_.on_error == OnError::kFail) return Status::OK();
  FinishChunk(c);
  return Status::OK();
}

// The chunk's rejected rows to the handler, in file order (a row dropped for its field count
// is found while rows are assembled, one dropped for a value only when they are converted).
Status CsvReader::Impl::HandleRejects(Chunk& c) {
  if (!opts_.on_reject || c.rejected.empty()) return Status::OK();
  std::stable_sort(c.rejected.begin(), c.rejected.end(),
                   [](const Reject& a, const Reject& b) { return a.row.start < b.row.start; });
  const ProblemContext problems = Problems();
  for (const Reject& r : c.rejected) {
    std::string_view text(reinterpret_cast<const char*>(base()) + r.row.start, r.row.end - r.row.start);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    QUIVER_RETURN_NOT_OK(
        problems.PassReject(r, text, LineAt(r.row.start), offset_before_ + (r.row.start - block_.start)));
  }
  return Status::OK();
}

Status CsvReader::Impl::ProcessBlock() {
  const int64_t target = opts_.block_size * threads_;
  // One row filled the last block (nothing consumed): this round reads twice as much.
  const int64_t want = std::max<int64_t>(target, row_fills_block_ ? (block_.end - block_.start) * 2 : 0);
  bool speculated = false;
  if (ahead_.pending) QUIVER_RETURN_NOT_OK(AdoptReadAhead(want, &speculated));
  if (speculated && !block_.eof && block_.end - block_.start < want) {
    // A row fills the block: it grows, and the chunks queued for it do not cover it.
    (void)groups_[block_.cur]->Wait();
    speculated = false;
  }
  if (block_.ring && !speculated && block_.start + want + kMinRead > Limit()) QUIVER_RETURN_NOT_OK(block_.LeaveRing(want));
  QUIVER_RETURN_NOT_OK(Fill(want));
  // More input to come and threads to share it: continue in the ring (a no-op once there).
  if (pool_ != nullptr && !block_.ring && !block_.eof) QUIVER_RETURN_NOT_OK(block_.EnterRing());
  const int64_t avail = block_.end - block_.start;
  if (avail > int64_t{kPositionMask} || block_.end > int64_t{kPositionMask}) {
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
  const uint32_t begin = static_cast<uint32_t>(block_.start);
  const uint32_t len = static_cast<uint32_t>(block_.end);
  const bool at_end = block_.eof;
  std::vector<Chunk>& chunks = chunks_[block_.cur];
  const bool guessed = speculated && ahead_.guessed;
  if (speculated) {
    chunks[0].begin = begin;
    chunks[0].start_in_quote = 0;
  } else {
    SetUpChunks(begin, len);
  }
  // Guessing has just been turned off: the next block is read ahead from this one's state.
  if (guessed && !guess_quotes_ && split_.quote != 0) {
    uint64_t esc = 0;
    end_state_ = Kernels().quote_parity(base() + begin, len - begin, split_, &esc);
  }

  // The next block is read into the other half on the pool, ahead of this block's chunks, so
  // that its chunks are queued before this block's last ones finish.
  if (block_.ring && !block_.eof) {
    ahead_.pending = true;
    read_group_->Submit(
        [this, half = 1 - block_.cur, target, state = guess_quotes_ ? 0 : end_state_, guess = guess_quotes_] {
          ReadAhead(half, target, state, guess);
          return Status::OK();
        },
        /*urgent=*/true);
  }

  bool anomaly = force_machine_;
  if (!anomaly) {
    for (size_t i = 0; i < (speculated ? 1 : chunks.size()); ++i) SubmitChunk(i, len, at_end);
    QUIVER_RETURN_NOT_OK(groups_[block_.cur]->Wait());
    if (guessed) QUIVER_RETURN_NOT_OK(CheckGuessedStates(len, at_end));
    // A chunk queued before the block was read whole could only look one piece ahead for the
    // end of its last row: a longer row sends the block through again.
    bool short_sighted = false;
    for (size_t i = 1; speculated && i + 1 < chunks.size(); ++i) short_sighted |= chunks[i].unfinished >= 0;
    if (short_sighted) {
      SetUpChunks(begin, len);
      for (size_t i = 0; i < chunks.size(); ++i) SubmitChunk(i, len, at_end);
      QUIVER_RETURN_NOT_OK(groups_[block_.cur]->Wait());
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
  block_.start = consumed;
  if (at_end && block_.start >= block_.end) finished_ = true;
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

// Internal to the CSV reader: CsvReader::Impl, which runs the reader's stages over blocks, and
// its chunks. Its work is in reader.cc (blocks, chunks, read-ahead) and reader_open.cc (the first
// block: dialect, header, schema).
#pragma once

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
#include "quiver/csv/reader.h"
#include "quiver/csv/row_assembly_internal.h"
#include "quiver/csv/schema_detect_internal.h"
#include "quiver/csv/sniffer.h"
#include "quiver/csv/split_level_internal.h"
#include "quiver/csv/splitter_internal.h"
#include "quiver/csv/state_machine_internal.h"

namespace quiver::csv {

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
  bool guess_quotes_ = QuoteGuessForTesting();
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

}  // namespace quiver::csv

// CsvReader::Impl runs the reader's stages (block_buffer, schema_detect, the splitter,
// row_assembly, convert_rows, problem_report) over blocks: chunks in parallel, and the next
// block read and speculatively parsed while the current one is. The read-ahead's speculation
// and the chunk scheduling share the ring's halves, chunks and task groups, so they stay in one
// class (reader_impl_internal.h); its first block (dialect, header, schema) is reader_open.cc.
#include "quiver/csv/reader.h"

#include "quiver/csv/reader_impl_internal.h"

namespace quiver::csv {

namespace {
std::atomic<int> g_split_level{-1};  // -1: none set
std::atomic<bool> g_quote_guess{true};

}  // namespace

void SetQuoteGuessForTesting(bool guess) { g_quote_guess.store(guess); }
bool QuoteGuessForTesting() { return g_quote_guess.load(); }

void SetSplitLevelForTesting(std::optional<SimdLevel> level) {
  g_split_level.store(level ? static_cast<int>(*level) : -1);
}
std::optional<SimdLevel> SplitLevelForTesting() {
  const int v = g_split_level.load();
  if (v < 0) return std::nullopt;
  return static_cast<SimdLevel>(v);
}

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

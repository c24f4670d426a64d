// CsvReader::Impl::Init: the first block read, and from it the dialect (options and sniffer),
// the header, the column names and the schema (declared, inferred from a sample, or from the
// whole file with infer_all), before any chunk is parsed.
#include "quiver/csv/reader_impl_internal.h"

namespace quiver::csv {

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

}  // namespace quiver::csv

// JSON Lines are read in blocks cut at a line's end, each block split at line ends into pieces
// parsed on the pool (a simdjson DOM parser per piece, one document per line, so every error
// knows its line); a top-level array is parsed whole and converted in batches of elements.
#include "quiver/json/reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <deque>
#include <unordered_set>

#include "quiver/core/utf8.h"
#include "quiver/csv/input_internal.h"
#include "quiver/json/convert_internal.h"
#include "quiver/json/infer_internal.h"
#include "quiver/json/syntax_internal.h"

namespace quiver::json {
namespace {

constexpr int64_t kArrayBatchRows = 65536;
constexpr int64_t kMaxLineBytes = int64_t{1} << 30;

// Input bytes with simdjson's padding readable past their end.
struct Block {
  std::unique_ptr<char[]> data;
  size_t size = 0;
  size_t capacity = 0;
  void Reserve(size_t n) {
    if (n <= capacity) return;
    auto bigger = std::make_unique<char[]>(n + simdjson::SIMDJSON_PADDING);
    if (size > 0) std::memcpy(bigger.get(), data.get(), size);
    data = std::move(bigger);
    capacity = n;
  }
  std::string_view view() const { return {data.get(), size}; }
};

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Where and why simdjson refused a document: the plain scan's first problem, else simdjson's
// own limits (a number past float64's range, an integer past uint64's), with what was found.
SyntaxProblem Diagnose(std::string_view doc, simdjson::error_code code, std::string* found) {
  SyntaxProblem p = FindSyntaxProblem(doc, simdjson::DEFAULT_MAX_DEPTH);
  if (p.what.empty()) {
    p.what = fmt::format("{} (simdjson)", simdjson::error_message(code));
    p.offset = 0;
  }
  *found = p.offset < doc.size() ? fmt::format(", found '{}'", EscapeForMessage(doc.substr(p.offset, 1)))
                                 : std::string(", found the end of the line");
  return p;
}

// "file:line:column: malformed JSON: ..." for a document simdjson refused.
std::string SyntaxMessage(const std::string& name, int64_t line, std::string_view doc, int64_t doc_offset,
                          simdjson::error_code code) {
  std::string found;
  const SyntaxProblem p = Diagnose(doc, code, &found);
  // Line and column of the offset when the document spans lines (a top-level array).
  int64_t col = 1;
  for (size_t i = 0; i < p.offset && i < doc.size(); ++i) {
    if (doc[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return fmt::format("{}:{}:{}: malformed JSON: {}{} (byte {} of the input)", name, line, col, p.what, found,
                     doc_offset + static_cast<int64_t>(p.offset));
}

// The same for one line left out by on_error = skip, whose line the rejects already give.
std::string SyntaxReason(std::string_view line, simdjson::error_code code) {
  std::string found;
  const SyntaxProblem p = Diagnose(line, code, &found);
  return fmt::format("column {}: malformed JSON: {}{}", p.offset + 1, p.what, found);
}

class JsonReaderImpl final : public JsonReader {
 public:
  JsonReaderImpl(std::unique_ptr<csv::ByteSource> src, JsonReadOptions options)
      : src_(std::move(src)), name_(src_->name()), options_(std::move(options)) {
    if (options_.thread_pool == nullptr) options_.thread_pool = ThreadPool::Default();
    if (options_.threads > 0 && options_.threads != options_.thread_pool->num_threads()) {
      own_pool_ = std::make_unique<ThreadPool>(options_.threads);
      options_.thread_pool = own_pool_.get();
    }
    if (options_.pool == nullptr) options_.pool = default_memory_pool();
    if (options_.block_bytes < 4096) options_.block_bytes = 4096;
    for (const auto& [path, type] : options_.types) declared_.insert(path);
  }

  Status Init() {
    QUIVER_RETURN_NOT_OK(FillBlock(&first_, options_.block_bytes));
    const std::string_view v = first_.view();
    size_t i = 0;
    while (i < v.size() && IsSpace(v[i])) ++i;
    array_ = i < v.size() && v[i] == '[';
    SchemaInferrer inferrer(options_.types);
    if (array_ && skip()) {
      return Status::Invalid(fmt::format("{}: on_error skip applies to JSON Lines, and this input is a top-level array",
                                         name_));
    }
    if (array_) {
      carry_ = std::string(first_.view()) + carry_;
      QUIVER_RETURN_NOT_OK(FillBlock(&first_, std::numeric_limits<int64_t>::max()));
      auto r = parser_.parse(first_.data.get(), first_.size, false);
      if (r.error()) return Status::Invalid(SyntaxMessage(name_, 1, first_.view(), 0, r.error()));
      if (r.value_unsafe().get_array().get(array_doc_) != simdjson::SUCCESS) {
        return Status::Invalid(fmt::format("{}: not a JSON array", name_));
      }
      it_ = array_doc_.begin();
      int64_t n = 0;
      for (simdjson::dom::element e : array_doc_) {
        if (n >= options_.infer_rows) break;
        ++n;
        QUIVER_RETURN_NOT_OK(inferrer.Observe(e, fmt::format("element {}", n), fmt::format("{}: element {}", name_, n)));
      }
    } else {
      simdjson::dom::parser parser;
      int64_t line = 1, rows = 0;
      const char* p = first_.data.get();
      const char* end = p + first_.size;
      while (p < end && rows < options_.infer_rows) {
        const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
        const char* line_end = nl != nullptr ? nl : end;
        auto r = parser.parse(p, static_cast<size_t>(line_end - p), false);
        if (r.error() != simdjson::EMPTY) {
          if (r.error()) {
            if (skip()) {  // rejected when the block is parsed
              ++line;
              p = line_end + 1;
              continue;
            }
            return Status::Invalid(SyntaxMessage(name_, line, {p, static_cast<size_t>(line_end - p)},
                                                 p - first_.data.get(), r.error()));
          }
          QUIVER_RETURN_NOT_OK(inferrer.Observe(r.value_unsafe(), fmt::format("line {}", line), fmt::format("{}:{}", name_, line)));
          ++rows;
        }
        ++line;
        p = line_end + 1;
      }
      have_first_ = true;
    }
    QUIVER_ASSIGN_OR_RETURN(schema_, inferrer.Finish());
    return Status::OK();
  }

  const SchemaPtr& schema() const override { return schema_; }
  bool is_array() const override { return array_; }
  size_t read_ahead_batches() const override { return static_cast<size_t>(Pieces()); }

  stream::ReadStats stats() const override {
    stream::ReadStats s;
    s.rows_read = rows_read_;
    s.bytes_read = bytes_done_;
    s.input_position = src_->raw_position();
    s.input_size = src_->raw_size();
    s.rows_rejected = rows_rejected_;
    return s;
  }

  Result<std::shared_ptr<RecordBatch>> Next() override {
    if (array_) return NextElements();
    while (ready_.empty()) {
      if (have_first_) {
        have_first_ = false;
        QUIVER_RETURN_NOT_OK(ParseBlock(first_));
        first_ = Block();
        continue;
      }
      if (eof_ && carry_.empty()) return nullptr;
      QUIVER_RETURN_NOT_OK(FillBlock(&block_, options_.block_bytes));
      if (block_.size == 0) return nullptr;
      QUIVER_RETURN_NOT_OK(ParseBlock(block_));
    }
    auto b = std::move(ready_.front());
    ready_.pop_front();
    rows_read_ += b->num_rows();
    return b;
  }

 private:
  bool skip() const { return options_.on_error == OnError::kSkip; }
  int Pieces() const { return std::max(1, 2 * options_.thread_pool->num_threads()); }

  // The carried-over bytes, then input until `want` bytes or the end; cut after the last line
  // end (the rest carried to the next block), a block grown while no line end is in it.
  Status FillBlock(Block* b, int64_t want) {
    b->size = 0;
    b->Reserve(std::max<size_t>(static_cast<size_t>(std::min<int64_t>(want, options_.block_bytes)), carry_.size()));
    std::memcpy(b->data.get(), carry_.data(), carry_.size());
    b->size = carry_.size();
    carry_.clear();
    size_t target = static_cast<size_t>(std::min<int64_t>(want, options_.block_bytes));
    while (true) {
      while (!eof_ && b->size < target) {
        QUIVER_ASSIGN_OR_RETURN(int64_t n, src_->Read(reinterpret_cast<uint8_t*>(b->data.get()) + b->size,
                                                       static_cast<int64_t>(target - b->size)));
        if (n == 0) eof_ = true;
        b->size += static_cast<size_t>(n);
      }
      if (eof_) break;
      if (want > options_.block_bytes && b->size >= target) {  // the whole input (an array)
        target *= 2;
        b->Reserve(target);
        continue;
      }
      const void* nl = memrchr(b->data.get(), '\n', b->size);
      if (nl != nullptr) {
        const size_t cut = static_cast<size_t>(static_cast<const char*>(nl) - b->data.get()) + 1;
        carry_.assign(b->data.get() + cut, b->size - cut);
        b->size = cut;
        break;
      }
      if (static_cast<int64_t>(target) >= kMaxLineBytes) {
        return Status::Invalid(fmt::format("{}:{}: a line longer than {} bytes", name_, next_line_, kMaxLineBytes));
      }
      target *= 2;
      b->Reserve(target);
    }
    std::memset(b->data.get() + b->size, 0, simdjson::SIMDJSON_PADDING);
    return Status::OK();
  }

  struct Piece {
    size_t begin = 0, end = 0;
    int64_t lines = 0;
    std::vector<std::shared_ptr<RecordBatch>> batches;
    int64_t error_line = -1;  // within the piece, 0-based
    std::string error;        // with the place filled in once the piece's first line is known
    bool syntax = false;
    size_t error_begin = 0, error_end = 0;
    simdjson::error_code code = simdjson::SUCCESS;
    Status status;
    // on_error = skip: the lines left out, in order (line within the piece, reason, bytes).
    struct Reject {
      int64_t line;
      std::string reason;
      size_t begin, end;
    };
    std::vector<Reject> rejects;
  };

  // The rows of [from, to) of the block, lines that do not parse left out (they were rejected
  // already): the rows before a line whose conversion failed, whose converter holds part of it.
  Result<std::shared_ptr<RecordBatch>> ConvertAgain(const char* from, const char* to, simdjson::dom::parser* parser) {
    QUIVER_ASSIGN_OR_RETURN(auto conv, RowConverter::Make(schema_, declared_, options_.pool));
    while (from < to) {
      const char* nl = static_cast<const char*>(std::memchr(from, '\n', static_cast<size_t>(to - from)));
      const char* line_end = nl != nullptr ? nl : to;
      auto r = parser->parse(from, static_cast<size_t>(line_end - from), false);
      if (!r.error() && !conv->Append(r.value_unsafe())) {
        return Status::Invalid(fmt::format("{}: a row converted once did not convert again: {}", name_, conv->error()));
      }
      from = line_end + 1;
    }
    return conv->Finish();
  }

  void ParsePiece(Piece* piece, const Block& b, simdjson::dom::parser* parser) {
    auto made = RowConverter::Make(schema_, declared_, options_.pool);
    if (!made.ok()) {
      piece->status = made.status();
      return;
    }
    std::unique_ptr<RowConverter> conv = std::move(*made);
    const char* base = b.data.get();
    const char* p = base + piece->begin;
    const char* end = base + piece->end;
    const char* segment = p;  // where the converter's rows begin
    int64_t line = 0;
    while (p < end) {
      const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
      const char* line_end = nl != nullptr ? nl : end;
      const std::string_view text(p, static_cast<size_t>(line_end - p));
      auto r = parser->parse(p, text.size(), false);
      if (r.error() != simdjson::EMPTY) {
        if (r.error()) {
          if (skip()) {
            piece->rejects.push_back({line, SyntaxReason(text, r.error()), static_cast<size_t>(p - base),
                                      static_cast<size_t>(line_end - base)});
          } else {
            piece->error_line = line;
            piece->syntax = true;
            piece->code = r.error();
            piece->error_begin = static_cast<size_t>(p - base);
            piece->error_end = static_cast<size_t>(line_end - base);
            return;
          }
        } else if (!conv->Append(r.value_unsafe())) {
          if (!skip()) {
            piece->error_line = line;
            piece->error = conv->error();
            return;
          }
          piece->rejects.push_back({line, conv->error(), static_cast<size_t>(p - base), static_cast<size_t>(line_end - base)});
          auto before = ConvertAgain(segment, p, parser);
          if (!before.ok()) {
            piece->status = before.status();
            return;
          }
          if ((*before)->num_rows() > 0) piece->batches.push_back(std::move(*before));
          made = RowConverter::Make(schema_, declared_, options_.pool);
          if (!made.ok()) {
            piece->status = made.status();
            return;
          }
          conv = std::move(*made);
          segment = line_end + 1;
        }
      }
      ++line;
      p = line_end + 1;
    }
    piece->lines = line;
    auto batch = conv->Finish();
    if (!batch.ok()) {
      piece->status = batch.status();
      return;
    }
    piece->batches.push_back(std::move(*batch));
  }

  Status ParseBlock(const Block& b) {
    const size_t size = b.size;
    const int k = static_cast<int>(std::clamp<size_t>(size / (64 << 10), 1, static_cast<size_t>(Pieces())));
    std::vector<Piece> pieces(static_cast<size_t>(k));
    size_t start = 0;
    for (int i = 0; i < k; ++i) {
      size_t cut = size;
      if (i + 1 < k) {
        const size_t target = std::max(start, size * static_cast<size_t>(i + 1) / static_cast<size_t>(k));
        const void* nl = std::memchr(b.data.get() + target, '\n', size - target);
        cut = nl != nullptr ? static_cast<size_t>(static_cast<const char*>(nl) - b.data.get()) + 1 : size;
      }
      pieces[static_cast<size_t>(i)].begin = start;
      pieces[static_cast<size_t>(i)].end = cut;
      start = cut;
    }
    while (parsers_.size() < pieces.size()) parsers_.push_back(std::make_unique<simdjson::dom::parser>());
    {
      TaskGroup tg(options_.thread_pool);
      for (size_t i = 0; i < pieces.size(); ++i) {
        if (pieces[i].begin == pieces[i].end) continue;
        tg.Submit([this, &pieces, &b, i] {
          ParsePiece(&pieces[i], b, parsers_[i].get());
          return Status::OK();
        });
      }
      QUIVER_RETURN_NOT_OK(tg.Wait());
    }
    int64_t line = next_line_;
    for (Piece& piece : pieces) {
      if (piece.begin == piece.end) continue;
      QUIVER_RETURN_NOT_OK(piece.status);
      if (piece.error_line >= 0) {
        const int64_t at = line + piece.error_line;
        if (piece.syntax) {
          return Status::Invalid(SyntaxMessage(
              name_, at, {b.data.get() + piece.error_begin, piece.error_end - piece.error_begin},
              bytes_done_ + static_cast<int64_t>(piece.error_begin), piece.code));
        }
        return Status::Invalid(fmt::format("{}:{}: {}", name_, at, piece.error));
      }
      for (const Piece::Reject& r : piece.rejects) {
        ++rows_rejected_;
        if (options_.on_reject) {
          QUIVER_RETURN_NOT_OK(options_.on_reject(line + r.line, r.reason, {b.data.get() + r.begin, r.end - r.begin}));
        }
      }
      line += piece.lines;
      for (auto& batch : piece.batches) {
        if (batch->num_rows() > 0) ready_.push_back(std::move(batch));
      }
    }
    next_line_ = line;
    bytes_done_ += static_cast<int64_t>(size);
    return Status::OK();
  }

  Result<std::shared_ptr<RecordBatch>> NextElements() {
    if (it_ == array_doc_.end()) {
      bytes_done_ = static_cast<int64_t>(first_.size);
      return nullptr;
    }
    QUIVER_ASSIGN_OR_RETURN(auto conv, RowConverter::Make(schema_, declared_, options_.pool));
    int64_t n = 0;
    for (; it_ != array_doc_.end() && n < kArrayBatchRows; ++it_, ++n) {
      ++element_;
      if (!conv->Append(*it_)) {
        return Status::Invalid(fmt::format("{}: element {}: {}", name_, element_, conv->error()));
      }
    }
    QUIVER_ASSIGN_OR_RETURN(auto batch, conv->Finish());
    rows_read_ += batch->num_rows();
    return batch;
  }

  std::unique_ptr<csv::ByteSource> src_;
  std::string name_;
  JsonReadOptions options_;
  std::unique_ptr<ThreadPool> own_pool_;  // options_.threads' pool, when the given one differs
  std::unordered_set<std::string> declared_;
  SchemaPtr schema_;
  bool array_ = false;
  bool eof_ = false;
  bool have_first_ = false;
  Block first_, block_;
  std::string carry_;
  int64_t next_line_ = 1;
  int64_t bytes_done_ = 0;
  int64_t rows_read_ = 0;
  int64_t rows_rejected_ = 0;
  std::deque<std::shared_ptr<RecordBatch>> ready_;
  std::vector<std::unique_ptr<simdjson::dom::parser>> parsers_;
  // A top-level array: its document, and the next element.
  simdjson::dom::parser parser_;
  simdjson::dom::array array_doc_;
  simdjson::dom::array::iterator it_;
  int64_t element_ = 0;
};

Result<std::unique_ptr<JsonReader>> Finish(std::unique_ptr<csv::ByteSource> src, JsonReadOptions options) {
  auto r = std::make_unique<JsonReaderImpl>(std::move(src), std::move(options));
  QUIVER_RETURN_NOT_OK(r->Init());
  return std::unique_ptr<JsonReader>(std::move(r));
}

}  // namespace

JsonReader::~JsonReader() = default;

Result<std::unique_ptr<JsonReader>> JsonReader::Open(const std::string& path, JsonReadOptions options) {
  QUIVER_ASSIGN_OR_RETURN(auto src, csv::OpenByteSource(path, csv::Encoding::kUtf8));
  return Finish(std::move(src), std::move(options));
}

Result<std::unique_ptr<JsonReader>> JsonReader::OpenBuffer(std::shared_ptr<Buffer> bytes, std::string name,
                                                           JsonReadOptions options) {
  QUIVER_ASSIGN_OR_RETURN(auto src, csv::OpenMemoryByteSource(std::move(bytes), std::move(name), csv::Encoding::kUtf8));
  return Finish(std::move(src), std::move(options));
}

}  // namespace quiver::json

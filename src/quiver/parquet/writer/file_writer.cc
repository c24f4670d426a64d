#include "quiver/parquet/writer/file_writer.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstring>
#include <numeric>

#include "quiver/core/arena.h"
#include "quiver/core/recycling_pool.h"
#include "quiver/core/utf8.h"
#include "quiver/parquet/metadata_codec.h"
#include "quiver/parquet/writer/column_writer_internal.h"
#include "quiver/parquet/writer/encryption_internal.h"
#include "quiver/parquet/writer/value_writer_internal.h"

namespace quiver::parquet {

using writer::ColumnChunkHistory;
using writer::ColumnChunkMeta;
using writer::ColumnWriterOptions;
using writer::EncodedColumnChunk;
using writer::LeafColumn;
using writer::LeafPath;
using writer::LeafPiece;
using writer::LeafType;
using writer::RowGroupMeta;
using writer::EncodeColumnChunk;
using writer::EncodeLeafColumnChunk;
using writer::LeafPathsOf;
using writer::LeafTypeFor;
using writer::ShredLeaf;

Status CheckEncoding(Encoding e, Type physical) {
  bool ok = false;
  switch (e) {
    case Encoding::PLAIN: ok = true; break;
    case Encoding::DELTA_BINARY_PACKED: ok = physical == Type::INT32 || physical == Type::INT64; break;
    case Encoding::DELTA_LENGTH_BYTE_ARRAY: ok = physical == Type::BYTE_ARRAY; break;
    // The spec also allows FIXED_LEN_BYTE_ARRAY, but Polars 0.25 refuses it.
    case Encoding::DELTA_BYTE_ARRAY: ok = physical == Type::BYTE_ARRAY; break;
    // The spec also allows INT32, INT64 and FIXED_LEN_BYTE_ARRAY, but DuckDB 1.5 refuses those.
    case Encoding::BYTE_STREAM_SPLIT: ok = physical == Type::FLOAT || physical == Type::DOUBLE; break;
    default: break;
  }
  if (ok) return Status::OK();
  return Status::Invalid(fmt::format("encoding {} does not apply to {} values", EncodingName(e), TypeName(physical)));
}

Result<Encoding> EncodingFromName(std::string_view name) {
  std::string n(name);
  for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (n == "plain") return Encoding::PLAIN;
  if (n == "delta_binary_packed") return Encoding::DELTA_BINARY_PACKED;
  if (n == "delta_length_byte_array") return Encoding::DELTA_LENGTH_BYTE_ARRAY;
  if (n == "delta_byte_array") return Encoding::DELTA_BYTE_ARRAY;
  if (n == "byte_stream_split") return Encoding::BYTE_STREAM_SPLIT;
  return Status::Invalid(fmt::format(
      "unknown encoding '{}' (plain, delta_binary_packed, delta_length_byte_array, delta_byte_array, byte_stream_split)",
      name));
}

namespace {

constexpr char kMagic[] = "PAR1";
constexpr char kCreatedBy[] = "quiver version " QUIVER_VERSION_STRING;

template <typename T>
Result<List<T>> MakeList(Arena* arena, int64_t n) {
  QUIVER_ASSIGN_OR_RETURN(T * p, arena->AllocateArray<T>(n));
  return List<T>(p, static_cast<uint32_t>(n));
}

// Bytes of a's rows: exact for flat columns (slices included), the whole buffers for nested ones.
int64_t BufferBytes(const ArrayData& a) {
  const int64_t bits = a.validity() != nullptr ? (a.length + 7) / 8 : 0;
  if (a.type->is_fixed_width()) return (a.type->bit_width() * a.length + 7) / 8 + bits;
  if (a.type->is_binary_like()) {
    const int32_t* o = a.values<int32_t>(1);
    return 4 * a.length + (o[a.length] - o[0]) + bits;
  }
  int64_t n = 0;
  for (const auto& b : a.buffers) n += b ? b->size() : 0;
  for (const auto& c : a.children) n += BufferBytes(*c);
  return n;
}

// Parquet has no empty groups, nor unions.
Status CheckWritable(const Field& f) {
  const DataType& t = *f.type;
  if (t.id() == TypeId::kStruct && t.num_fields() == 0) {
    return Status::NotImplemented("a struct without fields has no Parquet form");
  }
  if (t.id() == TypeId::kDenseUnion) {
    return Status::NotImplemented(
        fmt::format("Parquet has no union type, so {} cannot be written; write ORC or Arrow IPC instead", t.ToString()));
  }
  for (const Field& c : t.fields()) QUIVER_RETURN_NOT_OK(CheckWritable(c));
  return Status::OK();
}

// Schema elements of `f` and its descendants, depth first: LIST as the three-level
// `group (LIST) { repeated group list { element } }` (the element keeps quiver's child name),
// MAP as `group (MAP) { repeated group key_value { required key; value } }`.
Status AppendSchema(const Field& f, FieldRepetitionType repetition, Arena* arena, std::vector<SchemaElement>* out) {
  SchemaElement e;
  e.name = f.name;
  e.repetition_type = repetition;
  const DataType& t = *f.type;
  auto group = [&](int children, std::optional<ConvertedType> ct, auto set_logical) -> Status {
    e.num_children = children;
    e.converted_type = ct;
    if (ct) {
      LogicalType* lt = e.logicalType.Emplace(arena);
      if (lt == nullptr) return Status::OutOfMemory("footer arena");
      set_logical(lt);
    }
    out->push_back(e);
    return Status::OK();
  };
  auto opt = [](const Field& c) { return c.nullable ? FieldRepetitionType::OPTIONAL : FieldRepetitionType::REQUIRED; };
  switch (t.id()) {
    case TypeId::kList: {
      QUIVER_RETURN_NOT_OK(group(1, ConvertedType::LIST, [](LogicalType* lt) { lt->LIST = ListType{}; }));
      SchemaElement r;
      r.name = "list";
      r.repetition_type = FieldRepetitionType::REPEATED;
      r.num_children = 1;
      out->push_back(r);
      return AppendSchema(t.field(0), opt(t.field(0)), arena, out);
    }
    case TypeId::kMap: {
      QUIVER_RETURN_NOT_OK(group(1, ConvertedType::MAP, [](LogicalType* lt) { lt->MAP = MapType{}; }));
      const DataType& entries = *t.field(0).type;
      SchemaElement r;
      r.name = "key_value";
      r.repetition_type = FieldRepetitionType::REPEATED;
      r.num_children = entries.num_fields();
      out->push_back(r);
      QUIVER_RETURN_NOT_OK(AppendSchema(entries.field(0), FieldRepetitionType::REQUIRED, arena, out));
      for (int k = 1; k < entries.num_fields(); ++k) {
        QUIVER_RETURN_NOT_OK(AppendSchema(entries.field(k), opt(entries.field(k)), arena, out));
      }
      return Status::OK();
    }
    case TypeId::kStruct: {
      QUIVER_RETURN_NOT_OK(group(t.num_fields(), std::nullopt, [](LogicalType*) {}));
      for (const Field& c : t.fields()) QUIVER_RETURN_NOT_OK(AppendSchema(c, opt(c), arena, out));
      return Status::OK();
    }
    default: {
      QUIVER_ASSIGN_OR_RETURN(LeafType l, LeafTypeFor(t));
      e.type = l.physical;
      if (l.physical == Type::FIXED_LEN_BYTE_ARRAY) e.type_length = l.type_length;
      e.converted_type = l.converted;
      if (l.logical) {
        LogicalType* lt = e.logicalType.Emplace(arena);
        if (lt == nullptr) return Status::OutOfMemory("footer arena");
        *lt = *l.logical;
        if (lt->DECIMAL) {
          e.scale = l.scale;
          e.precision = l.precision;
        }
      }
      out->push_back(e);
      return Status::OK();
    }
  }
}

// Every string of the footer must be UTF-8, or other engines refuse the file (DuckDB:
// "Invalid unicode"): names at every depth, and key-value metadata. Checked before a byte is
// written, whoever built the schema.
Status CheckNameText(const Field& f, std::string* path) {
  const size_t before = path->size();
  if (!path->empty()) path->push_back('.');
  *path += f.name;
  if (!IsValidUtf8(f.name)) {
    return Status::Invalid(fmt::format("column name \"{}\" is not valid UTF-8 (Parquet names are UTF-8 text)",
                                       EscapeForMessage(*path)));
  }
  for (int i = 0; i < f.type->num_fields(); ++i) QUIVER_RETURN_NOT_OK(CheckNameText(f.type->field(i), path));
  path->resize(before);
  return Status::OK();
}

Status CheckMetadataText(const Schema& schema, const KeyValueMetadata& extra) {
  for (const Field& f : schema.fields()) {
    std::string path;
    QUIVER_RETURN_NOT_OK(CheckNameText(f, &path));
  }
  for (const KeyValueMetadata* kv : {&schema.metadata(), &extra}) {
    for (const auto& [key, value] : *kv) {
      if (!IsValidUtf8(key)) {
        return Status::Invalid(fmt::format("key-value metadata key \"{}\" is not valid UTF-8", EscapeForMessage(key)));
      }
      if (!IsValidUtf8(value)) {
        return Status::Invalid(fmt::format("key-value metadata value of \"{}\" is not valid UTF-8: \"{}\"",
                                           EscapeForMessage(key), EscapeForMessage(value)));
      }
    }
  }
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<ParquetFileWriter>> ParquetFileWriter::Open(io::OutputStream* out, SchemaPtr schema,
                                                                   ParquetWriterOptions options) {
  if (options.row_group_rows <= 0) return Status::Invalid("row group size must be positive");
  if (options.row_group_bytes < 0) return Status::Invalid("row group byte size must not be negative");
  if (options.page_size <= 0) return Status::Invalid("page size must be positive");
  if (options.page_check_rows < 1 || options.page_check_rows > writer::kSliceRows) {
    return Status::Invalid(fmt::format("page check rows must be 1..{}, got {}", writer::kSliceRows, options.page_check_rows));
  }
  if (options.page_version != 1 && options.page_version != 2) {
    return Status::Invalid(fmt::format("data page version must be 1 or 2, got {}", options.page_version));
  }
  if (!compress::IsCodecSupported(options.codec) || options.codec == compress::Codec::kLz4Hadoop) {
    // The Hadoop-framed LZ4 is deprecated and read inconsistently; LZ4_RAW replaces it.
    return Status::NotImplemented(fmt::format("writing {} pages", compress::CodecName(options.codec)));
  }
  QUIVER_RETURN_NOT_OK(CheckMetadataText(*schema, options.key_value_metadata));
  std::unique_ptr<ParquetFileWriter> w(new ParquetFileWriter());
  for (int i = 0; i < schema->num_fields(); ++i) {
    const Field& f = schema->field(i);
    QUIVER_RETURN_NOT_OK(CheckWritable(f).WithContext(fmt::format("column '{}'", f.name)));
    for (LeafPath& p : LeafPathsOf(f)) {
      LeafColumn leaf;
      leaf.top = i;
      leaf.flat = !f.type->is_nested();
      auto t = LeafTypeFor(*p.fields.back()->type);
      if (!t.ok()) return t.status().WithContext(fmt::format("column '{}'", fmt::join(p.path_in_schema, ".")));
      leaf.type = *t;
      leaf.path = std::move(p);
      w->leaves_.push_back(std::move(leaf));
    }
  }
  for (const auto& [name, enc] : options.column_encodings) {
    bool found = false;
    for (LeafColumn& leaf : w->leaves_) {
      const std::string dotted = fmt::format("{}", fmt::join(leaf.path.path_in_schema, "."));
      if (name != dotted && name != leaf.path.path_in_schema[0]) continue;
      found = true;
      QUIVER_RETURN_NOT_OK(CheckEncoding(enc, leaf.type.physical).WithContext(fmt::format("column '{}'", dotted)));
      leaf.encoding = enc;
    }
    if (!found) return Status::Invalid(fmt::format("encoding for an unknown column '{}'", name));
  }
  for (const auto& [name, bloom] : options.bloom_filters) {
    if (!(bloom.fpp > 0 && bloom.fpp < 1)) {
      return Status::Invalid(fmt::format("bloom filter false-positive probability must be in (0, 1), got {}", bloom.fpp));
    }
    if (bloom.ndv < 0) return Status::Invalid(fmt::format("bloom filter distinct values must not be negative, got {}", bloom.ndv));
    bool found = false;
    for (LeafColumn& leaf : w->leaves_) {
      const std::string dotted = fmt::format("{}", fmt::join(leaf.path.path_in_schema, "."));
      if (name != dotted && name != leaf.path.path_in_schema[0]) continue;
      found = true;
      if (leaf.type.physical == Type::BOOLEAN) {
        return Status::Invalid(fmt::format("column '{}': no bloom filter for BOOLEAN values", dotted));
      }
      leaf.bloom_filter = bloom;
    }
    if (!found) {
      std::vector<std::string_view> names;
      for (const Field& f : schema->fields()) names.push_back(f.name);
      return Status::Invalid(
          fmt::format("bloom filter for an unknown column '{}' (columns: {})", name, fmt::join(names, ", ")));
    }
  }
  w->history_.resize(w->leaves_.size());
  w->encode_ns_.assign(w->leaves_.size(), 0);
  w->memory_ = static_cast<int64_t>(sizeof(ParquetFileWriter) +
                                    w->leaves_.size() * (sizeof(LeafColumn) + sizeof(ColumnChunkHistory)));
  for (const LeafColumn& leaf : w->leaves_) {
    for (const auto& n : leaf.path.path_in_schema) w->memory_ += static_cast<int64_t>(sizeof(n) + n.capacity());
    w->memory_ += static_cast<int64_t>(leaf.path.fields.capacity() * sizeof(void*));
  }
  w->out_ = out;
  w->schema_ = std::move(schema);
  w->options_ = std::move(options);
  w->chunk_pool_ = RecyclingPool::Make(w->options_.pool);
  if (w->options_.encryption.enabled()) {
    QUIVER_ASSIGN_OR_RETURN(w->encryptor_, writer::FileEncryptor::Make(std::move(w->options_.encryption), w->leaves_));
    w->options_.encryption = EncryptionOptions();
  }
  QUIVER_RETURN_NOT_OK(out->Write(w->encryptor_ ? w->encryptor_->magic() : kMagic, 4));
  return w;
}

ParquetFileWriter::~ParquetFileWriter() {
  // An abandoned writer (an error elsewhere) still waits for its encoding tasks.
  in_flight_.reset();
  if (chunk_pool_ != nullptr) chunk_pool_->Close();
}

Status ParquetFileWriter::Write(const std::shared_ptr<RecordBatch>& batch) {
  if (closed_) return Status::Invalid("Write after Close");
  if (batch->num_columns() != schema_->num_fields()) {
    return Status::Invalid(fmt::format("batch has {} columns, the file {}", batch->num_columns(), schema_->num_fields()));
  }
  for (int i = 0; i < batch->num_columns(); ++i) {
    if (!batch->column(i).type()->Equals(*schema_->field(i).type)) {
      return Status::Invalid(fmt::format("column '{}': batch type {} differs from the file's {}", schema_->field(i).name,
                                         batch->column(i).type()->ToString(), schema_->field(i).type->ToString()));
    }
  }
  double row_bytes = 0;  // for row_group_bytes
  if (options_.row_group_bytes > 0 && batch->num_rows() > 0) {
    int64_t total = 0;
    for (int i = 0; i < batch->num_columns(); ++i) total += BufferBytes(*batch->column(i).data());
    row_bytes = static_cast<double>(total) / static_cast<double>(batch->num_rows());
  }
  int64_t offset = 0;
  while (offset < batch->num_rows()) {
    int64_t room = options_.row_group_rows - pending_rows_;
    if (row_bytes > 0) {
      const double left = static_cast<double>(options_.row_group_bytes) - pending_bytes_;
      room = std::clamp(static_cast<int64_t>(std::ceil(left / row_bytes)), int64_t{1}, room);
    }
    const int64_t take = std::min(room, batch->num_rows() - offset);
    pending_.push_back(offset == 0 && take == batch->num_rows() ? batch : batch->Slice(offset, take));
    pending_rows_ += take;
    pending_bytes_ += static_cast<double>(take) * row_bytes;
    offset += take;
    if (pending_rows_ >= options_.row_group_rows ||
        (options_.row_group_bytes > 0 && pending_bytes_ >= static_cast<double>(options_.row_group_bytes))) {
      QUIVER_RETURN_NOT_OK(StartRowGroup());
    }
  }
  return Status::OK();
}

struct ParquetFileWriter::InFlight {
  explicit InFlight(ThreadPool* pool) : group(pool) {}
  std::vector<std::shared_ptr<RecordBatch>> batches;
  int64_t rows = 0;
  ColumnWriterOptions options;
  std::vector<EncodedColumnChunk> chunks;
  TaskGroup group;
};

int64_t ParquetFileWriter::num_rows() const {
  return rows_written_ + (in_flight_ ? in_flight_->rows : 0) + pending_rows_;
}

int ParquetFileWriter::num_row_groups() const {
  return static_cast<int>(row_groups_.size()) + (in_flight_ ? 1 : 0);
}

Status ParquetFileWriter::FlushRowGroup() {
  QUIVER_RETURN_NOT_OK(StartRowGroup());
  return FinishRowGroup();
}

// Leaf i's chunk of the group in flight, on a pool thread.
Status ParquetFileWriter::EncodeChunk(int i, InFlight& f, size_t index) {
  const LeafColumn& leaf = leaves_[static_cast<size_t>(i)];
  EncodedColumnChunk* out = &f.chunks[static_cast<size_t>(i)];
  ColumnWriterOptions lo = f.options;
  lo.encoding = leaf.encoding;
  lo.bloom_filter = leaf.bloom_filter;
  Status st;
  if (leaf.flat) {
    std::vector<Array> pieces;
    pieces.reserve(f.batches.size());
    for (const auto& b : f.batches) pieces.push_back(b->column(leaf.top));
    st = EncodeColumnChunk(schema_->field(leaf.top), leaf.type, pieces, lo, out, &history_[static_cast<size_t>(i)]);
  } else {
    std::vector<LeafPiece> pieces;
    pieces.reserve(f.batches.size());
    for (const auto& b : f.batches) {
      auto p = ShredLeaf(leaf.path, b->column(leaf.top));
      if (!p.ok()) {
        st = p.status();
        break;
      }
      pieces.push_back(std::move(*p));
    }
    if (st.ok()) {
      st = EncodeLeafColumnChunk(*leaf.path.fields.back(), leaf.type, leaf.path, pieces, lo, out,
                                 &history_[static_cast<size_t>(i)]);
    }
  }
  if (!st.ok()) {
    return st.WithContext(fmt::format("row group {}, column '{}'", index, fmt::join(leaf.path.path_in_schema, ".")));
  }
  return st;
}

Status ParquetFileWriter::StartRowGroup() {
  // The group in flight is encoded (each column's history is then past it) before the next
  // one's chunks are queued, and written after: the calling thread's writes, and the page
  // cache drops they start, overlap the pool's encoding instead of leaving it idle.
  std::unique_ptr<InFlight> done = std::move(in_flight_);
  if (done) {
    QUIVER_RETURN_NOT_OK(done->group.Wait());
    done->batches.clear();  // the rows are encoded: free them before the next group's encode
  }
  if (pending_rows_ > 0) QueueRowGroup(row_groups_.size() + (done ? 1 : 0));
  if (done) QUIVER_RETURN_NOT_OK(WriteRowGroup(*done));
  return Status::OK();
}

void ParquetFileWriter::QueueRowGroup(size_t index) {
  const int ncols = static_cast<int>(leaves_.size());
  auto g = std::make_unique<InFlight>(options_.thread_pool);
  static_cast<ColumnChunkOptions&>(g->options) = options_;
  g->options.pool = chunk_pool_;
  g->batches = std::move(pending_);
  g->rows = pending_rows_;
  pending_.clear();
  pending_rows_ = 0;
  pending_bytes_ = 0;
  g->chunks.reserve(static_cast<size_t>(ncols));
  for (int i = 0; i < ncols; ++i) g->chunks.emplace_back(chunk_pool_);
  InFlight* f = g.get();
  in_flight_ = std::move(g);
  // Costliest first, by the time each column's last chunk took: in column order a long chunk
  // (a string column, often last) could start last and end the group on one core while the
  // rest of the pool had nothing left of it.
  std::vector<int> order(static_cast<size_t>(ncols));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [this](int a, int b) { return encode_ns_[static_cast<size_t>(a)] > encode_ns_[static_cast<size_t>(b)]; });
  for (int i : order) {
    f->group.Submit([this, i, f, index]() -> Status {
      const auto start = std::chrono::steady_clock::now();
      Status st = EncodeChunk(i, *f, index);
      encode_ns_[static_cast<size_t>(i)] = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                               std::chrono::steady_clock::now() - start).count();
      return st;
    });
  }
}

Status ParquetFileWriter::FinishRowGroup() {
  if (!in_flight_) return Status::OK();
  std::unique_ptr<InFlight> g = std::move(in_flight_);
  QUIVER_RETURN_NOT_OK(g->group.Wait());
  g->batches.clear();  // the rows are encoded: free them before writing
  return WriteRowGroup(*g);
}

Status ParquetFileWriter::WriteRowGroup(InFlight& g) {
  const int ncols = static_cast<int>(leaves_.size());
  RowGroupMeta rg;
  rg.num_rows = g.rows;
  rg.file_offset = out_->Tell();
  for (int i = 0; i < ncols; ++i) {
    EncodedColumnChunk& c = g.chunks[static_cast<size_t>(i)];
    ColumnChunkMeta info = std::move(c.meta);
    info.file_offset = out_->Tell();
    if (!options_.page_index) info.pages = {};
    if (encryptor_ && encryptor_->encrypted(i)) {
      // Every page again as its header's and body's modules; offsets and sizes follow.
      BufferBuilder enc(chunk_pool_);
      QUIVER_RETURN_NOT_OK(encryptor_->EncryptChunk(static_cast<int>(row_groups_.size()), i, c, &info, &enc));
      QUIVER_RETURN_NOT_OK(out_->Write(enc.data(), enc.size()));
    } else {
      if (c.dictionary_page.size() > 0) {
        QUIVER_RETURN_NOT_OK(out_->Write(c.dictionary_page.data(), c.dictionary_page.size()));
      }
      QUIVER_RETURN_NOT_OK(out_->Write(c.bytes.data(), c.bytes.size()));
    }
    // Release the chunk's memory before the next one is written.
    c.dictionary_page = BufferBuilder(chunk_pool_);
    c.bytes = BufferBuilder(chunk_pool_);
    rg.total_byte_size += info.total_uncompressed_size;
    rg.total_compressed_size += info.total_compressed_size;
    rg.columns.push_back(std::move(info));
  }
  // Bloom filters right after their row group's chunks (the spec allows them anywhere before
  // the footer): each is written and freed as soon as its group is, never held to the end.
  BufferBuilder buf(options_.pool);
  for (int i = 0; i < ncols; ++i) {
    EncodedColumnChunk& c = g.chunks[static_cast<size_t>(i)];
    if (!c.bloom_filter) continue;
    buf.Clear();
    QUIVER_RETURN_NOT_OK(c.bloom_filter->Serialize(&buf));
    if (encryptor_ && encryptor_->encrypted(i)) {
      BufferBuilder enc(options_.pool);
      QUIVER_RETURN_NOT_OK(encryptor_->EncryptBloomFilter(static_cast<int>(row_groups_.size()), i, writer::Span(buf), &enc));
      buf.Clear();
      QUIVER_RETURN_NOT_OK(buf.Append(enc.data(), enc.size()));
    }
    ColumnChunkMeta& info = rg.columns[static_cast<size_t>(i)];
    info.bloom_filter_offset = out_->Tell();
    info.bloom_filter_length = static_cast<int32_t>(buf.size());
    QUIVER_RETURN_NOT_OK(out_->Write(buf.data(), buf.size()));
    c.bloom_filter.reset();
  }
  // What the footer's part of this group keeps in memory until Close.
  auto heap = [](const std::optional<std::string>& v) -> int64_t {
    return v && v->capacity() > 15 ? static_cast<int64_t>(v->capacity()) + 1 : 0;
  };
  memory_ += static_cast<int64_t>(sizeof(RowGroupMeta) + rg.columns.capacity() * sizeof(ColumnChunkMeta));
  for (const ColumnChunkMeta& c : rg.columns) {
    memory_ += heap(c.min) + heap(c.max) + static_cast<int64_t>(c.pages.capacity() * sizeof(ColumnChunkMeta::Page));
    for (const auto& p : c.pages) memory_ += heap(p.min) + heap(p.max);
  }
  row_groups_.push_back(std::move(rg));
  rows_written_ += g.rows;
  return Status::OK();
}

// Every chunk's ColumnIndex, then every chunk's OffsetIndex (the layout other writers use, so a
// reader fetches each kind in one read). A chunk with a page that has values but no bounds
// (NaN only, float16) gets no ColumnIndex.
Status ParquetFileWriter::WritePageIndex() {
  if (!options_.page_index) return Status::OK();
  BufferBuilder buf(options_.pool);
  Arena arena(options_.pool);
  BufferBuilder enc(options_.pool);
  // An encrypted column's index as its module.
  auto seal = [&](size_t g, size_t i, crypto::Module m) -> Status {
    if (!encryptor_ || !encryptor_->encrypted(static_cast<int>(i))) return Status::OK();
    enc.Clear();
    QUIVER_RETURN_NOT_OK(encryptor_->EncryptModule(static_cast<int>(g), static_cast<int>(i), m, writer::Span(buf), &enc));
    buf.Clear();
    return buf.Append(enc.data(), enc.size());
  };
  for (size_t g = 0; g < row_groups_.size(); ++g) {
    RowGroupMeta& rg = row_groups_[g];
    for (size_t ci_i = 0; ci_i < rg.columns.size(); ++ci_i) {
      ColumnChunkMeta& c = rg.columns[ci_i];
      const size_t n = c.pages.size();
      bool valid = n > 0;
      for (const auto& p : c.pages) valid = valid && (p.null_page || p.min.has_value());
      if (!valid) continue;
      ColumnIndex ci;
      QUIVER_ASSIGN_OR_RETURN(ci.null_pages, MakeList<bool>(&arena, static_cast<int64_t>(n)));
      QUIVER_ASSIGN_OR_RETURN(ci.min_values, MakeList<Binary>(&arena, static_cast<int64_t>(n)));
      QUIVER_ASSIGN_OR_RETURN(ci.max_values, MakeList<Binary>(&arena, static_cast<int64_t>(n)));
      QUIVER_ASSIGN_OR_RETURN(List<int64_t> nulls, MakeList<int64_t>(&arena, static_cast<int64_t>(n)));
      for (size_t i = 0; i < n; ++i) {
        const auto& p = c.pages[i];
        ci.null_pages[i] = p.null_page;
        // Null pages have empty bounds (the spec's rule).
        ci.min_values[i] = p.null_page || !p.min ? std::string_view() : std::string_view(*p.min);
        ci.max_values[i] = p.null_page || !p.max ? std::string_view() : std::string_view(*p.max);
        nulls[i] = p.null_count;
      }
      ci.null_counts = nulls;
      ci.boundary_order = c.boundary_order;
      buf.Clear();
      QUIVER_RETURN_NOT_OK(EncodeColumnIndex(ci, &buf));
      QUIVER_RETURN_NOT_OK(seal(g, ci_i, crypto::Module::kColumnIndex));
      c.column_index_offset = out_->Tell();
      c.column_index_length = static_cast<int32_t>(buf.size());
      QUIVER_RETURN_NOT_OK(out_->Write(buf.data(), buf.size()));
    }
  }
  for (size_t g = 0; g < row_groups_.size(); ++g) {
    RowGroupMeta& rg = row_groups_[g];
    for (size_t ci_i = 0; ci_i < rg.columns.size(); ++ci_i) {
      ColumnChunkMeta& c = rg.columns[ci_i];
      if (c.pages.empty()) continue;
      OffsetIndex oi;
      QUIVER_ASSIGN_OR_RETURN(oi.page_locations, MakeList<PageLocation>(&arena, static_cast<int64_t>(c.pages.size())));
      for (size_t i = 0; i < c.pages.size(); ++i) {
        oi.page_locations[i] =
            PageLocation{c.file_offset + c.pages[i].offset, c.pages[i].compressed_size, c.pages[i].first_row};
      }
      buf.Clear();
      QUIVER_RETURN_NOT_OK(EncodeOffsetIndex(oi, &buf));
      QUIVER_RETURN_NOT_OK(seal(g, ci_i, crypto::Module::kOffsetIndex));
      c.offset_index_offset = out_->Tell();
      c.offset_index_length = static_cast<int32_t>(buf.size());
      QUIVER_RETURN_NOT_OK(out_->Write(buf.data(), buf.size()));
    }
  }
  return Status::OK();
}

Status ParquetFileWriter::Close() {
  if (closed_) return Status::OK();
  QUIVER_RETURN_NOT_OK(FlushRowGroup());
  closed_ = true;
  QUIVER_RETURN_NOT_OK(WritePageIndex());
  Arena arena(options_.pool);
  const int ncols = static_cast<int>(leaves_.size());
  FileMetaData md;
  md.version = 2;
  md.num_rows = rows_written_;
  md.created_by = std::string_view(kCreatedBy);

  std::vector<SchemaElement> elements(1);
  elements[0].name = "schema";
  elements[0].num_children = schema_->num_fields();
  for (const Field& f : schema_->fields()) {
    QUIVER_RETURN_NOT_OK(AppendSchema(
        f, f.nullable ? FieldRepetitionType::OPTIONAL : FieldRepetitionType::REQUIRED, &arena, &elements));
  }
  QUIVER_ASSIGN_OR_RETURN(md.schema, MakeList<SchemaElement>(&arena, static_cast<int64_t>(elements.size())));
  for (size_t i = 0; i < elements.size(); ++i) md.schema[i] = elements[i];

  QUIVER_ASSIGN_OR_RETURN(md.row_groups, MakeList<RowGroup>(&arena, static_cast<int64_t>(row_groups_.size())));
  for (size_t g = 0; g < row_groups_.size(); ++g) {
    const RowGroupMeta& info = row_groups_[g];
    RowGroup& rg = md.row_groups[g];
    rg.num_rows = info.num_rows;
    rg.total_byte_size = info.total_byte_size;
    rg.total_compressed_size = info.total_compressed_size;
    rg.file_offset = info.file_offset;
    rg.ordinal = static_cast<int16_t>(g);
    QUIVER_ASSIGN_OR_RETURN(rg.columns, MakeList<ColumnChunk>(&arena, ncols));
    for (int i = 0; i < ncols; ++i) {
      const ColumnChunkMeta& c = info.columns[static_cast<size_t>(i)];
      const LeafColumn& leaf = leaves_[static_cast<size_t>(i)];
      ColumnChunk& cc = rg.columns[static_cast<size_t>(i)];
      cc.file_offset = c.file_offset;
      ColumnMetaData m;
      m.type = leaf.type.physical;
      const bool dict = c.has_dictionary;
      const bool levels = leaf.path.max_def > 0 || leaf.path.max_rep > 0;
      // PLAIN (dictionary page or values) or the chosen encoding, RLE levels, RLE_DICTIONARY.
      std::vector<Encoding> encs;
      encs.push_back(dict ? Encoding::PLAIN : c.data_encoding);
      if (levels) encs.push_back(Encoding::RLE);
      if (dict) encs.push_back(Encoding::RLE_DICTIONARY);
      QUIVER_ASSIGN_OR_RETURN(m.encodings, MakeList<Encoding>(&arena, static_cast<int64_t>(encs.size())));
      for (size_t k = 0; k < encs.size(); ++k) m.encodings[k] = encs[k];
      const auto& names = leaf.path.path_in_schema;
      QUIVER_ASSIGN_OR_RETURN(m.path_in_schema, MakeList<Binary>(&arena, static_cast<int64_t>(names.size())));
      for (size_t k = 0; k < names.size(); ++k) m.path_in_schema[k] = names[k];
      m.codec = static_cast<CompressionCodec>(c.codec);
      m.num_values = c.num_values;
      m.total_uncompressed_size = c.total_uncompressed_size;
      m.total_compressed_size = c.total_compressed_size;
      m.data_page_offset = c.file_offset + c.data_page_offset;
      if (dict) m.dictionary_page_offset = c.file_offset;
      Statistics* st = m.statistics.Emplace(&arena);
      if (st == nullptr) return Status::OutOfMemory("footer arena");
      st->null_count = c.null_count;
      if (c.min && c.max) {
        st->min_value = std::string_view(*c.min);
        st->max_value = std::string_view(*c.max);
        st->is_min_value_exact = c.min_exact;
        st->is_max_value_exact = c.max_exact;
      }
      QUIVER_ASSIGN_OR_RETURN(List<PageEncodingStats> es, MakeList<PageEncodingStats>(&arena, dict ? 2 : 1));
      size_t j = 0;
      if (dict) es[j++] = PageEncodingStats{PageType::DICTIONARY_PAGE, Encoding::PLAIN, 1};
      es[j++] = PageEncodingStats{options_.page_version == 2 ? PageType::DATA_PAGE_V2 : PageType::DATA_PAGE,
                                  c.data_encoding, c.data_pages};
      m.encoding_stats = es;
      if (c.bloom_filter_length > 0) {
        m.bloom_filter_offset = c.bloom_filter_offset;
        m.bloom_filter_length = c.bloom_filter_length;
      }
      cc.meta_data = m;
      if (c.offset_index_length > 0) {
        cc.offset_index_offset = c.offset_index_offset;
        cc.offset_index_length = c.offset_index_length;
      }
      if (c.column_index_length > 0) {
        cc.column_index_offset = c.column_index_offset;
        cc.column_index_length = c.column_index_length;
      }
      if (encryptor_) QUIVER_RETURN_NOT_OK(encryptor_->SealColumn(static_cast<int>(g), i, &cc, &arena));
    }
  }

  KeyValueMetadata kv = schema_->metadata();
  kv.insert(kv.end(), options_.key_value_metadata.begin(), options_.key_value_metadata.end());
  if (!kv.empty()) {
    QUIVER_ASSIGN_OR_RETURN(List<KeyValue> l, MakeList<KeyValue>(&arena, static_cast<int64_t>(kv.size())));
    for (size_t i = 0; i < kv.size(); ++i) {
      l[i].key = kv[i].first;
      l[i].value = std::string_view(kv[i].second);
    }
    md.key_value_metadata = l;
  }
  // Declares that min_value/max_value follow each logical type's order (not the legacy signed one).
  QUIVER_ASSIGN_OR_RETURN(List<ColumnOrder> orders, MakeList<ColumnOrder>(&arena, ncols));
  for (auto& o : orders) o.TYPE_ORDER = TypeDefinedOrder{};
  md.column_orders = orders;

  BufferBuilder footer(options_.pool);
  if (encryptor_) {
    // The footer encrypted after its crypto metadata, or signed; with its length and magic.
    QUIVER_RETURN_NOT_OK(encryptor_->FinishFooter(&md, &arena, &footer));
    QUIVER_RETURN_NOT_OK(out_->Write(footer.data(), footer.size()));
    return out_->Flush();
  }
  QUIVER_RETURN_NOT_OK(EncodeFileMetaData(md, &footer));
  if (footer.size() > UINT32_MAX) return Status::Invalid("footer passed 4 GiB");
  const uint32_t len = static_cast<uint32_t>(footer.size());
  QUIVER_RETURN_NOT_OK(out_->Write(footer.data(), footer.size()));
  QUIVER_RETURN_NOT_OK(out_->Write(&len, 4));
  QUIVER_RETURN_NOT_OK(out_->Write(kMagic, 4));
  return out_->Flush();
}

}  // namespace quiver::parquet

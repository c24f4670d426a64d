#include "quiver/parquet/reader/file_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string_view>
#include <tuple>

#include "quiver/compress/codec.h"
#include "quiver/parquet/reader/column_reader.h"
#include "quiver/parquet/reader/nested.h"

namespace quiver::parquet {
namespace {

// parquet-mr up to 1.2.8 left the dictionary page header out of total_compressed_size
// (PARQUET-816, IMPALA-694); a created_by without a version counts as such a writer.
bool OmitsDictionaryHeaderSize(std::string_view created_by) {
  if (!created_by.starts_with("parquet-mr")) return false;
  const size_t v = created_by.find("version ");
  if (v == std::string_view::npos) return true;
  int parts[3] = {0, 0, 0};
  size_t i = v + 8;
  for (int k = 0; k < 3 && i < created_by.size(); ++k) {
    while (i < created_by.size() && created_by[i] >= '0' && created_by[i] <= '9') {
      parts[k] = parts[k] * 10 + (created_by[i] - '0');
      if (parts[k] > 100000) return false;
      ++i;
    }
    if (i < created_by.size() && created_by[i] == '.') ++i;
    else break;
  }
  return std::make_tuple(parts[0], parts[1], parts[2]) < std::make_tuple(1, 2, 9);
}

}  // namespace

Result<std::unique_ptr<ParquetFileReader>> ParquetFileReader::Open(const std::string& path,
                                                                   ParquetReaderOptions options) {
  // pread, not mmap: each chunk is read into a buffer that is freed once it is decoded, so a
  // whole-file read holds its decoded data and not the file besides, and the input costs no
  // page faults (which serialise threads on the process's memory map).
  QUIVER_ASSIGN_OR_RETURN(auto file, io::OpenFile(path, io::ReadMode::kPread));
  return Open(std::move(file), options);
}

Result<std::unique_ptr<ParquetFileReader>> ParquetFileReader::Open(std::shared_ptr<io::RandomAccessFile> file,
                                                                   ParquetReaderOptions options) {
  std::unique_ptr<ParquetFileReader> r(new ParquetFileReader());
  r->path_ = file->path();
  r->file_ = std::move(file);
  r->options_ = options;
  auto ctx = [&](Status st) { return std::move(st).WithContext(r->path_); };
  auto footer = ReadFooter(*r->file_);
  if (!footer.ok()) return ctx(footer.status());
  r->footer_ = std::move(*footer);
  auto tree = SchemaTree::Make(r->footer_->metadata().schema);
  if (!tree.ok()) return ctx(tree.status());
  r->tree_ = std::move(*tree);
  auto fields = r->tree_.ToFields();
  if (!fields.ok()) return ctx(fields.status());
  r->schema_ = std::make_shared<const Schema>(std::move(*fields));
  const auto& md = r->footer_->metadata();
  for (size_t i = 0; i < md.row_groups.size(); ++i) {
    if (static_cast<int>(md.row_groups[i].columns.size()) != r->tree_.num_columns()) {
      return ctx(Status::Corrupt(fmt::format("row group {} has {} column chunks, the schema {} leaf columns", i,
                                             md.row_groups[i].columns.size(), r->tree_.num_columns())));
    }
  }
  return r;
}

Result<std::shared_ptr<Buffer>> ParquetFileReader::ChunkBytes(int row_group, int leaf, compress::Codec* codec,
                                                              int64_t* num_values,
                                                              std::shared_ptr<Buffer>* reuse) const {
  const ColumnChunk& chunk =
      footer_->metadata().row_groups[static_cast<size_t>(row_group)].columns[static_cast<size_t>(leaf)];
  // A plaintext footer can describe encrypted pages; their headers are not Thrift to us.
  if (chunk.crypto_metadata || chunk.encrypted_column_metadata) {
    return Status::NotImplemented("encrypted column chunks are not supported");
  }
  if (!chunk.meta_data) return Status::Corrupt("column chunk without meta_data");
  const ColumnMetaData& md = *chunk.meta_data;
  if (chunk.file_path) return Status::NotImplemented("column chunks in other files (file_path) are not supported");
  *codec = static_cast<compress::Codec>(md.codec);
  if (!compress::IsCodecSupported(*codec)) {
    const char* name = CodecName(md.codec);
    return Status::NotImplemented(fmt::format("compression codec {} is not supported",
                                              name ? name : std::to_string(static_cast<int32_t>(md.codec))));
  }
  *num_values = md.num_values;
  int64_t start = md.data_page_offset;
  // Some writers store 0 for "no dictionary page"; the dictionary comes first when there is one.
  if (md.dictionary_page_offset && *md.dictionary_page_offset > 0 && *md.dictionary_page_offset < start) {
    start = *md.dictionary_page_offset;
  }
  int64_t length = md.total_compressed_size;
  if (start < 0 || length < 0 || start > file_->size() || length > file_->size() - start) {
    return Status::Corrupt(fmt::format("column chunk bytes [{}, +{}) lie outside the file ({} bytes)", start, length,
                                       file_->size()));
  }
  if (OmitsDictionaryHeaderSize(footer_->metadata().created_by.value_or(""))) {
    // The largest dictionary page header such writers produce, as other readers allow.
    length += std::min<int64_t>(100, file_->size() - start - length);
  }
  if (file_->mapped_data() != nullptr || reuse == nullptr) return file_->ReadAt(start, length, options_.pool);
  std::shared_ptr<Buffer>& buf = *reuse;
  if (!buf || buf.use_count() > 1 || buf->capacity() < length) {
    buf.reset();  // the old block goes back before the larger one is taken
    QUIVER_ASSIGN_OR_RETURN(buf, Buffer::Allocate(length, options_.pool));
  } else {
    QUIVER_RETURN_NOT_OK(buf->Resize(length));
  }
  QUIVER_RETURN_NOT_OK(file_->ReadInto(start, length, buf->mutable_data()));
  return buf;
}

Result<std::shared_ptr<RecordBatch>> ParquetFileReader::ReadRowGroup(int i, const std::vector<int>& columns) {
  QUIVER_ASSIGN_OR_RETURN(auto batches, ReadRowGroups({i}, columns));
  return std::move(batches[0]);
}

Result<std::vector<std::shared_ptr<RecordBatch>>> ParquetFileReader::ReadRowGroups(std::vector<int> row_groups,
                                                                                   const std::vector<int>& columns) {
  if (row_groups.empty()) {
    for (int g = 0; g < num_row_groups(); ++g) row_groups.push_back(g);
  }
  for (int g : row_groups) {
    if (g < 0 || g >= num_row_groups()) {
      return Status::Invalid(fmt::format("{}: row group {} out of range (file has {})", path_, g, num_row_groups()));
    }
  }
  std::vector<int> chosen = columns;
  if (chosen.empty()) {
    for (int f = 0; f < schema_->num_fields(); ++f) chosen.push_back(f);
  }
  for (int f : chosen) {
    if (f < 0 || f >= schema_->num_fields()) {
      return Status::Invalid(fmt::format("{}: column {} out of range (schema has {})", path_, f, schema_->num_fields()));
    }
  }
  std::vector<Field> fields;
  for (int f : chosen) fields.push_back(schema_->field(f));
  // Flat top-level leaves decode straight into their arrays; the leaves of nested fields keep
  // their levels and are assembled once all of them are decoded.
  struct GroupOut {
    int64_t rows = 0;
    std::vector<Array> arrays;
    std::vector<std::unique_ptr<reader::LeafChunk>> leaves;
  };
  std::vector<GroupOut> out(row_groups.size());
  struct Task {
    size_t group;  // index into `out`
    size_t slot;   // index into `arrays` (flat) or SIZE_MAX (a nested field's leaf)
    int leaf;
    int field;
    int64_t cost;  // the chunk's uncompressed bytes: the longest tasks start first
  };
  std::vector<Task> tasks;
  for (size_t gi = 0; gi < row_groups.size(); ++gi) {
    const RowGroup& rg = footer_->metadata().row_groups[static_cast<size_t>(row_groups[gi])];
    out[gi].rows = rg.num_rows;
    out[gi].arrays.resize(chosen.size());
    out[gi].leaves.resize(static_cast<size_t>(tree_.num_columns()));
    auto cost = [&](int leaf) -> int64_t {
      const auto& md = rg.columns[static_cast<size_t>(leaf)].meta_data;
      return md ? md->total_uncompressed_size : 0;
    };
    for (size_t k = 0; k < chosen.size(); ++k) {
      const int32_t node = tree_.root().children[static_cast<size_t>(chosen[k])];
      const SchemaNode& n = tree_.node(node);
      if (n.is_leaf() && n.repetition != FieldRepetitionType::REPEATED) {
        tasks.push_back({gi, k, n.leaf_index, chosen[k], cost(n.leaf_index)});
      } else {
        for (int32_t leaf : tree_.LeavesUnder(node)) tasks.push_back({gi, SIZE_MAX, leaf, chosen[k], cost(leaf)});
      }
    }
  }
  std::stable_sort(tasks.begin(), tasks.end(), [](const Task& a, const Task& b) { return a.cost > b.cost; });

  auto run = [&](const Task& t, const reader::PageReaderOptions& po) -> Status {
    const int g = row_groups[t.group];
    const ColumnDescriptor& col = tree_.columns()[static_cast<size_t>(t.leaf)];
    auto ctx = [&](Status st) {
      return std::move(st).WithContext(fmt::format("{}: row group {}, column '{}'", path_, g, col.dotted_path()));
    };
    compress::Codec codec;
    int64_t num_values = 0;
    auto bytes = ChunkBytes(g, t.leaf, &codec, &num_values, po.input);
    if (!bytes.ok()) return ctx(bytes.status());
    GroupOut& o = out[t.group];
    if (t.slot != SIZE_MAX) {
      auto a = reader::ReadFlatColumnChunk(col, schema_->field(t.field).type, std::move(*bytes), codec, num_values, po);
      if (!a.ok()) return ctx(a.status());
      if (a->length() != o.rows) {
        return ctx(Status::Corrupt(fmt::format("{} values, the row group has {} rows", a->length(), o.rows)));
      }
      o.arrays[t.slot] = std::move(*a);
    } else {
      auto leaf_type = tree_.ToField(col.node);
      if (!leaf_type.ok()) return ctx(leaf_type.status());
      TypePtr type = leaf_type->type;
      // A repeated leaf maps to a list of itself; the values have the element type.
      if (tree_.node(col.node).repetition == FieldRepetitionType::REPEATED) type = type->field(0).type;
      auto leaf = reader::ReadLeafColumnChunk(col, type, std::move(*bytes), codec, num_values, po);
      if (!leaf.ok()) return ctx(leaf.status());
      o.leaves[static_cast<size_t>(t.leaf)] = std::move(*leaf);
    }
    return Status::OK();
  };
  // One decode loop per pool thread, each taking the next task from a shared counter (so
  // chunks of every chosen row group balance over the threads) and keeping one decompression
  // buffer for all its chunks. The caller may run one of the loops while it waits, so no more
  // than num_threads() chunks decode at once.
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  auto loop = [&]() -> Status {
    std::shared_ptr<Buffer> scratch, input;
    reader::PageReaderOptions po;
    po.verify_crc = options_.verify_crc;
    po.pool = options_.pool;
    po.scratch = &scratch;
    po.input = &input;
    for (;;) {
      const size_t k = next.fetch_add(1, std::memory_order_relaxed);
      if (k >= tasks.size() || failed.load(std::memory_order_relaxed)) return Status::OK();
      Status st = run(tasks[k], po);
      if (!st.ok()) {
        failed.store(true, std::memory_order_relaxed);
        return st;
      }
    }
  };
  ThreadPool* pool = options_.thread_pool;
  const size_t loops = pool == nullptr ? 1 : std::min<size_t>(static_cast<size_t>(pool->num_threads()), tasks.size());
  if (loops <= 1) {
    QUIVER_RETURN_NOT_OK(loop());
  } else {
    TaskGroup group(pool);
    for (size_t l = 0; l < loops; ++l) group.Submit(loop);
    QUIVER_RETURN_NOT_OK(group.Wait());
  }

  std::vector<std::shared_ptr<RecordBatch>> batches;
  batches.reserve(out.size());
  auto schema = std::make_shared<const Schema>(fields);
  for (size_t gi = 0; gi < out.size(); ++gi) {
    GroupOut& o = out[gi];
    for (size_t k = 0; k < chosen.size(); ++k) {
      if (o.arrays[k].data()) continue;
      const int32_t node = tree_.root().children[static_cast<size_t>(chosen[k])];
      auto ctx = [&](Status st) {
        return std::move(st).WithContext(
            fmt::format("{}: row group {}, column '{}'", path_, row_groups[gi], fields[k].name));
      };
      auto a = reader::AssembleNested(tree_, node, fields[k].type, o.leaves, options_.pool);
      if (!a.ok()) return ctx(a.status());
      if (a->length() != o.rows) {
        return ctx(Status::Corrupt(fmt::format("{} values, the row group has {} rows", a->length(), o.rows)));
      }
      o.arrays[k] = std::move(*a);
    }
    o.leaves.clear();
    batches.push_back(std::make_shared<RecordBatch>(schema, o.rows, std::move(o.arrays)));
  }
  return batches;
}

Result<std::vector<int>> ParquetFileReader::ResolveFields(const std::vector<std::string>& names) const {
  std::vector<int> out;
  for (const std::string& name : names) {
    const int k = schema_->GetFieldIndex(name);
    if (k < 0) return Status::Invalid(fmt::format("{}: no column named '{}'", path_, name));
    out.push_back(k);
  }
  return out;
}

Result<BoundPredicate> ParquetFileReader::BindPredicate(std::string_view column, CompareOp op, Literal value) const {
  const int f = schema_->GetFieldIndex(std::string(column));
  if (f < 0) return Status::Invalid(fmt::format("{}: no column named '{}'", path_, column));
  const SchemaNode& n = tree_.node(tree_.root().children[static_cast<size_t>(f)]);
  if (!n.is_leaf() || n.repetition == FieldRepetitionType::REPEATED) {
    return Status::NotImplemented(fmt::format("{}: column '{}' is nested; only flat columns can be compared", path_,
                                              column));
  }
  const DataType& type = *schema_->field(f).type;
  auto kind = LiteralKindFor(type);
  if (!kind.ok()) return std::move(kind).status().WithContext(fmt::format("{}: column '{}'", path_, column));
  const ColumnDescriptor& col = tree_.columns()[static_cast<size_t>(n.leaf_index)];
  if (col.physical_type == Type::INT96) {
    return Status::NotImplemented(fmt::format("{}: column '{}': comparisons on INT96 timestamps are not supported",
                                              path_, column));
  }
  if (*kind != value.kind) {
    return Status::Invalid(fmt::format("{}: column '{}' of type {} cannot be compared with a {} literal", path_,
                                       column, type.ToString(),
                                       value.kind == Literal::Kind::kInt     ? "integer"
                                       : value.kind == Literal::Kind::kFloat ? "floating-point"
                                                                             : "string"));
  }
  BoundPredicate p;
  p.field = f;
  p.leaf = n.leaf_index;
  p.physical = col.physical_type;
  p.is_unsigned = type.id() == TypeId::kUInt8 || type.id() == TypeId::kUInt16 || type.id() == TypeId::kUInt32 ||
                  type.id() == TypeId::kUInt64;
  const auto& orders = footer_->metadata().column_orders;
  // Without column_orders, min_value/max_value (when written) are taken to be in type order.
  if (orders && static_cast<size_t>(p.leaf) < orders->size()) p.type_order = (*orders)[static_cast<size_t>(p.leaf)].TYPE_ORDER.has_value();
  p.op = op;
  p.value = std::move(value);
  return p;
}

std::vector<int> ParquetFileReader::RowGroupsMayMatch(const BoundPredicate& p, std::vector<int> row_groups) const {
  if (row_groups.empty()) {
    for (int g = 0; g < num_row_groups(); ++g) row_groups.push_back(g);
  }
  std::vector<int> out;
  for (int g : row_groups) {
    if (g < 0 || g >= num_row_groups()) continue;
    const ColumnChunk& chunk = footer_->metadata().row_groups[static_cast<size_t>(g)].columns[static_cast<size_t>(p.leaf)];
    const Statistics* stats = chunk.meta_data ? chunk.meta_data->statistics.get() : nullptr;
    if (StatisticsMayMatch(p, stats, chunk.meta_data ? chunk.meta_data->num_values : 0)) out.push_back(g);
  }
  return out;
}

Result<std::unique_ptr<ParquetBatchReader>> ParquetFileReader::GetBatchReader(std::vector<int> row_groups,
                                                                              std::vector<int> columns,
                                                                              int64_t batch_rows) {
  if (batch_rows <= 0) return Status::Invalid(fmt::format("batch size must be positive, got {}", batch_rows));
  if (row_groups.empty()) {
    for (int g = 0; g < num_row_groups(); ++g) row_groups.push_back(g);
  }
  for (int g : row_groups) {
    if (g < 0 || g >= num_row_groups()) {
      return Status::Invalid(fmt::format("{}: row group {} out of range (file has {})", path_, g, num_row_groups()));
    }
  }
  std::unique_ptr<ParquetBatchReader> r(new ParquetBatchReader());
  r->file_ = this;
  r->row_groups_ = std::move(row_groups);
  r->columns_ = std::move(columns);
  r->batch_rows_ = batch_rows;
  return r;
}

Result<std::shared_ptr<RecordBatch>> ParquetBatchReader::Next() {
  while (!current_ || offset_ >= current_->num_rows()) {
    if (next_group_ >= row_groups_.size()) return std::shared_ptr<RecordBatch>();
    QUIVER_ASSIGN_OR_RETURN(current_, file_->ReadRowGroup(row_groups_[next_group_++], columns_));
    offset_ = 0;
  }
  const int64_t n = std::min(batch_rows_, current_->num_rows() - offset_);
  auto out = offset_ == 0 && n == current_->num_rows() ? current_ : current_->Slice(offset_, n);
  offset_ += n;
  return out;
}

}  // namespace quiver::parquet

#include "quiver/parquet/writer/file_writer.h"

#include <fmt/format.h>

#include <cstring>

#include "quiver/core/arena.h"
#include "quiver/parquet/footer.h"

namespace quiver::parquet {

namespace {

constexpr char kMagic[] = "PAR1";
constexpr char kCreatedBy[] = "quiver version " QUIVER_VERSION_STRING;

template <typename T>
Result<List<T>> MakeList(Arena* arena, int64_t n) {
  QUIVER_ASSIGN_OR_RETURN(T * p, arena->AllocateArray<T>(n));
  return List<T>(p, static_cast<uint32_t>(n));
}

}  // namespace

Result<std::unique_ptr<ParquetFileWriter>> ParquetFileWriter::Open(io::OutputStream* out, SchemaPtr schema,
                                                                   ParquetWriterOptions options) {
  if (options.row_group_rows <= 0) return Status::Invalid("row group size must be positive");
  if (options.page_size <= 0) return Status::Invalid("page size must be positive");
  if (options.encode_batch_rows <= 0) options.encode_batch_rows = options.row_group_rows;
  if (!compress::IsCodecSupported(options.codec) || options.codec == compress::Codec::kLz4Hadoop) {
    // The Hadoop-framed LZ4 is deprecated and read inconsistently; LZ4_RAW replaces it.
    return Status::NotImplemented(fmt::format("writing {} pages", compress::CodecName(options.codec)));
  }
  std::unique_ptr<ParquetFileWriter> w(new ParquetFileWriter());
  for (const Field& f : schema->fields()) {
    auto leaf = LeafTypeFor(*f.type);
    if (!leaf.ok()) return leaf.status().WithContext(fmt::format("column '{}'", f.name));
    w->leaves_.push_back(*leaf);
  }
  w->out_ = out;
  w->schema_ = std::move(schema);
  w->options_ = std::move(options);
  ColumnWriterOptions co;
  co.codec = w->options_.codec;
  co.compression_level = w->options_.compression_level;
  co.page_size = w->options_.page_size;
  co.dictionary = w->options_.dictionary;
  co.dictionary_size_limit = w->options_.dictionary_size_limit;
  co.pool = w->options_.pool;
  for (int i = 0; i < w->schema_->num_fields(); ++i) {
    w->encoders_.push_back(
        std::make_unique<ColumnChunkEncoder>(w->schema_->field(i), w->leaves_[static_cast<size_t>(i)], co));
  }
  QUIVER_RETURN_NOT_OK(out->Write(kMagic, 4));
  return w;
}

ParquetFileWriter::~ParquetFileWriter() = default;

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
  int64_t offset = 0;
  while (offset < batch->num_rows()) {
    const int64_t room = options_.row_group_rows - group_rows_;
    const int64_t take = std::min(room, batch->num_rows() - offset);
    pending_.push_back(offset == 0 && take == batch->num_rows() ? batch : batch->Slice(offset, take));
    pending_rows_ += take;
    group_rows_ += take;
    offset += take;
    if (group_rows_ >= options_.row_group_rows) {
      QUIVER_RETURN_NOT_OK(FlushRowGroup());
    } else if (pending_rows_ >= options_.encode_batch_rows) {
      QUIVER_RETURN_NOT_OK(EncodePending());
    }
  }
  return Status::OK();
}

Status ParquetFileWriter::WaitEncoding() {
  if (!encode_group_) return Status::OK();
  Status st = encode_group_->Wait();
  encode_group_.reset();
  encoding_.clear();
  return st;
}

Status ParquetFileWriter::EncodePending() {
  if (pending_.empty()) return Status::OK();
  QUIVER_RETURN_NOT_OK(WaitEncoding());
  encoding_.swap(pending_);
  pending_rows_ = 0;
  encode_group_ = std::make_unique<TaskGroup>(options_.thread_pool);
  for (int i = 0; i < schema_->num_fields(); ++i) {
    encode_group_->Submit([this, i]() -> Status {
      for (const auto& b : encoding_) {
        Status st = encoders_[static_cast<size_t>(i)]->Append(b->column(i));
        if (!st.ok()) {
          return st.WithContext(fmt::format("row group {}, column '{}'", row_groups_.size(), schema_->field(i).name));
        }
      }
      return Status::OK();
    });
  }
  return Status::OK();
}

Status ParquetFileWriter::FlushRowGroup() {
  if (group_rows_ == 0) return Status::OK();
  QUIVER_RETURN_NOT_OK(EncodePending());
  QUIVER_RETURN_NOT_OK(WaitEncoding());
  const int ncols = schema_->num_fields();
  std::vector<EncodedChunk> chunks;
  chunks.reserve(static_cast<size_t>(ncols));
  for (int i = 0; i < ncols; ++i) chunks.emplace_back(options_.pool);
  {
    // The last pages and the dictionary pages, compressed in parallel.
    TaskGroup group(options_.thread_pool);
    for (int i = 0; i < ncols; ++i) {
      group.Submit([this, i, &chunks]() -> Status {
        Status st = encoders_[static_cast<size_t>(i)]->Finish(&chunks[static_cast<size_t>(i)]);
        if (!st.ok()) {
          return st.WithContext(fmt::format("row group {}, column '{}'", row_groups_.size(), schema_->field(i).name));
        }
        return st;
      });
    }
    QUIVER_RETURN_NOT_OK(group.Wait());
  }
  RowGroupInfo rg;
  rg.num_rows = group_rows_;
  rg.file_offset = out_->Tell();
  for (int i = 0; i < ncols; ++i) {
    EncodedChunk& c = chunks[static_cast<size_t>(i)];
    ChunkInfo info;
    info.file_offset = out_->Tell();
    info.data_page_offset = info.file_offset + c.data_page_offset;
    if (c.has_dictionary) info.dictionary_page_offset = info.file_offset;
    info.num_values = c.num_values;
    info.total_uncompressed_size = c.total_uncompressed_size;
    info.total_compressed_size = c.bytes.size();
    info.data_pages = c.data_pages;
    info.data_encoding = c.data_encoding;
    info.null_count = c.null_count;
    info.min = std::move(c.min);
    info.max = std::move(c.max);
    QUIVER_RETURN_NOT_OK(out_->Write(c.bytes.data(), c.bytes.size()));
    c.bytes = BufferBuilder(options_.pool);  // release the chunk's memory before the next one is written
    rg.total_byte_size += info.total_uncompressed_size;
    rg.total_compressed_size += info.total_compressed_size;
    rg.columns.push_back(std::move(info));
  }
  row_groups_.push_back(std::move(rg));
  rows_written_ += group_rows_;
  group_rows_ = 0;
  return Status::OK();
}

Status ParquetFileWriter::Close() {
  if (closed_) return Status::OK();
  QUIVER_RETURN_NOT_OK(FlushRowGroup());
  closed_ = true;
  Arena arena(options_.pool);
  const int ncols = schema_->num_fields();
  FileMetaData md;
  md.version = 2;
  md.num_rows = rows_written_;
  md.created_by = std::string_view(kCreatedBy);

  QUIVER_ASSIGN_OR_RETURN(md.schema, MakeList<SchemaElement>(&arena, ncols + 1));
  md.schema[0].name = "schema";
  md.schema[0].num_children = ncols;
  for (int i = 0; i < ncols; ++i) {
    const Field& f = schema_->field(i);
    const LeafType& l = leaves_[static_cast<size_t>(i)];
    SchemaElement& e = md.schema[static_cast<size_t>(i) + 1];
    e.name = f.name;
    e.type = l.physical;
    if (l.physical == Type::FIXED_LEN_BYTE_ARRAY) e.type_length = l.type_length;
    e.repetition_type = f.nullable ? FieldRepetitionType::OPTIONAL : FieldRepetitionType::REQUIRED;
    e.converted_type = l.converted;
    if (l.logical) {
      LogicalType* lt = e.logicalType.Emplace(&arena);
      if (lt == nullptr) return Status::OutOfMemory("footer arena");
      *lt = *l.logical;
      if (lt->DECIMAL) {
        e.scale = l.scale;
        e.precision = l.precision;
      }
    }
  }

  QUIVER_ASSIGN_OR_RETURN(md.row_groups, MakeList<RowGroup>(&arena, static_cast<int64_t>(row_groups_.size())));
  for (size_t g = 0; g < row_groups_.size(); ++g) {
    const RowGroupInfo& info = row_groups_[g];
    RowGroup& rg = md.row_groups[g];
    rg.num_rows = info.num_rows;
    rg.total_byte_size = info.total_byte_size;
    rg.total_compressed_size = info.total_compressed_size;
    rg.file_offset = info.file_offset;
    rg.ordinal = static_cast<int16_t>(g);
    QUIVER_ASSIGN_OR_RETURN(rg.columns, MakeList<ColumnChunk>(&arena, ncols));
    for (int i = 0; i < ncols; ++i) {
      const ChunkInfo& c = info.columns[static_cast<size_t>(i)];
      const Field& f = schema_->field(i);
      ColumnChunk& cc = rg.columns[static_cast<size_t>(i)];
      cc.file_offset = c.file_offset;
      ColumnMetaData m;
      m.type = leaves_[static_cast<size_t>(i)].physical;
      const bool dict = c.dictionary_page_offset >= 0;
      const bool levels = f.nullable;
      QUIVER_ASSIGN_OR_RETURN(m.encodings, MakeList<Encoding>(&arena, 1 + (levels ? 1 : 0) + (dict ? 1 : 0)));
      size_t k = 0;
      m.encodings[k++] = Encoding::PLAIN;
      if (levels) m.encodings[k++] = Encoding::RLE;
      if (dict) m.encodings[k++] = Encoding::RLE_DICTIONARY;
      QUIVER_ASSIGN_OR_RETURN(m.path_in_schema, MakeList<Binary>(&arena, 1));
      m.path_in_schema[0] = f.name;
      m.codec = static_cast<CompressionCodec>(options_.codec);
      m.num_values = c.num_values;
      m.total_uncompressed_size = c.total_uncompressed_size;
      m.total_compressed_size = c.total_compressed_size;
      m.data_page_offset = c.data_page_offset;
      if (dict) m.dictionary_page_offset = c.dictionary_page_offset;
      Statistics* st = m.statistics.Emplace(&arena);
      if (st == nullptr) return Status::OutOfMemory("footer arena");
      st->null_count = c.null_count;
      if (c.min && c.max) {
        st->min_value = std::string_view(*c.min);
        st->max_value = std::string_view(*c.max);
        st->is_min_value_exact = true;
        st->is_max_value_exact = true;
      }
      QUIVER_ASSIGN_OR_RETURN(List<PageEncodingStats> es, MakeList<PageEncodingStats>(&arena, dict ? 2 : 1));
      size_t j = 0;
      if (dict) es[j++] = PageEncodingStats{PageType::DICTIONARY_PAGE, Encoding::PLAIN, 1};
      es[j++] = PageEncodingStats{PageType::DATA_PAGE, c.data_encoding, c.data_pages};
      m.encoding_stats = es;
      cc.meta_data = m;
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
  QUIVER_RETURN_NOT_OK(EncodeFileMetaData(md, &footer));
  if (footer.size() > UINT32_MAX) return Status::Invalid("footer passed 4 GiB");
  const uint32_t len = static_cast<uint32_t>(footer.size());
  QUIVER_RETURN_NOT_OK(out_->Write(footer.data(), footer.size()));
  QUIVER_RETURN_NOT_OK(out_->Write(&len, 4));
  QUIVER_RETURN_NOT_OK(out_->Write(kMagic, 4));
  return out_->Flush();
}

}  // namespace quiver::parquet

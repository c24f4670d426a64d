#include "quiver/stream/parquet_stream.h"

#include <filesystem>

namespace quiver::stream {

Result<std::unique_ptr<ParquetStreamReader>> ParquetStreamReader::Open(const std::string& path,
                                                                       const std::vector<std::string>& columns,
                                                                       parquet::ParquetReaderOptions options) {
  QUIVER_ASSIGN_OR_RETURN(std::unique_ptr<parquet::ParquetFileReader> file,
                          parquet::ParquetFileReader::Open(path, std::move(options)));
  QUIVER_ASSIGN_OR_RETURN(auto r, Make(std::move(file), columns, path));
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec) r->size_ = static_cast<int64_t>(size);
  return r;
}

Result<std::unique_ptr<ParquetStreamReader>> ParquetStreamReader::Make(std::shared_ptr<parquet::ParquetFileReader> file,
                                                                       const std::vector<std::string>& columns,
                                                                       std::string name) {
  auto r = std::unique_ptr<ParquetStreamReader>(new ParquetStreamReader());
  r->file_ = std::move(file);
  r->name_ = std::move(name);
  if (columns.empty()) {
    r->schema_ = r->file_->schema();
  } else {
    QUIVER_ASSIGN_OR_RETURN(r->columns_, r->file_->ResolveFields(columns));
    std::vector<Field> fields;
    for (int c : r->columns_) fields.push_back(r->file_->schema()->field(c));
    r->schema_ = std::make_shared<const Schema>(std::move(fields), r->file_->schema()->metadata());
  }
  return r;
}

Result<std::shared_ptr<RecordBatch>> ParquetStreamReader::Next() {
  if (next_group_ >= file_->num_row_groups()) return std::shared_ptr<RecordBatch>();
  auto batch = file_->ReadRowGroup(next_group_++, columns_);
  if (!batch.ok()) return name_.empty() ? batch.status() : batch.status().WithContext(name_);
  rows_ += (*batch)->num_rows();
  bytes_ += file_->metadata().row_groups[static_cast<size_t>(next_group_ - 1)].total_byte_size;
  return batch;
}

ReadStats ParquetStreamReader::stats() const {
  const int64_t total = file_->num_rows();
  const int64_t position =
      total > 0 && size_ > 0 ? static_cast<int64_t>(static_cast<double>(size_) * static_cast<double>(rows_) / total) : 0;
  return ReadStats{rows_, bytes_, position, size_};
}

Result<std::unique_ptr<ParquetStreamWriter>> ParquetStreamWriter::Open(const std::string& path, SchemaPtr schema,
                                                                       parquet::ParquetWriterOptions options) {
  auto w = std::unique_ptr<ParquetStreamWriter>(new ParquetStreamWriter());
  QUIVER_ASSIGN_OR_RETURN(w->out_, io::OutputTarget::Open(path));
  QUIVER_ASSIGN_OR_RETURN(w->writer_, parquet::ParquetFileWriter::Open(w->out_->stream(), std::move(schema),
                                                                       std::move(options)));
  return w;
}

Status ParquetStreamWriter::Finish() {
  QUIVER_RETURN_NOT_OK(writer_->Close());
  bytes_ = out_->stream()->Tell();
  return out_->Commit();
}

void ParquetStreamWriter::Abort() {
  writer_.reset();
  if (bytes_ < 0) bytes_ = out_->stream()->Tell();
  out_->Abandon();
}

}  // namespace quiver::stream

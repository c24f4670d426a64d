// A Parquet file as batch streams: read whole row groups in file order (some columns or all),
// and written through parquet::ParquetFileWriter into an atomic file or stdout.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "quiver/io/output_target.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/writer/file_writer.h"
#include "quiver/stream/batch_stream.h"

namespace quiver::stream {

class ParquetStreamReader final : public BatchReader {
 public:
  // `columns`: top-level fields by name, in the order wanted (empty: all).
  static Result<std::unique_ptr<ParquetStreamReader>> Open(const std::string& path,
                                                           const std::vector<std::string>& columns = {},
                                                           parquet::ParquetReaderOptions options = {});
  // Over a reader already open (shared with the caller).
  static Result<std::unique_ptr<ParquetStreamReader>> Make(std::shared_ptr<parquet::ParquetFileReader> file,
                                                           const std::vector<std::string>& columns = {},
                                                           std::string name = "");

  const SchemaPtr& schema() const override { return schema_; }
  // One row group a batch; errors carry the file's name.
  Result<std::shared_ptr<RecordBatch>> Next() override;
  // Bytes read: the row groups' uncompressed sizes; position: the file's size (unknown when
  // made over an open reader) times the share of its rows read.
  ReadStats stats() const override;

  const parquet::ParquetFileReader& file() const { return *file_; }

 private:
  ParquetStreamReader() = default;
  std::shared_ptr<parquet::ParquetFileReader> file_;
  std::string name_;
  std::vector<int> columns_;
  SchemaPtr schema_;
  int next_group_ = 0;
  int64_t rows_ = 0, bytes_ = 0;
  int64_t size_ = -1;
};

class ParquetStreamWriter final : public BatchWriter {
 public:
  // "-" writes stdout; a file is written beside its target and renamed into place by Finish.
  static Result<std::unique_ptr<ParquetStreamWriter>> Open(const std::string& path, SchemaPtr schema,
                                                           parquet::ParquetWriterOptions options = {});

  Status Write(const std::shared_ptr<RecordBatch>& batch) override { return writer_->Write(batch); }
  // The last row group and the footer, then the commit.
  Status Finish() override;
  void Abort() override;  // no call may follow
  int64_t bytes_written() const override { return bytes_ >= 0 ? bytes_ : out_->stream()->Tell(); }

 private:
  ParquetStreamWriter() = default;
  std::unique_ptr<io::OutputTarget> out_;  // declared first: outlives the writer that writes into it
  std::unique_ptr<parquet::ParquetFileWriter> writer_;
  int64_t bytes_ = -1;  // once finished or aborted (the stream is gone then)
};

}  // namespace quiver::stream

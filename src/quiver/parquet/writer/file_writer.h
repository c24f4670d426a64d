// ParquetFileWriter: RecordBatches of a flat schema written as a Parquet file to an OutputStream.
// Rows are encoded as they arrive: every encode_batch_rows rows, each column's encoder takes
// them in parallel (in the background, while the caller produces the next batches), so a row
// group holds only compressed pages and dictionaries until its chunks are written.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quiver/columnar/record_batch.h"
#include "quiver/core/result.h"
#include "quiver/core/thread_pool.h"
#include "quiver/io/output_stream.h"
#include "quiver/parquet/writer/column_writer.h"

namespace quiver::parquet {

struct ParquetWriterOptions {
  compress::Codec codec = compress::Codec::kSnappy;
  int compression_level = compress::kDefaultCompressionLevel;
  // A row group is written once it holds this many rows (the last one may hold fewer).
  int64_t row_group_rows = 1 << 20;
  // Rows gathered before the columns encode them (one task per column); bounds the decoded
  // rows held: at most two such slabs, one encoding and one filling.
  int64_t encode_batch_rows = 1 << 16;
  int64_t page_size = 1 << 20;
  bool dictionary = true;
  int64_t dictionary_size_limit = 1 << 20;
  // Added to the footer after the schema's own metadata.
  KeyValueMetadata key_value_metadata;
  // Columns encode in parallel here, in the background; nullptr encodes on the caller.
  ThreadPool* thread_pool = ThreadPool::Default();
  MemoryPool* pool = default_memory_pool();
};

class ParquetFileWriter {
 public:
  // Writes the leading magic. NotImplemented for a schema with nested fields.
  static Result<std::unique_ptr<ParquetFileWriter>> Open(io::OutputStream* out, SchemaPtr schema,
                                                         ParquetWriterOptions options = {});
  ~ParquetFileWriter();

  // Batches must have the writer's schema (field names may differ; types may not).
  Status Write(const std::shared_ptr<RecordBatch>& batch);
  // Writes the rows given since the last row group as a row group now (nothing when none).
  Status FlushRowGroup();
  // Flushes and writes the footer. The stream is not closed or committed.
  Status Close();

  int64_t num_rows() const { return rows_written_ + group_rows_; }
  int num_row_groups() const { return static_cast<int>(row_groups_.size()); }
  const SchemaPtr& schema() const { return schema_; }

  // What the footer needs of each written column chunk and row group.
  struct ChunkInfo {
    int64_t file_offset = 0, data_page_offset = 0, dictionary_page_offset = -1;
    int64_t num_values = 0, total_uncompressed_size = 0, total_compressed_size = 0;
    int32_t data_pages = 0;
    Encoding data_encoding = Encoding::PLAIN;
    int64_t null_count = 0;
    std::optional<std::string> min, max;
  };
  struct RowGroupInfo {
    std::vector<ChunkInfo> columns;
    int64_t num_rows = 0, file_offset = 0, total_byte_size = 0, total_compressed_size = 0;
  };

 private:
  ParquetFileWriter() = default;

  io::OutputStream* out_ = nullptr;
  SchemaPtr schema_;
  ParquetWriterOptions options_;
  std::vector<LeafType> leaves_;
  // Hands the pending batches to the column encoders (after the previous hand-off finished).
  Status EncodePending();
  // Waits for the batches being encoded; returns the first error.
  Status WaitEncoding();
  std::vector<std::unique_ptr<ColumnChunkEncoder>> encoders_;
  std::vector<std::shared_ptr<RecordBatch>> pending_;  // not yet handed to the encoders
  int64_t pending_rows_ = 0;
  std::vector<std::shared_ptr<RecordBatch>> encoding_;  // being encoded by encode_group_
  int64_t group_rows_ = 0;  // rows of the current row group, encoded or pending
  int64_t rows_written_ = 0;
  std::vector<RowGroupInfo> row_groups_;
  bool closed_ = false;
  // Last: destroyed first, waiting for tasks that use the encoders and batches above.
  std::unique_ptr<TaskGroup> encode_group_;
};

}  // namespace quiver::parquet

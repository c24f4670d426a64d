// ParquetFileWriter: RecordBatches written as a Parquet file to an OutputStream; nested fields
// (list, struct, map at any depth) are shredded into leaf columns with definition/repetition
// levels. Rows are buffered up to a row group, whose column chunks are encoded in parallel
// while the next rows arrive.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/columnar/record_batch.h"
#include "quiver/compress/codec.h"
#include "quiver/core/result.h"
#include "quiver/core/thread_pool.h"
#include "quiver/io/output_stream.h"
#include "quiver/parquet/bloom_filter.h"
#include "quiver/parquet/encryption.h"
#include "quiver/parquet/metadata.h"

namespace quiver {
class RecyclingPool;
}  // namespace quiver

namespace quiver::parquet {

namespace writer {  // the writer's internals (column_writer_internal.h)
struct LeafColumn;
class FileEncryptor;  // encryption_internal.h
struct ColumnChunkHistory;
struct RowGroupMeta;
}  // namespace writer

// What every column chunk of a file shares; ParquetWriterOptions holds it for the file and
// hands it to each chunk's ColumnWriterOptions.
struct ColumnChunkOptions {
  compress::Codec codec = compress::Codec::kSnappy;
  int compression_level = compress::kDefaultCompressionLevel;
  int64_t page_size = 1 << 20;  // PLAIN-equivalent bytes of values per data page
  // Rows (levels, in a nested leaf) between the checks that end a page at page_size or give up
  // the dictionary, counted from the chunk's first row whatever the batches written: 1..4096.
  int32_t page_check_rows = 4096;
  bool dictionary = true;
  // Once a chunk's dictionary would pass this many PLAIN bytes, the whole chunk is written PLAIN.
  int64_t dictionary_size_limit = 1 << 20;
  // BYTE_ARRAY min/max (chunk, page header and page index) longer than this are truncated: the
  // min to a prefix, the max to a prefix with its last byte (string: code point) incremented,
  // both marked inexact. 0 keeps them whole.
  int32_t statistics_truncate_length = 64;
  // 1: DATA_PAGE (levels with length prefixes, the whole body compressed); 2: DATA_PAGE_V2
  // (levels uncompressed in front, their lengths and the null and row counts in the header).
  int page_version = 1;
  MemoryPool* pool = default_memory_pool();
};

// OK when `e` can encode values of `physical` (the spec's table, narrowed to what DuckDB and
// Polars read: BYTE_STREAM_SPLIT only FLOAT/DOUBLE, DELTA_BYTE_ARRAY only BYTE_ARRAY).
Status CheckEncoding(Encoding e, Type physical);
// "plain", "delta_binary_packed", "delta_length_byte_array", "delta_byte_array",
// "byte_stream_split" (any case).
Result<Encoding> EncodingFromName(std::string_view name);

// The chunk settings (codec and level, page size and version, dictionary and its limit,
// statistics truncation, memory pool: see ColumnChunkOptions) and the file's own.
struct ParquetWriterOptions : ColumnChunkOptions {
  // A row group is written once it holds this many rows (the last one may hold fewer). As
  // DuckDB: it bounds the writer's memory, and dictionaries of key-like columns still fit.
  int64_t row_group_rows = 122880;
  // And once its rows hold about this many bytes in memory (Arrow buffers of each written
  // batch, spread evenly over its rows); 0: no byte limit.
  int64_t row_group_bytes = 0;
  // ColumnIndex and OffsetIndex of every column chunk, written after the last row group (pages
  // carry their statistics in their headers either way).
  bool page_index = true;
  // Value encodings by column instead of the dictionary: the key is a top-level column name
  // (every leaf under it) or a leaf's dotted path ("s.b.list.item"); the encoding must suit the
  // leaf's physical type (CheckEncoding). Open fails on an unknown name.
  std::vector<std::pair<std::string, Encoding>> column_encodings;
  // Split-block bloom filters by column, named as in column_encodings: one per column chunk,
  // written after its row group's chunks (bloom_filter_offset/length in ColumnMetaData). Open
  // fails on an unknown name, a BOOLEAN column or an fpp outside (0, 1).
  std::vector<std::pair<std::string, BloomFilterOptions>> bloom_filters;
  // Added to the footer after the schema's own metadata.
  KeyValueMetadata key_value_metadata;
  // Column chunks of a row group encode in parallel here; nullptr encodes on the caller.
  ThreadPool* thread_pool = ThreadPool::Default();
  // Parquet modular encryption (encryption.h): none unless a footer key is set. The writer
  // keeps the keys until it is dropped, which wipes them.
  EncryptionOptions encryption;
};

class ParquetFileWriter {
 public:
  // Writes the leading magic. NotImplemented for a type with no Parquet form (an empty struct).
  static Result<std::unique_ptr<ParquetFileWriter>> Open(io::OutputStream* out, SchemaPtr schema,
                                                         ParquetWriterOptions options = {});
  ~ParquetFileWriter();

  // Batches must have the writer's schema (field names may differ; types may not).
  Status Write(const std::shared_ptr<RecordBatch>& batch);
  // Writes the buffered rows as a row group now (nothing when none are buffered).
  Status FlushRowGroup();
  // Flushes and writes the footer. The stream is not closed or committed.
  Status Close();

  int64_t num_rows() const;
  // Rows held for the next row group (written by FlushRowGroup or Close).
  int64_t buffered_rows() const { return pending_rows_; }
  int num_row_groups() const;
  const SchemaPtr& schema() const { return schema_; }
  // About the bytes the writer itself holds between row groups: its per-column state and each
  // written row group's footer entries and page index (kept until Close); not the rows
  // buffered for the next group.
  int64_t memory_estimate() const { return memory_; }
  // The pool the column chunks are encoded in; its counters tell how many blocks a row group
  // took from those the previous ones freed.
  const RecyclingPool& chunk_pool() const { return *chunk_pool_; }

 private:
  ParquetFileWriter() = default;
  // A full row group's column chunks are encoded on the pool while Write returns for the next
  // rows; the group is written (in column order, from the calling thread) when the next one
  // starts or the file closes, so at most one group is encoding. The next group's chunks are
  // queued before the finished group's bytes are written, so the pool encodes while the
  // calling thread writes.
  struct InFlight;
  Status StartRowGroup();
  void QueueRowGroup(size_t index);  // pending_ as group `index`, in flight, its chunks queued
  Status EncodeChunk(int i, InFlight& f, size_t index);
  Status FinishRowGroup();
  Status WriteRowGroup(InFlight& g);
  Status WritePageIndex();

  io::OutputStream* out_ = nullptr;
  SchemaPtr schema_;
  ParquetWriterOptions options_;
  // One per Parquet leaf column, depth first.
  std::vector<writer::LeafColumn> leaves_;
  // Per leaf, what its last chunks tell the next (dictionary size, PLAIN streak); each is used
  // by one encoding task at a time, as one row group is in flight.
  std::vector<writer::ColumnChunkHistory> history_;
  // Per leaf, how long its last chunk took to encode: the next group queues the costliest first.
  std::vector<int64_t> encode_ns_;
  std::vector<std::shared_ptr<RecordBatch>> pending_;
  int64_t pending_rows_ = 0;
  double pending_bytes_ = 0;
  int64_t rows_written_ = 0;
  std::vector<writer::RowGroupMeta> row_groups_;
  int64_t memory_ = 0;  // memory_estimate()
  // The column chunks' memory (encoders' pages, dictionaries, encoded chunks): the blocks a
  // row group's chunks free serve the next group's, up to the most they held at once, instead
  // of fresh pages faulted in for every group. Made at Open, closed by the destructor (it deletes
  // itself once its last block is freed).
  RecyclingPool* chunk_pool_ = nullptr;
  bool closed_ = false;
  std::unique_ptr<writer::FileEncryptor> encryptor_;  // null: a plaintext file
  // Last: destroyed first, so its tasks (which read the members above) finish before them.
  std::unique_ptr<InFlight> in_flight_;
};

}  // namespace quiver::parquet

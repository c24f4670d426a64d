// OrcFileWriter: record batches into an ORC file on an io::OutputStream: stripes cut by the
// in-memory size of their rows, each stripe's columns encoded in parallel while the next rows
// arrive, a row index with statistics every row_index_stride rows, stripe and file statistics,
// string dictionaries with a fallback to direct, optional bloom filters, every codec.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/columnar/record_batch.h"
#include "quiver/compress/codec.h"
#include "quiver/core/memory_pool.h"
#include "quiver/core/result.h"
#include "quiver/core/thread_pool.h"
#include "quiver/io/output_stream.h"
#include "quiver/orc/format.h"

namespace quiver::orc {

struct OrcWriterOptions {
  // format::CompressionKind: kNone, kZlib, kSnappy, kLz4 or kZstd. SNAPPY, as quiver's Parquet
  // writer: ORC keeps floats raw and has no dictionary for numbers, so it gives the codec more
  // bytes than Parquet does, and zstd (ORC 2.0's default) costs 0.5 s more on 1 GB of lineitem.
  uint32_t compression = format::kSnappy;
  int compression_level = compress::kDefaultCompressionLevel;
  // Uncompressed bytes per compression chunk (at most 8 MiB - 1, the chunk header's limit).
  int64_t compression_block_size = 256 * 1024;
  // A stripe is cut at the end of a row group (every row_index_stride rows, or 10,000 without a
  // row index) once its rows hold this many bytes of values (RecordBatch::value_bytes, so the
  // same rows give the same stripes however they were batched; the encoded stripe is several
  // times smaller: about 120,000 lineitem rows, 4 MB).
  // The writer holds these batches and one stripe's in flight; larger stripes keep the CSV
  // reader from recycling its buffers (64 MiB: 560 MB peak and 0.5 s more on 1 GB of lineitem).
  int64_t stripe_bytes = 16 << 20;
  // Rows per row-index entry (0: no row index).
  int64_t row_index_stride = 10000;
  // A string column is dictionary-encoded in a stripe while its distinct values are at most this
  // share of its non-null values (checked after the first row group and at the stripe's end;
  // 0: never). A column that fell back starts direct in the next three stripes.
  double dictionary_key_ratio = 0.8;
  // Columns (dotted paths for nested fields) with a bloom filter per row group, UTF-8 form.
  std::vector<std::string> bloom_filter_columns;
  double bloom_filter_fpp = 0.05;
  // Columns of a stripe encode in parallel here; nullptr encodes on the caller.
  ThreadPool* thread_pool = ThreadPool::Default();
  MemoryPool* memory_pool = default_memory_pool();
};

// "zlib", "snappy", "lz4", "zstd", "none" (case-insensitive) as a format::CompressionKind.
Result<uint32_t> OrcCompressionFromName(std::string_view name);

class OrcFileWriter {
 public:
  // Writes the leading magic. NotImplemented for a type ORC has no form for (time of day).
  static Result<std::unique_ptr<OrcFileWriter>> Open(io::OutputStream* out, SchemaPtr schema, OrcWriterOptions options = {});
  ~OrcFileWriter();

  // Batches must have the writer's schema (its types; names may differ).
  Status Write(const std::shared_ptr<RecordBatch>& batch);
  // Ends the stripe of the rows buffered so far (nothing when none are).
  Status FlushStripe();
  // Flushes and writes the file's tail. The stream is not closed or committed.
  Status Close();

  int64_t num_rows() const { return rows_; }
  int num_stripes() const;

 private:
  struct Impl;
  explicit OrcFileWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  int64_t rows_ = 0;
};

}  // namespace quiver::orc

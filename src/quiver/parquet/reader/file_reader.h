// ParquetFileReader: opens a Parquet file (pread), exposes its quiver schema, and decodes whole
// row groups (flat and nested columns) into RecordBatches, column chunks decoded in parallel.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/columnar/record_batch.h"
#include "quiver/core/result.h"
#include "quiver/compress/codec.h"
#include "quiver/core/thread_pool.h"
#include "quiver/io/file.h"
#include "quiver/parquet/footer.h"
#include "quiver/parquet/reader/page_reader.h"
#include "quiver/parquet/reader/predicate.h"
#include "quiver/parquet/schema.h"

namespace quiver::parquet {

struct ParquetReaderOptions {
  bool verify_crc = true;
  // Column chunks decode in parallel here, at most num_threads() at once (the calling thread
  // may run one of the decode loops while it waits); nullptr decodes on the caller.
  ThreadPool* thread_pool = ThreadPool::Default();
  MemoryPool* pool = default_memory_pool();
};

class ParquetBatchReader;

class ParquetFileReader {
 public:
  static Result<std::unique_ptr<ParquetFileReader>> Open(const std::string& path, ParquetReaderOptions options = {});
  static Result<std::unique_ptr<ParquetFileReader>> Open(std::shared_ptr<io::RandomAccessFile> file,
                                                         ParquetReaderOptions options = {});

  // One field per top-level schema node, as SchemaTree::ToFields maps them.
  const SchemaPtr& schema() const { return schema_; }
  const SchemaTree& schema_tree() const { return tree_; }
  const FileMetaData& metadata() const { return footer_->metadata(); }
  int num_row_groups() const { return static_cast<int>(footer_->metadata().row_groups.size()); }
  int64_t num_rows() const { return footer_->metadata().num_rows; }

  // Row group `i` with the top-level fields `columns` (indices into schema(); empty = all), in
  // the order given. Nested fields (lists, maps, structs) are rebuilt from their leaves' levels.
  Result<std::shared_ptr<RecordBatch>> ReadRowGroup(int i, const std::vector<int>& columns = {});
  // Several row groups (empty = all, in file order) at once, one batch each: every (row group,
  // column) chunk is a task, the largest first, so the threads stay busy across group
  // boundaries. Each buffer is allocated once at its final size.
  Result<std::vector<std::shared_ptr<RecordBatch>>> ReadRowGroups(std::vector<int> row_groups = {},
                                                                  const std::vector<int>& columns = {});

  // Indices into schema() of the top-level fields named `names`; Invalid naming an unknown one.
  Result<std::vector<int>> ResolveFields(const std::vector<std::string>& names) const;

  // `column op value` on a top-level flat field named `column` (value of the kind
  // LiteralKindFor gives its type); Invalid for an unknown or nested column.
  Result<BoundPredicate> BindPredicate(std::string_view column, CompareOp op, Literal value) const;
  // The row groups of `row_groups` (empty = all, in file order) whose statistics do not rule
  // out a row satisfying `p` (StatisticsMayMatch), in the order given.
  std::vector<int> RowGroupsMayMatch(const BoundPredicate& p, std::vector<int> row_groups = {}) const;

  // Streams `row_groups` (empty = all, in file order) as batches of at most `batch_rows` rows.
  // The reader must outlive the stream.
  Result<std::unique_ptr<ParquetBatchReader>> GetBatchReader(std::vector<int> row_groups = {},
                                                             std::vector<int> columns = {},
                                                             int64_t batch_rows = 64 * 1024);

 private:
  ParquetFileReader() = default;
  // The bytes of a leaf's column chunk in row group `row_group`, with its codec and value count:
  // a view of a mapped or in-memory file, else read into `*reuse` (allocated from the pool or
  // grown as needed; one per decoding thread, so reading costs no fresh memory per chunk).
  Result<std::shared_ptr<Buffer>> ChunkBytes(int row_group, int leaf, compress::Codec* codec, int64_t* num_values,
                                             std::shared_ptr<Buffer>* reuse) const;

  std::string path_;
  std::shared_ptr<io::RandomAccessFile> file_;
  std::shared_ptr<const ParquetFooter> footer_;
  SchemaTree tree_;
  SchemaPtr schema_;
  ParquetReaderOptions options_;
};

// Each row group is decoded whole, then handed out in zero-copy slices.
class ParquetBatchReader {
 public:
  // The next batch, or nullptr after the last one.
  Result<std::shared_ptr<RecordBatch>> Next();

 private:
  friend class ParquetFileReader;
  ParquetBatchReader() = default;
  ParquetFileReader* file_ = nullptr;
  std::vector<int> row_groups_;
  std::vector<int> columns_;
  int64_t batch_rows_ = 0;
  size_t next_group_ = 0;
  std::shared_ptr<RecordBatch> current_;
  int64_t offset_ = 0;
};

}  // namespace quiver::parquet

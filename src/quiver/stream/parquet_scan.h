// ParquetScan: a Parquet file as a batch stream with pushdown. Columns are chosen by name; one
// `column op literal` predicate skips row groups by their statistics and (for =) their bloom
// filters, reads only the pages its page index does not rule out, and keeps exactly the rows
// that satisfy it. Counters say what was skipped at each step. Batches from Next() are decoded
// into memory the scan recycles: a consumer that releases each batch before the next one
// touches the memory of the row groups in flight only once.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quiver/core/recycling_pool.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/stream/batch_stream.h"

namespace quiver::stream {

struct ScanPredicate {
  std::string column;  // a top-level flat column
  parquet::CompareOp op = parquet::CompareOp::kEq;
  parquet::Literal value;  // of the column's kind (ParseLiteral makes one from text)
};

struct ScanOptions {
  // Top-level fields by name, in the order wanted (empty: all).
  std::vector<std::string> columns;
  std::optional<ScanPredicate> where;
  // Row groups to consider, in the order given (empty: all, in file order).
  std::vector<int> row_groups;
};

struct ScanCounters {
  int64_t row_groups = 0;                // considered
  int64_t skipped_by_statistics = 0;     // their statistics rule the predicate out
  int64_t skipped_by_bloom_filter = 0;   // then their bloom filter
  int64_t skipped_by_page_index = 0;     // then every page by the page index
};

class ParquetScan final : public BatchReader {
 public:
  // Plans the scan: the row groups to read and, with a predicate, the rows of each that its page
  // index does not rule out. The file's reader decodes on its own thread pool.
  static Result<std::unique_ptr<ParquetScan>> Make(std::shared_ptr<parquet::ParquetFileReader> file,
                                                   ScanOptions options);

  // The chosen columns (the predicate's column only if chosen).
  const SchemaPtr& schema() const override { return schema_; }
  ~ParquetScan() override;
  // One row group a batch, its matching rows only, in buffers from the scan's RecyclingPool
  // (blocks the consumer released are decoded into again).
  Result<std::shared_ptr<RecordBatch>> Next() override;
  ReadStats stats() const override;
  // Every row group not yet read, decoded in one call (all their column chunks in parallel),
  // one batch each, in the file reader's pool (nothing is released before the end to recycle).
  Result<std::vector<std::shared_ptr<RecordBatch>>> ReadAll();

  // The row groups read or to be read, in order.
  const std::vector<int>& row_groups() const { return groups_; }
  const ScanCounters& counters() const { return counters_; }
  // Data pages left unread by the page index selections.
  int64_t data_pages_skipped() const { return file_->data_pages_skipped(); }
  // Large buffers of Next() served from released ones, and fresh from the file reader's pool.
  int64_t buffers_reused() const { return recycle_->reused(); }
  int64_t buffers_fresh() const { return recycle_->fresh(); }

 private:
  ParquetScan() = default;
  // The predicate's rows kept and its column dropped when it was not chosen.
  Result<std::shared_ptr<RecordBatch>> Filter(std::shared_ptr<RecordBatch> batch) const;

  std::shared_ptr<parquet::ParquetFileReader> file_;
  SchemaPtr schema_;
  std::vector<int> read_columns_;  // the chosen ones, then the predicate's if not among them
  size_t shown_ = 0;               // how many of read_columns_ were chosen
  std::optional<parquet::BoundPredicate> where_;
  int where_position_ = -1;        // the predicate column's place in a read batch
  std::vector<int> groups_;
  std::vector<parquet::RowSelection> selections_;  // one per group with a predicate
  size_t next_ = 0;
  int64_t rows_ = 0, bytes_ = 0;
  ScanCounters counters_;
  RecyclingPool* recycle_ = nullptr;  // closed (not deleted) with the scan: batches may outlive it
};

}  // namespace quiver::stream

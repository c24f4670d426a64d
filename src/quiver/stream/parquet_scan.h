// ParquetScan: a Parquet file as a batch stream with pushdown. Columns are chosen by name; one
// `column op literal` predicate skips row groups by their statistics and (for =) their bloom
// filters, reads only the pages its page index does not rule out, and keeps exactly the rows
// that satisfy it. Counters say what was skipped at each step. Next() keeps a few row groups
// decoding ahead on the file reader's pool, each on one thread, into memory the scan recycles:
// a consumer that releases each batch before the next one touches the memory of the row groups
// in flight only once.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
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
  // More predicates that must hold as well (AND), each pushed down as `where` is: a row group
  // is skipped when any one's statistics or bloom filter rule it out, and only the pages that
  // every one's page index leaves are read.
  std::vector<ScanPredicate> and_where;
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

  // The chosen columns (the predicates' columns only if chosen).
  const SchemaPtr& schema() const override { return schema_; }
  ~ParquetScan() override;
  // One row group a batch, its matching rows only, in buffers from the scan's RecyclingPool
  // (blocks the consumer released are decoded into again). With a thread pool, the next row
  // groups (one per pool thread) decode meanwhile, each whole on one thread, so
  // the threads never wait for each other at a group's end; a group not yet started when it is
  // asked for is decoded on the caller.
  Result<std::shared_ptr<RecordBatch>> Next() override;
  ReadStats stats() const override;
  // Every row group not yet read (those decoding ahead waited for), the rest decoded in one call (all their column chunks in parallel),
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
  // The rows every predicate holds for kept, and their columns dropped when not chosen.
  Result<std::shared_ptr<RecordBatch>> Filter(std::shared_ptr<RecordBatch> batch) const;
  // The rows of `b` every predicate holds for (predicate k's column at positions[k]): a bit
  // each, `*selected` of them set.
  Result<std::shared_ptr<Buffer>> Keep(const RecordBatch& b, const std::vector<int>& positions,
                                       int64_t* selected) const;
  // Group groups_[k] read and filtered, on the calling thread.
  Result<std::shared_ptr<RecordBatch>> Decode(size_t k) const;
  // A row group decoding ahead: whoever claims it first (a pool task or Next) decodes it.
  struct Ahead {
    size_t k = 0;
    std::atomic<bool> claimed{false};
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    Result<std::shared_ptr<RecordBatch>> result{std::shared_ptr<RecordBatch>()};
  };
  // Queues groups until `window_` of them are ahead.
  void FillWindow();
  // The front group's batch: decoded here if no task has started it, else waited for.
  Result<std::shared_ptr<RecordBatch>> TakeFront();

  std::shared_ptr<parquet::ParquetFileReader> file_;
  SchemaPtr schema_;
  std::vector<int> read_columns_;  // the chosen ones, then the predicate's if not among them
  size_t shown_ = 0;               // how many of read_columns_ were chosen
  std::vector<parquet::BoundPredicate> where_;  // `where`, then `and_where`
  std::vector<int> where_positions_;           // each one's column's place in a read batch
  // Late materialization (predicates, and every other chosen column flat): the predicates'
  // columns are read first, and the others only for the rows they keep.
  bool late_ = false;
  std::vector<int> pred_fields_;     // the predicates' columns, each once
  std::vector<int> pred_positions_;  // predicate k's column's place among pred_fields_
  std::vector<int> rest_fields_;     // the chosen columns not among them
  std::vector<std::pair<bool, int>> out_from_;  // each chosen column: (among pred_fields_, its place there or in rest_fields_)
  std::vector<int> shown_fields_;    // the chosen columns, in order (every column when none was named)
  // The leaves of chosen columns that predicates also read: their pages, decompressed for the
  // predicates, are kept and replayed for the kept rows (parquet::KeptPages).
  std::vector<int> twice_leaves_;
  std::vector<int> groups_;
  std::vector<parquet::RowSelection> selections_;  // one per group with a predicate
  size_t next_ = 0;     // the next group Next() returns
  size_t queued_ = 0;   // the next group to queue ahead
  size_t window_ = 0;   // groups decoding ahead at most (0: none, no pool)
  std::deque<std::shared_ptr<Ahead>> ahead_;
  int64_t rows_ = 0, bytes_ = 0;
  ScanCounters counters_;
  RecyclingPool* recycle_ = nullptr;  // closed (not deleted) with the scan: batches may outlive it
};

}  // namespace quiver::stream

// OrcScan: an ORC file as a BatchReader with pushdown: columns by name or dotted path, one
// `column op literal` predicate skipping stripes by file, stripe and row-group statistics and,
// for = on strings, by UTF-8 bloom filters; the rows of the stripes read kept exactly.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quiver/orc/reader/file_reader.h"
#include "quiver/parquet/reader/predicate.h"
#include "quiver/stream/batch_stream.h"

namespace quiver::stream {

struct OrcWhere {
  std::string column;  // a top-level column of a flat type
  parquet::CompareOp op = parquet::CompareOp::kEq;
  std::string literal;  // text, parsed by the column's type (stream/scan_literal.h)
};

struct OrcScanOptions {
  std::vector<std::string> columns;  // empty: all
  std::optional<OrcWhere> where;
};

struct OrcScanCounters {
  int64_t stripes_read = 0;
  int64_t skipped_by_file_statistics = 0;  // stripes
  int64_t skipped_by_stripe_statistics = 0;
  int64_t skipped_by_row_group_statistics = 0;  // stripes whose every row group was excluded
  int64_t skipped_by_bloom_filter = 0;          // stripes whose every row group was excluded
};

class OrcScan final : public BatchReader {
 public:
  static Result<std::unique_ptr<OrcScan>> Make(std::shared_ptr<orc::OrcFileReader> file, OrcScanOptions options);

  const SchemaPtr& schema() const override { return schema_; }
  Result<std::shared_ptr<RecordBatch>> Next() override;
  ReadStats stats() const override { return inner_->stats(); }
  // Every remaining stripe, decoded a window at a time (in parallel) and filtered.
  Result<std::vector<std::shared_ptr<RecordBatch>>> ReadAll();
  const OrcScanCounters& counters() const { return counters_; }
  const orc::OrcFileReader& file() const { return *file_; }

 private:
  OrcScan() = default;
  Result<std::shared_ptr<RecordBatch>> Filter(const std::shared_ptr<RecordBatch>& batch);

  std::shared_ptr<orc::OrcFileReader> file_;
  std::unique_ptr<BatchReader> inner_;
  SchemaPtr schema_;
  std::vector<int> keep_;  // output columns among the inner reader's
  int where_index_ = -1;   // the predicate column among the inner reader's
  std::optional<OrcWhere> where_;
  parquet::Literal literal_;
  std::vector<int> stripes_;
  OrcScanCounters counters_;
};

// Whether ORC column statistics allow a value satisfying `op literal` (false only when they prove
// none does). Exposed for tests and `quiver meta`.
bool OrcStatisticsMayMatch(const orc::ColumnStatistics& stats, const DataType& type, parquet::CompareOp op,
                           const parquet::Literal& literal);

// ORC's bloom filter test for UTF-8 bytes (Murmur3 64-bit of the bytes, as the Java writer hashes
// them): false when the value is surely absent.
bool OrcBloomMayContain(const orc::BloomFilter& filter, std::string_view bytes);

}  // namespace quiver::stream

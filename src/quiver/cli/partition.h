// `convert --partition-by`: rows split by the values of some columns into a Hive-style tree of
// Parquet files (`col=value/part-00000.parquet`), the partition columns left out of the files.
// The tree is written into a temporary folder beside the target and renamed into place by
// Commit; on failure, abandonment or an interrupt (io::RegisterTempDirectory) the temporary
// folder is removed and nothing remains. Each partition keeps one file open, so the tree has
// one file per partition unless more partitions appear than `max_open` (by default the
// process's file limit less a margin): then the least recently written file is finished and
// its partition continues in a new one (`part-00001.parquet`, ...). Each partition gathers its
// rows into one set of growing column buffers until a row group is full; `buffer_bytes` bounds
// what all of them hold together: past it the partitions holding the most are written out as
// (smaller) row groups. The files are made durable together by one syncfs at Commit.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "quiver/columnar/record_batch.h"
#include "quiver/core/result.h"
#include "quiver/parquet/writer/file_writer.h"

namespace quiver::cli {

// The path segment of one partition value: Hive's escaping (%XX for control characters and
// "#%'*/:=?\\{[]^ and DEL); null and the empty string become __HIVE_DEFAULT_PARTITION__.
std::string HivePartitionSegment(std::string_view column, const Array& values, int64_t row);

class PartitionedParquetWriter {
 public:
  // Fails if `dir` exists (the tree replaces nothing) or a partition column is missing, or
  // when no column would be left in the files, or `max_open` is negative (0: derived from
  // RLIMIT_NOFILE, whose soft limit is first raised to the hard one) or `buffer_bytes` below 1.
  static Result<std::unique_ptr<PartitionedParquetWriter>> Open(const std::string& dir, SchemaPtr schema,
                                                                const std::vector<std::string>& columns,
                                                                parquet::ParquetWriterOptions options,
                                                                int64_t max_open = 0,
                                                                int64_t buffer_bytes = int64_t{256} << 20);
  ~PartitionedParquetWriter();

  Status Write(const RecordBatch& batch);
  // Closes every file, syncs them and renames the temporary folder to the target.
  Status Commit();

  int64_t bytes_written() const { return bytes_written_; }
  int64_t num_partitions() const { return static_cast<int64_t>(parts_.size()); }
  // Parquet files started so far (more than the partitions once some were reopened).
  int64_t num_files() const { return files_started_; }
  int64_t max_open() const { return max_open_; }
  // Row groups written early to keep the buffered rows under `buffer_bytes`.
  int64_t budget_flushes() const { return budget_flushes_; }

 private:
  struct Part;
  PartitionedParquetWriter() = default;
  Part* PartFor(const std::string& key);
  void RawKey(const RecordBatch& batch, int64_t r, std::string* out) const;
  // Writes the rows a part holds as a row group of its open file.
  Status Drain(Part* part);
  // Opens the part's next file, first finishing the least recently written open one when
  // `max_open_` are open.
  Status OpenFile(Part* part);
  Status CloseFile(Part* part);
  // Writes out the largest buffered partitions until the total is within the budget.
  Status EnforceBudget();

  std::string dir_, temp_dir_;
  SchemaPtr data_schema_;
  std::vector<int> key_columns_, data_columns_;
  std::vector<std::string> key_names_;
  parquet::ParquetWriterOptions options_;
  std::unordered_map<std::string, std::unique_ptr<Part>> parts_;
  std::unordered_map<std::string, Part*> by_raw_key_;  // RawKey -> part
  std::vector<Part*> order_;  // parts in order of first appearance
  std::vector<Part*> open_;   // parts with an open file
  int64_t max_open_ = 64;
  int64_t buffer_budget_ = 0;
  int64_t buffered_ = 0;  // bytes the parts' accumulators hold, the sum of Part::held
  int64_t budget_flushes_ = 0;
  uint64_t clock_ = 0;        // write counter, for least recently written
  int64_t files_started_ = 0;
  int64_t bytes_written_ = 0;
  int temp_slot_ = -1;  // io::RegisterTempDirectory
  bool committed_ = false;
};

}  // namespace quiver::cli

// `convert --partition-by`: rows split by the values of some columns into a Hive-style tree of
// Parquet files (`col=value/part-00000.parquet`), the partition columns left out of the files.
// The tree is written into a temporary folder beside the target and renamed into place by
// Commit; on failure or abandonment the temporary folder is removed and nothing remains.
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

// Rows `rows` of a flat array, in that order, as a new array.
Result<Array> TakeRows(const Array& array, const std::vector<int32_t>& rows, MemoryPool* pool = default_memory_pool());

class PartitionedParquetWriter {
 public:
  // Fails if `dir` exists (the tree replaces nothing) or a partition column is missing, or
  // when no column would be left in the files.
  static Result<std::unique_ptr<PartitionedParquetWriter>> Open(const std::string& dir, SchemaPtr schema,
                                                                const std::vector<std::string>& columns,
                                                                parquet::ParquetWriterOptions options);
  ~PartitionedParquetWriter();

  Status Write(const RecordBatch& batch);
  // Closes every file, syncs them and renames the temporary folder to the target.
  Status Commit();

  int64_t bytes_written() const { return bytes_written_; }
  int64_t num_partitions() const { return static_cast<int64_t>(parts_.size()); }

 private:
  struct Part;
  PartitionedParquetWriter() = default;
  Result<Part*> PartFor(const std::string& key);

  std::string dir_, temp_dir_;
  SchemaPtr data_schema_;
  std::vector<int> key_columns_, data_columns_;
  std::vector<std::string> key_names_;
  parquet::ParquetWriterOptions options_;
  std::unordered_map<std::string, std::unique_ptr<Part>> parts_;
  std::vector<Part*> order_;  // parts in order of first appearance
  int64_t bytes_written_ = 0;
  bool committed_ = false;
};

}  // namespace quiver::cli

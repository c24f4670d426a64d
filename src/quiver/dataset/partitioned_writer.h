// PartitionedParquetWriter: rows split by the values of some columns into a Hive-style tree
// of Parquet files (`col=value/part-00000.parquet`), the partition columns left out of the
// files. The tree is built in an io::TempDirectory beside the target and renamed into place by
// Finish; on failure, abandonment or an interrupt nothing remains. Each partition keeps one
// file open, so the tree has one file per partition unless more partitions appear than
// `max_open_files`: then the least recently written file is finished and its partition
// continues in a new one (`part-00001.parquet`, ...); a file is opened when its partition
// writes its first row group. A partition holds its rows as row numbers into the input
// batches (kept, counted once, while any partition holds rows of them) until it has a row
// group; `memory_budget` bounds those batches, the row lists and the open writers' footers:
// past it the partitions holding rows of the oldest batches gather them (columnar/gather.h)
// into a spill file (unlinked, in the temporary folder), read back when their partition writes
// its row group, so row groups keep their full size; if the writers' footers alone pass it,
// the files holding the most are finished. The files are made durable by one syncfs.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "quiver/columnar/record_batch.h"
#include "quiver/core/result.h"
#include "quiver/io/output_stream.h"
#include "quiver/io/temp_directory.h"
#include "quiver/parquet/writer/file_writer.h"
#include "quiver/stream/batch_stream.h"

namespace quiver::dataset {

struct PartitionedWriteOptions {
  // The columns whose values name the folders, outermost first; they leave the files.
  std::vector<std::string> partition_by;
  // The files' settings; `row_group_rows` is also what a partition gathers before it writes.
  parquet::ParquetWriterOptions parquet;
  // Files open at once; 0: the process's open-file limit (its soft value first raised to the
  // hard one) less 64.
  int64_t max_open_files = 0;
  // Bytes all partitions may hold between their row groups (see above).
  int64_t memory_budget = int64_t{256} << 20;
};

class PartitionedParquetWriter final : public stream::BatchWriter {
 public:
  // Fails if `dir` exists (the tree replaces nothing), a partition column is missing or named
  // twice, no column would be left in the files, a bloom filter is asked for on a partition
  // column, `max_open_files` is negative or `memory_budget` below 1.
  static Result<std::unique_ptr<PartitionedParquetWriter>> Open(const std::string& dir, const SchemaPtr& schema,
                                                                PartitionedWriteOptions options);
  ~PartitionedParquetWriter() override;

  // The batch is kept (shared) while a partition holds rows of it.
  Status Write(const std::shared_ptr<RecordBatch>& batch) override;
  // Closes every file, syncs them and renames the temporary folder to the target.
  Status Finish() override;
  // Removes the temporary folder now (the destructor does this too); no call may follow.
  void Abort() override;

  // The finished files' bytes.
  int64_t bytes_written() const override { return bytes_written_; }
  int64_t num_partitions() const { return static_cast<int64_t>(parts_.size()); }
  // Parquet files started so far (more than the partitions once some were reopened).
  int64_t num_files() const { return files_started_; }
  int64_t max_open() const { return max_open_; }
  // How many times partitions' rows moved to the spill file to keep within the memory budget,
  // and the file's size.
  int64_t spills() const { return spills_; }
  int64_t spill_bytes() const { return spill_stream_ ? spill_stream_->Tell() : 0; }

 private:
  struct Part;
  struct SpillSegment {
    int64_t offset = 0, length = 0, rows = 0;
  };
  PartitionedParquetWriter() = default;
  Part* PartFor(const std::string& key);
  void RawKey(const RecordBatch& batch, int64_t r, std::string* out) const;
  // Writes the rows a part spilled and holds as row groups of its file, opening one when it has
  // none: all of them when `whole`, else only whole row groups (the rest spilled again).
  Status Drain(Part* part, bool whole);
  // Moves the rows a part holds to the spill file.
  Status Spill(Part* part);
  Status SpillArrays(Part* part, const std::vector<Array>& columns, int64_t rows);
  // The rows a part holds as arrays of the data columns; its hold on their batches is released.
  Result<std::vector<Array>> Gather(Part* part);
  void Release(int64_t slot);
  // One spilled segment back as a batch of the data columns.
  Result<std::shared_ptr<RecordBatch>> ReadSpilled(const SpillSegment& seg);
  // The part's bytes against the budget again (rows, spill index, writer), into buffered_.
  void Recount(Part* part);
  // Opens the part's next file, first finishing the least recently written open one when
  // `max_open_` are open.
  Status OpenFile(Part* part);
  Status CloseFile(Part* part);
  // Writes out the largest buffered partitions until the total is within the budget.
  Status EnforceBudget();

  std::string temp_dir_;
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
  // Input batches some partition holds rows of, by slot (slots count up from retained_base_;
  // released ones are dropped from the front).
  struct Retained {
    std::shared_ptr<RecordBatch> batch;
    int64_t bytes = 0;
    int64_t parts = 0;  // partitions holding rows of it
  };
  std::deque<Retained> retained_;
  int64_t retained_base_ = 0;
  int64_t buffered_ = 0;  // the retained batches' bytes and the sum of Part::held
  int spill_fd_ = -1;
  std::unique_ptr<io::FdOutputStream> spill_stream_;
  int64_t spills_ = 0;
  uint64_t clock_ = 0;        // write counter, for least recently written
  int64_t files_started_ = 0;
  int64_t bytes_written_ = 0;
  std::unique_ptr<io::TempDirectory> temp_;
};

}  // namespace quiver::dataset

// The CSV reader and writer as batch streams (csv::CsvReader, csv::CsvWriter into an atomic
// file or stdout).
#pragma once

#include <memory>
#include <string>

#include "quiver/csv/reader.h"
#include "quiver/csv/writer.h"
#include "quiver/stream/batch_stream.h"
#include "quiver/stream/target_writer.h"

namespace quiver::stream {

class CsvStreamReader final : public BatchReader {
 public:
  // "-" reads stdin.
  static Result<std::unique_ptr<CsvStreamReader>> Open(const std::string& path, csv::CsvOptions options = {});
  explicit CsvStreamReader(std::unique_ptr<csv::CsvReader> reader) : reader_(std::move(reader)) {}

  const SchemaPtr& schema() const override { return reader_->schema(); }
  Result<std::shared_ptr<RecordBatch>> Next() override { return reader_->Next(); }
  ReadStats stats() const override;
  // A few batches: the reader already parses the next block ahead on the pool, and each batch
  // queued here is resident beside what the consumer holds (convert's peak memory).
  size_t read_ahead_batches() const override { return 4; }

  // The reader itself, for its dialect and its CSV counters (rows rejected, repaired, ...).
  const csv::CsvReader& reader() const { return *reader_; }

 private:
  std::unique_ptr<csv::CsvReader> reader_;
};

class CsvStreamWriter final : public TargetWriter {
 public:
  // "-" writes stdout; a file is written beside its target and renamed into place by Finish.
  // `schema` gives the header line of a table without rows.
  static Result<std::unique_ptr<CsvStreamWriter>> Open(const std::string& path, SchemaPtr schema,
                                                       csv::CsvWriteOptions options = {});

  Status Write(const std::shared_ptr<RecordBatch>& batch) override { return writer_->Write(*batch); }

 private:
  CsvStreamWriter() = default;
  // A table without rows still gets its header line.
  Status EndOutput() override { return writer_->Finish(*schema_); }
  SchemaPtr schema_;
  std::unique_ptr<csv::CsvWriter> writer_;
};

}  // namespace quiver::stream

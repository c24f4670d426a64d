// CSV output (RFC 4180): fields quoted only when they must be, values printed as their
// logical type (ISO dates and timestamps, exact decimals, shortest round-trip floats).
#pragma once

#include <string>

#include "quiver/columnar/record_batch.h"
#include "quiver/io/output_stream.h"

namespace quiver::csv {

struct CsvWriteOptions {
  char delimiter = ',';
  bool header = true;
  std::string null_string;  // how a null is written (empty by default)
};

class CsvWriter {
 public:
  CsvWriter(io::OutputStream* out, CsvWriteOptions options = {}) : out_(out), opts_(std::move(options)) {}
  Status Write(const RecordBatch& batch);
  // Ends the output: the header line of `schema` when no batch was written, so that a table
  // without rows keeps its column names (as DuckDB writes it).
  Status Finish(const Schema& schema);
  int64_t rows_written() const { return rows_; }

 private:
  void AppendField(std::string_view v, std::string* line) const;
  void AppendHeader(const Schema& schema, std::string* text);

  io::OutputStream* out_;
  CsvWriteOptions opts_;
  bool header_done_ = false;
  int64_t rows_ = 0;
};

}  // namespace quiver::csv

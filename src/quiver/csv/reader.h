// CsvReader: streams a CSV file (or stdin) into RecordBatches: dialect sniffing, type
// inference, parallel splitting and typed conversion, with errors naming line and column.
#pragma once

#include <memory>
#include <string>

#include "quiver/columnar/record_batch.h"
#include "quiver/core/buffer.h"
#include "quiver/core/result.h"
#include "quiver/csv/options.h"

namespace quiver::csv {

struct CsvReadStats {
  int64_t rows_read = 0;        // data rows seen (header, comments and blank lines excluded)
  int64_t rows_written = 0;     // rows delivered in batches
  int64_t rows_rejected = 0;    // dropped by on_error=skip
  int64_t cells_nulled = 0;     // turned to null by on_error=null
  int64_t rows_repaired = 0;    // lenient or --on-error null: rows padded with nulls or cut to the columns
  int64_t fields_dropped = 0;   // lenient or --on-error null: extra fields dropped
  int64_t blank_lines = 0;      // skipped
  int64_t header_lines_joined = 0;  // lenient: physical lines joined into one header (0: none)
  int64_t footer_lines = 0;     // lenient: physical lines of prose after the table, skipped
  int64_t second_table_line = 0;  // lenient: where a stacked second table starts (not read; 0: none)
  int64_t bytes_read = 0;       // decoded bytes consumed
};

class CsvReader {
 public:
  // "-" reads stdin. The dialect and schema are settled on open (from the first block).
  static Result<std::unique_ptr<CsvReader>> Open(const std::string& path, CsvOptions options = {});
  static Result<std::unique_ptr<CsvReader>> OpenBuffer(std::shared_ptr<Buffer> bytes, CsvOptions options = {},
                                                       std::string name = "<memory>");
  ~CsvReader();

  const Dialect& dialect() const;
  const SchemaPtr& schema() const;
  // The format a date or timestamp column is read by (date_format.h), empty for ISO text and
  // for other columns.
  std::string column_format(int col) const;
  // The next batch, or nullptr after the last one.
  Result<std::shared_ptr<RecordBatch>> Next();
  // Every remaining row in one batch.
  Result<std::shared_ptr<RecordBatch>> ReadAll();
  const CsvReadStats& stats() const;
  // Raw input bytes consumed and in all (-1 when unknown), for progress.
  int64_t input_position() const;
  int64_t input_size() const;

  class Impl;

 private:
  explicit CsvReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace quiver::csv

// Readers and writers chosen by format: named, or told by the file's extension (and an input's
// first bytes; stream/file_format.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "quiver/csv/options.h"
#include "quiver/csv/writer.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/writer/file_writer.h"
#include "quiver/stream/batch_stream.h"

namespace quiver::stream {

struct ReadOptions {
  // "csv", "tsv" (CSV with a tab delimiter unless csv.delimiter says otherwise) or "parquet";
  // empty: InputFormatOf(path), and CSV when that says nothing.
  std::string format;
  csv::CsvOptions csv;
  parquet::ParquetReaderOptions parquet;
  // Parquet: the top-level fields to read, by name (empty: all).
  std::vector<std::string> columns;
};

struct WriteOptions {
  // "parquet", "csv", "tsv" (CSV with a tab delimiter) or "jsonl"; empty: FormatOf(path).
  std::string format;
  parquet::ParquetWriterOptions parquet;
  csv::CsvWriteOptions csv;
};

// "-" reads stdin (CSV only).
Result<std::unique_ptr<BatchReader>> OpenReader(const std::string& path, ReadOptions options = {});
// "-" writes stdout; a file is written beside its target and renamed into place by Finish.
Result<std::unique_ptr<BatchWriter>> OpenWriter(const std::string& path, SchemaPtr schema, WriteOptions options = {});

}  // namespace quiver::stream

// Readers and writers chosen by format: named, or told by the file's extension (and an input's
// first bytes; stream/file_format.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "quiver/csv/options.h"
#include "quiver/csv/writer.h"
#include "quiver/ipc/writer.h"
#include "quiver/orc/reader/file_reader.h"
#include "quiver/orc/writer/file_writer.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/writer/file_writer.h"
#include "quiver/stream/batch_stream.h"

namespace quiver::stream {

struct ReadOptions {
  // "csv", "tsv" (CSV with a tab delimiter unless csv.delimiter says otherwise), "parquet", or
  // "arrow"/"arrows"/"feather" (Arrow IPC: the file or the stream format, told by its first bytes), "orc";
  // empty: InputFormatOf(path), and CSV when that says nothing.
  std::string format;
  csv::CsvOptions csv;
  parquet::ParquetReaderOptions parquet;
  orc::OrcReaderOptions orc;
  // Parquet: the top-level fields to read, by name; ORC: also dotted paths (empty: all).
  std::vector<std::string> columns;
};

struct WriteOptions {
  // "parquet", "orc", "csv", "tsv" (CSV with a tab delimiter), "jsonl", "arrow"/"feather" (the Arrow
  // IPC file format; to stdout, the stream format) or "arrows" (the stream format); empty: FormatOf(path).
  std::string format;
  parquet::ParquetWriterOptions parquet;
  orc::OrcWriterOptions orc;
  ipc::IpcWriteOptions ipc;  // its file_format is set from the format
  csv::CsvWriteOptions csv;
};

// "-" reads stdin (CSV, or Arrow IPC when the format says so).
Result<std::unique_ptr<BatchReader>> OpenReader(const std::string& path, ReadOptions options = {});
// "-" writes stdout; a file is written beside its target and renamed into place by Finish.
Result<std::unique_ptr<BatchWriter>> OpenWriter(const std::string& path, SchemaPtr schema, WriteOptions options = {});

}  // namespace quiver::stream

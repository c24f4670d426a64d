// Readers and writers chosen by format: named, or told by the file's extension (and an input's
// first bytes; stream/file_format.h).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quiver/csv/options.h"
#include "quiver/csv/writer.h"
#include "quiver/ipc/writer.h"
#include "quiver/json/options.h"
#include "quiver/orc/reader/file_reader.h"
#include "quiver/orc/writer/file_writer.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/writer/file_writer.h"
#include "quiver/stream/batch_stream.h"
#include "quiver/stream/where.h"

namespace quiver::csv {
class CsvReader;
}  // namespace quiver::csv

namespace quiver::stream {

struct ReadOptions {
  // "csv", "tsv" (CSV with a tab delimiter unless csv.delimiter says otherwise), "parquet", or
  // "arrow"/"arrows"/"feather" (Arrow IPC: the file or the stream format, told by its first bytes), "orc",
  // "json"/"jsonl"/"ndjson" (JSON Lines or a top-level array, told by the first byte);
  // empty: ResolveInputFormat(path) (stream/file_format.h): the extension, else the first bytes,
  // and CSV when those say nothing; an extension naming a format quiver cannot read is refused.
  std::string format;
  csv::CsvOptions csv;
  parquet::ParquetReaderOptions parquet;
  orc::OrcReaderOptions orc;
  json::JsonReadOptions json;  // "json" (a top-level array or JSON Lines) and "jsonl"
  // The top-level fields to read, by name, in the order given; ORC also takes dotted paths
  // (empty: all). Parquet and ORC read only these; CSV and Arrow IPC batches are cut to them.
  std::vector<std::string> columns;
  // Parquet and ORC: only the rows where the clause holds (stream/where.h), pushed down as
  // ParquetScan and OrcScan do; other formats refuse it.
  std::optional<WhereClause> where;
  // Parquet and ORC: read through ParquetScan or OrcScan even without `where`, for their
  // counters, and for Parquet its row groups decoded into memory recycled from the batches the
  // caller released (for a caller that releases each batch before asking for the next).
  bool scan = false;
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

// "-" reads stdin (CSV, or Arrow IPC when the format says so). The thread pools the options
// name must outlive the reader.
Result<std::unique_ptr<BatchReader>> OpenReader(const std::string& path, ReadOptions options = {});

// The CSV reader inside a reader OpenReader returned (for its dialect and counters), or null.
const csv::CsvReader* CsvReaderOf(const BatchReader& reader);
// "-" writes stdout; a file is written beside its target and renamed into place by Finish.
Result<std::unique_ptr<BatchWriter>> OpenWriter(const std::string& path, SchemaPtr schema, WriteOptions options = {});

}  // namespace quiver::stream

#include "quiver/stream/open.h"

#include <fmt/format.h>

#include "quiver/ipc/reader.h"
#include "quiver/ipc/writer.h"
#include "quiver/stream/csv_stream.h"
#include "quiver/stream/file_format.h"
#include "quiver/stream/jsonl_stream.h"
#include "quiver/stream/orc_stream.h"
#include "quiver/stream/orc_writer_stream.h"
#include "quiver/stream/parquet_stream.h"

namespace quiver::stream {

Result<std::unique_ptr<BatchReader>> OpenReader(const std::string& path, ReadOptions options) {
  std::string format = options.format.empty() ? InputFormatOf(path) : options.format;
  if (format.empty()) format = "csv";
  if (format == "parquet") {
    QUIVER_ASSIGN_OR_RETURN(auto r, ParquetStreamReader::Open(path, options.columns, std::move(options.parquet)));
    return std::unique_ptr<BatchReader>(std::move(r));
  }
  if (format == "csv" || format == "tsv") {
    if (format == "tsv" && !options.csv.delimiter) options.csv.delimiter = '\t';
    QUIVER_ASSIGN_OR_RETURN(auto r, CsvStreamReader::Open(path, std::move(options.csv)));
    return std::unique_ptr<BatchReader>(std::move(r));
  }
  if (IsArrowIpcFormat(format)) {
    QUIVER_ASSIGN_OR_RETURN(auto r, ipc::IpcReader::Open(path));
    return std::unique_ptr<BatchReader>(std::move(r));
  }
  if (format == "orc") {
    QUIVER_ASSIGN_OR_RETURN(auto r, OrcStreamReader::Open(path, options.columns, options.orc));
    return std::unique_ptr<BatchReader>(std::move(r));
  }
  return Status::Invalid(fmt::format("{}: cannot read the format '{}' (csv, tsv, parquet, arrow or orc)", path, format));
}

Result<std::unique_ptr<BatchWriter>> OpenWriter(const std::string& path, SchemaPtr schema, WriteOptions options) {
  const std::string format = options.format.empty() ? FormatOf(path) : options.format;
  if (format == "parquet") {
    QUIVER_ASSIGN_OR_RETURN(auto w, ParquetStreamWriter::Open(path, std::move(schema), std::move(options.parquet)));
    return std::unique_ptr<BatchWriter>(std::move(w));
  }
  if (format == "orc") {
    QUIVER_ASSIGN_OR_RETURN(auto w, OrcStreamWriter::Open(path, std::move(schema), std::move(options.orc)));
    return std::unique_ptr<BatchWriter>(std::move(w));
  }
  if (format == "csv" || format == "tsv") {
    if (format == "tsv") options.csv.delimiter = '\t';
    QUIVER_ASSIGN_OR_RETURN(auto w, CsvStreamWriter::Open(path, schema, std::move(options.csv)));
    return std::unique_ptr<BatchWriter>(std::move(w));
  }
  if (format == "jsonl") {
    QUIVER_ASSIGN_OR_RETURN(auto w, JsonlStreamWriter::Open(path));
    return std::unique_ptr<BatchWriter>(std::move(w));
  }
  if (IsArrowIpcFormat(format)) {
    options.ipc.file_format = format != "arrows" && path != "-";
    QUIVER_ASSIGN_OR_RETURN(auto w, ipc::IpcWriter::Open(path, std::move(schema), options.ipc));
    return std::unique_ptr<BatchWriter>(std::move(w));
  }
  if (format.empty()) {
    return Status::Invalid(fmt::format(
        "cannot tell the output format of '{}' (use .parquet, .orc, .csv, .tsv, .jsonl, .arrow or .arrows, or name it)", path));
  }
  return Status::Invalid(
      fmt::format("{}: cannot write the format '{}' (parquet, orc, csv, tsv, jsonl, arrow or arrows)", path, format));
}

}  // namespace quiver::stream

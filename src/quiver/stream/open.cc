#include "quiver/stream/open.h"

#include <fmt/format.h>

#include "quiver/core/utf8.h"
#include "quiver/ipc/reader.h"
#include "quiver/ipc/writer.h"
#include "quiver/json/reader.h"
#include "quiver/stream/csv_stream.h"
#include "quiver/stream/file_format.h"
#include "quiver/stream/jsonl_stream.h"
#include "quiver/stream/orc_scan.h"
#include "quiver/stream/orc_stream.h"
#include "quiver/stream/orc_writer_stream.h"
#include "quiver/stream/parquet_scan.h"
#include "quiver/stream/parquet_stream.h"
#include "quiver/stream/project.h"

namespace quiver::stream {

namespace {

// A Parquet scan: the named columns checked as the other formats check them, the clause bound
// to the file's schema.
Result<std::unique_ptr<BatchReader>> OpenParquetScan(const std::string& path, ReadOptions& options) {
  QUIVER_ASSIGN_OR_RETURN(std::shared_ptr<parquet::ParquetFileReader> file,
                          parquet::ParquetFileReader::Open(path, std::move(options.parquet)));
  ScanOptions so;
  for (const std::string& name : options.columns) {
    if (file->schema()->GetFieldIndex(name) < 0) {
      return Status::Invalid(fmt::format("{}: no column named '{}'", path, EscapeForMessage(name)));
    }
  }
  so.columns = std::move(options.columns);
  if (options.where) {
    QUIVER_ASSIGN_OR_RETURN(so.where, BindWhere(*file->schema(), *options.where, path));
  }
  QUIVER_ASSIGN_OR_RETURN(auto scan, ParquetScan::Make(std::move(file), std::move(so)));
  return std::unique_ptr<BatchReader>(std::move(scan));
}

Result<std::unique_ptr<BatchReader>> OpenOrcScan(const std::string& path, ReadOptions& options) {
  QUIVER_ASSIGN_OR_RETURN(std::unique_ptr<orc::OrcFileReader> file, orc::OrcFileReader::Open(path, options.orc));
  OrcScanOptions so;
  so.columns = std::move(options.columns);
  if (options.where) so.where = OrcWhere{options.where->column, options.where->op, options.where->literal};
  QUIVER_ASSIGN_OR_RETURN(auto scan, OrcScan::Make(std::shared_ptr<orc::OrcFileReader>(std::move(file)), std::move(so)));
  return std::unique_ptr<BatchReader>(std::move(scan));
}

// CSV, JSON and Arrow IPC readers read every column; the chosen ones are cut out of their batches.
Result<std::unique_ptr<BatchReader>> Projected(std::unique_ptr<BatchReader> reader, const ReadOptions& options,
                                               const std::string& path) {
  if (options.columns.empty()) return reader;
  QUIVER_ASSIGN_OR_RETURN(auto p, ProjectReader::Make(std::move(reader), options.columns, path));
  return std::unique_ptr<BatchReader>(std::move(p));
}

}  // namespace

Result<std::unique_ptr<BatchReader>> OpenReader(const std::string& path, ReadOptions options) {
  QUIVER_ASSIGN_OR_RETURN(const std::string format, ResolveInputFormat(path, options.format));
  if (options.where && format != "parquet" && format != "orc") {
    return Status::Invalid(fmt::format("{}: {} applies to Parquet and ORC files only", path, options.where->label));
  }
  if (format == "parquet") {
    if (options.scan || options.where) return OpenParquetScan(path, options);
    QUIVER_ASSIGN_OR_RETURN(auto r, ParquetStreamReader::Open(path, options.columns, std::move(options.parquet)));
    return std::unique_ptr<BatchReader>(std::move(r));
  }
  if (format == "csv" || format == "tsv") {
    if (format == "tsv" && !options.csv.delimiter) options.csv.delimiter = '\t';
    QUIVER_ASSIGN_OR_RETURN(auto r, CsvStreamReader::Open(path, std::move(options.csv)));
    return Projected(std::move(r), options, path);
  }
  if (IsArrowIpcFormat(format)) {
    QUIVER_ASSIGN_OR_RETURN(auto r, ipc::IpcReader::Open(path));
    return Projected(std::move(r), options, path);
  }
  if (IsJsonFormat(format)) {
    QUIVER_ASSIGN_OR_RETURN(auto r, json::JsonReader::Open(path, std::move(options.json)));
    return Projected(std::move(r), options, path);
  }
  if (format == "orc") {
    if (options.scan || options.where) return OpenOrcScan(path, options);
    QUIVER_ASSIGN_OR_RETURN(auto r, OrcStreamReader::Open(path, options.columns, options.orc));
    return std::unique_ptr<BatchReader>(std::move(r));
  }
  return Status::Invalid(
      fmt::format("{}: cannot read the format '{}' (csv, tsv, json, jsonl, parquet, arrow or orc)", path, EscapeForMessage(format)));
}

const csv::CsvReader* CsvReaderOf(const BatchReader& reader) {
  const BatchReader* r = &reader;
  if (const auto* p = dynamic_cast<const ProjectReader*>(r)) r = &p->inner();
  const auto* c = dynamic_cast<const CsvStreamReader*>(r);
  return c != nullptr ? &c->reader() : nullptr;
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

// The describers chosen by the file's format, and the Arrow IPC schema (its fields as quiver
// reads them).
#include "quiver/describe/describe.h"

#include <fmt/format.h>

#include "quiver/columnar/pretty_print.h"
#include "quiver/describe/describe_internal.h"
#include "quiver/core/utf8.h"
#include "quiver/ipc/reader.h"
#include "quiver/stream/open.h"
#include "quiver/stream/file_format.h"

namespace quiver::describe {
namespace {

// One "name: type" line per field, or the fields as JSON.
std::string FieldsText(const std::string& path, std::string_view format, const Schema& schema,
                       const DescribeOptions& options) {
  std::string out;
  if (options.json) {
    out = "{\"file\":" + JsonQuoted(path) + ",\"format\":" + JsonQuoted(format) + ",\"fields\":[";
    for (int i = 0; i < schema.num_fields(); ++i) {
      const Field& f = schema.field(i);
      out += fmt::format("{}{{\"name\":{},\"quiver_type\":{},\"nullable\":{}}}", i ? "," : "", JsonQuoted(f.name),
                         JsonQuoted(f.type->ToString()), f.nullable);
    }
    out += "]}\n";
  } else {
    out = schema.ToString();
    if (!out.empty() && out.back() != '\n') out += '\n';
  }
  return out;
}

Result<std::string> ArrowSchema(const std::string& path, const DescribeOptions& options) {
  if (options.row_group >= 0 || !options.columns.empty()) {
    return Status::Invalid(fmt::format("{}: row_group and columns apply to Parquet files only", path));
  }
  QUIVER_ASSIGN_OR_RETURN(auto reader, ipc::IpcReader::Open(path));
  return FieldsText(path, reader->is_file_format() ? "arrow" : "arrows", *reader->schema(), options);
}

// Text formats (CSV, JSON): the schema their reader settles on opening (detected or inferred).
Result<std::string> ReaderSchema(const std::string& path, const std::string& format, const DescribeOptions& options) {
  if (options.row_group >= 0 || !options.columns.empty()) {
    return Status::Invalid(fmt::format("{}: row_group and columns apply to Parquet files only", path));
  }
  stream::ReadOptions ro;
  ro.format = format;
  QUIVER_ASSIGN_OR_RETURN(auto reader, stream::OpenReader(path, std::move(ro)));
  return FieldsText(path, format, *reader->schema(), options);
}

}  // namespace

Result<std::string> DescribeSchema(const std::string& path, const DescribeOptions& options) {
  QUIVER_ASSIGN_OR_RETURN(const std::string format, stream::ResolveInputFormat(path));
  if (stream::IsArrowIpcFormat(format)) return ArrowSchema(path, options);
  if (format == "orc") return OrcSchema(path, options);
  if (stream::IsJsonFormat(format) || format == "csv" || format == "tsv") return ReaderSchema(path, format, options);
  return ParquetSchema(path, options);
}

Result<std::string> DescribeMetadata(const std::string& path, const DescribeOptions& options) {
  if (stream::InputFormatOf(path) == "orc") return OrcMetadata(path, options);
  return ParquetMetadata(path, options);
}

Result<std::string> DescribeBloomFilters(const std::string& path, const std::string& probe, const DescribeOptions& options) {
  if (stream::InputFormatOf(path) == "orc") {
    return Status::Invalid(fmt::format("{}: bloom filter probes apply to Parquet files only", path));
  }
  return ParquetBloomFilters(path, probe, options);
}

}  // namespace quiver::describe

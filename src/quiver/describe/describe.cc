// The describers chosen by the file's format, and the Arrow IPC schema (its fields as quiver
// reads them).
#include "quiver/describe/describe.h"

#include <fmt/format.h>

#include "quiver/columnar/pretty_print.h"
#include "quiver/describe/describe_internal.h"
#include "quiver/ipc/reader.h"
#include "quiver/stream/file_format.h"

namespace quiver::describe {
namespace {

// One "name: type" line per field, or the fields as JSON.
Result<std::string> ArrowSchema(const std::string& path, const DescribeOptions& options) {
  if (options.row_group >= 0 || !options.columns.empty()) {
    return Status::Invalid(fmt::format("{}: row_group and columns apply to Parquet files only", path));
  }
  QUIVER_ASSIGN_OR_RETURN(auto reader, ipc::IpcReader::Open(path));
  const Schema& schema = *reader->schema();
  std::string out;
  if (options.json) {
    out = "{\"file\":" + JsonQuoted(path) + ",\"format\":" + JsonQuoted(reader->is_file_format() ? "arrow" : "arrows") +
          ",\"fields\":[";
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

}  // namespace

Result<std::string> DescribeSchema(const std::string& path, const DescribeOptions& options) {
  const std::string format = stream::InputFormatOf(path);
  if (stream::IsArrowIpcFormat(format)) return ArrowSchema(path, options);
  if (format == "orc") return OrcSchema(path, options);
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

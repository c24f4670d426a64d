// `quiver sniff FILE`: the format, and the CSV dialect or JSON shape, and the schema quiver detects.
#include <fmt/format.h>

#include "quiver/cli/command.h"
#include "quiver/cli/csv_options.h"
#include "quiver/csv/reader.h"
#include "quiver/json/reader.h"
#include "quiver/stream/file_format.h"

namespace quiver::cli {
namespace {

struct SniffArgs {
  std::string path;
  std::shared_ptr<CsvCliOptions> csv = std::make_shared<CsvCliOptions>();
};

// JSON: its shape and the inferred schema, nested types written out.
Status SniffJson(const SniffArgs& a) {
  QUIVER_ASSIGN_OR_RETURN(json::JsonReadOptions opts, a.csv->ToJsonOptions());
  QUIVER_ASSIGN_OR_RETURN(auto reader, json::JsonReader::Open(a.path, std::move(opts)));
  fmt::print("format: json ({})\ncolumns: {}\n", reader->is_array() ? "a top-level array" : "JSON Lines",
             reader->schema()->num_fields());
  for (const Field& f : reader->schema()->fields()) fmt::print("  {}: {}\n", f.name, f.type->ToString());
  return Status::OK();
}

Status RunSniff(const SniffArgs& a) {
  QUIVER_ASSIGN_OR_RETURN(const std::string format, stream::ResolveInputFormat(a.path));
  if (stream::IsJsonFormat(format)) return SniffJson(a);
  if (format != "csv" && format != "tsv") {
    return Status::Invalid(fmt::format("{}: a {} file, whose schema `quiver schema` prints (sniff detects CSV and JSON)",
                                       a.path, format));
  }
  QUIVER_ASSIGN_OR_RETURN(csv::CsvOptions opts, a.csv->ToOptions());
  QUIVER_ASSIGN_OR_RETURN(auto reader, csv::CsvReader::Open(a.path, opts));
  const csv::Dialect& d = reader->dialect();
  auto show = [](char c) -> std::string {
    if (c == '\0') return "none";
    if (c == '\t') return "\\t";
    if (c == ' ') return "space";
    return std::string(1, c);
  };
  // A two-byte delimiter is printed quoted, as --delimiter takes it.
  const std::string delimiter =
      d.delimiter_pad == '\0' ? show(d.delimiter) : fmt::format("'{}{}'", d.delimiter == '\t' ? "\\t" : std::string(1, d.delimiter), d.delimiter_pad);
  // A header joined from several lines (--lenient) is a repair, so it is said.
  std::string header = d.header ? "true" : "false";
  if (d.header_lines > 1) header += fmt::format(" (joined from {} lines)", d.header_lines);
  fmt::print("delimiter: {}\nquote: {}\nescape: {}\nheader: {}\nskip_lines: {}\n", delimiter, show(d.quote),
             d.escape == d.quote ? "doubled quote" : show(d.escape), header, d.skip_lines);
  if (d.comment != '\0') fmt::print("comment: {}\n", show(d.comment));
  if (d.footer_lines > 0) fmt::print("footer_lines: {}\n", d.footer_lines);
  if (d.second_table_line > 0) fmt::print("second_table_line: {} (not read)\n", d.second_table_line);
  fmt::print("columns: {}\n", reader->schema()->num_fields());
  for (int c = 0; c < reader->schema()->num_fields(); ++c) {
    const Field& f = reader->schema()->field(c);
    const std::string format = reader->column_format(c);
    fmt::print("  {}: {}{}\n", f.name, f.type->ToString(), format.empty() ? "" : fmt::format(" (format {})", format));
  }
  return Status::OK();
}

const bool registered = RegisterCommand({"sniff", "Detect a CSV file's dialect or a JSON file's shape, and the schema", 40, [](CLI::App* app) {
  auto a = std::make_shared<SniffArgs>();
  app->add_option("file", a->path, "CSV or JSON file ('-' for stdin)")->required();
  AddCsvOptions(app, a->csv);
  return std::function<Status()>([a] { return RunSniff(*a); });
}});

}  // namespace
}  // namespace quiver::cli

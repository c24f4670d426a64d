// `quiver cat FILE`: prints a file's rows as a table, CSV or JSON Lines.
#include <fmt/format.h>

#include <memory>

#include "quiver/cli/command.h"
#include "quiver/cli/csv_options.h"
#include "quiver/cli/output.h"
#include "quiver/columnar/concatenate.h"
#include "quiver/columnar/pretty_print.h"
#include "quiver/csv/reader.h"
#include "quiver/csv/writer.h"
#include "quiver/jsonl/writer.h"
#include "quiver/parquet/reader/file_reader.h"

namespace quiver::cli {
namespace {

struct CatArgs {
  std::string path;
  std::string columns;
  int64_t limit = -1;
  std::string format = "table";
  std::shared_ptr<CsvCliOptions> csv = std::make_shared<CsvCliOptions>();
};

// Keeps the named columns, in the order given.
Result<std::shared_ptr<RecordBatch>> Project(const std::shared_ptr<RecordBatch>& b, const std::vector<int>& idx) {
  if (idx.empty()) return b;
  std::vector<Field> fields;
  std::vector<Array> cols;
  for (int i : idx) {
    fields.push_back(b->schema()->field(i));
    cols.push_back(b->column(i));
  }
  return std::make_shared<RecordBatch>(std::make_shared<const Schema>(std::move(fields)), b->num_rows(), std::move(cols));
}

Status RunCat(const CatArgs& a) {
  if (a.format != "table" && a.format != "csv" && a.format != "jsonl") {
    return Status::Invalid(fmt::format("cat: --format must be table, csv or jsonl, got '{}'", a.format));
  }
  // Batches come from the CSV reader or, for .parquet files, one row group at a time.
  SchemaPtr schema;
  std::function<Result<std::shared_ptr<RecordBatch>>()> next;
  std::shared_ptr<csv::CsvReader> csv_reader;
  std::shared_ptr<parquet::ParquetFileReader> pq_reader;
  const bool is_parquet = a.path.size() > 8 && a.path.ends_with(".parquet");
  if (is_parquet) {
    QUIVER_ASSIGN_OR_RETURN(pq_reader, parquet::ParquetFileReader::Open(a.path));
    schema = pq_reader->schema();
  } else {
    QUIVER_ASSIGN_OR_RETURN(csv::CsvOptions opts, a.csv->ToOptions());
    QUIVER_ASSIGN_OR_RETURN(csv_reader, csv::CsvReader::Open(a.path, opts));
    schema = csv_reader->schema();
    next = [&csv_reader] { return csv_reader->Next(); };
  }
  std::vector<int> idx;
  if (!a.columns.empty()) {
    size_t i = 0;
    while (i <= a.columns.size()) {
      size_t j = a.columns.find(',', i);
      if (j == std::string::npos) j = a.columns.size();
      std::string name = a.columns.substr(i, j - i);
      int k = schema->GetFieldIndex(name);
      if (k < 0) return Status::Invalid(fmt::format("{}: no column named '{}'", a.path, name));
      idx.push_back(k);
      i = j + 1;
    }
  }
  if (is_parquet) {
    // Only the chosen columns are decoded; they arrive in the order asked for.
    next = [&pq_reader, &idx, g = 0]() mutable -> Result<std::shared_ptr<RecordBatch>> {
      if (g >= pq_reader->num_row_groups()) return std::shared_ptr<RecordBatch>();
      return pq_reader->ReadRowGroup(g++, idx);
    };
  }
  const std::vector<int> project = is_parquet ? std::vector<int>{} : idx;
  // A table needs every shown row at once to size its columns, so it shows 100 by default.
  const int64_t limit = a.limit >= 0 ? a.limit : (a.format == "table" ? 100 : -1);
  QUIVER_ASSIGN_OR_RETURN(auto out, CommandOutput::Open("-"));
  csv::CsvWriter csv_writer(out->stream());
  jsonl::JsonlWriter json_writer(out->stream());
  std::vector<std::shared_ptr<RecordBatch>> shown;
  int64_t rows = 0;
  while (limit < 0 || rows < limit) {
    QUIVER_ASSIGN_OR_RETURN(auto batch, next());
    if (!batch) break;
    if (limit >= 0 && rows + batch->num_rows() > limit) batch = batch->Slice(0, limit - rows);
    rows += batch->num_rows();
    QUIVER_ASSIGN_OR_RETURN(batch, Project(batch, project));
    if (a.format == "table") shown.push_back(batch);
    else if (a.format == "csv") QUIVER_RETURN_NOT_OK(csv_writer.Write(*batch));
    else QUIVER_RETURN_NOT_OK(json_writer.Write(*batch));
  }
  if (a.format == "table") {
    SchemaPtr schema = shown.empty() ? nullptr : shown[0]->schema();
    if (schema) {
      QUIVER_ASSIGN_OR_RETURN(auto all, ConcatenateBatches(schema, shown));
      QUIVER_RETURN_NOT_OK(out->stream()->Write(FormatTable(*all, all->num_rows())));
    }
  }
  QUIVER_RETURN_NOT_OK(out->Commit());
  // Nothing is dropped or changed silently: rejected rows, nulled cells and repairs are reported.
  if (csv_reader) {
    const auto& st = csv_reader->stats();
    if (st.rows_rejected || st.cells_nulled || st.rows_repaired || st.blank_lines) {
      fmt::print(stderr, "quiver: {}: {} rows read, {} written, {} rejected, {} cells nulled, {} rows repaired ({} extra fields dropped), {} blank lines skipped\n",
                 a.path, st.rows_read, st.rows_written, st.rows_rejected, st.cells_nulled, st.rows_repaired,
                 st.fields_dropped, st.blank_lines);
    }
  }
  return Status::OK();
}

const bool registered = RegisterCommand({"cat", "Print a file's rows (table, CSV or JSON Lines)", 30, [](CLI::App* app) {
  auto a = std::make_shared<CatArgs>();
  app->add_option("file", a->path, "Input file ('-' for stdin)")->required();
  app->add_option("--columns", a->columns, "Comma-separated columns to show");
  app->add_option("--limit", a->limit, "Rows to show (table default: 100)");
  app->add_option("--format", a->format, "table|csv|jsonl")->capture_default_str();
  AddCsvOptions(app, a->csv);
  return std::function<Status()>([a] { return RunCat(*a); });
}});

}  // namespace
}  // namespace quiver::cli

// `quiver cat FILE`: prints a file's rows as a table, CSV or JSON Lines, optionally only those
// satisfying `--where 'col op literal'`; `--format none` decodes and reports counts and time.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>

#include "quiver/cli/command.h"
#include "quiver/cli/csv_options.h"
#include "quiver/columnar/concatenate.h"
#include "quiver/columnar/pretty_print.h"
#include "quiver/core/thread_pool.h"
#include "quiver/csv/reader.h"
#include "quiver/csv/value_parse.h"
#include "quiver/csv/writer.h"
#include "quiver/io/output_target.h"
#include "quiver/ipc/reader.h"
#include "quiver/ipc/writer.h"
#include "quiver/jsonl/writer.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/stream/file_format.h"

namespace quiver::cli {
namespace {

struct CatArgs {
  std::string path;
  std::string columns;
  int64_t limit = -1;
  std::string format = "table";
  std::string where;
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

// `col op literal`: the column, the operator and the literal's text (single quotes removed,
// '' inside them read as one quote).
struct WhereText {
  std::string column;
  parquet::CompareOp op = parquet::CompareOp::kEq;
  std::string literal;
};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

Result<WhereText> ParseWhere(std::string_view text) {
  const size_t at = text.find_first_of("=!<>");
  auto bad = [&](std::string_view why) {
    return Status::Invalid(fmt::format("--where '{}': {}; expected 'column op literal' with op one of = != <> < <= > >=",
                                       text, why));
  };
  if (at == std::string_view::npos) return bad("no operator");
  WhereText w;
  w.column = std::string(Trim(text.substr(0, at)));
  if (w.column.size() >= 2 && w.column.front() == '"' && w.column.back() == '"') w.column = w.column.substr(1, w.column.size() - 2);
  if (w.column.empty()) return bad("no column");
  std::string_view rest = text.substr(at);
  static constexpr std::pair<std::string_view, parquet::CompareOp> kOps[] = {
      {"!=", parquet::CompareOp::kNe}, {"<>", parquet::CompareOp::kNe}, {"<=", parquet::CompareOp::kLe},
      {">=", parquet::CompareOp::kGe}, {"==", parquet::CompareOp::kEq}, {"=", parquet::CompareOp::kEq},
      {"<", parquet::CompareOp::kLt},  {">", parquet::CompareOp::kGt}};
  size_t op_len = 0;
  for (const auto& [name, op] : kOps) {
    if (rest.starts_with(name)) {
      w.op = op;
      op_len = name.size();
      break;
    }
  }
  if (op_len == 0) return bad("unknown operator");
  std::string_view lit = Trim(rest.substr(op_len));
  if (lit.size() >= 2 && lit.front() == '\'' && lit.back() == '\'') {
    lit = lit.substr(1, lit.size() - 2);
    for (size_t i = 0; i < lit.size(); ++i) {
      if (lit[i] == '\'' && i + 1 < lit.size() && lit[i + 1] == '\'') ++i;
      w.literal.push_back(lit[i]);
    }
  } else {
    if (lit.empty()) return bad("no literal");
    w.literal = std::string(lit);
  }
  return w;
}

// The literal's text as a value of `type` (see parquet::LiteralKindFor): integers, booleans
// (true/false), dates (YYYY-MM-DD), timestamps (as `cat` prints them, in the column's unit),
// floats, strings.
Result<parquet::Literal> ParseLiteral(const DataType& type, const std::string& text, const std::string& column) {
  auto bad = [&](std::string_view what) {
    return Status::Invalid(fmt::format("--where: '{}' is not {} (column '{}' is {})", text, what, column, type.ToString()));
  };
  switch (type.id()) {
    case TypeId::kBool: {
      std::string t = text;
      for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (t == "true" || t == "1") return parquet::Literal::Int(1);
      if (t == "false" || t == "0") return parquet::Literal::Int(0);
      return bad("a boolean");
    }
    case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
    case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kUInt64: {
      int64_t v;
      if (csv::ParseInt64(text, &v)) return parquet::Literal::Int(v);
      uint64_t u;
      const char* end = text.data() + text.size();
      const char* begin = text.data() + (!text.empty() && text[0] == '+');
      auto r = std::from_chars(begin, end, u);
      if (r.ec == std::errc() && r.ptr == end && begin != end) return parquet::Literal::Int(u);
      return bad("an integer");
    }
    case TypeId::kDate32: {
      int32_t days;
      if (!csv::ParseDate(text, &days)) return bad("a date (YYYY-MM-DD)");
      return parquet::Literal::Int(days);
    }
    case TypeId::kTimestamp: {
      csv::ParsedTimestamp ts;
      if (!csv::ParseTimestamp(text, &ts)) return bad("a timestamp (YYYY-MM-DD[ HH:MM[:SS[.ffffff]]])");
      switch (type.unit()) {
        case TimeUnit::kSecond:
          if (ts.micros % 1000000 != 0) return bad("a timestamp in whole seconds");
          return parquet::Literal::Int(ts.micros / 1000000);
        case TimeUnit::kMilli:
          if (ts.micros % 1000 != 0) return bad("a timestamp in whole milliseconds");
          return parquet::Literal::Int(ts.micros / 1000);
        case TimeUnit::kMicro:
          return parquet::Literal::Int(ts.micros);
        case TimeUnit::kNano:
          return parquet::Literal::Int(static_cast<__int128>(ts.micros) * 1000);
      }
      return bad("a timestamp");
    }
    case TypeId::kFloat32: case TypeId::kFloat64: {
      double d;
      if (!csv::ParseFloat64(text, &d)) return bad("a number");
      // A float32 column compares with the literal rounded to float, as its values are.
      if (type.id() == TypeId::kFloat32) d = static_cast<float>(d);
      return parquet::Literal::Float(d);
    }
    case TypeId::kString: case TypeId::kBinary:
      return parquet::Literal::Bytes(text);
    default:
      return Status::NotImplemented(fmt::format("--where: comparisons on column '{}' ({}) are not supported", column,
                                                type.ToString()));
  }
}

// A "Name:   123 kB" line of a /proc file, in KiB; -1 when absent (not Linux, no procfs).
int64_t ProcKib(const char* path, std::string_view name) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.starts_with(name) && line.size() > name.size() && line[name.size()] == ':') {
      return std::strtoll(line.c_str() + name.size() + 1, nullptr, 10);
    }
  }
  return -1;
}

Status RunCat(const CatArgs& a) {
  if (a.format != "table" && a.format != "csv" && a.format != "jsonl" && a.format != "arrow" && a.format != "none") {
    return Status::Invalid(fmt::format("cat: --format must be table, csv, jsonl, arrow or none, got '{}'", a.format));
  }
  const auto t0 = std::chrono::steady_clock::now();
  // Batches come from the CSV reader or, for Parquet files (by extension, else by their magic),
  // one row group at a time.
  SchemaPtr schema;
  std::function<Result<std::shared_ptr<RecordBatch>>()> next;
  std::shared_ptr<csv::CsvReader> csv_reader;
  std::shared_ptr<parquet::ParquetFileReader> pq_reader;
  const std::string in_format = stream::InputFormatOf(a.path);
  const bool is_parquet = in_format == "parquet";
  const bool is_arrow = in_format == "arrow" || in_format == "arrows";
  std::unique_ptr<ipc::IpcReader> ipc_reader;
  if (!a.where.empty() && !is_parquet) return Status::Invalid("cat: --where is supported for Parquet files only");
  std::unique_ptr<ThreadPool> own_pool;
  if (is_parquet) {
    parquet::ParquetReaderOptions opts;
    if (a.csv->threads > 0) {
      own_pool = std::make_unique<ThreadPool>(a.csv->threads);
      opts.thread_pool = own_pool.get();
    }
    QUIVER_ASSIGN_OR_RETURN(pq_reader, parquet::ParquetFileReader::Open(a.path, opts));
    schema = pq_reader->schema();
  } else if (is_arrow) {
    QUIVER_ASSIGN_OR_RETURN(ipc_reader, ipc::IpcReader::Open(a.path));
    schema = ipc_reader->schema();
    next = [&ipc_reader] { return ipc_reader->Next(); };
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
  // Parquet: the row groups whose statistics may hold matching rows, the chosen columns plus
  // the --where column (dropped again after filtering), rows filtered exactly.
  std::vector<int> groups;
  std::vector<parquet::RowSelection> selections;  // one per group when --where is given
  int64_t skipped_by_bloom = 0, skipped_by_page_index = 0;
  std::vector<int> read_cols = idx;
  std::optional<parquet::BoundPredicate> where;
  int where_pos = -1;
  if (is_parquet) {
    for (int g = 0; g < pq_reader->num_row_groups(); ++g) groups.push_back(g);
    if (!a.where.empty()) {
      QUIVER_ASSIGN_OR_RETURN(WhereText w, ParseWhere(a.where));
      const int f = schema->GetFieldIndex(w.column);
      if (f < 0) return Status::Invalid(fmt::format("{}: --where: no column named '{}'", a.path, w.column));
      QUIVER_ASSIGN_OR_RETURN(parquet::Literal lit, ParseLiteral(*schema->field(f).type, w.literal, w.column));
      QUIVER_ASSIGN_OR_RETURN(where, pq_reader->BindPredicate(w.column, w.op, std::move(lit)));
      groups = pq_reader->RowGroupsMayMatch(*where, groups);
      // Then each group's bloom filter (for =) and its page index narrow the reading further.
      std::vector<int> kept;
      for (int g : groups) {
        QUIVER_ASSIGN_OR_RETURN(bool may, pq_reader->BloomMayMatch(*where, g));
        if (!may) {
          ++skipped_by_bloom;
          continue;
        }
        QUIVER_ASSIGN_OR_RETURN(parquet::RowSelection sel, pq_reader->PageRowsMayMatch(*where, g));
        if (!sel.all && sel.ranges.empty()) {
          ++skipped_by_page_index;
          continue;
        }
        kept.push_back(g);
        selections.push_back(std::move(sel));
      }
      groups = std::move(kept);
      if (read_cols.empty()) {
        where_pos = f;
      } else {
        auto it = std::find(read_cols.begin(), read_cols.end(), f);
        where_pos = static_cast<int>(it - read_cols.begin());
        if (it == read_cols.end()) read_cols.push_back(f);
      }
    }
  }
  const size_t shown_cols = idx.size();
  auto filter = [&](std::shared_ptr<RecordBatch> b) -> Result<std::shared_ptr<RecordBatch>> {
    if (!where) return b;
    int64_t selected = 0;
    QUIVER_ASSIGN_OR_RETURN(auto bits, parquet::EvaluatePredicate(b->column(where_pos), where->op, where->value, &selected));
    QUIVER_ASSIGN_OR_RETURN(b, parquet::FilterBatch(b, bits->data(), selected));
    if (shown_cols > 0 && read_cols.size() > shown_cols) {
      std::vector<int> keep;
      for (size_t k = 0; k < shown_cols; ++k) keep.push_back(static_cast<int>(k));
      return Project(b, keep);
    }
    return b;
  };
  if (is_parquet) {
    // Only the chosen columns are decoded; they arrive in the order asked for.
    next = [&, k = size_t{0}]() mutable -> Result<std::shared_ptr<RecordBatch>> {
      if (k >= groups.size()) return std::shared_ptr<RecordBatch>();
      std::vector<parquet::RowSelection> sel;
      if (!selections.empty()) sel.push_back(selections[k]);
      QUIVER_ASSIGN_OR_RETURN(auto b, pq_reader->ReadRowGroups({groups[k]}, read_cols, sel));
      ++k;
      return filter(std::move(b[0]));
    };
  }
  if (a.format == "none" && is_parquet && a.limit < 0) {
    // Every chosen row group decoded at once and kept until the end, as a DataFrame reader
    // returns a file: the time covers opening, decoding and filtering.
    QUIVER_ASSIGN_OR_RETURN(auto batches, pq_reader->ReadRowGroups(groups, read_cols, selections));
    int64_t rows = 0, bytes = 0;
    for (auto& b : batches) {
      QUIVER_ASSIGN_OR_RETURN(b, filter(std::move(b)));
      rows += b->num_rows();
      bytes += b->buffer_bytes();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const int threads = own_pool ? own_pool->num_threads() : ThreadPool::Default()->num_threads();
    // Peak RSS and the part of the (still alive) output on transparent huge pages, for the
    // benchmark script's questions about first-touch page faults.
    fmt::print("{{\"engine\":\"quiver\",\"op\":\"pqread\",\"rows\":{},\"row_groups_read\":{},\"row_groups\":{},"
               "\"row_groups_skipped_by_bloom\":{},\"row_groups_skipped_by_page_index\":{},\"data_pages_skipped\":{},"
               "\"threads\":{},\"decoded_bytes\":{},\"seconds\":{:.4f},\"vm_hwm_kib\":{},\"anon_huge_kib\":{}}}\n",
               rows, groups.size(), pq_reader->num_row_groups(), skipped_by_bloom, skipped_by_page_index,
               pq_reader->data_pages_skipped(), threads, bytes, seconds,
               ProcKib("/proc/self/status", "VmHWM"), ProcKib("/proc/self/smaps_rollup", "AnonHugePages"));
    return Status::OK();
  }
  const std::vector<int> project = is_parquet ? std::vector<int>{} : idx;
  // A table needs every shown row at once to size its columns, so it shows 100 by default.
  const int64_t limit = a.limit >= 0 ? a.limit : (a.format == "table" ? 100 : -1);
  QUIVER_ASSIGN_OR_RETURN(auto out, io::OutputTarget::Open("-"));
  csv::CsvWriter csv_writer(out->stream());
  jsonl::JsonlWriter json_writer(out->stream());
  // --format arrow: the Arrow IPC stream format, opened at the first batch (whose schema is the
  // projected one).
  std::unique_ptr<ipc::IpcWriter> ipc_writer;
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
    else if (a.format == "jsonl") QUIVER_RETURN_NOT_OK(json_writer.Write(*batch));
    else if (a.format == "arrow") {
      if (!ipc_writer) {
        QUIVER_ASSIGN_OR_RETURN(ipc_writer, ipc::IpcWriter::Make(out->stream(), batch->schema(), {.file_format = false}));
      }
      QUIVER_RETURN_NOT_OK(ipc_writer->Write(batch));
    }
  }
  if (a.format == "arrow") {
    if (!ipc_writer) {
      std::vector<Field> fields;
      if (idx.empty()) fields = schema->fields();
      for (int k : idx) fields.push_back(schema->field(k));
      QUIVER_ASSIGN_OR_RETURN(ipc_writer, ipc::IpcWriter::Make(out->stream(), std::make_shared<Schema>(fields, schema->metadata()),
                                                               {.file_format = false}));
    }
    QUIVER_RETURN_NOT_OK(ipc_writer->Finish());
  }
  if (a.format == "none") {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    QUIVER_RETURN_NOT_OK(out->stream()->Write(
        fmt::format("{{\"engine\":\"quiver\",\"op\":\"read\",\"rows\":{},\"seconds\":{:.4f}}}\n", rows, seconds)));
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
  app->add_option("--format", a->format,
                  "table|csv|jsonl|arrow (the Arrow IPC stream format), or none: decode without printing rows, then print one JSON line of counts "
                  "and seconds")->capture_default_str();
  app->add_option("--where", a->where,
                  "Parquet: only rows where 'column op literal' holds (op: = != < <= > >=); row groups whose "
                  "statistics or bloom filter (=) rule it out are not read, nor pages whose page index does");
  AddCsvOptions(app, a->csv);
  return std::function<Status()>([a] { return RunCat(*a); });
}});

}  // namespace
}  // namespace quiver::cli

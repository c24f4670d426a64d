// `quiver cat FILE`: prints a file's rows as a table, CSV or JSON Lines, optionally only those
// satisfying `--where 'col op literal'`; `--format none` decodes and reports counts and time.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>

#include "quiver/cli/command.h"
#include "quiver/cli/csv_options.h"
#include "quiver/columnar/concatenate.h"
#include "quiver/columnar/pretty_print.h"
#include "quiver/core/utf8.h"
#include "quiver/core/thread_pool.h"
#include "quiver/csv/reader.h"
#include "quiver/csv/writer.h"
#include "quiver/io/output_target.h"
#include "quiver/ipc/reader.h"
#include "quiver/ipc/writer.h"
#include "quiver/jsonl/writer.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/stream/file_format.h"
#include "quiver/stream/orc_scan.h"
#include "quiver/stream/parquet_scan.h"
#include "quiver/stream/scan_literal.h"

namespace quiver::cli {
namespace {

struct CatArgs {
  std::string path;
  std::string columns;
  int64_t limit = -1;
  std::string format = "table";
  std::string where;
  bool materialize = false;
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
                                       EscapeForMessage(text), why));
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
  const bool is_arrow = stream::IsArrowIpcFormat(in_format);
  const bool is_orc = in_format == "orc";
  std::unique_ptr<ipc::IpcReader> ipc_reader;
  std::unique_ptr<stream::OrcScan> orc_scan;
  if (!a.where.empty() && !is_parquet && !is_orc) return Status::Invalid("cat: --where is supported for Parquet and ORC files only");
  std::unique_ptr<ThreadPool> own_pool;
  if (is_orc) {
    // ORC: columns by name or dotted path, handed to the reader (only their streams are read).
    orc::OrcReaderOptions opts;
    if (a.csv->threads > 0) {
      own_pool = std::make_unique<ThreadPool>(a.csv->threads);
      opts.thread_pool = own_pool.get();
    }
    QUIVER_ASSIGN_OR_RETURN(auto file, orc::OrcFileReader::Open(a.path, opts));
    stream::OrcScanOptions so;
    if (!a.columns.empty()) so.columns = SplitList(a.columns);
    if (!a.where.empty()) {
      QUIVER_ASSIGN_OR_RETURN(WhereText w, ParseWhere(a.where));
      so.where = stream::OrcWhere{w.column, w.op, w.literal};
    }
    QUIVER_ASSIGN_OR_RETURN(orc_scan, stream::OrcScan::Make(std::shared_ptr<orc::OrcFileReader>(std::move(file)), std::move(so)));
    schema = orc_scan->schema();
    next = [&orc_scan] { return orc_scan->Next(); };
    if (a.format == "none" && a.limit < 0) {
      // Every stripe decoded (a window of one per thread at a time, in parallel) and dropped
      // once counted, as a streaming consumer reads a file larger than memory.
      int64_t rows = 0, bytes = 0;
      while (true) {
        QUIVER_ASSIGN_OR_RETURN(auto b, orc_scan->Next());
        if (b == nullptr) break;
        rows += b->num_rows();
        bytes += b->buffer_bytes();
      }
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const int threads = own_pool ? own_pool->num_threads() : ThreadPool::Default()->num_threads();
      fmt::print("{{\"engine\":\"quiver\",\"op\":\"orcread\",\"rows\":{},\"stripes_read\":{},\"stripes\":{},"
                 "\"threads\":{},\"decoded_bytes\":{},\"seconds\":{:.4f},\"vm_hwm_kib\":{}}}\n",
                 rows, orc_scan->counters().stripes_read, orc_scan->file().num_stripes(), threads, bytes, seconds,
                 ProcKib("/proc/self/status", "VmHWM"));
      return Status::OK();
    }
  } else if (is_parquet) {
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
  if (!a.columns.empty() && !is_orc) {
    for (const std::string& name : SplitList(a.columns)) {
      int k = schema->GetFieldIndex(name);
      if (k < 0) return Status::Invalid(fmt::format("{}: no column named '{}'", a.path, name));
      idx.push_back(k);
    }
  }
  // Parquet: a scan of the chosen columns, the --where predicate pushed down to row groups and
  // pages and its rows kept exactly.
  std::unique_ptr<stream::ParquetScan> scan;
  if (is_parquet) {
    stream::ScanOptions so;
    for (int k : idx) so.columns.push_back(schema->field(k).name);
    if (!a.where.empty()) {
      QUIVER_ASSIGN_OR_RETURN(WhereText w, ParseWhere(a.where));
      const int f = schema->GetFieldIndex(w.column);
      if (f < 0) return Status::Invalid(fmt::format("{}: --where: no column named '{}'", a.path, w.column));
      auto lit = stream::ParseLiteral(*schema->field(f).type, w.literal, w.column);
      if (!lit.ok()) return lit.status().WithContext("--where");
      so.where = stream::ScanPredicate{w.column, w.op, std::move(*lit)};
    }
    QUIVER_ASSIGN_OR_RETURN(scan, stream::ParquetScan::Make(pq_reader, std::move(so)));
    next = [&scan] { return scan->Next(); };
  }
  if (a.format == "none" && is_parquet && a.limit < 0) {
    // Streamed (the default): each row group decoded, counted and released before the next, so
    // the scan decodes into the memory it recycles. --materialize: every chosen row group
    // decoded at once and kept until the end, as a DataFrame reader returns a file. The time
    // covers opening, decoding and filtering.
    int64_t rows = 0, bytes = 0;
    if (a.materialize) {
      QUIVER_ASSIGN_OR_RETURN(auto batches, scan->ReadAll());
      for (const auto& b : batches) {
        rows += b->num_rows();
        bytes += b->buffer_bytes();
      }
    } else {
      for (;;) {
        QUIVER_ASSIGN_OR_RETURN(auto b, scan->Next());
        if (!b) break;
        rows += b->num_rows();
        bytes += b->buffer_bytes();
      }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const int threads = own_pool ? own_pool->num_threads() : ThreadPool::Default()->num_threads();
    // Peak RSS and the part of the output still alive on transparent huge pages, for the
    // benchmark's questions about first-touch page faults.
    fmt::print("{{\"engine\":\"quiver\",\"op\":\"{}\",\"rows\":{},\"row_groups_read\":{},\"row_groups\":{},"
               "\"row_groups_skipped_by_bloom\":{},\"row_groups_skipped_by_page_index\":{},\"data_pages_skipped\":{},"
               "\"threads\":{},\"decoded_bytes\":{},\"buffers_reused\":{},\"buffers_fresh\":{},\"seconds\":{:.4f},"
               "\"vm_hwm_kib\":{},\"anon_huge_kib\":{}}}\n",
               a.materialize ? "pqread" : "scan", rows, scan->row_groups().size(), pq_reader->num_row_groups(),
               scan->counters().skipped_by_bloom_filter, scan->counters().skipped_by_page_index,
               scan->data_pages_skipped(), threads, bytes, scan->buffers_reused(), scan->buffers_fresh(), seconds,
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
    if (!batch) {
      QUIVER_RETURN_NOT_OK(a.csv->CommitRejects());  // the whole input was read
      break;
    }
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
  if (a.format == "csv") {
    // A table without rows still prints its header line.
    std::vector<Field> fields;
    for (int i : idx) fields.push_back(schema->field(i));
    QUIVER_RETURN_NOT_OK(csv_writer.Finish(idx.empty() ? *schema : Schema(std::move(fields))));
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
    if (st.rows_rejected || st.cells_nulled || st.rows_repaired || st.blank_lines || st.footer_lines) {
      fmt::print(stderr, "quiver: {}: {} rows read, {} written, {} rejected, {} cells nulled, {} rows repaired ({} extra fields dropped), {} blank lines skipped{}\n",
                 a.path, st.rows_read, st.rows_written, st.rows_rejected, st.cells_nulled, st.rows_repaired,
                 st.fields_dropped, st.blank_lines, FooterNote(st));
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
                  "table|csv|jsonl|arrow (the Arrow IPC stream format), or none: decode without printing rows, then print one JSON line of counts, "
                  "seconds and peak memory")->capture_default_str();
  app->add_option("--where", a->where,
                  "Parquet: only rows where 'column op literal' holds (op: = != < <= > >=); row groups whose "
                  "statistics or bloom filter (=) rule it out are not read, nor pages whose page index does");
  app->add_flag("--materialize", a->materialize,
                "Parquet with --format none: decode every row group into memory at once and keep it to the end "
                "(by default each row group is released before the next is decoded)");
  AddCsvOptions(app, a->csv);
  return std::function<Status()>([a] { return RunCat(*a); });
}});

}  // namespace
}  // namespace quiver::cli

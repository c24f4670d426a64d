// `quiver cat FILE`: prints a file's rows as a table, CSV or JSON Lines, optionally only those
// satisfying `--where 'col op literal'`; `--format none` decodes and reports counts and time.
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <vector>

#include "quiver/cli/command.h"
#include "quiver/cli/csv_options.h"
#include "quiver/cli/encryption_options.h"
#include "quiver/columnar/concatenate.h"
#include "quiver/columnar/pretty_print.h"
#include "quiver/core/thread_pool.h"
#include "quiver/csv/reader.h"
#include "quiver/csv/writer.h"
#include "quiver/io/output_target.h"
#include "quiver/ipc/writer.h"
#include "quiver/jsonl/writer.h"
#include "quiver/stream/copy.h"
#include "quiver/stream/file_format.h"
#include "quiver/stream/open.h"
#include "quiver/stream/orc_scan.h"
#include "quiver/stream/parquet_scan.h"
#include "quiver/stream/where.h"

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
  std::shared_ptr<EncryptionCliOptions> crypt = std::make_shared<EncryptionCliOptions>();
};

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
  QUIVER_ASSIGN_OR_RETURN(const std::string in_format, stream::ResolveInputFormat(a.path));
  const bool is_parquet = in_format == "parquet";
  const bool is_orc = in_format == "orc";
  if (!a.where.empty() && !is_parquet && !is_orc) return Status::Invalid("cat: --where is supported for Parquet and ORC files only");
  // Parquet and ORC through their scans (pushdown, counters, Parquet's recycled row groups).
  stream::ReadOptions ro;
  ro.format = in_format;
  ro.scan = true;
  if (!a.columns.empty()) ro.columns = SplitList(a.columns);
  if (!a.where.empty()) {
    QUIVER_ASSIGN_OR_RETURN(ro.where, stream::ParseWhere(a.where, "--where"));
  }
  std::unique_ptr<ThreadPool> own_pool;
  if (a.csv->threads > 0 && (is_parquet || is_orc)) {
    own_pool = std::make_unique<ThreadPool>(a.csv->threads);
    ro.parquet.thread_pool = own_pool.get();
    ro.orc.thread_pool = own_pool.get();
  }
  QUIVER_RETURN_NOT_OK(a.csv->ApplyTo(ro.format, &ro));
  QUIVER_ASSIGN_OR_RETURN(ro.parquet.decryption, a.crypt->ToDecryption());
  QUIVER_ASSIGN_OR_RETURN(std::unique_ptr<stream::BatchReader> reader, stream::OpenReader(a.path, std::move(ro)));
  const SchemaPtr schema = reader->schema();
  auto* pq_scan = dynamic_cast<stream::ParquetScan*>(reader.get());
  auto* orc_scan = dynamic_cast<stream::OrcScan*>(reader.get());
  if (a.format == "none" && a.limit < 0 && (pq_scan || orc_scan)) {
    // Streamed (the default): each row group or stripe decoded, counted and released before the
    // next (ORC: a window of one stripe per thread at a time), so a Parquet scan decodes into
    // the memory it recycles. --materialize (Parquet): every chosen row group decoded at once
    // and kept until the end. The time covers opening, decoding and filtering; a materialized
    // table is freed after the clock stops (unmapping a GB of pages is not part of reading it).
    std::vector<std::shared_ptr<RecordBatch>> table;
    QUIVER_ASSIGN_OR_RETURN(const stream::DrainCounts n, stream::Drain(*reader, a.materialize && pq_scan, &table));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const int threads = own_pool ? own_pool->num_threads() : ThreadPool::Default()->num_threads();
    if (orc_scan) {
      fmt::print("{{\"engine\":\"quiver\",\"op\":\"orcread\",\"rows\":{},\"stripes_read\":{},\"stripes\":{},"
                 "\"threads\":{},\"decoded_bytes\":{},\"seconds\":{:.4f},\"vm_hwm_kib\":{}}}\n",
                 n.rows, orc_scan->counters().stripes_read, orc_scan->file().num_stripes(), threads, n.bytes, seconds,
                 ProcKib("/proc/self/status", "VmHWM"));
      return Status::OK();
    }
    // Peak RSS and the part of the output still alive on transparent huge pages, for the
    // benchmark's questions about first-touch page faults.
    fmt::print("{{\"engine\":\"quiver\",\"op\":\"{}\",\"rows\":{},\"row_groups_read\":{},\"row_groups\":{},"
               "\"row_groups_skipped_by_bloom\":{},\"row_groups_skipped_by_page_index\":{},\"data_pages_skipped\":{},"
               "\"threads\":{},\"decoded_bytes\":{},\"buffers_reused\":{},\"buffers_fresh\":{},\"seconds\":{:.4f},"
               "\"vm_hwm_kib\":{},\"anon_huge_kib\":{}}}\n",
               a.materialize ? "pqread" : "scan", n.rows, pq_scan->row_groups().size(), pq_scan->counters().row_groups,
               pq_scan->counters().skipped_by_bloom_filter, pq_scan->counters().skipped_by_page_index,
               pq_scan->data_pages_skipped(), threads, n.bytes, pq_scan->buffers_reused(), pq_scan->buffers_fresh(), seconds,
               ProcKib("/proc/self/status", "VmHWM"), ProcKib("/proc/self/smaps_rollup", "AnonHugePages"));
    return Status::OK();
  }
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
    QUIVER_ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (!batch) {
      QUIVER_RETURN_NOT_OK(a.csv->CommitRejects());  // the whole input was read
      break;
    }
    if (limit >= 0 && rows + batch->num_rows() > limit) batch = batch->Slice(0, limit - rows);
    rows += batch->num_rows();
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
      QUIVER_ASSIGN_OR_RETURN(ipc_writer, ipc::IpcWriter::Make(out->stream(), schema, {.file_format = false}));
    }
    QUIVER_RETURN_NOT_OK(ipc_writer->Finish());
  }
  if (a.format == "csv") {
    // A table without rows still prints its header line.
    QUIVER_RETURN_NOT_OK(csv_writer.Finish(*schema));
  }
  if (a.format == "none") {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    QUIVER_RETURN_NOT_OK(out->stream()->Write(
        fmt::format("{{\"engine\":\"quiver\",\"op\":\"read\",\"rows\":{},\"seconds\":{:.4f}}}\n", rows, seconds)));
  }
  if (a.format == "table") {
    if (!shown.empty()) {
      QUIVER_ASSIGN_OR_RETURN(auto all, ConcatenateBatches(shown[0]->schema(), shown));
      QUIVER_RETURN_NOT_OK(out->stream()->Write(FormatTable(*all, all->num_rows())));
    }
  }
  QUIVER_RETURN_NOT_OK(out->Commit());
  // Nothing is dropped or changed silently: rejected rows, nulled cells and repairs are reported.
  if (const csv::CsvReader* csv_reader = stream::CsvReaderOf(*reader)) {
    const auto& st = csv_reader->stats();
    if (st.rows_rejected || st.cells_nulled || st.rows_repaired || st.blank_lines || st.footer_lines) {
      fmt::print(stderr, "quiver: {}: {} rows read, {} written, {} rejected, {} cells nulled, {} rows repaired ({} extra fields dropped), {} blank lines skipped{}\n",
                 a.path, st.rows_read, st.rows_written, st.rows_rejected, st.cells_nulled, st.rows_repaired,
                 st.fields_dropped, st.blank_lines, FooterNote(st));
    }
  } else if (const stream::ReadStats st = reader->stats(); st.rows_rejected > 0) {
    fmt::print(stderr, "quiver: {}: {} rows read, {} rejected\n", a.path, st.rows_read, st.rows_rejected);
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
  AddEncryptionOptions(app, a->crypt, false);
  return std::function<Status()>([a] { return RunCat(*a); });
}});

}  // namespace
}  // namespace quiver::cli

// `quiver load SRC [CONNINFO] --table T`: any input quiver reads into a PostgreSQL table through
// binary COPY from N connections, all or nothing (postgres/load.h); --dry-run prints the plan.
#include <fmt/format.h>
#include <signal.h>
#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <memory>

#include "quiver/cli/command.h"
#include "quiver/cli/csv_options.h"
#include "quiver/cli/encryption_options.h"
#include "quiver/cli/progress.h"
#include "quiver/postgres/connection.h"
#include "quiver/postgres/load.h"
#include "quiver/postgres/writer.h"
#include "quiver/stream/copy.h"
#include "quiver/stream/file_format.h"
#include "quiver/stream/open.h"
#include "quiver/stream/read_ahead.h"

namespace quiver::cli {
namespace {

struct LoadArgs {
  std::string in, conninfo, from, table, columns;
  bool create = false, append = false, replace = false, truncate = false, dry_run = false;
  int connections = 2;
  std::shared_ptr<CsvCliOptions> csv = std::make_shared<CsvCliOptions>();
  std::shared_ptr<EncryptionCliOptions> crypt = std::make_shared<EncryptionCliOptions>();
};

// SIGINT/SIGTERM ask the load to stop; it then rolls back and drops its staging table. A second
// signal ends the process at once (SA_RESETHAND): the target is still untouched, and the next
// load drops the staging table left behind.
std::atomic<bool> g_interrupted{false};
void OnInterrupt(int) { g_interrupted.store(true); }

void InstallInterruptFlag() {
  struct sigaction sa{};
  sa.sa_handler = OnInterrupt;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int64_t FileSize(const std::string& path) {
  struct stat st;
  return path != "-" && ::stat(path.c_str(), &st) == 0 ? static_cast<int64_t>(st.st_size) : -1;
}

Status RunLoad(const LoadArgs& a) {
  const auto start = std::chrono::steady_clock::now();
  const int modes = a.create + a.append + a.replace + a.truncate;
  if (modes > 1) return Status::Invalid("load: give one of --create, --append, --replace, --truncate");
  postgres::LoadOptions lo;
  lo.table = a.table;
  lo.mode = a.append     ? postgres::LoadMode::kAppend
            : a.replace  ? postgres::LoadMode::kReplace
            : a.truncate ? postgres::LoadMode::kTruncate
                         : postgres::LoadMode::kCreate;
  lo.connections = a.connections;
  lo.cancel = &g_interrupted;

  // The input's format as every command chooses it; the reader refuses one it does not know.
  QUIVER_ASSIGN_OR_RETURN(const std::string from, stream::ResolveInputFormat(a.in, a.from));
  stream::ReadOptions ro;
  ro.format = from;
  ro.scan = true;
  if (!a.columns.empty()) ro.columns = SplitList(a.columns);
  CsvCliOptions copts = *a.csv;
  QUIVER_RETURN_NOT_OK(copts.ApplyTo(from, &ro));
  QUIVER_ASSIGN_OR_RETURN(ro.parquet.decryption, a.crypt->ToDecryption());
  QUIVER_ASSIGN_OR_RETURN(std::unique_ptr<stream::BatchReader> reader, stream::OpenReader(a.in, std::move(ro)));
  const csv::CsvReader* csv_reader = stream::CsvReaderOf(*reader);  // also under a --columns projection

  if (a.dry_run) {
    // --create and --replace plan without a server; --append and --truncate read the table's columns.
    std::unique_ptr<postgres::Connection> conn;
    if (lo.mode == postgres::LoadMode::kAppend || lo.mode == postgres::LoadMode::kTruncate) {
      QUIVER_ASSIGN_OR_RETURN(conn, postgres::Connection::Open(a.conninfo));
    }
    QUIVER_ASSIGN_OR_RETURN(postgres::LoadPlan plan, postgres::PlanLoad(*reader->schema(), lo, conn.get()));
    if (!plan.create_table.empty()) fmt::print("{};\n\n", plan.create_table);
    fmt::print("-- plan: --{} into {} from {} over {} connection{}\n{}", postgres::LoadModeName(lo.mode), plan.target,
               a.in, lo.connections, lo.connections == 1 ? "" : "s", plan.Describe());
    return Status::OK();
  }

  InstallInterruptFlag();
  QUIVER_ASSIGN_OR_RETURN(auto writer, postgres::PostgresWriter::Open(a.conninfo, reader->schema(), lo));
  const int64_t in_size = FileSize(a.in);
  Progress progress("load", csv_reader ? reader->stats().input_size : in_size);
  stream::ReadAhead read_ahead(std::move(reader));
  stream::CopyOptions co;
  co.progress = [&progress](const stream::ReadStats& s) { progress.Update(s.input_position, s.rows_read); };
  Result<int64_t> rows = stream::Copy(read_ahead, *writer, co);
  progress.Finish();
  if (!rows.ok()) {
    if (g_interrupted.load()) {
      return Status::Cancelled(fmt::format("load: interrupted; {} is unchanged", writer->plan().target));
    }
    return rows.status();
  }
  QUIVER_RETURN_NOT_OK(copts.CommitRejects());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int64_t bytes_in = in_size >= 0 ? in_size : read_ahead.stats().bytes_read;
  const int64_t rejected = read_ahead.stats().rows_rejected;
  fmt::print(stderr, "quiver: {} -> {} ({}): {} rows, {} rejected, {:.1f} MB in, {:.1f} MB sent, {:.2f} s, {:.1f} MB/s\n",
             a.in, writer->plan().target, postgres::RedactConninfo(a.conninfo), *rows, rejected, bytes_in / 1e6,
             writer->bytes_written() / 1e6, seconds, seconds > 0 ? bytes_in / 1e6 / seconds : 0.0);
  return Status::OK();
}

const bool registered = RegisterCommand({"load", "Load CSV, JSON, Parquet, ORC or Arrow IPC into a PostgreSQL table (binary COPY)", 16,
                                         [](CLI::App* app) {
  auto a = std::make_shared<LoadArgs>();
  app->add_option("input", a->in, "Input file ('-' for stdin)")->required();
  app->add_option("conninfo", a->conninfo,
                  "postgresql://user@host:port/db URL or 'host=... dbname=...' (default: the PG* environment "
                  "variables, as libpq takes them)");
  app->add_option("--table,-t", a->table, "Target table: name or schema.name (taken literally)")->required();
  app->add_flag("--create", a->create, "Create the table from the input's schema (default; fails if it exists)");
  app->add_flag("--append", a->append,
                "Add the rows to an existing table; columns matched by name, types checked before any row");
  app->add_flag("--replace", a->replace, "Swap a new table for the old one (if any) in one transaction");
  app->add_flag("--truncate", a->truncate, "Replace an existing table's rows, keeping the table");
  app->add_option("--connections,-j", a->connections, "Connections that COPY in parallel")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  app->add_flag("--dry-run", a->dry_run, "Print the CREATE TABLE and the plan; load nothing");
  app->add_option("--from", a->from,
                  "Input format: csv|tsv|json|jsonl|parquet|orc|arrow (default: by extension, else by content)");
  app->add_option("--columns", a->columns, "Load only these comma-separated input columns");
  AddCsvOptions(app, a->csv);
  AddEncryptionOptions(app, a->crypt, false);
  return std::function<Status()>([a] { return RunLoad(*a); });
}});

}  // namespace
}  // namespace quiver::cli

#include "quiver/postgres/load.h"

#include <fmt/format.h>
#include <unistd.h>

#include <random>
#include <set>

#include "quiver/core/utf8.h"
#include "quiver/postgres/connection.h"
#include "quiver/postgres/writer.h"
#include "quiver/stream/copy.h"

namespace quiver::postgres {

const char* LoadModeName(LoadMode mode) {
  switch (mode) {
    case LoadMode::kCreate: return "create";
    case LoadMode::kAppend: return "append";
    case LoadMode::kReplace: return "replace";
    case LoadMode::kTruncate: return "truncate";
  }
  return "?";
}

Result<LoadMode> LoadModeFromName(std::string_view name, std::string_view what) {
  for (LoadMode m : {LoadMode::kCreate, LoadMode::kAppend, LoadMode::kReplace, LoadMode::kTruncate}) {
    if (name == LoadModeName(m)) return m;
  }
  return Status::Invalid(
      fmt::format("{} must be create, append, replace or truncate, got '{}'", what, EscapeForMessage(name)));
}

namespace {

std::string Qualified(const std::string& schema_name, const std::string& name) {
  return schema_name.empty() ? QuoteIdent(name) : QuoteIdent(schema_name) + "." + QuoteIdent(name);
}

std::string StagingName() {
  std::random_device rd;
  return fmt::format("quiver_staging_{}_{:08x}", static_cast<long>(::getpid()), rd());
}

// The catalog's view of the target's columns: name, type OID, format_type text, element OID.
struct TableColumn {
  std::string name, sql;
  uint32_t oid = 0, elem_oid = 0;
};

Result<std::vector<TableColumn>> TableColumns(Connection& conn, const std::string& target) {
  QUIVER_ASSIGN_OR_RETURN(
      auto rows,
      conn.Query(fmt::format("SELECT a.attname, a.atttypid, format_type(a.atttypid, a.atttypmod), "
                             "CASE WHEN t.typcategory = 'A' THEN t.typelem ELSE 0 END "
                             "FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid "
                             "WHERE a.attrelid = to_regclass({})::oid AND a.attnum > 0 AND NOT a.attisdropped "
                             "ORDER BY a.attnum",
                             QuoteLiteral(target))));
  std::vector<TableColumn> out;
  for (auto& r : rows) {
    TableColumn c;
    c.name = r[0];
    c.oid = static_cast<uint32_t>(std::stoul(r[1]));
    c.sql = r[2];
    c.elem_oid = static_cast<uint32_t>(std::stoul(r[3]));
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

std::string LoadPlan::Describe() const {
  std::string out;
  int step = 1;
  auto add = [&](const std::string& s) { out += fmt::format("{}. {}\n", step++, s); };
  add(fmt::format("drop staging tables left by killed loads in schema {}",
                  schema_name.empty() ? "(the search path's first)" : QuoteIdent(schema_name)));
  add(create_staging + ";");
  add(copy + " -- from each connection, batches shared among them");
  add("BEGIN;");
  for (const std::string& s : commit) add(s + ";");
  add("COMMIT; -- on any failure before this: ROLLBACK, DROP TABLE " + staging + "; the target is unchanged");
  return out;
}

Result<LoadPlan> PlanLoad(const Schema& schema, const LoadOptions& options, Connection* conn) {
  if (options.table.empty()) return Status::Invalid("postgres: no table given (--table)");
  LoadPlan p;
  const size_t dot = options.table.find('.');
  p.table_name = dot == std::string::npos ? options.table : options.table.substr(dot + 1);
  if (dot != std::string::npos) p.schema_name = options.table.substr(0, dot);
  if (p.table_name.empty() || (dot != std::string::npos && p.schema_name.empty())) {
    return Status::Invalid(fmt::format("postgres: bad table name '{}'", EscapeForMessage(options.table)));
  }
  if (p.schema_name.empty() && conn != nullptr) {
    QUIVER_ASSIGN_OR_RETURN(auto rows, conn->Query("SELECT coalesce(current_schema(), '')"));
    p.schema_name = rows.at(0).at(0);
    if (p.schema_name.empty()) {
      return Status::Invalid("postgres: the search path names no schema that exists; give --table schema.name");
    }
  }
  p.target = Qualified(p.schema_name, p.table_name);
  p.staging_name = StagingName();
  p.staging = Qualified(p.schema_name, p.staging_name);

  std::string cols;
  std::set<std::string> seen;
  for (const Field& f : schema.fields()) {
    if (!seen.insert(f.name).second) {
      return Status::Invalid(fmt::format("postgres: the input has two columns named '{}'", EscapeForMessage(f.name)));
    }
    if (!cols.empty()) cols += ", ";
    cols += QuoteIdent(f.name);
  }
  bool exists = false;
  if (conn != nullptr) {
    QUIVER_ASSIGN_OR_RETURN(auto rows, conn->Query(fmt::format("SELECT to_regclass({}) IS NOT NULL", QuoteLiteral(p.target))));
    exists = rows.at(0).at(0) == "t";
  }
  const std::string table_msg = Qualified(p.schema_name, p.table_name);
  switch (options.mode) {
    case LoadMode::kCreate:
    case LoadMode::kReplace: {
      if (options.mode == LoadMode::kCreate && exists) {
        return Status::Invalid(
            fmt::format("postgres: table {} already exists (use --append, --truncate or --replace)", table_msg));
      }
      for (const Field& f : schema.fields()) {
        QUIVER_ASSIGN_OR_RETURN(PgType t, CreateTypeOf(f));
        p.types.push_back(std::move(t));
      }
      QUIVER_ASSIGN_OR_RETURN(p.create_table, CreateTableSql(schema, p.target));
      QUIVER_ASSIGN_OR_RETURN(p.create_staging, CreateTableSql(schema, p.staging));
      if (options.mode == LoadMode::kReplace) p.commit.push_back("DROP TABLE IF EXISTS " + p.target);
      p.commit.push_back("ALTER TABLE " + p.staging + " RENAME TO " + QuoteIdent(p.table_name));
      break;
    }
    case LoadMode::kAppend:
    case LoadMode::kTruncate: {
      if (conn == nullptr) {
        return Status::Invalid(fmt::format("postgres: --{} checks the table's columns on the server, so it needs a connection",
                                           LoadModeName(options.mode)));
      }
      if (!exists) return Status::Invalid(fmt::format("postgres: table {} does not exist (use --create)", table_msg));
      QUIVER_ASSIGN_OR_RETURN(auto tcols, TableColumns(*conn, p.target));
      for (const Field& f : schema.fields()) {
        const TableColumn* tc = nullptr;
        for (const auto& c : tcols) {
          if (c.name == f.name) tc = &c;
        }
        if (tc == nullptr) {
          std::string names;
          for (const auto& c : tcols) names += (names.empty() ? "" : ", ") + c.name;
          return Status::Invalid(fmt::format("postgres: column '{}' is not a column of {} (its columns: {})",
                                             EscapeForMessage(f.name), table_msg, names));
        }
        Result<PgType> t = PgTypeFromCatalog(tc->oid, tc->sql, tc->elem_oid);
        if (!t.ok()) {
          return Status::Invalid(fmt::format("postgres: column '{}': {}.{} is of type {}, which quiver cannot write",
                                             EscapeForMessage(f.name), table_msg, QuoteIdent(f.name), tc->sql));
        }
        QUIVER_RETURN_NOT_OK(CheckAssignable(f, *t, table_msg).WithContext("postgres"));
        p.types.push_back(std::move(*t));
      }
      p.create_staging = fmt::format("CREATE TABLE {} AS SELECT {} FROM {} WITH NO DATA", p.staging, cols, p.target);
      if (options.mode == LoadMode::kTruncate) p.commit.push_back("TRUNCATE " + p.target);
      p.commit.push_back(fmt::format("INSERT INTO {} ({}) SELECT {} FROM {}", p.target, cols, cols, p.staging));
      p.commit.push_back("DROP TABLE " + p.staging);
      break;
    }
  }
  p.copy = fmt::format("COPY {} ({}) FROM STDIN (FORMAT binary)", p.staging, cols);
  return p;
}

Status DropStaleStaging(Connection& conn, const std::string& schema_name, std::vector<std::string>* dropped) {
  QUIVER_ASSIGN_OR_RETURN(
      auto rows, conn.Query(fmt::format("SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                                        "WHERE n.nspname = {} AND c.relkind = 'r' AND c.relname LIKE 'quiver\\_staging\\_%'",
                                        QuoteLiteral(schema_name))));
  for (const auto& r : rows) {
    const std::string& name = r[0];
    const std::string key = "hashtext(" + QuoteLiteral(name) + ")";
    QUIVER_ASSIGN_OR_RETURN(auto got, conn.Query("SELECT pg_try_advisory_lock(" + key + ")"));
    if (got.at(0).at(0) != "t") continue;  // its load is running
    Status st = conn.Exec("DROP TABLE IF EXISTS " + Qualified(schema_name, name));
    (void)conn.Query("SELECT pg_advisory_unlock(" + key + ")");
    QUIVER_RETURN_NOT_OK(st);
    if (dropped != nullptr) dropped->push_back(name);
  }
  return Status::OK();
}

Status CreateStaging(Connection& conn, const LoadPlan& plan) {
  QUIVER_RETURN_NOT_OK(conn.Query("SELECT pg_advisory_lock(hashtext(" + QuoteLiteral(plan.staging_name) + "))").status());
  QUIVER_RETURN_NOT_OK(conn.Exec(plan.create_staging));
  return conn.Exec(fmt::format("COMMENT ON TABLE {} IS {}", plan.staging,
                               QuoteLiteral("quiver load into " + plan.target +
                                            " in progress; dropped by the next quiver load into this schema "
                                            "once its session is gone")));
}

Status CommitLoad(Connection& conn, const LoadPlan& plan) {
  QUIVER_RETURN_NOT_OK(conn.Exec("BEGIN"));
  for (const std::string& s : plan.commit) {
    Status st = conn.Exec(s);
    if (!st.ok()) {
      (void)conn.Exec("ROLLBACK");
      return st;
    }
  }
  return conn.Exec("COMMIT");
}

void DropStaging(Connection& conn, const LoadPlan& plan) {
  if (conn.in_transaction()) (void)conn.Exec("ROLLBACK");  // a commit transaction that failed half-way
  if (conn.Exec("DROP TABLE IF EXISTS " + plan.staging).ok()) {
    (void)conn.Query("SELECT pg_advisory_unlock(hashtext(" + QuoteLiteral(plan.staging_name) + "))");
  }
}

Result<LoadResult> Load(stream::BatchReader& reader, const std::string& conninfo, const LoadOptions& options,
                        std::function<void(const stream::ReadStats&)> progress) {
  QUIVER_ASSIGN_OR_RETURN(auto writer, PostgresWriter::Open(conninfo, reader.schema(), options));
  stream::CopyOptions co;
  co.progress = std::move(progress);
  LoadResult r;
  QUIVER_ASSIGN_OR_RETURN(r.rows, stream::Copy(reader, *writer, co));
  r.bytes = writer->bytes_written();
  return r;
}

}  // namespace quiver::postgres

// Loading a table all or nothing: the rows go into a staging table beside the target (made
// here, dropped on any failure), and one transaction makes them visible (a rename for
// --create/--replace, INSERT ... SELECT for --append/--truncate). Plans, staging tables and
// their commit; the parallel COPY itself is PostgresWriter's (writer.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/columnar/schema.h"
#include "quiver/postgres/type_map.h"
#include "quiver/stream/batch_stream.h"

namespace quiver::postgres {

class Connection;

enum class LoadMode : uint8_t {
  kCreate,    // a new table from the input's schema; refused if the table exists
  kAppend,    // rows added to an existing table, columns matched by name
  kReplace,   // a new table from the input's schema swapped for the old one (if any)
  kTruncate,  // an existing table's rows replaced by the input's
};
const char* LoadModeName(LoadMode mode);  // "create", ...
// The mode LoadModeName names; errors name the setting as `what`.
Result<LoadMode> LoadModeFromName(std::string_view name, std::string_view what);

struct LoadOptions {
  // "name" or "schema.name" (split at the first dot), each part taken literally (case kept).
  std::string table;
  LoadMode mode = LoadMode::kCreate;
  // Connections that COPY at once, each with its own share of the batches.
  int connections = 1;
  // Batches waiting for a connection at most (0: two per connection): the memory bound.
  int queued_batches = 0;
  // Set (e.g. from a SIGINT handler) to stop the load; the target is then left as it was.
  const std::atomic<bool>* cancel = nullptr;
};

// What a load does, in SQL: from the input's schema (and, for --append/--truncate, the target's
// columns).
struct LoadPlan {
  std::string schema_name;          // the target's schema (empty: the search path's, for a dry run)
  std::string table_name;           // the target's name
  std::string target;               // quoted, qualified when schema_name is known
  std::string staging;              // quoted, qualified
  std::string staging_name;         // unquoted
  std::string create_table;         // CREATE TABLE for the target (what --dry-run prints)
  std::string create_staging;       // the staging table's CREATE
  std::string copy;                 // COPY staging (cols) FROM STDIN (FORMAT binary)
  std::vector<std::string> commit;  // the statements of the commit transaction
  std::vector<PgType> types;        // per input column, what the encoder writes
  std::string Describe() const;     // the plan as numbered steps, for --dry-run
};

// The plan, checking the target: it exists for --append/--truncate (every input column is one of
// its columns, of a type that can hold the input's: CheckAssignable), and not for --create.
// Without a connection (a dry run of --create/--replace) nothing is checked on a server.
Result<LoadPlan> PlanLoad(const Schema& schema, const LoadOptions& options, Connection* conn);

// Staging tables are named quiver_staging_<pid>_<random>, and their session holds an advisory
// lock keyed by the name while it loads. One whose lock no session holds is left by a load that
// was killed or whose server went away: every load drops such tables in its target's schema
// before it starts (DropStaleStaging), so the next load cleans up after a killed one.
Status DropStaleStaging(Connection& conn, const std::string& schema_name, std::vector<std::string>* dropped = nullptr);
// Creates the staging table and takes its lock on `conn` (which must stay open to the end).
Status CreateStaging(Connection& conn, const LoadPlan& plan);
// The commit transaction: the target gets the staging table's rows, all or nothing.
Status CommitLoad(Connection& conn, const LoadPlan& plan);
// Drops the staging table (best effort: after a lost connection, DropStaleStaging does it later).
void DropStaging(Connection& conn, const LoadPlan& plan);

struct LoadResult {
  int64_t rows = 0;
  int64_t bytes = 0;  // binary COPY bytes sent
};

// Opens a PostgresWriter and copies every batch of `reader` into it (stream::Copy): the whole
// load, with `progress` called after each batch as stream::CopyOptions says.
Result<LoadResult> Load(stream::BatchReader& reader, const std::string& conninfo, const LoadOptions& options,
                        std::function<void(const stream::ReadStats&)> progress = {});

}  // namespace quiver::postgres

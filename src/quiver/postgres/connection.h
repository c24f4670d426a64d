// One libpq connection to PostgreSQL: SQL statements, text query results, and the COPY FROM
// STDIN stream; plus the conninfo redaction every message about a connection goes through.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/core/result.h"

struct pg_conn;  // libpq's PGconn, kept out of the public headers

namespace quiver::postgres {

// `conninfo` as libpq takes it (a postgresql:// URL or "key=value ..." words; empty: the PG*
// environment variables alone) with any password removed, for messages.
std::string RedactConninfo(std::string_view conninfo);

class Connection {
 public:
  // Connects (client_encoding UTF8). Errors name the server as RedactConninfo shows it and
  // give libpq's reason: "connection refused", "password authentication failed", ...
  static Result<std::unique_ptr<Connection>> Open(const std::string& conninfo);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs statements that return no rows.
  Status Exec(const std::string& sql);
  // Runs a query; each row's values as text ("" for NULL, told apart by `nulls` when given).
  Result<std::vector<std::vector<std::string>>> Query(const std::string& sql);

  // COPY ... TO STDOUT: every byte the server sends.
  Result<std::string> CopyOut(const std::string& sql);

  // COPY ... FROM STDIN: Begin sends the statement, Put the data (in the caller's bytes), End
  // the end of data and the server's verdict (its message, with its COPY line and column).
  Status BeginCopy(const std::string& sql);
  Status PutCopy(const uint8_t* data, int64_t size);
  Status EndCopy();
  // Ends a COPY in progress with an error, so the server discards what it received.
  void AbortCopy(const char* reason);
  // Asks the server to cancel what this connection runs (callable from another thread).
  void Cancel();

  // Whether a transaction is open (or failed and not yet rolled back).
  bool in_transaction() const;
  // The server's process id (pg_backend_pid) of this connection.
  int backend_pid() const;
  // What messages call the server: the redacted conninfo.
  const std::string& where() const { return where_; }

 private:
  Connection(pg_conn* conn, std::string where) : conn_(conn), where_(std::move(where)) {}
  Status LastError(std::string_view what) const;
  pg_conn* conn_;
  std::string where_;
};

// "name" quoted as an SQL identifier ("a""b").
std::string QuoteIdent(std::string_view name);
// 'text' quoted as an SQL literal.
std::string QuoteLiteral(std::string_view text);

}  // namespace quiver::postgres

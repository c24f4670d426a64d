#include "quiver/postgres/connection.h"

#include <fmt/format.h>
#include <libpq-fe.h>

#include <cstring>

namespace quiver::postgres {
namespace {

// libpq's messages end with a newline (and may hold several lines); one line for ours.
std::string Trim(const char* msg) {
  std::string s = msg ? msg : "";
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  std::string out;
  for (char c : s) {
    if (c == '\n' || c == '\t') c = ' ';
    if (c == ' ' && !out.empty() && out.back() == ' ') continue;
    out += c;
  }
  return out;
}

// A password can also appear in a message libpq builds from the conninfo; none of them do
// today, but every message passes through here so that none ever shows one.
std::string Scrub(std::string msg, std::string_view conninfo) {
  PQconninfoOption* opts = PQconninfoParse(std::string(conninfo).c_str(), nullptr);
  if (opts == nullptr) return msg;
  for (PQconninfoOption* o = opts; o->keyword != nullptr; ++o) {
    if (std::strcmp(o->keyword, "password") == 0 && o->val != nullptr && o->val[0] != '\0') {
      const std::string pw = o->val;
      for (size_t at = msg.find(pw); at != std::string::npos; at = msg.find(pw, at)) msg.replace(at, pw.size(), "***");
    }
  }
  PQconninfoFree(opts);
  return msg;
}

}  // namespace

std::string RedactConninfo(std::string_view conninfo) {
  PQconninfoOption* opts = PQconninfoParse(std::string(conninfo).c_str(), nullptr);
  if (opts == nullptr) return "(unparsable connection string)";
  std::string user, host, port, db;
  for (PQconninfoOption* o = opts; o->keyword != nullptr; ++o) {
    if (o->val == nullptr || o->val[0] == '\0') continue;
    if (std::strcmp(o->keyword, "user") == 0) user = o->val;
    if (std::strcmp(o->keyword, "host") == 0 || (std::strcmp(o->keyword, "hostaddr") == 0 && host.empty())) host = o->val;
    if (std::strcmp(o->keyword, "port") == 0) port = o->val;
    if (std::strcmp(o->keyword, "dbname") == 0) db = o->val;
  }
  PQconninfoFree(opts);
  // Unset parts come from PG* variables or libpq's defaults; show what was given.
  std::string out = "postgresql://";
  if (!user.empty()) out += user + "@";
  out += host;
  if (!port.empty()) out += ":" + port;
  if (!db.empty()) out += "/" + db;
  return out;
}

Result<std::unique_ptr<Connection>> Connection::Open(const std::string& conninfo) {
  const std::string where = RedactConninfo(conninfo);
  char* parse_error = nullptr;
  PQconninfoOption* opts = PQconninfoParse(conninfo.c_str(), &parse_error);
  if (opts == nullptr) {
    std::string msg = parse_error ? Trim(parse_error) : "out of memory";
    if (parse_error) PQfreemem(parse_error);
    return Status::Invalid(fmt::format("postgres: bad connection string: {}", Scrub(msg, conninfo)));
  }
  PQconninfoFree(opts);
  // expand_dbname: the dbname slot may hold a whole URL or key=value string.
  const char* keys[] = {"dbname", "client_encoding", "application_name", nullptr};
  const char* vals[] = {conninfo.c_str(), "UTF8", "quiver", nullptr};
  PGconn* conn = PQconnectdbParams(keys, vals, 1);
  if (conn == nullptr) return Status::OutOfMemory("postgres: cannot allocate a connection");
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string msg = Scrub(Trim(PQerrorMessage(conn)), conninfo);
    PQfinish(conn);
    return Status::IOError(fmt::format("postgres: cannot connect to {}: {}", where, msg));
  }
  // The server's notices (NOTICE, WARNING) are not the user's business here.
  PQsetNoticeProcessor(conn, [](void*, const char*) {}, nullptr);
  return std::unique_ptr<Connection>(new Connection(conn, where));
}

Connection::~Connection() { PQfinish(conn_); }

Status Connection::LastError(std::string_view what) const {
  return Status::IOError(fmt::format("{}: {}", what, Trim(PQerrorMessage(conn_))));
}

namespace {
Status ResultError(PGresult* r, pg_conn* conn) {
  std::string msg = Trim(r ? PQresultErrorMessage(r) : PQerrorMessage(conn));
  if (msg.empty()) msg = Trim(PQerrorMessage(conn));
  if (msg.rfind("ERROR: ", 0) == 0) msg.erase(0, 7);
  return Status::IOError(msg);
}
}  // namespace

Status Connection::Exec(const std::string& sql) {
  PGresult* r = PQexec(conn_, sql.c_str());
  const ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
  Status out = (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) ? Status::OK() : ResultError(r, conn_);
  PQclear(r);
  return out;
}

Result<std::vector<std::vector<std::string>>> Connection::Query(const std::string& sql) {
  PGresult* r = PQexec(conn_, sql.c_str());
  if (r == nullptr || PQresultStatus(r) != PGRES_TUPLES_OK) {
    Status s = ResultError(r, conn_);
    PQclear(r);
    return s;
  }
  std::vector<std::vector<std::string>> rows(static_cast<size_t>(PQntuples(r)));
  const int cols = PQnfields(r);
  for (size_t i = 0; i < rows.size(); ++i) {
    for (int c = 0; c < cols; ++c) rows[i].emplace_back(PQgetvalue(r, static_cast<int>(i), c));
  }
  PQclear(r);
  return rows;
}

Result<std::string> Connection::CopyOut(const std::string& sql) {
  PGresult* r = PQexec(conn_, sql.c_str());
  if (r == nullptr || PQresultStatus(r) != PGRES_COPY_OUT) {
    Status s = ResultError(r, conn_);
    PQclear(r);
    return s;
  }
  PQclear(r);
  std::string out;
  for (;;) {
    char* buf = nullptr;
    const int n = PQgetCopyData(conn_, &buf, 0);
    if (n > 0) out.append(buf, static_cast<size_t>(n));
    if (buf != nullptr) PQfreemem(buf);
    if (n < 0) break;
  }
  Status st;
  for (PGresult* res = PQgetResult(conn_); res != nullptr; res = PQgetResult(conn_)) {
    if (PQresultStatus(res) != PGRES_COMMAND_OK && st.ok()) st = ResultError(res, conn_);
    PQclear(res);
  }
  if (!st.ok()) return st;
  return out;
}

Status Connection::BeginCopy(const std::string& sql) {
  PGresult* r = PQexec(conn_, sql.c_str());
  Status out = r && PQresultStatus(r) == PGRES_COPY_IN ? Status::OK() : ResultError(r, conn_);
  PQclear(r);
  return out;
}

Status Connection::PutCopy(const uint8_t* data, int64_t size) {
  // libpq takes an int length; big buffers go in pieces.
  constexpr int64_t kPiece = int64_t{1} << 30;
  for (int64_t at = 0; at < size; at += kPiece) {
    const int n = static_cast<int>(std::min(kPiece, size - at));
    if (PQputCopyData(conn_, reinterpret_cast<const char*>(data + at), n) != 1) {
      // The server may have ended the COPY with an error of its own: that is the better reason.
      PGresult* r = PQgetResult(conn_);
      Status s = r && PQresultStatus(r) == PGRES_FATAL_ERROR ? ResultError(r, conn_) : LastError("sending COPY data");
      PQclear(r);
      return s;
    }
  }
  return Status::OK();
}

Status Connection::EndCopy() {
  if (PQputCopyEnd(conn_, nullptr) != 1) return LastError("ending COPY");
  Status out;
  for (PGresult* r = PQgetResult(conn_); r != nullptr; r = PQgetResult(conn_)) {
    if (PQresultStatus(r) != PGRES_COMMAND_OK && out.ok()) out = ResultError(r, conn_);
    PQclear(r);
    if (PQstatus(conn_) == CONNECTION_BAD) break;
  }
  if (out.ok() && PQstatus(conn_) == CONNECTION_BAD) out = LastError("ending COPY");
  return out;
}

void Connection::AbortCopy(const char* reason) {
  if (PQputCopyEnd(conn_, reason) == 1) {
    for (PGresult* r = PQgetResult(conn_); r != nullptr; r = PQgetResult(conn_)) {
      PQclear(r);
      if (PQstatus(conn_) == CONNECTION_BAD) break;
    }
  }
}

void Connection::Cancel() {
  PGcancel* c = PQgetCancel(conn_);
  if (c == nullptr) return;
  char err[256];
  PQcancel(c, err, sizeof err);
  PQfreeCancel(c);
}

bool Connection::in_transaction() const {
  const PGTransactionStatusType t = PQtransactionStatus(conn_);
  return t == PQTRANS_INTRANS || t == PQTRANS_INERROR;
}

int Connection::backend_pid() const { return PQbackendPID(conn_); }

std::string QuoteIdent(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string QuoteLiteral(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

}  // namespace quiver::postgres

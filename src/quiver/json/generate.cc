#include "quiver/json/generate.h"

#include <fmt/format.h>

#include <string>

#include "quiver/core/splitmix_internal.h"

namespace quiver::json {
namespace {

using Rng = SplitMix64;

const char* const kLevels[] = {"DEBUG", "INFO", "INFO", "INFO", "WARN", "ERROR"};
const char* const kMethods[] = {"GET", "GET", "GET", "POST", "PUT", "DELETE"};
const char* const kPaths[] = {"/v1/items", "/v1/users", "/v1/orders", "/health", "/v2/search"};
const char* const kDcs[] = {"eu-west-1", "us-east-1", "ap-south-1"};
const char* const kCountries[] = {"DE", "FR", "US", "IN", "BR", "JP", "ZA"};
const char* const kAgents[] = {"curl/8.4.0", "Mozilla/5.0 (X11; Linux x86_64)", "python-requests/2.31", "Go-http-client/2.0"};
const char* const kTags[] = {"canary", "beta", "mobile", "batch", "internal", "ipv6"};
const char* const kSpans[] = {"db.query", "cache.get", "auth", "render", "queue.push"};
const char* const kErrors[] = {"timeout after 30s: \\\"upstream\\\" closed", "connexion refusée par l'hôte",
                               "bad input:\\tfield \\\\x missing", "quota exceeded \\u2014 retry later"};

}  // namespace

Status GenerateLogs(const LogsOptions& o, io::OutputStream* out, const std::function<void(int64_t, int64_t)>& progress) {
  Rng rng{o.seed};
  std::string line;
  int64_t ts = 1700000000000;
  for (int64_t r = 0; r < o.rows; ++r) {
    line.clear();
    ts += rng.Range(0, 50);
    const int64_t status = rng.Range(0, 19) == 0 ? 500 + rng.Range(0, 4) : (rng.Range(0, 9) == 0 ? 404 : 200);
    fmt::format_to(std::back_inserter(line),
                   "{{\"ts\":{},\"level\":\"{}\",\"service\":\"svc-{}\",\"host\":{{\"name\":\"host-{:03}\",\"dc\":\"{}\","
                   "\"cpu\":{:.2f}}},\"http\":{{\"method\":\"{}\",\"path\":\"{}/{}\",\"status\":{},\"latency_ms\":{:.3f},"
                   "\"client\":{{\"ip\":\"10.{}.{}.{}\",\"country\":\"{}\",\"agent\":\"{}\"}}}}",
                   ts, rng.Pick(kLevels), rng.Range(1, 12), rng.Range(0, 199), rng.Pick(kDcs),
                   static_cast<double>(rng.Range(0, 10000)) / 100.0, rng.Pick(kMethods), rng.Pick(kPaths),
                   rng.Range(1, 99999), status, static_cast<double>(rng.Range(1, 2000000)) / 1000.0, rng.Range(0, 255),
                   rng.Range(0, 255), rng.Range(1, 254), rng.Pick(kCountries), rng.Pick(kAgents));
    line += ",\"tags\":[";
    const int64_t ntags = rng.Range(0, 3);
    for (int64_t t = 0; t < ntags; ++t) fmt::format_to(std::back_inserter(line), "{}\"{}\"", t ? "," : "", rng.Pick(kTags));
    line += "],\"spans\":[";
    const int64_t nspans = rng.Range(0, 4);
    for (int64_t s = 0; s < nspans; ++s) {
      fmt::format_to(std::back_inserter(line), "{}{{\"name\":\"{}\",\"ms\":{:.3f},\"ok\":{}}}", s ? "," : "",
                     rng.Pick(kSpans), static_cast<double>(rng.Range(0, 500000)) / 1000.0,
                     rng.Range(0, 9) != 0 ? "true" : "false");
    }
    line += "]";
    // Optional keys: user_id on about two rows in three (null on some), error on server errors.
    const int64_t user = rng.Range(0, 29);
    if (user < 18) fmt::format_to(std::back_inserter(line), ",\"user_id\":{}", rng.Range(1, 5000000));
    else if (user < 20) line += ",\"user_id\":null";
    if (status >= 500) {
      fmt::format_to(std::back_inserter(line), ",\"error\":{{\"code\":\"E{}\",\"message\":\"{}\",\"retry\":{}}}",
                     rng.Range(100, 999), rng.Pick(kErrors), rng.Range(0, 1) ? "true" : "false");
    }
    line += "}\n";
    QUIVER_RETURN_NOT_OK(out->Write(line));
    if (progress && (r & 0x3fff) == 0) progress(out->Tell(), r);
  }
  if (progress) progress(out->Tell(), o.rows);
  return Status::OK();
}

}  // namespace quiver::json

// What the PostgreSQL tests share: the fixture that skips without a server, SQL helpers through
// the library's own connection, COPY TO STDOUT text parsed into rows, and an in-memory reader.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "postgres/pg_server.h"
#include "quiver/postgres/connection.h"
#include "quiver/stream/batch_stream.h"

namespace quiver::testing {

class PgTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = PgEnvironment::Get()->server();
    if (server_ == nullptr) GTEST_SKIP() << PgEnvironment::Get()->why_not();
    auto c = postgres::Connection::Open(server_->conninfo());
    ASSERT_TRUE(c.ok()) << c.status().ToString();
    conn_ = std::move(*c);
  }
  std::string conninfo() const { return server_->conninfo(); }
  void Exec(const std::string& sql) {
    Status st = conn_->Exec(sql);
    ASSERT_TRUE(st.ok()) << sql << ": " << st.ToString();
  }
  std::string One(const std::string& sql) {
    auto r = conn_->Query(sql);
    if (!r.ok()) return "ERROR " + r.status().ToString();
    return r->empty() ? "" : r->at(0).at(0);
  }
  int64_t StagingTables() {
    return std::stoll(One("SELECT count(*) FROM pg_class WHERE relname LIKE 'quiver\\_staging\\_%'"));
  }
  // COPY (sql) TO STDOUT in text form, split into rows of fields ("\\N" stays as written for NULL).
  std::vector<std::vector<std::string>> CopyRows(const std::string& sql) {
    auto out = conn_->CopyOut("COPY (" + sql + ") TO STDOUT");
    EXPECT_TRUE(out.ok()) << out.status().ToString();
    std::vector<std::vector<std::string>> rows;
    if (!out.ok()) return rows;
    std::vector<std::string> row;
    std::string field;
    const std::string& s = *out;
    for (size_t i = 0; i < s.size(); ++i) {
      const char c = s[i];
      if (c == '\t' || c == '\n') {
        row.push_back(field);
        field.clear();
        if (c == '\n') rows.push_back(std::move(row)), row.clear();
      } else if (c == '\\' && i + 1 < s.size()) {
        const char e = s[++i];
        if (e == 'N') field += "\\N";
        else if (e == 'n') field += '\n';
        else if (e == 't') field += '\t';
        else if (e == 'r') field += '\r';
        else field += e;
      } else {
        field += c;
      }
    }
    return rows;
  }

  PgServer* server_ = nullptr;
  std::unique_ptr<postgres::Connection> conn_;
};

// Batches from memory, as a reader.
class VectorReader final : public stream::BatchReader {
 public:
  explicit VectorReader(std::vector<std::shared_ptr<RecordBatch>> batches) : batches_(std::move(batches)) {}
  const SchemaPtr& schema() const override { return batches_.at(0)->schema(); }
  Result<std::shared_ptr<RecordBatch>> Next() override {
    if (next_ >= batches_.size()) return std::shared_ptr<RecordBatch>();
    stats_.rows_read += batches_[next_]->num_rows();
    return batches_[next_++];
  }
  stream::ReadStats stats() const override { return stats_; }

 private:
  std::vector<std::shared_ptr<RecordBatch>> batches_;
  size_t next_ = 0;
  stream::ReadStats stats_;
};

}  // namespace quiver::testing

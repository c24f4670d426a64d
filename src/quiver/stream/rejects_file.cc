#include "quiver/stream/rejects_file.h"

#include <fmt/format.h>

#include "quiver/columnar/record_batch.h"

namespace quiver::stream {

namespace {
// Rows buffered before they go through the writer: rejects are rare, but a messy file can
// have millions.
constexpr int64_t kFlushRows = 4096;
}  // namespace

Result<std::shared_ptr<RejectsFile>> RejectsFile::Open(const std::string& path) {
  std::shared_ptr<RejectsFile> r(new RejectsFile());
  QUIVER_ASSIGN_OR_RETURN(r->file_, io::AtomicFile::Open(path));
  r->writer_ = std::make_unique<csv::CsvWriter>(r->file_->stream());
  r->schema_ = std::make_shared<const Schema>(
      std::vector<Field>{field("line", int64()), field("reason", utf8()), field("record", utf8())});
  r->line_ = std::make_unique<NumericBuilder<int64_t>>(int64());
  r->reason_ = std::make_unique<BinaryBuilder>(utf8());
  r->record_ = std::make_unique<BinaryBuilder>(utf8());
  return r;
}

Status RejectsFile::Add(int64_t line, std::string_view reason, std::string_view record) {
  QUIVER_RETURN_NOT_OK(line_->Append(line));
  QUIVER_RETURN_NOT_OK(reason_->Append(reason));
  QUIVER_RETURN_NOT_OK(record_->Append(record));
  if (++pending_ >= kFlushRows) return Flush();
  return Status::OK();
}

Status RejectsFile::Add(const csv::RejectedRow& row) {
  const csv::Problem& p = row.problem;
  return Add(p.line, p.column >= 0 ? fmt::format("column {} '{}': {}", p.column + 1, p.column_name, p.reason) : p.reason,
             row.record);
}

Status RejectsFile::Flush() {
  std::vector<Array> columns;
  QUIVER_ASSIGN_OR_RETURN(Array lines, line_->Finish());
  QUIVER_ASSIGN_OR_RETURN(Array reasons, reason_->Finish());
  QUIVER_ASSIGN_OR_RETURN(Array records, record_->Finish());
  columns.push_back(std::move(lines));
  columns.push_back(std::move(reasons));
  columns.push_back(std::move(records));
  RecordBatch batch(schema_, pending_, std::move(columns));
  pending_ = 0;
  return writer_->Write(batch);
}

Status RejectsFile::Commit() {
  // Also with no rows: the file then holds its header.
  QUIVER_RETURN_NOT_OK(Flush());
  return file_->Commit();
}

}  // namespace quiver::stream

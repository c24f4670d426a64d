// The --rejects file: rows dropped by --on-error skip, written as CSV (line, reason, record)
// through the CSV writer from the reader's reject handler, committed when the read succeeds.
#pragma once

#include <memory>
#include <string>

#include "quiver/columnar/builder.h"
#include "quiver/core/result.h"
#include "quiver/csv/problems.h"
#include "quiver/csv/writer.h"
#include "quiver/io/atomic_file.h"

namespace quiver::cli {

class RejectsFile {
 public:
  static Result<std::shared_ptr<RejectsFile>> Open(const std::string& path);
  // The reader's handler: one row of the file per rejected row.
  Status Add(const csv::RejectedRow& row);
  // Writes what is buffered and renames the file into place.
  Status Commit();

 private:
  RejectsFile() = default;
  Status Flush();

  std::unique_ptr<io::AtomicFile> file_;
  std::unique_ptr<csv::CsvWriter> writer_;
  SchemaPtr schema_;
  std::unique_ptr<NumericBuilder<int64_t>> line_;
  std::unique_ptr<BinaryBuilder> reason_, record_;
  int64_t pending_ = 0;
};

}  // namespace quiver::cli

// A rejects file: the rows a read with on_error = skip left out, written as CSV (line, reason,
// record) from the reader's reject handler (CSV or JSON), renamed into place when the read
// succeeds, so a failed read leaves none.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "quiver/columnar/builder.h"
#include "quiver/core/result.h"
#include "quiver/csv/problems.h"
#include "quiver/csv/writer.h"
#include "quiver/io/atomic_file.h"

namespace quiver::stream {

class RejectsFile {
 public:
  static Result<std::shared_ptr<RejectsFile>> Open(const std::string& path);
  // One row of the file per rejected row or line.
  Status Add(int64_t line, std::string_view reason, std::string_view record);
  // A CSV reader's rejected row, its reason naming the column when there is one.
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

}  // namespace quiver::stream

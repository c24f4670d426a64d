// An ORC file as a batch stream: stripes in file order, a window of them (one per thread)
// decoded in parallel at a time, so memory stays a few stripes whatever the file's size.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "quiver/orc/reader/file_reader.h"
#include "quiver/stream/batch_stream.h"

namespace quiver::stream {

class OrcStreamReader final : public BatchReader {
 public:
  // `columns`: fields by name or dotted path, in the order wanted (empty: all).
  static Result<std::unique_ptr<OrcStreamReader>> Open(const std::string& path, const std::vector<std::string>& columns = {},
                                                       orc::OrcReaderOptions options = {});
  static Result<std::unique_ptr<OrcStreamReader>> Make(std::shared_ptr<orc::OrcFileReader> file,
                                                       const std::vector<std::string>& columns = {},
                                                       std::vector<int> stripes = {});

  const SchemaPtr& schema() const override { return schema_; }
  // One stripe a batch.
  Result<std::shared_ptr<RecordBatch>> Next() override;
  ReadStats stats() const override;
  const orc::OrcFileReader& file() const { return *file_; }

 private:
  OrcStreamReader() = default;
  std::shared_ptr<orc::OrcFileReader> file_;
  orc::OrcFileReader::Selection selection_;
  std::vector<int> order_;  // column order wanted, as indices into the file-order selection
  SchemaPtr schema_;
  std::vector<int> stripes_;
  size_t next_ = 0;
  int window_ = 1;
  std::deque<std::shared_ptr<RecordBatch>> ready_;
  int64_t rows_ = 0, bytes_ = 0;
};

}  // namespace quiver::stream

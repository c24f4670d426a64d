// An ORC file as a batch stream: each stripe in row batches (OrcReaderOptions::batch_rows), every
// top-level column decoded on the thread pool a few batches ahead of the consumer, its streams
// expanded a compression chunk at a time; batch buffers come from a RecyclingPool (its scan policy), so a consumer that
// drops each batch reuses the same memory whatever the file's size.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "quiver/core/recycling_pool.h"
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
  // Waits for the columns being decoded.
  ~OrcStreamReader() override;

  const SchemaPtr& schema() const override { return schema_; }
  // The next batch of rows (one stripe's, at most batch_rows of them).
  Result<std::shared_ptr<RecordBatch>> Next() override;
  ReadStats stats() const override;
  const orc::OrcFileReader& file() const { return *file_; }

  struct Pipeline;

 private:
  OrcStreamReader() = default;
  std::shared_ptr<orc::OrcFileReader> file_;
  std::vector<int> order_;  // column order wanted, as indices into the file-order selection
  SchemaPtr schema_;
  RecyclingPool* recycle_ = nullptr;  // closed (not deleted) with the reader: batches may outlive it
  std::unique_ptr<Pipeline> pipe_;
  Status failed_;
  int64_t rows_ = 0, bytes_ = 0;
};

}  // namespace quiver::stream

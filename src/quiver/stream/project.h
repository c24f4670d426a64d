// ProjectReader: another reader's batches cut to some of their top-level columns, in the order
// asked, for the formats whose readers read every column (CSV, Arrow IPC). The columns are
// shared, never copied.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "quiver/stream/batch_stream.h"

namespace quiver::stream {

class ProjectReader final : public BatchReader {
 public:
  // Invalid when `inner`'s schema has no column of one of the names; `name` (the input) is
  // named in that message.
  static Result<std::unique_ptr<ProjectReader>> Make(std::unique_ptr<BatchReader> inner,
                                                     const std::vector<std::string>& columns, const std::string& name);

  // The chosen fields, with the inner schema's metadata.
  const SchemaPtr& schema() const override { return schema_; }
  Result<std::shared_ptr<RecordBatch>> Next() override;
  ReadStats stats() const override { return inner_->stats(); }
  size_t read_ahead_batches() const override { return inner_->read_ahead_batches(); }

  const BatchReader& inner() const { return *inner_; }

 private:
  ProjectReader() = default;
  std::unique_ptr<BatchReader> inner_;
  std::vector<int> indices_;
  SchemaPtr schema_;
};

}  // namespace quiver::stream

#include "quiver/stream/project.h"

#include <fmt/format.h>

#include "quiver/core/utf8.h"

namespace quiver::stream {

Result<std::unique_ptr<ProjectReader>> ProjectReader::Make(std::unique_ptr<BatchReader> inner,
                                                           const std::vector<std::string>& columns,
                                                           const std::string& name) {
  auto r = std::unique_ptr<ProjectReader>(new ProjectReader());
  const Schema& in = *inner->schema();
  std::vector<Field> fields;
  for (const std::string& c : columns) {
    const int k = in.GetFieldIndex(c);
    if (k < 0) return Status::Invalid(fmt::format("{}: no column named '{}'", name, EscapeForMessage(c)));
    r->indices_.push_back(k);
    fields.push_back(in.field(k));
  }
  r->schema_ = std::make_shared<const Schema>(std::move(fields), in.metadata());
  r->inner_ = std::move(inner);
  return r;
}

Result<std::shared_ptr<RecordBatch>> ProjectReader::Next() {
  QUIVER_ASSIGN_OR_RETURN(auto b, inner_->Next());
  if (b == nullptr) return b;
  std::vector<Array> columns;
  columns.reserve(indices_.size());
  for (int i : indices_) columns.push_back(b->column(i));
  return std::make_shared<RecordBatch>(schema_, b->num_rows(), std::move(columns));
}

}  // namespace quiver::stream

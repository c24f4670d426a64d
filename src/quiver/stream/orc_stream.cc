#include "quiver/stream/orc_stream.h"

#include <algorithm>

namespace quiver::stream {

Result<std::unique_ptr<OrcStreamReader>> OrcStreamReader::Open(const std::string& path, const std::vector<std::string>& columns,
                                                               orc::OrcReaderOptions options) {
  QUIVER_ASSIGN_OR_RETURN(auto file, orc::OrcFileReader::Open(path, options));
  return Make(std::shared_ptr<orc::OrcFileReader>(std::move(file)), columns);
}

Result<std::unique_ptr<OrcStreamReader>> OrcStreamReader::Make(std::shared_ptr<orc::OrcFileReader> file,
                                                               const std::vector<std::string>& columns, std::vector<int> stripes) {
  auto r = std::unique_ptr<OrcStreamReader>(new OrcStreamReader());
  QUIVER_ASSIGN_OR_RETURN(r->selection_, file->Select(columns));
  // The reader decodes in file order; the batches' columns follow the order asked for.
  SchemaPtr file_order = file->SelectedSchema(r->selection_);
  std::vector<Field> fields;
  if (columns.empty()) {
    for (int i = 0; i < file_order->num_fields(); ++i) r->order_.push_back(i);
  } else {
    for (const auto& c : columns) {
      QUIVER_RETURN_NOT_OK(file->ColumnIdOf(c).status());
      // The top-level field holding the path.
      for (int i = 0; i < file_order->num_fields(); ++i) {
        const std::string& name = file_order->field(i).name;
        if (c == name || (c.size() > name.size() && c.compare(0, name.size(), name) == 0 && c[name.size()] == '.')) {
          if (std::find(r->order_.begin(), r->order_.end(), i) == r->order_.end()) r->order_.push_back(i);
          break;
        }
      }
    }
  }
  for (int i : r->order_) fields.push_back(file_order->field(i));
  r->schema_ = std::make_shared<Schema>(std::move(fields));
  if (stripes.empty()) {
    for (int i = 0; i < file->num_stripes(); ++i) stripes.push_back(i);
  }
  r->stripes_ = std::move(stripes);
  ThreadPool* pool = file->options().thread_pool;
  r->window_ = pool != nullptr ? std::max(1, pool->num_threads()) : 1;
  r->file_ = std::move(file);
  return r;
}

Result<std::shared_ptr<RecordBatch>> OrcStreamReader::Next() {
  while (ready_.empty()) {
    if (next_ >= stripes_.size()) return std::shared_ptr<RecordBatch>();
    const size_t end = std::min(stripes_.size(), next_ + static_cast<size_t>(window_));
    std::vector<int> window(stripes_.begin() + static_cast<long>(next_), stripes_.begin() + static_cast<long>(end));
    QUIVER_ASSIGN_OR_RETURN(auto batches, file_->ReadStripes(window, selection_));
    next_ = end;
    for (auto& b : batches) {
      std::vector<Array> cols;
      for (int i : order_) cols.push_back(b->column(i));
      ready_.push_back(std::make_shared<RecordBatch>(schema_, b->num_rows(), std::move(cols)));
    }
  }
  auto b = std::move(ready_.front());
  ready_.pop_front();
  rows_ += b->num_rows();
  bytes_ += b->buffer_bytes();
  return b;
}

ReadStats OrcStreamReader::stats() const {
  ReadStats s;
  s.rows_read = rows_;
  s.bytes_read = bytes_;
  s.input_size = file_->file_size();
  s.input_position = file_->num_rows() > 0 ? static_cast<int64_t>(static_cast<double>(s.input_size) * rows_ / file_->num_rows()) : 0;
  return s;
}

}  // namespace quiver::stream

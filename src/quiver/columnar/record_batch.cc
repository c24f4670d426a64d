#include "quiver/columnar/record_batch.h"

#include <fmt/format.h>

namespace quiver {

Result<std::shared_ptr<RecordBatch>> RecordBatch::Make(SchemaPtr schema, std::vector<Array> columns) {
  if (static_cast<int>(columns.size()) != schema->num_fields()) {
    return Status::Invalid(fmt::format("record batch has {} columns for {} fields", columns.size(), schema->num_fields()));
  }
  int64_t rows = columns.empty() ? 0 : columns[0].length();
  for (size_t i = 0; i < columns.size(); ++i) {
    const Field& f = schema->field(static_cast<int>(i));
    if (!columns[i].type()->Equals(*f.type)) {
      return Status::Invalid(fmt::format("column '{}' is {} but the schema says {}", f.name,
                                         columns[i].type()->ToString(), f.type->ToString()));
    }
    if (columns[i].length() != rows) {
      return Status::Invalid(fmt::format("column '{}' has {} rows, column '{}' has {}", f.name, columns[i].length(),
                                         schema->field(0).name, rows));
    }
    QUIVER_RETURN_NOT_OK_CTX(columns[i].Validate(), fmt::format("column '{}'", f.name));
  }
  return std::make_shared<RecordBatch>(std::move(schema), rows, std::move(columns));
}

std::shared_ptr<RecordBatch> RecordBatch::Slice(int64_t offset, int64_t length) const {
  std::vector<Array> cols;
  cols.reserve(columns_.size());
  for (const auto& c : columns_) cols.push_back(c.Slice(offset, length));
  return std::make_shared<RecordBatch>(schema_, length, std::move(cols));
}

int64_t RecordBatch::buffer_bytes() const {
  int64_t bytes = 0;
  std::vector<const ArrayData*> todo;
  for (const auto& c : columns_) todo.push_back(c.data().get());
  while (!todo.empty()) {
    const ArrayData* d = todo.back();
    todo.pop_back();
    for (const auto& b : d->buffers) bytes += b ? b->size() : 0;
    for (const auto& c : d->children) todo.push_back(c.get());
  }
  return bytes;
}

namespace {

// Bytes of rows [begin, begin + n) of `d` (positions relative to its logical start).
int64_t ValueBytes(const ArrayData& d, int64_t begin, int64_t n) {
  if (n <= 0) return 0;
  const DataType& t = *d.type;
  const int64_t validity = d.validity() != nullptr ? (n + 7) / 8 : 0;
  switch (t.id()) {
    case TypeId::kBool:
      return validity + (n + 7) / 8;
    case TypeId::kString:
    case TypeId::kBinary: {
      const int32_t* o = d.values<int32_t>(1);
      return validity + 4 * n + (o[begin + n] - o[begin]);
    }
    case TypeId::kList:
    case TypeId::kMap: {
      const int32_t* o = d.values<int32_t>(1);
      return validity + 4 * n + ValueBytes(*d.children[0], o[begin], o[begin + n] - o[begin]);
    }
    case TypeId::kStruct: {
      int64_t bytes = validity;
      for (const auto& c : d.children) bytes += ValueBytes(*c, d.offset + begin, n);
      return bytes;
    }
    case TypeId::kDenseUnion: {
      const int8_t* codes = d.values<int8_t>(1);
      const int32_t* o = d.values<int32_t>(2);
      int64_t bytes = validity + 5 * n;
      for (int64_t i = begin; i < begin + n; ++i) {
        const int child = t.ChildOfCode(codes[i]);
        if (child >= 0) bytes += ValueBytes(*d.children[static_cast<size_t>(child)], o[i], 1);
      }
      return bytes;
    }
    default:
      return validity + n * t.byte_width();
  }
}

}  // namespace

int64_t RecordBatch::value_bytes() const {
  int64_t bytes = 0;
  for (const auto& c : columns_) bytes += ValueBytes(*c.data(), 0, num_rows_);
  return bytes;
}

bool RecordBatch::Equals(const RecordBatch& other) const {
  if (num_rows_ != other.num_rows_ || !schema_->Equals(*other.schema_)) return false;
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (!columns_[i].Equals(other.columns_[i])) return false;
  }
  return true;
}

Array RecordBatch::ToStructArray() const {
  auto d = std::make_shared<ArrayData>();
  d->type = struct_(schema_->fields());
  d->length = num_rows_;
  d->null_count = 0;
  d->buffers.push_back(nullptr);
  // The struct starts at 0; each column keeps its own offset (a slice stays zero-copy).
  for (const auto& c : columns_) d->children.push_back(c.data());
  return Array(std::move(d));
}

}  // namespace quiver

// RecordBatch: equal-length columns under a schema; the unit readers produce and writers take.
#pragma once

#include <memory>
#include <vector>

#include "quiver/columnar/array.h"
#include "quiver/columnar/schema.h"

namespace quiver {

class RecordBatch {
 public:
  RecordBatch(SchemaPtr schema, int64_t num_rows, std::vector<Array> columns)
      : schema_(std::move(schema)), num_rows_(num_rows), columns_(std::move(columns)) {}

  // Checks column count, types and lengths against the schema, then each column.
  static Result<std::shared_ptr<RecordBatch>> Make(SchemaPtr schema, std::vector<Array> columns);

  const SchemaPtr& schema() const { return schema_; }
  int64_t num_rows() const { return num_rows_; }
  int num_columns() const { return static_cast<int>(columns_.size()); }
  const Array& column(int i) const { return columns_[static_cast<size_t>(i)]; }
  const std::vector<Array>& columns() const { return columns_; }

  std::shared_ptr<RecordBatch> Slice(int64_t offset, int64_t length) const;
  bool Equals(const RecordBatch& other) const;
  // Bytes of every buffer its columns reference, children included (a slice counts its
  // buffers whole): the memory the batch keeps alive.
  int64_t buffer_bytes() const;
  // Bytes of the batch's own values (fixed-width values, offsets, string bytes, bitmaps, nested
  // values, a slice's rows only): a size that depends on the rows alone, not on how they were
  // batched, for decisions that must give the same output however the rows arrive.
  int64_t value_bytes() const;
  // The batch as one struct array (what the C Data Interface exports).
  Array ToStructArray() const;

 private:
  SchemaPtr schema_;
  int64_t num_rows_;
  std::vector<Array> columns_;
};

}  // namespace quiver

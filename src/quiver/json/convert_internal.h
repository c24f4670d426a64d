// Parsed JSON documents appended to builders by a settled schema: one tree of columns per
// piece of a block, dispatched by a switch on each column's kind (no virtual call per value).
#pragma once

#include <simdjson.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "quiver/columnar/builder.h"
#include "quiver/columnar/record_batch.h"
#include "quiver/core/result.h"

namespace quiver::json {

class RowConverter {
 public:
  // `declared`: the paths given a type, whose string columns take any value as its JSON text.
  static Result<std::unique_ptr<RowConverter>> Make(const SchemaPtr& schema,
                                                    const std::unordered_set<std::string>& declared,
                                                    MemoryPool* pool);
  ~RowConverter();

  // Appends one top-level document. On failure returns false and error() says why (without the
  // file and line, which the caller knows); the builders are then unusable.
  bool Append(const simdjson::dom::element& doc);
  const std::string& error() const { return error_; }
  int64_t rows() const { return rows_; }
  // The rows so far as a batch (strings marked UTF-8 checked: simdjson validated them).
  Result<std::shared_ptr<RecordBatch>> Finish();

  struct Column;

 private:
  RowConverter() = default;
  bool AppendValue(Column& c, const simdjson::dom::element& v);
  bool AppendObject(Column& c, const simdjson::dom::element& v);
  bool Wrong(const Column& c, const simdjson::dom::element& v);

  SchemaPtr schema_;
  std::vector<std::unique_ptr<ArrayBuilder>> builders_;
  std::unique_ptr<Column> root_;
  std::string error_;
  int64_t rows_ = 0;
};

}  // namespace quiver::json

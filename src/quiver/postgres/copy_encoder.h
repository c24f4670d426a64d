// PostgreSQL's binary COPY format written straight from Arrow-layout columns: the 19-byte
// header, then per row a field count and each field's length and big-endian value, then the
// trailer. A batch is encoded column by column (one dispatch per column per batch): sizes
// first, then each column's values written into their rows' places.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "quiver/columnar/record_batch.h"
#include "quiver/postgres/type_map.h"

namespace quiver::postgres {

class ColumnEncoder;

// Bytes owned without zero-filling on growth (the encoder writes every byte it sizes).
class EncodedRows {
 public:
  const uint8_t* data() const { return data_.get(); }
  uint8_t* mutable_data() { return data_.get(); }
  int64_t size() const { return size_; }
  void Resize(int64_t size);  // keeps the first min(size, old size) bytes only when no growth
  void Clear() { size_ = 0; }
  int64_t capacity() const { return capacity_; }

 private:
  std::unique_ptr<uint8_t[]> data_;
  int64_t size_ = 0, capacity_ = 0;
};

class CopyEncoder {
 public:
  // One target type per schema field (CreateTypeOf, or the table's column for --append);
  // Invalid when a field cannot be written as its target (CheckAssignable's message).
  static Result<std::unique_ptr<CopyEncoder>> Make(SchemaPtr schema, std::vector<PgType> targets);
  ~CopyEncoder();

  // The stream's first bytes (signature, flags, header extension length) and last (-1).
  static std::string Header();
  static std::string Trailer();

  // The batch's rows, replacing `out`'s contents. `first_row` (0-based, in the whole input)
  // numbers rows in messages: a value the target cannot hold gives
  // "column 'c', row N: <why>" (N 1-based) and nothing else is sent.
  Status Encode(const RecordBatch& batch, int64_t first_row, EncodedRows* out);

 private:
  CopyEncoder() = default;
  SchemaPtr schema_;
  std::vector<std::unique_ptr<ColumnEncoder>> columns_;
  std::vector<int64_t> sizes_;  // per row, reused across batches
};

}  // namespace quiver::postgres

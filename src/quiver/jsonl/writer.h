// JSON Lines output: one object per row, numbers and booleans bare, everything else a string
// (dates, timestamps and decimals in their text form), nested values as arrays and objects.
#pragma once

#include "quiver/columnar/record_batch.h"
#include "quiver/io/output_stream.h"

namespace quiver::jsonl {

class JsonlWriter {
 public:
  explicit JsonlWriter(io::OutputStream* out) : out_(out) {}
  Status Write(const RecordBatch& batch);

 private:
  io::OutputStream* out_;
};

// Appends the JSON form of one value.
void AppendJsonValue(const Array& array, int64_t i, std::string* out);
void AppendJsonString(std::string_view s, std::string* out);

}  // namespace quiver::jsonl

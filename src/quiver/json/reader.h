// JsonReader: JSON Lines (one object per line) or a top-level array of objects as record
// batches, gzip/zstd inflated, objects as structs and arrays as lists (docs/json.md). A batch
// stream (stream/batch_stream.h), so every command reads JSON as it reads any other format.
#pragma once

#include <memory>
#include <string>

#include "quiver/core/buffer.h"
#include "quiver/json/options.h"
#include "quiver/stream/batch_stream.h"

namespace quiver::json {

class JsonReader : public stream::BatchReader {
 public:
  // "-" is stdin. The schema is inferred (and declared types applied) on open.
  static Result<std::unique_ptr<JsonReader>> Open(const std::string& path, JsonReadOptions options = {});
  // JSON bytes in memory; `name` is what errors call them.
  static Result<std::unique_ptr<JsonReader>> OpenBuffer(std::shared_ptr<Buffer> bytes, std::string name,
                                                        JsonReadOptions options = {});
  ~JsonReader() override;

  // Whether the input is a top-level array (else JSON Lines).
  virtual bool is_array() const = 0;

 protected:
  JsonReader() = default;
};

}  // namespace quiver::json

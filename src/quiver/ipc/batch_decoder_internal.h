// Arrow IPC array decoding: one RecordBatch (or a DictionaryBatch's data) table's field nodes
// and buffers into quiver arrays, field by field in schema order: buffers borrowed from the body
// when uncompressed and aligned, else decompressed (LZ4 frame, ZSTD) or copied; large offsets
// narrowed, views and fixed-size lists read into offsets, dictionary indices decoded to values.
#pragma once

#include <map>
#include <memory>

#include "quiver/columnar/array.h"
#include "quiver/core/buffer.h"
#include "quiver/core/result.h"
#include "quiver/ipc/flatbuffers.h"
#include "quiver/ipc/schema_read_internal.h"

namespace quiver::ipc {

class BatchDecoder {
 public:
  BatchDecoder(const fb::Table& rb, std::shared_ptr<Buffer> body, const std::map<int64_t, Array>* dictionaries,
               MemoryPool* pool, int16_t version);
  ~BatchDecoder();
  int64_t length() const;
  // The length and the body compression codec are ones quiver reads.
  Status CheckHeader() const;
  // The next field's array; a dictionary-encoded field decoded to its values when
  // `use_dictionary` (a DictionaryBatch's own data is read without).
  Result<std::shared_ptr<ArrayData>> Decode(const FieldInfo& fi, bool use_dictionary, int depth);

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace quiver::ipc

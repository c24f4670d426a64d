// A column chunk's dense physical values (as the page decoders leave them) turned into the
// array of its quiver type: narrow integers, decimals and INT96 converted, values spread over
// the null slots.
#pragma once

#include <cstdint>
#include <memory>

#include "quiver/columnar/array.h"
#include "quiver/core/buffer.h"
#include "quiver/core/result.h"
#include "quiver/parquet/schema.h"

namespace quiver::parquet::reader {

// What the decoders accumulated: fixed-width values (BYTE_ARRAY bytes, BOOLEAN bits) and, for
// BYTE_ARRAY, their offsets; `width` bytes per fixed-width value; `non_null` values.
struct DenseValues {
  BufferBuilder* values;
  BufferBuilder* offsets;
  int width;
  int64_t non_null;
};

// `validity` (null when nulls == 0) marks which of the `rows` slots take the next dense value.
// `shrink_strings`: string bytes live in an output arena, which gives back spare capacity in
// place (elsewhere that would be a copy of the bytes into fresh memory). Takes the builders'
// buffers.
Result<Array> Assemble(DenseValues d, const ColumnDescriptor& col, const TypePtr& type, MemoryPool* pool,
                       std::shared_ptr<Buffer> validity, int64_t rows, int64_t nulls, bool shrink_strings = false);

}  // namespace quiver::parquet::reader

// Concatenation of arrays (any type, nested included) and of record batches into one.
#pragma once

#include <memory>
#include <vector>

#include "quiver/columnar/array.h"
#include "quiver/columnar/record_batch.h"

namespace quiver {

// All arrays must have the same type; offsets and slices are honoured.
Result<Array> Concatenate(const std::vector<Array>& arrays, MemoryPool* pool = default_memory_pool());
// One batch holding every row of `batches` (which share `schema`); an empty batch for none.
Result<std::shared_ptr<RecordBatch>> ConcatenateBatches(const SchemaPtr& schema,
                                                        const std::vector<std::shared_ptr<RecordBatch>>& batches,
                                                        MemoryPool* pool = default_memory_pool());

}  // namespace quiver

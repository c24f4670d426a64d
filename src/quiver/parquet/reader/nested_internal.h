// Rebuilds nested columns (LIST in its three-level, two-level and bare repeated forms, MAP,
// STRUCT, at any depth) from the definition and repetition levels of their decoded leaves.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "quiver/columnar/array.h"
#include "quiver/core/result.h"
#include "quiver/parquet/reader/column_reader_internal.h"
#include "quiver/parquet/schema.h"

namespace quiver::parquet::reader {

// The array of schema node `node` (a child of the root) of type `type` (SchemaTree::ToField's),
// from `leaves`, indexed by leaf column index and holding at least every leaf under `node`.
// Each leaf's values are consumed. Corrupt when the leaves' levels disagree with each other.
Result<Array> AssembleNested(const SchemaTree& tree, int32_t node, const TypePtr& type,
                             std::vector<std::unique_ptr<LeafChunk>>& leaves,
                             MemoryPool* pool = default_memory_pool());

}  // namespace quiver::parquet::reader

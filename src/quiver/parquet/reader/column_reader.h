// Decodes the column chunk of a flat leaf (no repetition) into one Arrow-layout array of its
// quiver type: definition levels become the validity bitmap, values every encoding allows.
#pragma once

#include <cstdint>
#include <memory>

#include "quiver/columnar/array.h"
#include "quiver/compress/codec.h"
#include "quiver/core/buffer.h"
#include "quiver/core/result.h"
#include "quiver/parquet/reader/page_reader.h"
#include "quiver/parquet/schema.h"

namespace quiver::parquet::reader {

// `chunk`: the chunk's bytes (see PageReader); `num_values`: its metadata value count; `type`:
// what SchemaTree::ToField maps the leaf to. Values decode page by page in batches, then one
// pass converts them (narrow integers, decimals, INT96) and spreads them over the null slots.
// NotImplemented for repeated leaves and for encodings the physical type does not allow.
Result<Array> ReadFlatColumnChunk(const ColumnDescriptor& column, const TypePtr& type, std::shared_ptr<Buffer> chunk,
                                  compress::Codec codec, int64_t num_values, const PageReaderOptions& options = {});

}  // namespace quiver::parquet::reader

// One flat column's chunk of a row group encoded into Parquet pages (dictionary page, data pages
// V1 with RLE definition levels, compressed), with its chunk statistics; and the mapping from
// quiver types to Parquet physical/logical types.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quiver/columnar/array.h"
#include "quiver/columnar/type.h"
#include "quiver/compress/codec.h"
#include "quiver/core/buffer.h"
#include "quiver/core/result.h"
#include "quiver/parquet/metadata.h"

namespace quiver::parquet {

struct ColumnWriterOptions {
  compress::Codec codec = compress::Codec::kSnappy;
  int compression_level = compress::kDefaultCompressionLevel;
  int64_t page_size = 1 << 20;  // PLAIN-equivalent bytes of values per data page
  bool dictionary = true;
  // Once a chunk's dictionary would pass this many PLAIN bytes, the whole chunk is written PLAIN.
  int64_t dictionary_size_limit = 1 << 20;
  MemoryPool* pool = default_memory_pool();
};

// How a quiver type is stored: physical type, FLBA width, annotations.
struct LeafType {
  Type physical = Type::INT32;
  int32_t type_length = 0;  // FIXED_LEN_BYTE_ARRAY only
  std::optional<LogicalType> logical;
  std::optional<ConvertedType> converted;
  int32_t scale = 0, precision = 0;  // DECIMAL
};

// NotImplemented for nested types (the writer takes flat schemas).
Result<LeafType> LeafTypeFor(const DataType& type);

struct EncodedChunk {
  explicit EncodedChunk(MemoryPool* pool = default_memory_pool()) : bytes(pool) {}
  // The dictionary page (if any) then the data pages; offsets below are relative to its start.
  BufferBuilder bytes;
  bool has_dictionary = false;
  int64_t data_page_offset = 0;  // == size of the dictionary page with its header
  int64_t num_values = 0;        // rows (flat columns: one value or null per row)
  int64_t total_uncompressed_size = 0;  // page headers + uncompressed page bodies
  int32_t data_pages = 0;
  Encoding data_encoding = Encoding::PLAIN;
  int64_t null_count = 0;
  // PLAIN bytes of the smallest and largest non-null value in the type's sort order; absent
  // when every value is null or NaN, or when the type has no order quiver computes (float16).
  std::optional<std::string> min, max;
};

// One column's chunks encoded incrementally: pieces are encoded into compressed pages as they
// arrive, so a row group never holds its decoded values; only the compressed pages and the
// dictionary stay until Finish. A dictionary that overflows (or a column that shows itself
// mostly distinct) falls back to PLAIN for the whole chunk: the pages already written are
// decompressed and their indices re-encoded as PLAIN values from the dictionary. After such a
// fallback the next kPlainAfterFallback chunks of the column are written PLAIN without trying.
class ColumnChunkEncoder {
 public:
  ColumnChunkEncoder(const Field& field, const LeafType& leaf, const ColumnWriterOptions& options);
  ~ColumnChunkEncoder();
  // `piece` must have the field's type; rows follow the previous pieces of the chunk.
  Status Append(const Array& piece);
  int64_t num_rows() const;
  // Completes the chunk into *out and starts an empty one.
  Status Finish(EncodedChunk* out);

 private:
  static constexpr int kPlainAfterFallback = 8;
  class Impl;
  void StartChunk();
  bool tried_dictionary_ = false;
  int chunks_since_fallback_ = -1;  // -1: the last dictionary chunk kept its dictionary
  const Field field_;
  const LeafType leaf_;
  const ColumnWriterOptions options_;
  std::unique_ptr<EncodedChunk> chunk_;
  std::unique_ptr<Impl> impl_;
};

// Encodes `pieces` (arrays of `field`'s type, in row order) as one column chunk.
Status EncodeColumnChunk(const Field& field, const LeafType& leaf, const std::vector<Array>& pieces,
                         const ColumnWriterOptions& options, EncodedChunk* out);

}  // namespace quiver::parquet

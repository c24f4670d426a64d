// One leaf column's chunk of a row group encoded into Parquet pages (EncodeColumnChunk: a page
// assembler around a value writer of the leaf's physical type, the dictionary given up for
// PLAIN when it outgrows its limit), the chunk's metadata carried from there to the footer, and
// the mapping from quiver types to Parquet physical and logical types.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <string>
#include <variant>
#include <vector>

#include "quiver/columnar/array.h"
#include "quiver/columnar/type.h"
#include "quiver/compress/codec.h"
#include "quiver/core/buffer.h"
#include "quiver/core/result.h"
#include "quiver/parquet/bloom_filter.h"
#include "quiver/parquet/encoding/dictionary_internal.h"
#include "quiver/parquet/metadata.h"
#include "quiver/parquet/statistics.h"
#include "quiver/parquet/writer/file_writer.h"
#include "quiver/parquet/writer/levels_internal.h"

namespace quiver::parquet::writer {

// One chunk's settings: the file's, and this column's own encoding and bloom filter.
struct ColumnWriterOptions : ColumnChunkOptions {
  // The data pages' value encoding instead of a dictionary (or PLAIN): DELTA_BINARY_PACKED,
  // DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY, BYTE_STREAM_SPLIT or PLAIN, where the physical
  // type allows it (CheckEncoding).
  std::optional<Encoding> encoding;
  // A split-block bloom filter of the chunk's distinct values (EncodedColumnChunk::bloom_filter):
  // built from the dictionary when the chunk has one, else from every non-null value.
  std::optional<BloomFilterOptions> bloom_filter;
};

// How a quiver type is stored: physical type, FLBA width, annotations.
struct LeafType {
  Type physical = Type::INT32;
  int32_t type_length = 0;  // FIXED_LEN_BYTE_ARRAY only
  std::optional<LogicalType> logical;
  std::optional<ConvertedType> converted;
  int32_t scale = 0, precision = 0;  // DECIMAL
};

// NotImplemented for nested types (their leaves are mapped one by one, see levels.h).
Result<LeafType> LeafTypeFor(const DataType& type);

// What the footer and the page index say of one column chunk, from its encoder to the footer:
// the encoder fills it in with offsets relative to the chunk's first byte, the file writer
// places it (file_offset, and where the chunk's page index and bloom filter went) and turns it
// into the footer's ColumnMetaData.
struct ColumnChunkMeta {
  int64_t file_offset = 0;  // the chunk's first byte: its dictionary page, else its first data page
  bool has_dictionary = false;
  int64_t data_page_offset = 0;  // from file_offset: the dictionary page's size with its header
  // The chunk's pages' codec: the file's, or none when the column's last chunks did not shrink
  // under it (ColumnChunkHistory).
  compress::Codec codec = compress::Codec::kUncompressed;
  int64_t num_values = 0;               // levels (flat columns: one value or null per row)
  int64_t total_uncompressed_size = 0;  // page headers + uncompressed page bodies
  int64_t total_compressed_size = 0;    // the chunk's bytes
  int32_t data_pages = 0;
  Encoding data_encoding = Encoding::PLAIN;
  int64_t null_count = 0;
  // PLAIN bytes of the smallest and largest non-null value in the type's sort order; absent
  // when every value is null or NaN, or when the type has no order quiver computes (float16).
  std::optional<std::string> min, max;
  bool min_exact = true, max_exact = true;  // false when truncated

  // Each data page, for the page index (empty when the file has none); offsets are relative
  // to file_offset.
  struct Page {
    int64_t offset = 0;
    int32_t compressed_size = 0;  // with its header
    int64_t first_row = 0;        // within the chunk (row group)
    int64_t null_count = 0;
    bool null_page = false;  // no non-null value
    std::optional<std::string> min, max;  // truncated like the chunk's
  };
  std::vector<Page> pages;
  BoundaryOrder boundary_order = BoundaryOrder::UNORDERED;  // of the non-null pages' bounds

  // Placed by the file writer: its ColumnIndex and OffsetIndex (length 0: none), and its bloom
  // filter's header and bitset (length 0: none).
  int64_t column_index_offset = 0, offset_index_offset = 0;
  int32_t column_index_length = 0, offset_index_length = 0;
  int64_t bloom_filter_offset = 0;
  int32_t bloom_filter_length = 0;
};

// One column chunk as its encoder leaves it: its bytes, its metadata, and its bloom filter,
// written after the row group's chunks.
struct EncodedColumnChunk {
  explicit EncodedColumnChunk(MemoryPool* pool = default_memory_pool()) : dictionary_page(pool), bytes(pool) {}
  // The chunk is the dictionary page (with its header; empty when none) then the data pages.
  BufferBuilder dictionary_page;
  BufferBuilder bytes;  // the data pages
  int64_t size() const { return dictionary_page.size() + bytes.size(); }
  ColumnChunkMeta meta;
  // Page bodies before and after compression (headers and V2 levels left out), which tell the
  // column's next chunks whether the codec pays (ColumnChunkHistory).
  int64_t payload_raw = 0, payload_compressed = 0;
  // What the data pages' buffer is sized at when the first page is compressed into it (the last
  // chunk's size and a margin, ColumnChunkHistory), or 0.
  int64_t bytes_reserve = 0;
  std::optional<BloomFilter> bloom_filter;  // when ColumnWriterOptions::bloom_filter asked for one
};

// What a column's previous chunks tell the next one (the file writer keeps one per leaf and
// updates it after each chunk): the size of the last dictionary, so that the next one's hash
// table starts at its size instead of growing by rehashes; and how many chunks in a row the
// dictionary gave up on (too many distinct values), after which the next chunks are written
// PLAIN at once, the dictionary being tried again every kDictionaryRetry-th chunk in case the
// values changed.
// Likewise for compression: a chunk whose pages shrank by less than 1/kIncompressible under
// the codec (dictionary indices of random values, already dense numbers) makes the next chunks
// skip it, being written uncompressed (the codec is per column chunk in Parquet), the codec
// tried again every kCompressionRetry-th chunk. And the last chunk's size, which the next
// one's buffer is reserved at.
// A column's dictionary encoder, kept from chunk to chunk (ColumnChunkHistory::dictionary).
using KeptDictionary =
    std::variant<std::monostate, encoding::DictionaryEncoder<int32_t>, encoding::DictionaryEncoder<int64_t>,
                 encoding::DictionaryEncoder<float>, encoding::DictionaryEncoder<double>,
                 encoding::ByteArrayDictionaryEncoder>;

struct ColumnChunkHistory {
  static constexpr int32_t kDictionaryRetry = 8;
  static constexpr int32_t kCompressionRetry = 8;
  static constexpr int64_t kIncompressible = 32;
  int64_t dictionary_entries = 0;
  int64_t dictionary_value_bytes = 0;  // BYTE_ARRAY: the entries' bytes without length prefixes
  int32_t plain_streak = 0;
  int32_t incompressible_streak = 0;
  int64_t chunk_bytes = 0;  // data pages with headers
  // The last chunk's dictionary encoder, restarted by the next chunk (Restart): a new one's
  // table would be faulted in and zeroed again every chunk. Released when a chunk goes PLAIN,
  // so a column that gives up on its dictionary keeps no table; otherwise it holds what its
  // own chunk needed (a table at most 4x its entries' need, within the size limit).
  KeptDictionary dictionary;
};

// One Parquet leaf column of the file, depth first: the top-level field it belongs to, its path
// and type, and its own encoding and bloom filter; flat top-level fields take the direct path
// (no level shredding).
struct LeafColumn {
  int top = 0;
  bool flat = true;
  LeafPath path;
  LeafType type;
  std::optional<Encoding> encoding;
  std::optional<BloomFilterOptions> bloom_filter;
};

// What the footer needs of each written row group.
struct RowGroupMeta {
  std::vector<ColumnChunkMeta> columns;
  int64_t num_rows = 0, file_offset = 0, total_byte_size = 0, total_compressed_size = 0;
};

// Encodes `pieces` (arrays of `field`'s type, in row order) as one column chunk; `history`
// (optional) is read and updated.
Status EncodeColumnChunk(const Field& field, const LeafType& leaf, const std::vector<Array>& pieces,
                         const ColumnWriterOptions& options, EncodedColumnChunk* out,
                         ColumnChunkHistory* history = nullptr);

// Encodes one leaf of a nested column (`leaf_field` is the leaf's own field, of a flat type)
// from its shredded pieces, in row order. Pages end on row boundaries.
Status EncodeLeafColumnChunk(const Field& leaf_field, const LeafType& leaf, const LeafPath& path,
                             const std::vector<LeafPiece>& pieces, const ColumnWriterOptions& options,
                             EncodedColumnChunk* out, ColumnChunkHistory* history = nullptr);

}  // namespace quiver::parquet::writer

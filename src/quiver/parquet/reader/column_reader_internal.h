// Decodes the column chunk of a flat leaf (no repetition) into one Arrow-layout array of its
// quiver type: definition levels become the validity bitmap, values every encoding allows.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "quiver/columnar/array.h"
#include "quiver/compress/codec.h"
#include "quiver/core/buffer.h"
#include "quiver/core/result.h"
#include "quiver/parquet/reader/page_reader_internal.h"
#include "quiver/parquet/reader/predicate.h"
#include "quiver/parquet/schema.h"

namespace quiver::parquet::reader {

// `chunk`: the chunk's bytes (see PageReader); `num_values`: its metadata value count; `type`:
// what SchemaTree::ToField maps the leaf to. Values decode page by page in batches, then one
// pass converts them (narrow integers, decimals, INT96) and spreads them over the null slots.
// NotImplemented for repeated leaves and for encodings the physical type does not allow.
// `keep` (a bit per row of the chunk's `num_values`): only the rows whose bit is set, compacted page by page
// as they decode; NotImplemented when a page holds nulls or the column is BOOLEAN (decode the
// chunk whole and filter it then).
Result<Array> ReadFlatColumnChunk(const ColumnDescriptor& column, const TypePtr& type, std::shared_ptr<Buffer> chunk,
                                  compress::Codec codec, int64_t num_values, const PageReaderOptions& options = {},
                                  const uint8_t* keep = nullptr);

// Whether every predicate of `preds` (all on this leaf, bound to a reader's schema) holds for
// each row of a flat chunk of `num_values` rows, ANDed into `pass` (a bit per row, in words
// with one of slack: select_bits_internal.h) as the pages decode, no values kept: dictionary
// pages evaluate the predicates once per entry and look each row's index up 64 rows to a word
// (words whose rows are all out already skipped); PLAIN pages of a type stored as read compare the
// page's bytes. NotImplemented when a page holds nulls, or for other encodings and types: the
// caller evaluates the decoded chunk instead (the pages before it ANDed the same answers).
Status SelectFlatColumnChunk(const ColumnDescriptor& column, const TypePtr& type, std::shared_ptr<Buffer> chunk,
                             compress::Codec codec, int64_t num_values, const PageReaderOptions& options,
                             std::span<const BoundPredicate* const> preds, uint64_t* pass);

// The decoded chunk of any leaf, nested or not: every definition and repetition level (empty
// when the leaf's maximum is 0) and its non-null values, waiting to be placed into slots.
class LeafChunk {
 public:
  ~LeafChunk();
  int64_t num_levels() const;
  const std::vector<int16_t>& def_levels() const;
  const std::vector<int16_t>& rep_levels() const;
  const ColumnDescriptor& column() const;
  // The leaf's array over the level entries `slots` (increasing indices): slot k is valid when
  // its definition level is the maximum. Corrupt unless the valid slots take every decoded
  // value. Consumes the values: call once.
  Result<Array> ToArray(const std::vector<int64_t>& slots);

 private:
  friend Result<std::unique_ptr<LeafChunk>> ReadLeafColumnChunk(const ColumnDescriptor&, const TypePtr&,
                                                                std::shared_ptr<Buffer>, compress::Codec, int64_t,
                                                                const PageReaderOptions&);
  LeafChunk();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

Result<std::unique_ptr<LeafChunk>> ReadLeafColumnChunk(const ColumnDescriptor& column, const TypePtr& type,
                                                       std::shared_ptr<Buffer> chunk, compress::Codec codec,
                                                       int64_t num_values, const PageReaderOptions& options = {});

}  // namespace quiver::parquet::reader

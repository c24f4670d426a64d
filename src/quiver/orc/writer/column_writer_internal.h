// One writer per ORC column (type tree node, numbered in pre-order) that encodes the rows of its
// Arrow-layout arrays into the column's streams for the current stripe: the PRESENT stream, the
// type's own streams, row-index positions and statistics per row group, statistics per stripe
// and file. Nested writers hand their children the rows under non-null parents.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "quiver/columnar/array.h"
#include "quiver/columnar/schema.h"
#include "quiver/core/memory_pool.h"
#include "quiver/core/result.h"
#include "quiver/orc/metadata.h"
#include "quiver/orc/writer/bloom_filter_internal.h"
#include "quiver/orc/writer/out_stream_internal.h"
#include "quiver/orc/writer/rle_internal.h"
#include "quiver/orc/writer/statistics_internal.h"

namespace quiver::orc::writer {

// What every column of a file shares.
struct ColumnContext {
  uint32_t compression = 0;  // format::CompressionKind
  int compression_level = 0;
  int64_t block_size = 256 * 1024;
  MemoryPool* pool = default_memory_pool();
  bool row_index = true;
  int64_t row_index_stride = 10000;  // also the rows each bloom filter is sized for
  // A string column is dictionary-encoded while its distinct values stay at most this share
  // of its non-null values (checked after the first row group and at the stripe's end).
  double dictionary_key_ratio = 0.8;
  double bloom_fpp = 0.05;
};

// A stripe's part from some columns: their streams in file order, encodings and statistics.
struct StripeParts {
  struct Data {
    Stream stream;
    const OutStream* bytes;  // owned by the column writer, valid until its next stripe
  };
  std::vector<std::pair<Stream, std::string>> index;  // ROW_INDEX / BLOOM_FILTER_UTF8 bytes
  std::vector<Data> data;
  std::vector<ColumnEncoding> encodings;  // by column, in column order
  std::vector<ColumnStatistics> statistics;
};

class ColumnWriter {
 public:
  virtual ~ColumnWriter();
  uint32_t id() const { return id_; }
  const std::string& name() const { return name_; }

  // Rows [offset, offset + length) of `a`, an array of this column's Arrow type.
  void Add(const ArrayData& a, int64_t offset, int64_t length);
  // Row-group boundaries of the row index, for this column and its children.
  void BeginRowGroup();
  void EndRowGroup();
  // Empties the streams and the stripe's state for the next stripe (not needed before the first).
  void StartStripe();
  // Flushes the stripe's streams into `parts` (this column, then its children); the streams
  // stay readable until the next Add.
  Status FinishStripe(StripeParts* parts);
  // Each column's file statistics, in column order.
  void FileStatistics(std::vector<ColumnStatistics>* out) const;

  // The tree of writers for a field of `type`; `next_id` is the next column id in pre-order.
  static Result<std::unique_ptr<ColumnWriter>> Make(const ColumnContext& ctx, const std::string& name, const TypePtr& type,
                                                    uint32_t* next_id, const std::vector<std::string>& bloom_columns);
  // The ORC type tree of the field `name` for the footer, in column order.
  static Status AppendTypes(const std::string& name, const TypePtr& type, std::vector<Type>* types);

 protected:
  ColumnWriter(const ColumnContext& ctx, std::string name, uint32_t id, StatsAccumulator::Kind kind, int32_t scale = 0);
  OutStream* NewStream(uint32_t kind);  // one of this column's data streams, in the order added

  // Non-null rows only are encoded: `validity` is null when [offset, offset + length) has no nulls.
  virtual void AddValues(const ArrayData& a, int64_t offset, int64_t length, const uint8_t* validity) = 0;
  // The data streams' positions at a row group's start, in the order the readers take them.
  virtual void RecordPositions(std::vector<uint64_t>* positions) = 0;
  // Flushes the encoders; the encoding of the stripe.
  virtual Result<ColumnEncoding> FinishData() = 0;
  // Per-stripe state reset before the next stripe (streams are reset by the base).
  virtual void ResetStripe() {}
  // After the stripe's `groups`-th row group ended.
  virtual void RowGroupEnded(int /*groups*/) {}

  const ColumnContext& ctx_;
  std::string name_;
  uint32_t id_;
  StatsAccumulator group_stats_, stripe_stats_, file_stats_;
  std::vector<std::vector<uint64_t>> data_positions_;  // per row group of the stripe
  std::vector<std::unique_ptr<ColumnWriter>> children_;
  // The current row group's bloom filter, when the column has them (values added by the
  // typed writers); each ended group's filter bytes.
  std::unique_ptr<OrcBloomFilter> bloom_;
  std::vector<std::string> bloom_groups_;

 private:
  // An index-area stream (row index, bloom filters) of this column: `raw` compressed in the
  // stripe's chunks and added to `parts`.
  Status AddIndexStream(uint32_t kind, const std::string& raw, StripeParts* parts) const;
  struct StreamSlot {
    uint32_t kind;
    std::unique_ptr<OutStream> out;
  };
  OutStream present_stream_;
  BooleanRleEncoder present_;
  bool stripe_has_nulls_ = false;
  int groups_ = 0;
  std::vector<std::vector<uint64_t>> present_positions_;
  std::vector<ColumnStatistics> group_statistics_;
  std::vector<StreamSlot> streams_;
};

}  // namespace quiver::orc::writer

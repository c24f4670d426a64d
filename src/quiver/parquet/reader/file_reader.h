// ParquetFileReader: opens a Parquet file (pread), exposes its quiver schema, and decodes whole
// row groups (flat and nested columns) into RecordBatches, column chunks decoded in parallel.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/columnar/record_batch.h"
#include "quiver/core/result.h"
#include "quiver/compress/codec.h"
#include "quiver/core/arena.h"
#include "quiver/core/thread_pool.h"
#include "quiver/io/file.h"
#include "quiver/parquet/bloom_filter.h"
#include "quiver/parquet/footer.h"
#include "quiver/parquet/reader/predicate.h"
#include "quiver/parquet/schema.h"

namespace quiver::parquet {

namespace crypto {
struct ChunkDecryption;  // crypto_internal.h
}
namespace reader {
struct PageReaderOptions;  // page_reader_internal.h
class PageLog;             // page_reader_internal.h
}  // namespace reader

// The pages of chosen predicate leaves that SelectRowGroupHere decoded, kept uncompressed for
// the ReadRowGroupHere of the same row group with its `keep` bitmap, which replays them: a
// column both filtered and read decompresses once. One per decoding thread, reused group after
// group (the buffers stop growing).
struct KeptPages {
  KeptPages();
  ~KeptPages();
  KeptPages(const KeptPages&) = delete;
  KeptPages& operator=(const KeptPages&) = delete;
  // The leaves whose pages to keep (set by the caller; a leaf no predicate reads is ignored).
  void set_leaves(std::vector<int> leaves);
  const std::vector<int>& leaves() const { return leaves_; }
  // The kept pages of `leaf` in `row_group`, or null when it was not kept there.
  const reader::PageLog* Find(int row_group, int leaf) const;

 private:
  friend class ParquetFileReader;
  int row_group_ = -1;
  std::vector<int> leaves_;
  std::vector<std::unique_ptr<reader::PageLog>> logs_;  // one per leaf of `leaves_`
  std::vector<bool> filled_;
};


struct ParquetReaderOptions {
  bool verify_crc = true;
  // Column chunks decode in parallel here, at most num_threads() at once (the calling thread
  // may run one of the decode loops while it waits); nullptr decodes on the caller.
  ThreadPool* thread_pool = ThreadPool::Default();
  MemoryPool* pool = default_memory_pool();
  // ReadRowGroups calls whose chunks hold at least this many uncompressed bytes lay the output
  // of chunks without nulls back to back in blocks, one arena per decode loop
  // (OutputArenaPool), instead of one allocation per buffer. A block is half a loop's share of
  // the call's uncompressed bytes, within [output_block_bytes, output_block_max_bytes].
  int64_t output_arena_min_bytes = int64_t{64} << 20;
  int64_t output_block_bytes = (int64_t{32} << 20) - 64;
  int64_t output_block_max_bytes = (int64_t{256} << 20) - 64;
  // Blocks as mappings of their own on 4 KiB pages (charged to pool's tracker), written in just
  // ahead of the decoder; false takes them from `pool`. Fresh 2 MiB pages cost several times
  // more on a VM with free page reporting (core/page_mapping.h).
  bool output_small_pages = true;
  // Keys of an encrypted file (Parquet modular encryption). The reader copies them into its
  // footer's decryption state at Open and wipes this copy; they are wiped again when the
  // reader is dropped.
  DecryptionOptions decryption;
};

class ParquetBatchReader;

// Rows [begin, end) of a row group.
struct RowRange {
  int64_t begin = 0;
  int64_t end = 0;
  bool operator==(const RowRange&) const = default;
};

// The rows of one row group to read: all of them, or `ranges` (sorted, disjoint, non-empty,
// inside the group; none at all when empty).
struct RowSelection {
  bool all = true;
  std::vector<RowRange> ranges;
  static RowSelection All() { return {}; }
  static RowSelection Ranges(std::vector<RowRange> r) { return {false, std::move(r)}; }
  int64_t num_rows(int64_t group_rows) const;
};

class ParquetFileReader {
 public:
  static Result<std::unique_ptr<ParquetFileReader>> Open(const std::string& path, ParquetReaderOptions options = {});
  static Result<std::unique_ptr<ParquetFileReader>> Open(std::shared_ptr<io::RandomAccessFile> file,
                                                         ParquetReaderOptions options = {});

  // One field per top-level schema node, as SchemaTree::ToFields maps them.
  const SchemaPtr& schema() const { return schema_; }
  const SchemaTree& schema_tree() const { return tree_; }
  const FileMetaData& metadata() const { return footer_->metadata(); }
  const ParquetReaderOptions& options() const { return options_; }
  int num_row_groups() const { return static_cast<int>(footer_->metadata().row_groups.size()); }
  int64_t num_rows() const { return footer_->metadata().num_rows; }

  // Row group `i` with the top-level fields `columns` (indices into schema(); empty = all), in
  // the order given. Nested fields (lists, maps, structs) are rebuilt from their leaves' levels.
  Result<std::shared_ptr<RecordBatch>> ReadRowGroup(int i, const std::vector<int>& columns = {});
  // Several row groups (empty = all, in file order) at once, one batch each: every (row group,
  // column) chunk is a task, the largest first, so the threads stay busy across group
  // boundaries. Each buffer is allocated once at its final size.
  // `selections` (empty, or one per row group) narrows each group to some of its rows: a flat
  // column with an OffsetIndex reads and decodes only the pages holding them (the rest are
  // counted in data_pages_skipped()); other columns are decoded whole and then cut.
  // `pool` (null: the reader's) gives the decoded buffers and the decode loops' scratch, e.g. a
  // RecyclingPool that a scan reuses from one row group to the next.
  Result<std::vector<std::shared_ptr<RecordBatch>>> ReadRowGroups(std::vector<int> row_groups = {},
                                                                  const std::vector<int>& columns = {},
                                                                  const std::vector<RowSelection>& selections = {},
                                                                  MemoryPool* pool = nullptr);
  // Row group `i` as ReadRowGroups reads it (`selection` null: every row), every chunk decoded
  // on the calling thread: for callers that decode several row groups at once on the pool
  // (ParquetScan), so that no group waits for another's last chunk. `keep` (flat columns
  // only): a bit per row of the selection, `kept` of them set; only those rows are returned,
  // and without a selection they are picked out page by page as the values decode (late
  // materialization: a predicate's columns read first decide which rows the others decode).
  // `pages` (with `keep` and no selection): chunks SelectRowGroupHere kept are replayed.
  Result<std::shared_ptr<RecordBatch>> ReadRowGroupHere(int i, const std::vector<int>& columns,
                                                        const RowSelection* selection, MemoryPool* pool,
                                                        const uint8_t* keep = nullptr, int64_t kept = 0,
                                                        const KeptPages* pages = nullptr);
  // The rows of row group `i` for which every predicate of `preds` (from BindPredicate)
  // holds, as a bitmap of a bit per row from `pool`, `*selected` of them set; the caller
  // decodes on. Each predicate column's chunk is decoded once for all its predicates, without
  // keeping its values where its pages allow (reader::SelectFlatColumnChunk), else decoded
  // whole and evaluated (EvaluatePredicate): the rows kept are the same either way. `pages`:
  // the chunks of its leaves decoded without keeping values have their pages kept there.
  Result<std::shared_ptr<Buffer>> SelectRowGroupHere(int i, std::span<const BoundPredicate> preds, MemoryPool* pool,
                                                     int64_t* selected, KeptPages* pages = nullptr);
  // Data pages that ReadRowGroups left unread thanks to a selection, over the reader's life.
  int64_t data_pages_skipped() const { return pages_skipped_.load(std::memory_order_relaxed); }

  // Indices into schema() of the top-level fields named `names`; Invalid naming an unknown one.
  Result<std::vector<int>> ResolveFields(const std::vector<std::string>& names) const;

  // `column op value` on a top-level flat field named `column` (value of the kind
  // LiteralKindFor gives its type); Invalid for an unknown or nested column.
  Result<BoundPredicate> BindPredicate(std::string_view column, CompareOp op, Literal value) const;
  // The row groups of `row_groups` (empty = all, in file order) whose statistics do not rule
  // out a row satisfying `p` (StatisticsMayMatch), in the order given.
  std::vector<int> RowGroupsMayMatch(const BoundPredicate& p, std::vector<int> row_groups = {}) const;
  // The rows of row group `g` whose pages' ColumnIndex bounds (min/max, null pages, NaN
  // counts, as StatisticsMayMatch) do not rule out `p`, located by the predicate column's
  // OffsetIndex; adjacent pages are merged into one range. All rows when the chunk has no page
  // index, or one that does not agree with itself (page counts, row order), or when the file's
  // column order is not the type's. `pages` / `pages_ruled_out` (optional) receive the
  // column's data page count and how many of them were ruled out.
  Result<RowSelection> PageRowsMayMatch(const BoundPredicate& p, int g, int64_t* pages = nullptr,
                                        int64_t* pages_ruled_out = nullptr) const;
  // False when `p` is `column = literal` and the chunk of row group `g` has a split-block bloom
  // filter that does not contain the literal's PLAIN bytes; true otherwise (other operators,
  // no filter, float literals 0 and NaN, which equal values of other bytes). Corrupt when the
  // filter does not parse.
  Result<bool> BloomMayMatch(const BoundPredicate& p, int g) const;

  // Streams `row_groups` (empty = all, in file order) as batches of at most `batch_rows` rows.
  // The reader must outlive the stream.
  Result<std::unique_ptr<ParquetBatchReader>> GetBatchReader(std::vector<int> row_groups = {},
                                                             std::vector<int> columns = {},
                                                             int64_t batch_rows = 64 * 1024);

 private:
  ParquetFileReader() = default;
  // ReadRowGroups with its chunks on `threads` (null: the caller's thread alone); `keep` as
  // ReadRowGroupHere takes it (one row group).
  Result<std::vector<std::shared_ptr<RecordBatch>>> ReadRowGroupsOn(ThreadPool* threads, std::vector<int> row_groups,
                                                                    const std::vector<int>& columns,
                                                                    const std::vector<RowSelection>& selections,
                                                                    MemoryPool* pool, const uint8_t* keep = nullptr,
                                                                    int64_t kept = 0, const KeptPages* pages = nullptr);
  // The bytes of a leaf's column chunk in row group `row_group`, with its codec and value count:
  // a view of a mapped or in-memory file, else read into `*reuse` (allocated from the pool or
  // grown as needed; one per decoding thread, so reading costs no fresh memory per chunk).
  Result<std::shared_ptr<Buffer>> ChunkBytes(int row_group, int leaf, compress::Codec* codec, int64_t* num_values,
                                             std::shared_ptr<Buffer>* reuse) const;

  // The chunk's OffsetIndex, decoded into `arena` (its lists live there); nullopt when the
  // chunk has none. Corrupt when it lies outside the file or does not decode.
  Result<std::optional<OffsetIndex>> ReadOffsetIndex(int row_group, int leaf, Arena* arena) const;
  // `len` bytes at `off` holding one module of the chunk of (`row_group`, `leaf`): as they are
  // for a plaintext chunk, decrypted (GCM, `module`'s AAD) for an encrypted one.
  Result<std::shared_ptr<Buffer>> ReadChunkModule(int row_group, int leaf, int64_t off, int64_t len, int module,
                                                  const char* what) const;
  // The decryption of the chunk of (`row_group`, `leaf`) for its page reader (file null:
  // plaintext); an error naming the column when its key is missing.
  Result<crypto::ChunkDecryption> DecryptionOf(int row_group, int leaf) const;
  // Invalid naming every encrypted leaf of `leaves` whose key was not given.
  Status CheckKeys(const std::vector<int>& leaves) const;
  // An encrypted chunk's bloom filter: its header and bitset modules decrypted and parsed.
  Result<std::optional<BloomFilter>> ReadEncryptedBloomFilter(int row_group, int leaf) const;
  // The bytes of a flat leaf's chunk holding only the data pages of `pages` (indices into
  // `oi`'s page_locations, increasing), after any dictionary page; read into `*reuse` as
  // ChunkBytes does.
  Result<std::shared_ptr<Buffer>> PageBytes(int row_group, int leaf, const OffsetIndex& oi,
                                            const std::vector<int>& pages, std::shared_ptr<Buffer>* reuse) const;

  // A flat leaf's `ranges` of row group `g` (of `group_rows` rows) from only the pages that hold
  // them, by its OffsetIndex; a null Array when the chunk has no usable OffsetIndex.
  Result<Array> ReadSelectedPages(int g, int leaf, const TypePtr& type, int64_t group_rows,
                                  const std::vector<RowRange>& ranges, const reader::PageReaderOptions& po);

  std::string path_;
  std::shared_ptr<io::RandomAccessFile> file_;
  std::shared_ptr<const ParquetFooter> footer_;
  SchemaTree tree_;
  SchemaPtr schema_;
  ParquetReaderOptions options_;
  std::atomic<int64_t> pages_skipped_{0};
};

// Each row group is decoded whole, then handed out in zero-copy slices.
class ParquetBatchReader {
 public:
  // The next batch, or nullptr after the last one.
  Result<std::shared_ptr<RecordBatch>> Next();

 private:
  friend class ParquetFileReader;
  ParquetBatchReader() = default;
  ParquetFileReader* file_ = nullptr;
  std::vector<int> row_groups_;
  std::vector<int> columns_;
  int64_t batch_rows_ = 0;
  size_t next_group_ = 0;
  std::shared_ptr<RecordBatch> current_;
  int64_t offset_ = 0;
};

}  // namespace quiver::parquet

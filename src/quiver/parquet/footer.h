// Reading a Parquet file's footer (magic, length, FileMetaData), decoding and encoding the
// Thrift structs of the format (page headers, page index, bloom filter header), and
// selective decoding of wide footers.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "quiver/core/arena.h"
#include "quiver/core/buffer.h"
#include "quiver/core/result.h"
#include "quiver/io/file.h"
#include "quiver/parquet/metadata.h"

namespace quiver::parquet {

// What to build when decoding a footer. Row groups and column chunks that are not chosen are
// skipped over on the wire and never constructed; the decoded lists hold only the chosen ones,
// in file order.
struct DecodeOptions {
  std::optional<std::vector<int32_t>> row_groups;  // indices; nullopt = all
  std::optional<std::vector<int32_t>> columns;     // leaf column indices; nullopt = all
  bool statistics = true;  // Statistics, SizeStatistics and GeospatialStatistics of column chunks
};

// A decoded footer and everything it points into (the footer bytes and the arena).
class ParquetFooter {
 public:
  const FileMetaData& metadata() const { return metadata_; }
  // The original index of each decoded row group / column chunk (identity for a full decode).
  const std::vector<int32_t>& row_group_indices() const { return row_group_indices_; }
  const std::vector<int32_t>& column_indices() const { return column_indices_; }
  int64_t footer_length() const { return footer_ ? footer_->size() : 0; }
  // Bytes after the FileMetaData struct inside the footer (the signature of a signed
  // plaintext footer, or trailing garbage).
  int64_t trailing_bytes() const { return trailing_bytes_; }
  const std::shared_ptr<Buffer>& footer_bytes() const { return footer_; }

 private:
  friend Result<std::shared_ptr<const ParquetFooter>> DecodeFooter(std::shared_ptr<Buffer>, const DecodeOptions&);
  std::shared_ptr<Buffer> footer_;
  std::unique_ptr<Arena> arena_;
  FileMetaData metadata_;
  std::vector<int32_t> row_group_indices_;
  std::vector<int32_t> column_indices_;
  int64_t trailing_bytes_ = 0;
};

// How DecodeFooter sizes its arena: blocks as large as the footer up to this, and from this
// footer size on at least 2 MiB, on huge pages and prefaulted (Arena::set_huge_pages,
// set_prefault).
inline constexpr int64_t kFooterArenaMaxBlock = int64_t{8} << 20;
inline constexpr int64_t kFooterPrefaultThreshold = int64_t{1} << 20;
// EncodeFileMetaData into an empty builder of the default pool reserves its estimate (128 bytes
// per column chunk) on huge_page_memory_pool() from this size on. Below it the default pool
// reuses freed memory from one footer to the next (a 13 MB reserve did), and fresh zeroed huge
// pages cost more than that; the 128 MB reserves of 1,000,000-chunk footers were refaulted in
// 4 KB pages on every encode.
inline constexpr int64_t kFooterHugeOutputThreshold = int64_t{32} << 20;

// Checks the magic and footer length of `file`, reads and decodes the footer. Messages start
// with what is wrong ("footer length 4294967295 exceeds file size 1043"); callers add the path.
Result<std::shared_ptr<const ParquetFooter>> ReadFooter(io::RandomAccessFile& file, const DecodeOptions& options = {});
// Decodes serialized FileMetaData (the footer without length and magic).
Result<std::shared_ptr<const ParquetFooter>> DecodeFooter(std::shared_ptr<Buffer> footer, const DecodeOptions& options = {});

// Decoders for one serialized struct at the start of `bytes`. Strings and lists point into
// `bytes` and `arena`, which must outlive `out`. `consumed` (optional) receives the length of
// the struct, e.g. the page header size.
Status DecodeFileMetaData(std::span<const uint8_t> bytes, Arena* arena, FileMetaData* out,
                          const DecodeOptions* options = nullptr, size_t* consumed = nullptr);
Status DecodePageHeader(std::span<const uint8_t> bytes, Arena* arena, PageHeader* out, size_t* consumed = nullptr);
Status DecodeColumnIndex(std::span<const uint8_t> bytes, Arena* arena, ColumnIndex* out, size_t* consumed = nullptr);
Status DecodeOffsetIndex(std::span<const uint8_t> bytes, Arena* arena, OffsetIndex* out, size_t* consumed = nullptr);
Status DecodeBloomFilterHeader(std::span<const uint8_t> bytes, Arena* arena, BloomFilterHeader* out,
                               size_t* consumed = nullptr);
Status DecodeFileCryptoMetaData(std::span<const uint8_t> bytes, Arena* arena, FileCryptoMetaData* out,
                                size_t* consumed = nullptr);

// Encoders append the compact-protocol bytes of one struct to `out`. EncodeFileMetaData moves
// an empty builder of the default pool to huge_page_memory_pool() for very large footers (see
// kFooterHugeOutputThreshold); a builder with any other pool keeps it.
Status EncodeFileMetaData(const FileMetaData& md, BufferBuilder* out);
Status EncodePageHeader(const PageHeader& h, BufferBuilder* out);
Status EncodeColumnIndex(const ColumnIndex& ci, BufferBuilder* out);
Status EncodeOffsetIndex(const OffsetIndex& oi, BufferBuilder* out);
Status EncodeBloomFilterHeader(const BloomFilterHeader& h, BufferBuilder* out);
Status EncodeFileCryptoMetaData(const FileCryptoMetaData& m, BufferBuilder* out);

// The name of the set member of a union-like struct ("TIMESTAMP", "AES_GCM_V1"), or "" if none.
const char* LogicalTypeKind(const LogicalType& t);
const char* EncryptionAlgorithmName(const EncryptionAlgorithm& a);

}  // namespace quiver::parquet

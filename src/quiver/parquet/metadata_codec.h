// The compact-protocol bytes of the Thrift structs in metadata.h, both ways: FileMetaData
// (whole, or only chosen row groups and column chunks: DecodeOptions), page headers, the page
// index (ColumnIndex, OffsetIndex), bloom filter headers and the crypto metadata of encrypted
// files. Reading a file's footer is footer.h.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "quiver/core/arena.h"
#include "quiver/core/buffer.h"
#include "quiver/core/result.h"
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

// EncodeFileMetaData into an empty builder of the default pool reserves its estimate (128 bytes
// per column chunk) on huge_page_memory_pool() from this size on. Below it the default pool
// reuses freed memory from one footer to the next (a 13 MB reserve did), and fresh zeroed huge
// pages cost more than that; the 128 MB reserves of 1,000,000-chunk footers were refaulted in
// 4 KB pages on every encode.
inline constexpr int64_t kFooterHugeOutputThreshold = int64_t{32} << 20;

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
// The ColumnMetaData an encrypted column chunk keeps in encrypted_column_metadata.
Status DecodeColumnMetaData(std::span<const uint8_t> bytes, Arena* arena, ColumnMetaData* out,
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
Status EncodeColumnMetaData(const ColumnMetaData& m, BufferBuilder* out);

}  // namespace quiver::parquet

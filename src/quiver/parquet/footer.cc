// Reading a file's footer and decoding it into an arena sized for it.
#include "quiver/parquet/footer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace quiver::parquet {

Result<std::shared_ptr<const ParquetFooter>> DecodeFooter(std::shared_ptr<Buffer> footer, const DecodeOptions& options) {
  auto result = std::shared_ptr<ParquetFooter>(new ParquetFooter());
  result->footer_ = std::move(footer);
  // A decoded model takes 1-6 times the footer's bytes (a column chunk with statistics: ~75
  // bytes on the wire, 344 in memory with its statistics and lists). Blocks as large as the footer (8 MB at most) keep the
  // block count small without reserving much more than is used. Large footers get blocks of
  // at least 2 MiB on transparent huge pages, prefaulted: first touches of fresh 4 KB pages
  // were most of a cold decode of a wide footer (see docs/parquet-footer.md); one fault per
  // 2 MiB, taken in one call per block, cost 15-60x less in this project's test VM.
  const int64_t size = result->footer_->size();
  const bool large = size >= kFooterPrefaultThreshold;
  int64_t block = std::clamp<int64_t>(size, large ? Arena::kHugePageSize : 16 * 1024, kFooterArenaMaxBlock);
  result->arena_ = std::make_unique<Arena>(default_memory_pool(), block);
  result->arena_->set_prefault(large);
  result->arena_->set_huge_pages(large);
  size_t consumed = 0;
  QUIVER_RETURN_NOT_OK(DecodeFileMetaData(result->footer_->span(), result->arena_.get(), &result->metadata_,
                                          &options, &consumed));
  result->trailing_bytes_ = result->footer_->size() - static_cast<int64_t>(consumed);
  auto fill = [](const std::optional<std::vector<int32_t>>& chosen, uint32_t kept, std::vector<int32_t>* out) {
    if (chosen) {
      *out = *chosen;
      std::sort(out->begin(), out->end());
      out->erase(std::unique(out->begin(), out->end()), out->end());
      out->resize(std::min<size_t>(out->size(), kept));
    } else {
      out->resize(kept);
      for (uint32_t i = 0; i < kept; ++i) (*out)[i] = static_cast<int32_t>(i);
    }
  };
  const FileMetaData& md = result->metadata_;
  fill(options.row_groups, md.row_groups.size(), &result->row_group_indices_);
  uint32_t ncols = md.row_groups.empty() ? 0 : md.row_groups[0].columns.size();
  fill(options.columns, ncols, &result->column_indices_);
  return std::shared_ptr<const ParquetFooter>(std::move(result));
}

Result<std::shared_ptr<const ParquetFooter>> ReadFooter(io::RandomAccessFile& file, const DecodeOptions& options) {
  const int64_t size = file.size();
  if (size < 12) {
    return Status::Corrupt(fmt::format("file size {} is too small for a Parquet file (at least 12 bytes)", size));
  }
  QUIVER_ASSIGN_OR_RETURN(auto tail, file.ReadAt(size - 8, 8));
  uint32_t len;
  std::memcpy(&len, tail->data(), 4);
  std::string_view magic(reinterpret_cast<const char*>(tail->data()) + 4, 4);
  if (magic == "PARE") {
    // Encrypted footer: say with which algorithm, when the crypto metadata is readable.
    std::string how;
    if (len <= static_cast<uint64_t>(size - 12)) {
      auto crypto_bytes = file.ReadAt(size - 8 - len, len);
      if (crypto_bytes.ok()) {
        Arena arena;
        FileCryptoMetaData crypto;
        if (DecodeFileCryptoMetaData((*crypto_bytes)->span(), &arena, &crypto).ok()) {
          how = fmt::format(" (footer encrypted with {})", EncryptionAlgorithmName(crypto.encryption_algorithm));
        }
      }
    }
    return Status::NotImplemented("encrypted Parquet files are not supported" + how);
  }
  if (magic != "PAR1") {
    return Status::Corrupt("not a Parquet file: it does not end with the magic bytes PAR1");
  }
  if (len > static_cast<uint64_t>(size)) {
    return Status::Corrupt(fmt::format("footer length {} exceeds file size {}", len, size));
  }
  if (len > static_cast<uint64_t>(size - 12)) {
    return Status::Corrupt(fmt::format("footer length {} does not fit in a file of {} bytes with its magic and length",
                                       len, size));
  }
  QUIVER_ASSIGN_OR_RETURN(auto head, file.ReadAt(0, 4));
  if (std::memcmp(head->data(), "PAR1", 4) != 0) {
    return Status::Corrupt("not a Parquet file: it does not start with the magic bytes PAR1");
  }
  QUIVER_ASSIGN_OR_RETURN(auto footer, file.ReadAt(size - 8 - len, len));
  auto decoded = DecodeFooter(std::move(footer), options);
  if (!decoded.ok()) return std::move(decoded).status().WithContext("footer");
  return decoded;
}

}  // namespace quiver::parquet

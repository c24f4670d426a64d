// Reading a Parquet file's footer: the magic bytes and length checked, an encrypted footer
// ("PARE") decrypted and a signed plaintext one verified when keys are given, encrypted column
// metadata decrypted, the FileMetaData decoded whole or for chosen row groups and columns into
// an arena sized for it. The structs' byte codec is metadata_codec.h.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "quiver/core/arena.h"
#include "quiver/core/buffer.h"
#include "quiver/core/result.h"
#include "quiver/io/file.h"
#include "quiver/parquet/encryption.h"
#include "quiver/parquet/metadata.h"
#include "quiver/parquet/metadata_codec.h"

namespace quiver::parquet {

namespace crypto {
struct FileDecryptor;  // crypto_internal.h
}

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
  // An encrypted file's decryption state (keys, AADs), or null for a plaintext file.
  const crypto::FileDecryptor* decryptor() const { return decryptor_.get(); }

 private:
  friend Result<std::shared_ptr<const ParquetFooter>> DecodeFooter(std::shared_ptr<Buffer>, const DecodeOptions&);
  friend struct FooterDecryption;
  std::shared_ptr<Buffer> footer_;
  std::unique_ptr<Arena> arena_;
  FileMetaData metadata_;
  std::vector<int32_t> row_group_indices_;
  std::vector<int32_t> column_indices_;
  int64_t trailing_bytes_ = 0;
  std::shared_ptr<const crypto::FileDecryptor> decryptor_;
};

// How DecodeFooter sizes its arena: blocks as large as the footer up to this, and from this
// footer size on at least 2 MiB, on huge pages and prefaulted (Arena::set_huge_pages,
// set_prefault).
inline constexpr int64_t kFooterArenaMaxBlock = int64_t{8} << 20;
inline constexpr int64_t kFooterPrefaultThreshold = int64_t{1} << 20;

// Checks the magic and footer length of `file`, reads and decodes the footer. Messages start
// with what is wrong ("footer length 4294967295 exceeds file size 1043"); callers add the path.
// `decryption`: the keys of an encrypted file (null or empty: none; a PARE file then fails
// saying a footer key is needed, a plaintext-footer file opens unverified and its encrypted
// columns fail when read).
Result<std::shared_ptr<const ParquetFooter>> ReadFooter(io::RandomAccessFile& file, const DecodeOptions& options = {},
                                                        const DecryptionOptions* decryption = nullptr);
// Decodes serialized FileMetaData (the footer without length and magic).
Result<std::shared_ptr<const ParquetFooter>> DecodeFooter(std::shared_ptr<Buffer> footer, const DecodeOptions& options = {});

}  // namespace quiver::parquet

// The writing side of Parquet modular encryption: which leaves are encrypted with which key,
// their column chunks' pages re-emitted as encrypted modules (headers GCM, bodies GCM or CTR),
// bloom filters and page indexes as modules, and the footer encrypted ("PARE") or signed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "quiver/core/arena.h"
#include "quiver/core/buffer.h"
#include "quiver/core/result.h"
#include "quiver/parquet/crypto_internal.h"
#include "quiver/parquet/encryption.h"
#include "quiver/parquet/metadata.h"
#include "quiver/parquet/writer/column_writer_internal.h"

namespace quiver::parquet::writer {

inline std::span<const uint8_t> Span(const BufferBuilder& b) { return {b.data(), static_cast<size_t>(b.size())}; }

class FileEncryptor {
 public:
  // Invalid for a column key naming no column.
  static Result<std::unique_ptr<FileEncryptor>> Make(EncryptionOptions options, const std::vector<LeafColumn>& leaves);

  bool encrypted(int leaf) const { return keys_[static_cast<size_t>(leaf)] != nullptr; }

  // The chunk's dictionary page and data pages (as the encoder left them, headers plaintext)
  // as encrypted modules into `out`; `info`'s data page offset, sizes and page locations follow.
  Status EncryptChunk(int row_group, int leaf, const EncodedColumnChunk& c, ColumnChunkMeta* info, BufferBuilder* out);
  // One GCM module of `leaf` (column index, offset index, bloom filter header or bitset).
  Status EncryptModule(int row_group, int leaf, crypto::Module m, std::span<const uint8_t> plain, BufferBuilder* out);
  // A serialized bloom filter (header then bitset) as its two modules.
  Status EncryptBloomFilter(int row_group, int leaf, std::span<const uint8_t> serialized, BufferBuilder* out);
  // The footer's crypto fields for `cc` (its meta_data encrypted into encrypted_column_metadata;
  // kept in the plaintext only when the footer is encrypted and the column uses its key, or,
  // without statistics, when the footer is plaintext).
  Status SealColumn(int row_group, int leaf, ColumnChunk* cc, Arena* arena);
  // The bytes after the row groups and page index: encrypted footer with its crypto metadata,
  // length and "PARE", or the signed plaintext footer, length and "PAR1".
  Status FinishFooter(FileMetaData* md, Arena* arena, BufferBuilder* out);
  // The leading magic.
  const char* magic() const { return options_.plaintext_footer ? "PAR1" : "PARE"; }

 private:
  EncryptionAlgorithm Algorithm() const;
  EncryptionOptions options_;
  std::string unique_, file_aad_;
  std::vector<const SecretKey*> keys_;        // per leaf; null: plaintext
  std::vector<std::string> key_metadata_;      // per leaf
  crypto::Cipher cipher_;
  std::string aad_;
  BufferBuilder scratch_, body_;
};

}  // namespace quiver::parquet::writer

// Reading a file's footer and decoding it into an arena sized for it.
#include "quiver/parquet/footer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include <openssl/crypto.h>

#include "quiver/parquet/crypto_internal.h"

namespace quiver::parquet {

// The decryption side of reading a footer: the file AAD and keys from an algorithm and the
// caller's options, the footer's signature, each encrypted column's key and metadata.
struct FooterDecryption {
  using Decryptor = crypto::FileDecryptor;

  static std::string_view Printable(std::string_view s) {
    for (char c : s) {
      if (c < 0x20 || c > 0x7e) return "(binary)";
    }
    return s;
  }

  // The key given, else the retriever's for `key_metadata`; empty when neither has one.
  static Result<SecretKey> Retrieve(const SecretKey* given, const DecryptionOptions* d, const OptionalBinary& key_metadata,
                                    std::string_view what) {
    if (given != nullptr && !given->empty()) return *given;
    if (d != nullptr && d->key_retriever && key_metadata) {
      auto k = d->key_retriever->GetKey(*key_metadata);
      if (!k.ok()) {
        return std::move(k).status().WithContext(fmt::format("{} (key metadata \"{}\")", what, Printable(*key_metadata)));
      }
      return k;
    }
    return SecretKey();
  }

  static Result<std::shared_ptr<Decryptor>> Begin(const EncryptionAlgorithm& alg, const DecryptionOptions* d,
                                                  bool plaintext_footer) {
    auto dec = std::make_shared<Decryptor>();
    dec->plaintext_footer = plaintext_footer;
    OptionalBinary stored, unique;
    bool supply = false;
    if (alg.AES_GCM_V1) {
      stored = alg.AES_GCM_V1->aad_prefix;
      unique = alg.AES_GCM_V1->aad_file_unique;
      supply = alg.AES_GCM_V1->supply_aad_prefix.value_or(false);
    } else if (alg.AES_GCM_CTR_V1) {
      dec->gcm_ctr = true;
      stored = alg.AES_GCM_CTR_V1->aad_prefix;
      unique = alg.AES_GCM_CTR_V1->aad_file_unique;
      supply = alg.AES_GCM_CTR_V1->supply_aad_prefix.value_or(false);
    } else {
      return Status::NotImplemented("the file is encrypted with an unknown algorithm");
    }
    if (d != nullptr && d->aad_prefix) {
      if (stored && *stored != *d->aad_prefix) {
        return Status::Invalid("the AAD prefix given differs from the one stored in the file");
      }
      dec->file_aad = *d->aad_prefix;
    } else if (stored) {
      dec->file_aad = std::string(*stored);
    } else if (supply) {
      return Status::Invalid("the file's AAD prefix is not stored in it and was not given; it is needed to read the file");
    }
    dec->file_aad.append(unique.value_or(""));
    dec->no_aad = dec->file_aad.empty();
    return dec;
  }

  // Each encrypted column chunk's key, and its metadata decrypted where the key is known.
  static Status Columns(ParquetFooter* f, Decryptor* dec, const DecryptionOptions* d) {
    FileMetaData& md = f->metadata_;
    crypto::Cipher cipher;
    std::string aad;
    std::vector<uint8_t> plain;
    for (uint32_t g = 0; g < md.row_groups.size(); ++g) {
      RowGroup& rg = md.row_groups.data()[g];
      const int rg_ordinal = rg.ordinal ? *rg.ordinal : f->row_group_indices_[g];
      for (uint32_t k = 0; k < rg.columns.size(); ++k) {
        ColumnChunk& chunk = rg.columns.data()[k];
        // DuckDB encrypts every column with the footer key under an encrypted footer without
        // saying so in crypto_metadata: its chunks count as footer-key columns.
        const bool duckdb_implied = !chunk.crypto_metadata && !dec->plaintext_footer &&
                                    md.created_by.value_or("").starts_with("DuckDB");
        if (!chunk.crypto_metadata && !duckdb_implied) continue;
        const size_t leaf = static_cast<size_t>(f->column_indices_[k]);
        if (dec->columns.size() <= leaf) dec->columns.resize(leaf + 1);
        crypto::ColumnDecryption& cd = dec->columns[leaf];
        ColumnCryptoMetaData implied;
        implied.ENCRYPTION_WITH_FOOTER_KEY.emplace();
        const ColumnCryptoMetaData& cm = chunk.crypto_metadata ? *chunk.crypto_metadata : implied;
        if (!cd.encrypted) {
          cd.encrypted = true;
          if (cm.ENCRYPTION_WITH_COLUMN_KEY) {
            const auto& path = cm.ENCRYPTION_WITH_COLUMN_KEY->path_in_schema;
            for (uint32_t i = 0; i < path.size(); ++i) {
              if (i > 0) cd.path += '.';
              cd.path.append(path[i]);
            }
            const SecretKey* given = nullptr;
            if (d != nullptr) {
              // The leaf's own path first, then the fields above it ("int64_field" for
              // "int64_field.list.element").
              std::string_view p = cd.path;
              for (;;) {
                auto it = d->column_keys.find(p);
                if (it != d->column_keys.end()) {
                  given = &it->second;
                  break;
                }
                const size_t dot = p.rfind('.');
                if (dot == std::string_view::npos) break;
                p = p.substr(0, dot);
              }
            }
            QUIVER_ASSIGN_OR_RETURN(cd.key, Retrieve(given, d, cm.ENCRYPTION_WITH_COLUMN_KEY->key_metadata,
                                                     fmt::format("the key of column '{}'", cd.path)));
          } else if (cm.ENCRYPTION_WITH_FOOTER_KEY) {
            if (chunk.meta_data) {
              for (uint32_t i = 0; i < chunk.meta_data->path_in_schema.size(); ++i) {
                if (i > 0) cd.path += '.';
                cd.path.append(chunk.meta_data->path_in_schema[i]);
              }
            }
            cd.key = dec->footer_key;
          } else {
            return Status::NotImplemented(fmt::format("column {} has crypto metadata of an unknown kind", leaf));
          }
        }
        if (!chunk.encrypted_column_metadata) continue;
        if (cd.key_missing()) {
          // Its plaintext metadata, if any, may be stripped: nothing of it is used to read.
          continue;
        }
        const std::string what = fmt::format("row group {}, column '{}': column chunk metadata", rg_ordinal, cd.path);
        QUIVER_RETURN_NOT_OK(crypto::ModuleAadOf(*dec, crypto::Module::kColumnMetaData, rg_ordinal,
                                               static_cast<int>(leaf), 0, &aad));
        const std::string_view enc = *chunk.encrypted_column_metadata;
        int64_t consumed = 0;
        QUIVER_RETURN_NOT_OK(cipher.GcmDecrypt(cd.key, {reinterpret_cast<const uint8_t*>(enc.data()), enc.size()}, aad,
                                               what, &plain, &consumed));
        // The decoded model points into its bytes: they go into the footer's arena.
        void* copy = f->arena_->Allocate(static_cast<int64_t>(plain.size()) + 1, 1);
        if (copy == nullptr) return Status::OutOfMemory("decrypting column metadata");
        if (!plain.empty()) std::memcpy(copy, plain.data(), plain.size());
        ColumnMetaData cmd;
        Status st = DecodeColumnMetaData({static_cast<const uint8_t*>(copy), plain.size()}, f->arena_.get(), &cmd);
        if (!st.ok()) return std::move(st).WithContext(what);
        chunk.meta_data = cmd;
      }
    }
    return Status::OK();
  }

  static void Attach(ParquetFooter* f, std::shared_ptr<Decryptor> dec) { f->decryptor_ = std::move(dec); }
  static ParquetFooter* Mutable(const std::shared_ptr<const ParquetFooter>& f) { return const_cast<ParquetFooter*>(f.get()); }
};

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

Result<std::shared_ptr<const ParquetFooter>> ReadFooter(io::RandomAccessFile& file, const DecodeOptions& options,
                                                        const DecryptionOptions* decryption) {
  const int64_t size = file.size();
  if (size < 12) {
    return Status::Corrupt(fmt::format("file size {} is too small for a Parquet file (at least 12 bytes)", size));
  }
  QUIVER_ASSIGN_OR_RETURN(auto tail, file.ReadAt(size - 8, 8));
  uint32_t len;
  std::memcpy(&len, tail->data(), 4);
  std::string_view magic(reinterpret_cast<const char*>(tail->data()) + 4, 4);
  if (magic == "PARE") {
    if (len > static_cast<uint64_t>(size - 12)) {
      return Status::Corrupt(fmt::format("footer length {} does not fit in a file of {} bytes with its magic and length",
                                         len, size));
    }
    QUIVER_ASSIGN_OR_RETURN(auto head, file.ReadAt(0, 4));
    if (std::memcmp(head->data(), "PARE", 4) != 0) {
      return Status::Corrupt("not a Parquet file: it ends with the magic bytes PARE but does not start with them");
    }
    QUIVER_ASSIGN_OR_RETURN(auto tail_bytes, file.ReadAt(size - 8 - len, len));
    Arena arena;
    FileCryptoMetaData crypto;
    size_t crypto_len = 0;
    Status st = DecodeFileCryptoMetaData(tail_bytes->span(), &arena, &crypto, &crypto_len);
    if (!st.ok()) return std::move(st).WithContext("file crypto metadata");
    const char* alg = EncryptionAlgorithmName(crypto.encryption_algorithm);
    QUIVER_ASSIGN_OR_RETURN(SecretKey footer_key,
                            FooterDecryption::Retrieve(decryption ? &decryption->footer_key : nullptr, decryption,
                                                       crypto.key_metadata, "footer key"));
    if (footer_key.empty()) {
      return Status::Invalid(fmt::format("encrypted Parquet file: the footer is encrypted with {} and no footer key was given{}", alg,
                                         crypto.key_metadata ? fmt::format(" (its key metadata: \"{}\")",
                                                                           FooterDecryption::Printable(*crypto.key_metadata))
                                                             : std::string()));
    }
    QUIVER_ASSIGN_OR_RETURN(auto dec, FooterDecryption::Begin(crypto.encryption_algorithm, decryption, false));
    dec->footer_key = std::move(footer_key);
    std::string aad;
    QUIVER_RETURN_NOT_OK(crypto::ModuleAadOf(*dec, crypto::Module::kFooter, 0, 0, 0, &aad));
    std::vector<uint8_t> plain;
    crypto::Cipher cipher;
    QUIVER_RETURN_NOT_OK(cipher.GcmDecrypt(dec->footer_key, tail_bytes->span().subspan(crypto_len), aad, "footer", &plain));
    QUIVER_ASSIGN_OR_RETURN(auto footer, Buffer::Allocate(static_cast<int64_t>(plain.size())));
    if (!plain.empty()) std::memcpy(footer->mutable_data(), plain.data(), plain.size());
    auto decoded = DecodeFooter(std::move(footer), options);
    if (!decoded.ok()) return std::move(decoded).status().WithContext("footer");
    ParquetFooter* f = FooterDecryption::Mutable(*decoded);
    QUIVER_RETURN_NOT_OK(FooterDecryption::Columns(f, dec.get(), decryption));
    FooterDecryption::Attach(f, std::move(dec));
    return decoded;
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
  const FileMetaData& md = (*decoded)->metadata();
  if (!md.encryption_algorithm) return decoded;
  // A plaintext footer of an encrypted file: signed (nonce and tag after the FileMetaData)
  // with the footer key, which is checked when known; its encrypted columns need their keys.
  QUIVER_ASSIGN_OR_RETURN(auto dec, FooterDecryption::Begin(*md.encryption_algorithm, decryption, true));
  QUIVER_ASSIGN_OR_RETURN(dec->footer_key,
                          FooterDecryption::Retrieve(decryption ? &decryption->footer_key : nullptr, decryption,
                                                     md.footer_signing_key_metadata, "footer signing key"));
  if (!dec->footer_key.empty()) {
    const int64_t trailing = (*decoded)->trailing_bytes();
    if (trailing != crypto::kNonceLength + crypto::kTagLength) {
      return Status::Corrupt(fmt::format("footer: a signed plaintext footer ends with a {}-byte nonce and tag, this one "
                                         "with {} bytes", crypto::kNonceLength + crypto::kTagLength, trailing));
    }
    const auto& bytes = (*decoded)->footer_bytes();
    const int64_t body = bytes->size() - trailing;
    std::string aad;
    QUIVER_RETURN_NOT_OK(crypto::ModuleAadOf(*dec, crypto::Module::kFooter, 0, 0, 0, &aad));
    uint8_t tag[crypto::kTagLength];
    crypto::Cipher cipher;
    QUIVER_RETURN_NOT_OK(cipher.GcmTag(dec->footer_key, bytes->data() + body, {bytes->data(), static_cast<size_t>(body)},
                                       aad, tag));
    if (CRYPTO_memcmp(tag, bytes->data() + body + crypto::kNonceLength, crypto::kTagLength) != 0) {
      return Status::Invalid("footer: signature check failed (a wrong footer key or AAD prefix, or the footer was altered)");
    }
  }
  ParquetFooter* f = FooterDecryption::Mutable(*decoded);
  QUIVER_RETURN_NOT_OK(FooterDecryption::Columns(f, dec.get(), decryption));
  FooterDecryption::Attach(f, std::move(dec));
  return decoded;
}

}  // namespace quiver::parquet

// Encrypting a file's modules as the writer emits them (writer/encryption_internal.h).
#include "quiver/parquet/writer/encryption_internal.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstring>

#include "quiver/parquet/metadata_codec.h"

namespace quiver::parquet::writer {

Result<std::unique_ptr<FileEncryptor>> FileEncryptor::Make(EncryptionOptions options,
                                                           const std::vector<LeafColumn>& leaves) {
  std::unique_ptr<FileEncryptor> e(new FileEncryptor());
  e->options_ = std::move(options);
  const auto& o = e->options_;
  if (o.footer_key.size() != 16 && o.footer_key.size() != 24 && o.footer_key.size() != 32) {
    return Status::Invalid(fmt::format("the footer key is {} bytes; an AES key is 16, 24 or 32", o.footer_key.size()));
  }
  if (!o.store_aad_prefix && !o.aad_prefix) return Status::Invalid("an AAD prefix kept out of the file must be given");
  e->unique_.resize(8);
  QUIVER_RETURN_NOT_OK(crypto::RandomBytes(reinterpret_cast<uint8_t*>(e->unique_.data()), 8));
  e->file_aad_ = o.aad_prefix.value_or("") + e->unique_;
  e->keys_.assign(leaves.size(), nullptr);
  e->key_metadata_.assign(leaves.size(), std::string());
  std::vector<bool> used(o.column_keys.size(), false);
  for (size_t i = 0; i < leaves.size(); ++i) {
    const auto& names = leaves[i].path.path_in_schema;
    const std::string path = fmt::format("{}", fmt::join(names, "."));
    if (o.column_keys.empty()) {
      e->keys_[i] = &o.footer_key;  // uniform encryption: every column with the footer key
      continue;
    }
    size_t k = 0;
    for (auto it = o.column_keys.begin(); it != o.column_keys.end(); ++it, ++k) {
      if (it->first != path && it->first != names[0]) continue;
      if (it->second.size() != 16 && it->second.size() != 24 && it->second.size() != 32) {
        return Status::Invalid(fmt::format("the key of column '{}' is {} bytes; an AES key is 16, 24 or 32",
                                           it->first, it->second.size()));
      }
      e->keys_[i] = &it->second;
      auto md = o.column_key_metadata.find(it->first);
      if (md != o.column_key_metadata.end()) e->key_metadata_[i] = md->second;
      used[k] = true;
    }
  }
  size_t k = 0;
  for (auto it = o.column_keys.begin(); it != o.column_keys.end(); ++it, ++k) {
    if (!used[k]) return Status::Invalid(fmt::format("a key for an unknown column '{}'", it->first));
  }
  return e;
}

Status FileEncryptor::EncryptModule(int row_group, int leaf, crypto::Module m, std::span<const uint8_t> plain,
                                    BufferBuilder* out) {
  QUIVER_RETURN_NOT_OK(crypto::ModuleAad(file_aad_, m, row_group, leaf, 0, &aad_));
  return cipher_.GcmEncrypt(*keys_[static_cast<size_t>(leaf)], plain, aad_, out);
}

Status FileEncryptor::EncryptBloomFilter(int row_group, int leaf, std::span<const uint8_t> serialized,
                                         BufferBuilder* out) {
  Arena arena;
  BloomFilterHeader h;
  size_t header = 0;
  QUIVER_RETURN_NOT_OK(DecodeBloomFilterHeader(serialized, &arena, &h, &header));
  QUIVER_RETURN_NOT_OK(EncryptModule(row_group, leaf, crypto::Module::kBloomFilterHeader, serialized.subspan(0, header), out));
  return EncryptModule(row_group, leaf, crypto::Module::kBloomFilterBitset, serialized.subspan(header), out);
}

Status FileEncryptor::EncryptChunk(int row_group, int leaf, const EncodedColumnChunk& c, ColumnChunkMeta* info,
                                   BufferBuilder* out) {
  const SecretKey& key = *keys_[static_cast<size_t>(leaf)];
  const bool ctr = options_.algorithm == EncryptionAlgorithmKind::kAesGcmCtrV1;
  QUIVER_RETURN_NOT_OK(out->Reserve(c.size() + 64));
  Arena arena;
  int32_t ordinal = 0;
  size_t page = 0;
  auto pass = [&](const BufferBuilder& part) -> Status {
    int64_t pos = 0;
    while (pos < part.size()) {
      arena.Reset();
      PageHeader h;
      size_t header_len = 0;
      QUIVER_RETURN_NOT_OK(DecodePageHeader({part.data() + pos, static_cast<size_t>(part.size() - pos)}, &arena, &h,
                                            &header_len));
      const int64_t original = h.compressed_page_size;
      std::span<const uint8_t> body(part.data() + pos + header_len, static_cast<size_t>(original));
      const bool dict = h.type == PageType::DICTIONARY_PAGE;
      const int64_t start = out->size();
      body_.Clear();
      if (ctr) {
        QUIVER_RETURN_NOT_OK(cipher_.CtrEncrypt(key, body, &body_));
      } else {
        QUIVER_RETURN_NOT_OK(crypto::ModuleAad(file_aad_, dict ? crypto::Module::kDictionaryPage : crypto::Module::kDataPage,
                                               row_group, leaf, ordinal, &aad_));
        QUIVER_RETURN_NOT_OK(cipher_.GcmEncrypt(key, body, aad_, &body_));
      }
      h.compressed_page_size = static_cast<int32_t>(body_.size());
      h.crc.reset();  // the CRC of the plaintext body would tell about the plaintext
      scratch_.Clear();
      QUIVER_RETURN_NOT_OK(EncodePageHeader(h, &scratch_));
      QUIVER_RETURN_NOT_OK(crypto::ModuleAad(
          file_aad_, dict ? crypto::Module::kDictionaryPageHeader : crypto::Module::kDataPageHeader, row_group, leaf,
          ordinal, &aad_));
      QUIVER_RETURN_NOT_OK(cipher_.GcmEncrypt(key, Span(scratch_), aad_, out));
      QUIVER_RETURN_NOT_OK(out->Append(body_.data(), body_.size()));
      if (!dict) {
        if (page < info->pages.size()) {
          info->pages[page].offset = start;
          info->pages[page].compressed_size = static_cast<int32_t>(out->size() - start);
        }
        ++page;
        ++ordinal;
      } else {
        info->data_page_offset = out->size();
      }
      pos += static_cast<int64_t>(header_len) + original;
    }
    return Status::OK();
  };
  info->data_page_offset = 0;
  QUIVER_RETURN_NOT_OK(pass(c.dictionary_page));
  QUIVER_RETURN_NOT_OK(pass(c.bytes));
  info->total_compressed_size = out->size();
  return Status::OK();
}

EncryptionAlgorithm FileEncryptor::Algorithm() const {
  EncryptionAlgorithm a;
  auto fill = [&](auto& v) {
    if (options_.aad_prefix && options_.store_aad_prefix) v.aad_prefix = std::string_view(*options_.aad_prefix);
    v.aad_file_unique = std::string_view(unique_);
    if (options_.aad_prefix && !options_.store_aad_prefix) v.supply_aad_prefix = true;
  };
  if (options_.algorithm == EncryptionAlgorithmKind::kAesGcmCtrV1) {
    a.AES_GCM_CTR_V1.emplace();
    fill(*a.AES_GCM_CTR_V1);
  } else {
    a.AES_GCM_V1.emplace();
    fill(*a.AES_GCM_V1);
  }
  return a;
}

Status FileEncryptor::SealColumn(int row_group, int leaf, ColumnChunk* cc, Arena* arena) {
  if (!encrypted(leaf)) return Status::OK();
  ColumnCryptoMetaData* cm = cc->crypto_metadata.Emplace(arena);
  if (cm == nullptr) return Status::OutOfMemory("footer arena");
  const bool footer_key = keys_[static_cast<size_t>(leaf)] == &options_.footer_key;
  if (footer_key) {
    cm->ENCRYPTION_WITH_FOOTER_KEY.emplace();
  } else {
    cm->ENCRYPTION_WITH_COLUMN_KEY.emplace();
    cm->ENCRYPTION_WITH_COLUMN_KEY->path_in_schema = cc->meta_data->path_in_schema;
    if (!key_metadata_[static_cast<size_t>(leaf)].empty()) {
      cm->ENCRYPTION_WITH_COLUMN_KEY->key_metadata = std::string_view(key_metadata_[static_cast<size_t>(leaf)]);
    }
  }
  // Under an encrypted footer, a footer-key column's metadata is protected by the footer's
  // encryption already.
  if (footer_key && !options_.plaintext_footer) return Status::OK();
  scratch_.Clear();
  QUIVER_RETURN_NOT_OK(EncodeColumnMetaData(*cc->meta_data, &scratch_));
  BufferBuilder enc;
  QUIVER_RETURN_NOT_OK(EncryptModule(row_group, leaf, crypto::Module::kColumnMetaData, Span(scratch_), &enc));
  QUIVER_ASSIGN_OR_RETURN(std::string_view kept, arena->CopyString(std::string_view(reinterpret_cast<const char*>(enc.data()), static_cast<size_t>(enc.size()))));
  cc->encrypted_column_metadata = kept;
  if (options_.plaintext_footer) {
    // Legacy readers see the chunk's layout, not its values' bounds.
    cc->meta_data->statistics.reset();
    cc->meta_data->encoding_stats = std::nullopt;
  } else {
    cc->meta_data.reset();
  }
  return Status::OK();
}

Status FileEncryptor::FinishFooter(FileMetaData* md, Arena* arena, BufferBuilder* out) {
  std::string footer_aad;
  QUIVER_RETURN_NOT_OK(crypto::ModuleAad(file_aad_, crypto::Module::kFooter, 0, 0, 0, &footer_aad));
  BufferBuilder plain;
  if (options_.plaintext_footer) {
    EncryptionAlgorithm* alg = md->encryption_algorithm.Emplace(arena);
    if (alg == nullptr) return Status::OutOfMemory("footer arena");
    *alg = Algorithm();
    if (!options_.footer_key_metadata.empty()) md->footer_signing_key_metadata = std::string_view(options_.footer_key_metadata);
    QUIVER_RETURN_NOT_OK(EncodeFileMetaData(*md, &plain));
    uint8_t nonce[crypto::kNonceLength], tag[crypto::kTagLength];
    QUIVER_RETURN_NOT_OK(crypto::RandomBytes(nonce, crypto::kNonceLength));
    QUIVER_RETURN_NOT_OK(cipher_.GcmTag(options_.footer_key, nonce, Span(plain), footer_aad, tag));
    QUIVER_RETURN_NOT_OK(out->Append(plain.data(), plain.size()));
    QUIVER_RETURN_NOT_OK(out->Append(nonce, crypto::kNonceLength));
    QUIVER_RETURN_NOT_OK(out->Append(tag, crypto::kTagLength));
  } else {
    FileCryptoMetaData fcm;
    fcm.encryption_algorithm = Algorithm();
    if (!options_.footer_key_metadata.empty()) fcm.key_metadata = std::string_view(options_.footer_key_metadata);
    QUIVER_RETURN_NOT_OK(EncodeFileCryptoMetaData(fcm, out));
    QUIVER_RETURN_NOT_OK(EncodeFileMetaData(*md, &plain));
    QUIVER_RETURN_NOT_OK(cipher_.GcmEncrypt(options_.footer_key, Span(plain), footer_aad, out));
  }
  if (out->size() > UINT32_MAX) return Status::Invalid("footer passed 4 GiB");
  const uint32_t len = static_cast<uint32_t>(out->size());
  QUIVER_RETURN_NOT_OK(out->Append(&len, 4));
  return out->Append(magic(), 4);
}

}  // namespace quiver::parquet::writer

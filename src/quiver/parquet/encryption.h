// Parquet modular encryption, the user's side: key bytes (SecretKey, wiped when dropped), what a
// reader needs to decrypt a file (keys by column path, a KeyRetriever for key metadata, an AAD
// prefix) and what a writer needs to encrypt one. The module ciphers are crypto_internal.h.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "quiver/core/result.h"

namespace quiver::parquet {

// AES key bytes (16, 24 or 32). The bytes are wiped (OPENSSL_cleanse) when the key is dropped
// or overwritten, and there is no way to print one: messages say which key, never its bytes.
class SecretKey {
 public:
  SecretKey() = default;
  explicit SecretKey(std::string_view bytes) : bytes_(bytes) {}
  SecretKey(const SecretKey& o) : bytes_(o.bytes_) {}
  SecretKey(SecretKey&& o) noexcept : bytes_(std::move(o.bytes_)) { o.Wipe(); }
  SecretKey& operator=(const SecretKey& o);
  SecretKey& operator=(SecretKey&& o) noexcept;
  ~SecretKey() { Wipe(); }

  bool empty() const { return bytes_.empty(); }
  size_t size() const { return bytes_.size(); }
  const uint8_t* data() const { return reinterpret_cast<const uint8_t*>(bytes_.data()); }
  void Wipe();

 private:
  std::string bytes_;
};

// A key as given on a command line or in a keys file: `hex:` and hex digits, `base64:` and
// base64, or the raw 16, 24 or 32 characters. `what` names the key in messages ("footer key").
Result<SecretKey> ParseKey(std::string_view text, std::string_view what);

// Maps a key's metadata (the bytes a writer stored beside what it encrypted: "kf", a key id,
// a KMS reference) to the key. Called on the reader's thread while it opens the file.
class KeyRetriever {
 public:
  virtual ~KeyRetriever() = default;
  // The key for `key_metadata`; an empty key when this retriever has none for it (the column
  // then counts as one without its key); an error (never holding key bytes) stops the open.
  virtual Result<SecretKey> GetKey(std::string_view key_metadata) = 0;
};

// Keys by their metadata: the simplest KeyRetriever.
class KeyMapRetriever : public KeyRetriever {
 public:
  void Add(std::string key_metadata, SecretKey key) { keys_[std::move(key_metadata)] = std::move(key); }
  Result<SecretKey> GetKey(std::string_view key_metadata) override;

 private:
  std::map<std::string, SecretKey, std::less<>> keys_;
};

// What a reader needs to open an encrypted file. Keys given here win over the retriever's.
struct DecryptionOptions {
  SecretKey footer_key;                                // the footer's (and footer-key columns')
  // By dotted column path ("a.b.c"); a key for a field also serves the leaves under it.
  std::map<std::string, SecretKey, std::less<>> column_keys;
  std::shared_ptr<KeyRetriever> key_retriever;         // for keys not given above
  std::optional<std::string> aad_prefix;               // when the file does not store its own
  bool empty() const { return footer_key.empty() && column_keys.empty() && !key_retriever && !aad_prefix; }
};

enum class EncryptionAlgorithmKind { kAesGcmV1, kAesGcmCtrV1 };
// "gcm" (AES_GCM_V1) or "gcm-ctr" (AES_GCM_CTR_V1), as the shells name them; errors name the
// setting as `what`.
Result<EncryptionAlgorithmKind> EncryptionAlgorithmFromName(std::string_view name, std::string_view what);

// What a writer needs to encrypt a file. Columns named in `column_keys` (by dotted path) are
// encrypted with their own key, the others with the footer key unless `column_keys` is
// non-empty (then they stay plaintext, as in the format's other writers).
struct EncryptionOptions {
  SecretKey footer_key;
  std::string footer_key_metadata;  // stored so that a KeyRetriever can find the key; may be empty
  std::map<std::string, SecretKey, std::less<>> column_keys;
  std::map<std::string, std::string, std::less<>> column_key_metadata;  // by path; optional
  bool plaintext_footer = false;    // a signed plaintext footer instead of an encrypted one
  std::optional<std::string> aad_prefix;
  bool store_aad_prefix = true;     // false: readers must be given it
  EncryptionAlgorithmKind algorithm = EncryptionAlgorithmKind::kAesGcmV1;
  bool enabled() const { return !footer_key.empty(); }
};

// Reads keys from a text file, one `name=KEY` a line (`footer=KEY`, `column.path=KEY`,
// `aad-prefix=TEXT`), blank lines and `#` comments ignored; KEY as ParseKey takes it. Messages
// give the line number, never the line.
Status ReadKeysFile(const std::string& path, SecretKey* footer_key,
                    std::map<std::string, SecretKey, std::less<>>* column_keys,
                    std::optional<std::string>* aad_prefix);

}  // namespace quiver::parquet

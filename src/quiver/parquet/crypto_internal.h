// Parquet modular encryption, the format's side: module types and their AADs, AES-GCM and
// AES-CTR modules (length, nonce, ciphertext, tag) through OpenSSL's libcrypto, and the
// decryption state of one open file (FileDecryptor: the file AAD, and for each leaf column
// its key or why there is none).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "quiver/core/buffer.h"
#include "quiver/core/result.h"
#include "quiver/parquet/encryption.h"
#include "quiver/parquet/metadata.h"

typedef struct evp_cipher_ctx_st EVP_CIPHER_CTX;

namespace quiver::parquet::crypto {

inline constexpr int kNonceLength = 12;
inline constexpr int kTagLength = 16;
inline constexpr int kLengthBytes = 4;
inline constexpr int kGcmOverhead = kLengthBytes + kNonceLength + kTagLength;
inline constexpr int kCtrOverhead = kLengthBytes + kNonceLength;

enum class Module : uint8_t {
  kFooter = 0, kColumnMetaData = 1, kDataPage = 2, kDictionaryPage = 3, kDataPageHeader = 4,
  kDictionaryPageHeader = 5, kColumnIndex = 6, kOffsetIndex = 7, kBloomFilterHeader = 8, kBloomFilterBitset = 9,
};
const char* ModuleName(Module m);  // "footer", "data page header", ...

// The AAD of a module: the file AAD, the module type, then (but for the footer) the row group
// and column ordinals and, for data pages and their headers, the page ordinal, each two bytes
// little-endian. `out` is overwritten (its capacity reused). Invalid past 32767.
Status ModuleAad(std::string_view file_aad, Module m, int row_group, int column, int page, std::string* out);

// One cipher context (not thread-safe: one per thread or reader). Keys are 16, 24 or 32 bytes.
class Cipher {
 public:
  Cipher();
  ~Cipher();
  Cipher(const Cipher&) = delete;
  Cipher& operator=(const Cipher&) = delete;

  // The length of the module at the start of `bytes` (its 4-byte length included); Corrupt
  // naming `what` when it does not fit in `bytes` or is too short for `overhead`.
  static Result<int64_t> ModuleLength(std::span<const uint8_t> bytes, int overhead, std::string_view what);
  // Decrypts the GCM module at the start of `bytes` into `out` (resized to the plaintext);
  // `consumed` receives the module's length. The tag failing is Invalid naming `what`.
  Status GcmDecrypt(const SecretKey& key, std::span<const uint8_t> bytes, std::string_view aad, std::string_view what,
                    std::vector<uint8_t>* out, int64_t* consumed = nullptr);
  // The same into `out` (at least the ciphertext's length); `plain_len` receives its length.
  Status GcmDecryptTo(const SecretKey& key, std::span<const uint8_t> module, std::string_view aad,
                      std::string_view what, uint8_t* out, int64_t* plain_len);
  Status CtrDecryptTo(const SecretKey& key, std::span<const uint8_t> module, std::string_view what, uint8_t* out,
                      int64_t* plain_len);
  // The tag GCM gives `plain` under `key`, `nonce` and `aad` (a signed footer's check).
  Status GcmTag(const SecretKey& key, const uint8_t* nonce, std::span<const uint8_t> plain, std::string_view aad,
                uint8_t* tag);
  // Appends a module (length, fresh random nonce, ciphertext, and for GCM the tag) to `out`.
  Status GcmEncrypt(const SecretKey& key, std::span<const uint8_t> plain, std::string_view aad, BufferBuilder* out);
  Status CtrEncrypt(const SecretKey& key, std::span<const uint8_t> plain, BufferBuilder* out);
  // GCM with a given nonce into `out` (ciphertext then tag: plain.size() + 16 bytes).
  Status GcmEncryptWithNonce(const SecretKey& key, const uint8_t* nonce, std::span<const uint8_t> plain,
                             std::string_view aad, uint8_t* out);

 private:
  EVP_CIPHER_CTX* ctx_;
};

Status RandomBytes(uint8_t* out, int n);

// How one leaf column of an open file is encrypted, and with what key.
struct ColumnDecryption {
  bool encrypted = false;
  std::string path;           // dotted, for messages
  SecretKey key;
  bool key_missing() const { return encrypted && key.empty(); }  // no key was given or found
};

// The decryption state of one open file: kept by its footer, read by every chunk's reader.
struct FileDecryptor {
  bool gcm_ctr = false;        // AES_GCM_CTR_V1: page bodies in CTR, everything else in GCM
  bool plaintext_footer = false;
  std::string file_aad;        // AAD prefix + aad_file_unique
  // No AAD at all (neither a prefix nor aad_file_unique): modules are authenticated without
  // one, as DuckDB writes them.
  bool no_aad = false;
  SecretKey footer_key;
  std::vector<ColumnDecryption> columns;  // by original leaf index; empty entries for plaintext columns
  const ColumnDecryption* column(size_t leaf) const { return leaf < columns.size() ? &columns[leaf] : nullptr; }
};

// ModuleAad with the file's AAD, or empty for a file without one (FileDecryptor::no_aad).
Status ModuleAadOf(const FileDecryptor& f, Module m, int row_group, int column, int page, std::string* out);

// What one column chunk's page reader needs: the key, the ordinals of its AADs, the mode.
struct ChunkDecryption {
  const FileDecryptor* file = nullptr;
  const SecretKey* key = nullptr;
  int row_group = 0;  // the AAD's ordinals
  int column = 0;
  bool has_dictionary = false;  // the chunk's metadata names a dictionary page
};

}  // namespace quiver::parquet::crypto

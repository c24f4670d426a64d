// AES-GCM and AES-CTR modules through libcrypto, module AADs, and SecretKey/ParseKey/keys files.
#include "quiver/parquet/crypto_internal.h"

#include <fmt/format.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <cstring>
#include <fstream>

#include "quiver/core/utf8.h"

namespace quiver::parquet {

SecretKey& SecretKey::operator=(const SecretKey& o) {
  if (this != &o) {
    Wipe();
    bytes_ = o.bytes_;
  }
  return *this;
}
SecretKey& SecretKey::operator=(SecretKey&& o) noexcept {
  if (this != &o) {
    Wipe();
    bytes_ = o.bytes_;
    o.Wipe();
  }
  return *this;
}
void SecretKey::Wipe() {
  // Also the spare capacity: a shorter key assigned before may have left bytes there.
  if (bytes_.capacity() > 0) OPENSSL_cleanse(bytes_.data(), bytes_.capacity());
  bytes_.clear();
}

namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

int Base64Digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

Status KeyLength(size_t n, std::string_view what, std::string_view form) {
  if (n == 16 || n == 24 || n == 32) return Status::OK();
  return Status::Invalid(fmt::format("{}: {} gives {} bytes; an AES key is 16, 24 or 32 bytes", what, form, n));
}

}  // namespace

Result<EncryptionAlgorithmKind> EncryptionAlgorithmFromName(std::string_view name, std::string_view what) {
  if (name == "gcm") return EncryptionAlgorithmKind::kAesGcmV1;
  if (name == "gcm-ctr") return EncryptionAlgorithmKind::kAesGcmCtrV1;
  return Status::Invalid(fmt::format("{} must be gcm or gcm-ctr, got '{}'", what, EscapeForMessage(name)));
}

Result<SecretKey> ParseKey(std::string_view text, std::string_view what) {
  std::string bytes;
  SecretKey key;
  auto done = [&](std::string_view form) -> Result<SecretKey> {
    Status st = KeyLength(bytes.size(), what, form);
    if (st.ok()) key = SecretKey(bytes);
    OPENSSL_cleanse(bytes.data(), bytes.size());
    if (!st.ok()) return st;
    return key;
  };
  if (text.starts_with("hex:")) {
    text.remove_prefix(4);
    if (text.size() % 2 != 0) return Status::Invalid(fmt::format("{}: hex: needs an even number of digits", what));
    for (size_t i = 0; i < text.size(); i += 2) {
      const int hi = HexDigit(text[i]), lo = HexDigit(text[i + 1]);
      if (hi < 0 || lo < 0) {
        OPENSSL_cleanse(bytes.data(), bytes.size());
        return Status::Invalid(fmt::format("{}: hex: holds a character that is not a hex digit", what));
      }
      bytes.push_back(static_cast<char>(hi * 16 + lo));
    }
    return done("hex:");
  }
  if (text.starts_with("base64:")) {
    text.remove_prefix(7);
    uint32_t acc = 0;
    int bits = 0;
    for (char c : text) {
      if (c == '=') break;
      const int d = Base64Digit(c);
      if (d < 0) {
        OPENSSL_cleanse(bytes.data(), bytes.size());
        return Status::Invalid(fmt::format("{}: base64: holds a character that is not base64", what));
      }
      acc = (acc << 6) | static_cast<uint32_t>(d);
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        bytes.push_back(static_cast<char>((acc >> bits) & 0xFF));
      }
    }
    acc = 0;
    return done("base64:");
  }
  if (text.size() == 16 || text.size() == 24 || text.size() == 32) return SecretKey(text);
  return Status::Invalid(fmt::format(
      "{}: a key is hex:DIGITS, base64:TEXT or exactly 16, 24 or 32 characters; got {} characters", what,
      text.size()));
}

Result<SecretKey> KeyMapRetriever::GetKey(std::string_view key_metadata) {
  auto it = keys_.find(key_metadata);
  if (it == keys_.end()) return SecretKey();
  return it->second;
}

Status ReadKeysFile(const std::string& path, SecretKey* footer_key,
                    std::map<std::string, SecretKey, std::less<>>* column_keys,
                    std::optional<std::string>* aad_prefix) {
  std::ifstream in(path);
  if (!in) return Status::IOError(fmt::format("{}: cannot open the keys file", path));
  std::string line;
  int n = 0;
  Status st;
  while (std::getline(in, line)) {
    ++n;
    std::string_view l(line);
    while (!l.empty() && (l.back() == '\r' || l.back() == ' ' || l.back() == '\t')) l.remove_suffix(1);
    while (!l.empty() && (l.front() == ' ' || l.front() == '\t')) l.remove_prefix(1);
    if (l.empty() || l.front() == '#') continue;
    const size_t eq = l.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      st = Status::Invalid(fmt::format("{}:{}: expected name=KEY (footer=KEY, column.path=KEY or aad-prefix=TEXT)",
                                       path, n));
      break;
    }
    auto trim = [](std::string_view v) {
      while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
      while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
      return v;
    };
    const std::string name(trim(l.substr(0, eq)));
    const std::string_view value = trim(l.substr(eq + 1));
    if (name == "aad-prefix") {
      *aad_prefix = std::string(value);
      continue;
    }
    auto key = ParseKey(value, fmt::format("{}:{}: key '{}'", path, n, name));
    if (!key.ok()) {
      st = key.status();
      break;
    }
    if (name == "footer") *footer_key = std::move(*key);
    else (*column_keys)[name] = std::move(*key);
  }
  OPENSSL_cleanse(line.data(), line.capacity());
  return st;
}

namespace crypto {

namespace {

const EVP_CIPHER* GcmCipher(size_t key_len) {
  static const EVP_CIPHER* k128 = EVP_CIPHER_fetch(nullptr, "AES-128-GCM", nullptr);
  static const EVP_CIPHER* k192 = EVP_CIPHER_fetch(nullptr, "AES-192-GCM", nullptr);
  static const EVP_CIPHER* k256 = EVP_CIPHER_fetch(nullptr, "AES-256-GCM", nullptr);
  return key_len == 16 ? k128 : key_len == 24 ? k192 : key_len == 32 ? k256 : nullptr;
}

const EVP_CIPHER* CtrCipher(size_t key_len) {
  static const EVP_CIPHER* k128 = EVP_CIPHER_fetch(nullptr, "AES-128-CTR", nullptr);
  static const EVP_CIPHER* k192 = EVP_CIPHER_fetch(nullptr, "AES-192-CTR", nullptr);
  static const EVP_CIPHER* k256 = EVP_CIPHER_fetch(nullptr, "AES-256-CTR", nullptr);
  return key_len == 16 ? k128 : key_len == 24 ? k192 : key_len == 32 ? k256 : nullptr;
}

Status BadKey(const SecretKey& key) {
  return Status::Invalid(fmt::format("an AES key is 16, 24 or 32 bytes, this one {}", key.size()));
}

Status Failed(std::string_view what, std::string_view step) {
  return Status::Invalid(fmt::format("{}: libcrypto failed to {}", what, step));
}

// The CTR IV: the nonce, then a 4-byte big-endian block counter starting at 1.
void CtrIv(const uint8_t* nonce, uint8_t* iv) {
  std::memcpy(iv, nonce, kNonceLength);
  iv[12] = 0;
  iv[13] = 0;
  iv[14] = 0;
  iv[15] = 1;
}

}  // namespace

const char* ModuleName(Module m) {
  switch (m) {
    case Module::kFooter: return "footer";
    case Module::kColumnMetaData: return "column chunk metadata";
    case Module::kDataPage: return "data page";
    case Module::kDictionaryPage: return "dictionary page";
    case Module::kDataPageHeader: return "data page header";
    case Module::kDictionaryPageHeader: return "dictionary page header";
    case Module::kColumnIndex: return "column index";
    case Module::kOffsetIndex: return "offset index";
    case Module::kBloomFilterHeader: return "bloom filter header";
    case Module::kBloomFilterBitset: return "bloom filter bitset";
  }
  return "module";
}

Status ModuleAad(std::string_view file_aad, Module m, int row_group, int column, int page, std::string* out) {
  out->assign(file_aad);
  out->push_back(static_cast<char>(m));
  if (m == Module::kFooter) return Status::OK();
  auto put = [&](int v, const char* what) -> Status {
    if (v < 0 || v > 32767) {
      return Status::Invalid(fmt::format("{} {} is beyond what an encrypted file can hold (32767)", what, v));
    }
    out->push_back(static_cast<char>(v & 0xFF));
    out->push_back(static_cast<char>((v >> 8) & 0xFF));
    return Status::OK();
  };
  QUIVER_RETURN_NOT_OK(put(row_group, "row group"));
  QUIVER_RETURN_NOT_OK(put(column, "column"));
  if (m == Module::kDataPage || m == Module::kDataPageHeader) QUIVER_RETURN_NOT_OK(put(page, "page"));
  return Status::OK();
}

Status ModuleAadOf(const FileDecryptor& f, Module m, int row_group, int column, int page, std::string* out) {
  QUIVER_RETURN_NOT_OK(ModuleAad(f.file_aad, m, row_group, column, page, out));
  if (f.no_aad) out->clear();
  return Status::OK();
}

Status RandomBytes(uint8_t* out, int n) {
  if (RAND_bytes(out, n) != 1) return Status::IOError("libcrypto could not produce random bytes for a nonce");
  return Status::OK();
}

Cipher::Cipher() : ctx_(EVP_CIPHER_CTX_new()) {}
Cipher::~Cipher() { EVP_CIPHER_CTX_free(ctx_); }

Result<int64_t> Cipher::ModuleLength(std::span<const uint8_t> bytes, int overhead, std::string_view what) {
  if (bytes.size() < static_cast<size_t>(kLengthBytes)) {
    return Status::Corrupt(fmt::format("{}: encrypted module truncated: {} bytes, not even its length", what,
                                       bytes.size()));
  }
  uint32_t len;
  std::memcpy(&len, bytes.data(), 4);
  const uint64_t total = uint64_t{len} + kLengthBytes;
  if (total > bytes.size()) {
    return Status::Corrupt(fmt::format("{}: encrypted module truncated: its length says {} bytes, {} are left", what,
                                       len, bytes.size() - kLengthBytes));
  }
  if (total < static_cast<uint64_t>(overhead)) {
    return Status::Corrupt(fmt::format("{}: encrypted module of {} bytes is shorter than its nonce and tag", what,
                                       len));
  }
  return static_cast<int64_t>(total);
}

Status Cipher::GcmDecrypt(const SecretKey& key, std::span<const uint8_t> bytes, std::string_view aad,
                          std::string_view what, std::vector<uint8_t>* out, int64_t* consumed) {
  QUIVER_ASSIGN_OR_RETURN(int64_t len, ModuleLength(bytes, kGcmOverhead, what));
  out->resize(static_cast<size_t>(len - kGcmOverhead));
  int64_t plain = 0;
  QUIVER_RETURN_NOT_OK(GcmDecryptTo(key, bytes.subspan(0, static_cast<size_t>(len)), aad, what, out->data(), &plain));
  if (consumed != nullptr) *consumed = len;
  return Status::OK();
}

Status Cipher::GcmDecryptTo(const SecretKey& key, std::span<const uint8_t> module, std::string_view aad,
                            std::string_view what, uint8_t* out, int64_t* plain_len) {
  const EVP_CIPHER* c = GcmCipher(key.size());
  if (c == nullptr) return BadKey(key);
  const uint8_t* nonce = module.data() + kLengthBytes;
  const uint8_t* ct = nonce + kNonceLength;
  const int ct_len = static_cast<int>(module.size() - kGcmOverhead);
  const uint8_t* tag = ct + ct_len;
  int n = 0, fin = 0;
  if (EVP_DecryptInit_ex2(ctx_, c, key.data(), nonce, nullptr) != 1) return Failed(what, "start AES-GCM");
  if (!aad.empty() &&
      EVP_DecryptUpdate(ctx_, nullptr, &n, reinterpret_cast<const uint8_t*>(aad.data()), static_cast<int>(aad.size())) != 1) {
    return Failed(what, "take the AAD");
  }
  if (EVP_DecryptUpdate(ctx_, out, &n, ct, ct_len) != 1) return Failed(what, "decrypt");
  if (EVP_CIPHER_CTX_ctrl(ctx_, EVP_CTRL_GCM_SET_TAG, kTagLength, const_cast<uint8_t*>(tag)) != 1) {
    return Failed(what, "set the tag");
  }
  if (EVP_DecryptFinal_ex(ctx_, out + n, &fin) != 1) {
    // Nothing of a module that fails its tag may be used.
    OPENSSL_cleanse(out, static_cast<size_t>(ct_len));
    return Status::Invalid(fmt::format(
        "{}: AES-GCM authentication failed (a wrong key or AAD prefix, or the bytes were altered)", what));
  }
  *plain_len = n + fin;
  return Status::OK();
}

Status Cipher::CtrDecryptTo(const SecretKey& key, std::span<const uint8_t> module, std::string_view what,
                            uint8_t* out, int64_t* plain_len) {
  const EVP_CIPHER* c = CtrCipher(key.size());
  if (c == nullptr) return BadKey(key);
  uint8_t iv[16];
  CtrIv(module.data() + kLengthBytes, iv);
  const uint8_t* ct = module.data() + kCtrOverhead;
  const int ct_len = static_cast<int>(module.size() - kCtrOverhead);
  int n = 0, fin = 0;
  if (EVP_DecryptInit_ex2(ctx_, c, key.data(), iv, nullptr) != 1) return Failed(what, "start AES-CTR");
  if (EVP_DecryptUpdate(ctx_, out, &n, ct, ct_len) != 1) return Failed(what, "decrypt");
  if (EVP_DecryptFinal_ex(ctx_, out + n, &fin) != 1) return Failed(what, "finish AES-CTR");
  *plain_len = n + fin;
  return Status::OK();
}

Status Cipher::GcmEncryptWithNonce(const SecretKey& key, const uint8_t* nonce, std::span<const uint8_t> plain,
                                   std::string_view aad, uint8_t* out) {
  const EVP_CIPHER* c = GcmCipher(key.size());
  if (c == nullptr) return BadKey(key);
  int n = 0, fin = 0;
  if (EVP_EncryptInit_ex2(ctx_, c, key.data(), nonce, nullptr) != 1) return Failed("encryption", "start AES-GCM");
  if (!aad.empty() &&
      EVP_EncryptUpdate(ctx_, nullptr, &n, reinterpret_cast<const uint8_t*>(aad.data()), static_cast<int>(aad.size())) != 1) {
    return Failed("encryption", "take the AAD");
  }
  if (EVP_EncryptUpdate(ctx_, out, &n, plain.data(), static_cast<int>(plain.size())) != 1) {
    return Failed("encryption", "encrypt");
  }
  if (EVP_EncryptFinal_ex(ctx_, out + n, &fin) != 1) return Failed("encryption", "finish AES-GCM");
  if (EVP_CIPHER_CTX_ctrl(ctx_, EVP_CTRL_GCM_GET_TAG, kTagLength, out + n + fin) != 1) {
    return Failed("encryption", "get the tag");
  }
  return Status::OK();
}

Status Cipher::GcmTag(const SecretKey& key, const uint8_t* nonce, std::span<const uint8_t> plain, std::string_view aad,
                      uint8_t* tag) {
  std::vector<uint8_t> out(plain.size() + kTagLength);
  QUIVER_RETURN_NOT_OK(GcmEncryptWithNonce(key, nonce, plain, aad, out.data()));
  std::memcpy(tag, out.data() + plain.size(), kTagLength);
  return Status::OK();
}

Status Cipher::GcmEncrypt(const SecretKey& key, std::span<const uint8_t> plain, std::string_view aad,
                          BufferBuilder* out) {
  const int64_t total = kGcmOverhead + static_cast<int64_t>(plain.size());
  if (total - kLengthBytes > int64_t{0x7FFFFFFF}) return Status::Invalid("a module over 2 GiB cannot be encrypted");
  QUIVER_RETURN_NOT_OK(out->Reserve(total));
  uint8_t* at = out->mutable_data() + out->size();
  const uint32_t len = static_cast<uint32_t>(total - kLengthBytes);
  std::memcpy(at, &len, 4);
  QUIVER_RETURN_NOT_OK(RandomBytes(at + kLengthBytes, kNonceLength));
  QUIVER_RETURN_NOT_OK(GcmEncryptWithNonce(key, at + kLengthBytes, plain, aad, at + kLengthBytes + kNonceLength));
  out->UnsafeSetSize(out->size() + total);
  return Status::OK();
}

Status Cipher::CtrEncrypt(const SecretKey& key, std::span<const uint8_t> plain, BufferBuilder* out) {
  const EVP_CIPHER* c = CtrCipher(key.size());
  if (c == nullptr) return BadKey(key);
  const int64_t total = kCtrOverhead + static_cast<int64_t>(plain.size());
  if (total - kLengthBytes > int64_t{0x7FFFFFFF}) return Status::Invalid("a module over 2 GiB cannot be encrypted");
  QUIVER_RETURN_NOT_OK(out->Reserve(total));
  uint8_t* at = out->mutable_data() + out->size();
  const uint32_t len = static_cast<uint32_t>(total - kLengthBytes);
  std::memcpy(at, &len, 4);
  QUIVER_RETURN_NOT_OK(RandomBytes(at + kLengthBytes, kNonceLength));
  uint8_t iv[16];
  CtrIv(at + kLengthBytes, iv);
  int n = 0, fin = 0;
  if (EVP_EncryptInit_ex2(ctx_, c, key.data(), iv, nullptr) != 1) return Failed("encryption", "start AES-CTR");
  if (EVP_EncryptUpdate(ctx_, at + kCtrOverhead, &n, plain.data(), static_cast<int>(plain.size())) != 1) {
    return Failed("encryption", "encrypt");
  }
  if (EVP_EncryptFinal_ex(ctx_, at + kCtrOverhead + n, &fin) != 1) return Failed("encryption", "finish AES-CTR");
  out->UnsafeSetSize(out->size() + total);
  return Status::OK();
}

}  // namespace crypto
}  // namespace quiver::parquet

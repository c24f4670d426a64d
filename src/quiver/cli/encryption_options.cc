// The Parquet encryption flags onto DecryptionOptions / EncryptionOptions.
#include "quiver/cli/encryption_options.h"

#include <fmt/format.h>
#include <openssl/crypto.h>

namespace quiver::cli {
namespace {

void WipeText(std::string* s) {
  if (s->capacity() > 0) OPENSSL_cleanse(s->data(), s->size());
  s->clear();
}

struct Keys {
  parquet::SecretKey footer;
  std::map<std::string, parquet::SecretKey, std::less<>> columns;
  std::optional<std::string> aad_prefix;
};

Result<Keys> Gather(EncryptionCliOptions* o) {
  Keys k;
  Status st;
  if (!o->keys_file.empty()) {
    st = parquet::ReadKeysFile(o->keys_file, &k.footer, &k.columns, &k.aad_prefix);
  }
  if (st.ok() && !o->footer_key.empty()) {
    auto key = parquet::ParseKey(o->footer_key, "--footer-key");
    if (key.ok()) k.footer = std::move(*key);
    else st = key.status();
  }
  for (std::string& c : o->column_keys) {
    if (!st.ok()) break;
    const size_t eq = c.find('=');
    if (eq == std::string::npos || eq == 0) {
      st = Status::Invalid("--column-key takes column.path=KEY");
      break;
    }
    auto key = parquet::ParseKey(std::string_view(c).substr(eq + 1),
                                 fmt::format("--column-key {}", c.substr(0, eq)));
    if (key.ok()) k.columns[c.substr(0, eq)] = std::move(*key);
    else st = key.status();
  }
  WipeText(&o->footer_key);
  for (std::string& c : o->column_keys) WipeText(&c);
  if (!st.ok()) return st;
  if (o->aad_prefix) k.aad_prefix = o->aad_prefix;
  return k;
}

}  // namespace

Result<parquet::DecryptionOptions> EncryptionCliOptions::ToDecryption() {
  QUIVER_ASSIGN_OR_RETURN(Keys k, Gather(this));
  parquet::DecryptionOptions d;
  d.footer_key = std::move(k.footer);
  d.column_keys = std::move(k.columns);
  d.aad_prefix = std::move(k.aad_prefix);
  return d;
}

Result<parquet::EncryptionOptions> EncryptionCliOptions::ToEncryption() {
  const bool writing_flag = plaintext_footer || no_aad_storage || algorithm != "gcm";
  QUIVER_ASSIGN_OR_RETURN(Keys k, Gather(this));
  parquet::EncryptionOptions e;
  if (k.footer.empty()) {
    if (writing_flag || !k.columns.empty() || k.aad_prefix) {
      return Status::Invalid("writing an encrypted Parquet file needs a footer key (--footer-key or footer= in --keys-file)");
    }
    return e;
  }
  QUIVER_ASSIGN_OR_RETURN(e.algorithm, parquet::EncryptionAlgorithmFromName(algorithm, "--encryption-algorithm"));
  if (no_aad_storage && !k.aad_prefix) return Status::Invalid("--no-aad-storage needs --aad-prefix");
  e.footer_key = std::move(k.footer);
  e.column_keys = std::move(k.columns);
  e.aad_prefix = std::move(k.aad_prefix);
  e.store_aad_prefix = !no_aad_storage;
  e.plaintext_footer = plaintext_footer;
  return e;
}

void AddEncryptionOptions(CLI::App* app, const std::shared_ptr<EncryptionCliOptions>& o, bool write) {
  const char* key_forms = "KEY is hex:DIGITS, base64:TEXT or the raw 16, 24 or 32 characters";
  app->add_option("--footer-key", o->footer_key,
                  fmt::format("Parquet encryption: the footer key (and that of columns encrypted with it); {}",
                              key_forms))
      ->group("Encryption");
  app->add_option("--column-key", o->column_keys,
                  "Parquet encryption: a column's key as column.path=KEY (repeatable)")
      ->group("Encryption");
  app->add_option("--keys-file", o->keys_file,
                  "Parquet encryption: keys from a file, one a line: footer=KEY, column.path=KEY, aad-prefix=TEXT "
                  "(keeps keys out of the shell's history and the process list)")
      ->group("Encryption");
  app->add_option("--aad-prefix", o->aad_prefix, "Parquet encryption: the AAD prefix (file identity)")->group("Encryption");
  if (!write) return;
  app->add_flag("--plaintext-footer", o->plaintext_footer,
                "Parquet encryption: keep the footer readable, signed with the footer key")
      ->group("Encryption");
  app->add_flag("--no-aad-storage", o->no_aad_storage,
                "Parquet encryption: do not store the AAD prefix in the file (readers must be given it)")
      ->group("Encryption");
  app->add_option("--encryption-algorithm", o->algorithm,
                  "Parquet encryption: gcm (AES_GCM_V1, the default) or gcm-ctr (AES_GCM_CTR_V1)")
      ->group("Encryption");
}

}  // namespace quiver::cli

// The Parquet encryption flags shared by the commands that read (cat, convert, schema, meta)
// and by convert's writing side: keys as text (hex:, base64:, raw) or from a keys file.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "quiver/core/result.h"
#include "quiver/parquet/encryption.h"

namespace quiver::cli {

struct EncryptionCliOptions {
  std::string footer_key;                // KEY text, wiped once parsed
  std::vector<std::string> column_keys;  // path=KEY
  std::string keys_file;
  std::optional<std::string> aad_prefix;
  // Writing only (convert).
  bool plaintext_footer = false;
  bool no_aad_storage = false;
  std::string algorithm = "gcm";

  // The keys for a reader; the key texts are wiped from these options.
  Result<parquet::DecryptionOptions> ToDecryption();
  // The keys for a writer (footer key required once any writing flag is given).
  Result<parquet::EncryptionOptions> ToEncryption();
  bool any_key() const { return !footer_key.empty() || !column_keys.empty() || !keys_file.empty(); }
};

// --footer-key, --column-key (repeatable), --aad-prefix, --keys-file; with `write`, also
// --plaintext-footer, --no-aad-storage and --encryption-algorithm.
void AddEncryptionOptions(CLI::App* app, const std::shared_ptr<EncryptionCliOptions>& o, bool write);

}  // namespace quiver::cli

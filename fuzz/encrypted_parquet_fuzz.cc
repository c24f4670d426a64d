// libFuzzer target for encrypted Parquet files: the input is a file, read with the fixed keys of
// parquet-testing's encrypted files (footer key, two column keys) and, when it stores no AAD
// prefix, with the one its twin was written with. Flipped bytes mostly fail a GCM tag; what the
// target reaches besides is the crypto metadata of footers and column chunks, the module lengths,
// the signed plaintext footer and AES-CTR pages, which carry no tag and decode whatever they
// decrypt to. Every path must end in a Status: no crash, no read past a module, no key in a message.
#include <cstdint>
#include <memory>
#include <string>

#include "quiver/core/memory_pool.h"
#include "quiver/core/memory_tracker.h"
#include "quiver/io/file.h"
#include "quiver/parquet/reader/file_reader.h"

using namespace quiver;

namespace {

constexpr const char* kFooterKey = "0123456789012345";

parquet::DecryptionOptions Keys(bool with_aad_prefix) {
  parquet::DecryptionOptions d;
  d.footer_key = parquet::SecretKey(kFooterKey);
  d.column_keys["double_field"] = parquet::SecretKey("1234567890123450");
  d.column_keys["float_field"] = parquet::SecretKey("1234567890123451");
  if (with_aad_prefix) d.aad_prefix = "tester";
  return d;
}

void Read(const std::shared_ptr<Buffer>& bytes, MemoryPool* pool, bool with_aad_prefix) {
  parquet::ParquetReaderOptions opts;
  opts.pool = pool;
  opts.thread_pool = nullptr;
  opts.decryption = Keys(with_aad_prefix);
  auto reader = parquet::ParquetFileReader::Open(io::MemorySource(bytes, "fuzz.parquet.encrypted"), opts);
  if (!reader.ok()) {
    if (reader.status().message().find(kFooterKey) != std::string::npos) __builtin_trap();
    return;
  }
  for (int g = 0; g < (*reader)->num_row_groups(); ++g) {
    auto batch = (*reader)->ReadRowGroup(g);
    if (batch.ok()) {
      for (const auto& c : (*batch)->columns()) (void)c.Validate();
    } else if (batch.status().message().find(kFooterKey) != std::string::npos) {
      __builtin_trap();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static MemoryTracker tracker("encrypted_parquet_fuzz", MemoryTracker::Process(), {.limit = int64_t{256} << 20});
  static TrackedMemoryPool pool(&tracker);
  auto bytes = Buffer::CopyOf({data, size});
  if (!bytes.ok()) return 0;
  Read(*bytes, &pool, false);
  Read(*bytes, &pool, true);
  return 0;
}

// libFuzzer target for the ORC reader: the input is an ORC file (seeds: the Apache ORC example
// files under ../shared/testdata/orc-examples/examples). The tail, stripe footers, index streams
// and every stripe's columns are read under a 512 MiB memory limit; reading must never crash,
// and every batch that decodes must validate.
#include <cstdint>

#include "quiver/core/memory_pool.h"
#include "quiver/io/file.h"
#include "quiver/orc/format.h"
#include "quiver/orc/reader/file_reader.h"

using namespace quiver;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static MemoryTracker tracker("orc_fuzz", MemoryTracker::Process(), {.limit = int64_t{512} << 20});
  static TrackedMemoryPool pool(&tracker);
  auto bytes = Buffer::CopyOf(std::span<const uint8_t>(data, size), &pool);
  if (!bytes.ok()) return 0;
  orc::OrcReaderOptions options;
  options.thread_pool = nullptr;
  options.pool = &pool;
  auto reader = orc::OrcFileReader::Open(io::MemorySource(*bytes, "fuzz"), options);
  if (!reader.ok()) return 0;
  orc::OrcFileReader& r = **reader;
  (void)r.metadata();
  auto selection = r.Select({});
  if (!selection.ok()) __builtin_trap();
  for (int s = 0; s < r.num_stripes() && s < 16; ++s) {
    auto footer = r.ReadStripeFooter(s);
    if (!footer.ok()) continue;
    for (uint32_t c = 0; c < r.footer().types.size() && c < 64; ++c) {
      auto index = r.ReadStream(s, *footer, c, orc::format::stream_kind::kRowIndex);
      if (index.ok() && *index) (void)orc::DecodeRowIndex((*index)->view());
      auto bloom = r.ReadStream(s, *footer, c, orc::format::stream_kind::kBloomFilterUtf8);
      if (bloom.ok() && *bloom) (void)orc::DecodeBloomFilterIndex((*bloom)->view());
    }
    auto batch = r.ReadStripe(s, *selection);
    if (!batch.ok()) continue;
    if (!(*batch)->ToStructArray().Validate().ok()) __builtin_trap();
  }
  return 0;
}

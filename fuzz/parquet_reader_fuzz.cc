// libFuzzer target for the whole Parquet reader: the input is a file. Opening it and decoding
// every row group must return a Status, never crash; memory is capped through a tracked pool so
// that absurd sizes become OutOfMemory instead of the fuzzer's own limit.
#include <cstdint>
#include <memory>

#include "quiver/core/memory_pool.h"
#include "quiver/core/memory_tracker.h"
#include "quiver/io/file.h"
#include "quiver/parquet/reader/file_reader.h"

using namespace quiver;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static MemoryTracker tracker("parquet_reader_fuzz", MemoryTracker::Process(), {.limit = int64_t{256} << 20});
  static TrackedMemoryPool pool(&tracker);
  auto bytes = Buffer::CopyOf({data, size});
  if (!bytes.ok()) return 0;
  parquet::ParquetReaderOptions opts;
  opts.pool = &pool;
  opts.thread_pool = nullptr;
  auto reader = parquet::ParquetFileReader::Open(io::MemorySource(*bytes, "fuzz.parquet"), opts);
  if (!reader.ok()) return 0;
  for (int g = 0; g < (*reader)->num_row_groups(); ++g) {
    auto batch = (*reader)->ReadRowGroup(g);
    if (batch.ok()) {
      for (const auto& c : (*batch)->columns()) (void)c.Validate();
    }
  }
  return 0;
}

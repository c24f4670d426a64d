// What orc_fuzz does with one input, shared with its regression replay
// (tests/orc/fuzz_regression_test.cc): the tail, stripe footers and index streams, then the
// rows as `quiver cat` reads them (stream::OrcStreamReader: stripes in row batches over streams
// expanded a chunk at a time), twice: every column in batches of a few hundred rows, then every
// other top-level column (and a dotted path into a struct) in batches of a few rows, so that
// batch boundaries fall inside stripes, runs and chunks. Batch sizes follow the input's size,
// so that mutations vary them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "quiver/core/memory_pool.h"
#include "quiver/io/file.h"
#include "quiver/orc/format.h"
#include "quiver/orc/reader/file_reader.h"
#include "quiver/stream/orc_stream.h"

namespace quiver::orc::fuzzing {

// Reads `columns` (empty: all) in batches of `batch_rows`, at most about `max_rows` rows; the
// broken invariant, or null. Errors reading are fine, wrong batches are not.
inline const char* ReadAsCat(const std::shared_ptr<Buffer>& bytes, MemoryPool* pool, int64_t batch_rows, int64_t max_rows,
                             const std::vector<std::string>& columns) {
  OrcReaderOptions options;
  options.thread_pool = nullptr;
  options.pool = pool;
  options.batch_rows = batch_rows;
  auto file = OrcFileReader::Open(io::MemorySource(bytes, "fuzz"), options);
  if (!file.ok()) return nullptr;
  // Fields named alike, or with dots in their names, may not be selectable by name.
  auto reader = stream::OrcStreamReader::Make(std::shared_ptr<OrcFileReader>(std::move(*file)), columns);
  if (!reader.ok()) return nullptr;
  int64_t rows = 0;
  while (rows < max_rows) {
    auto batch = (*reader)->Next();
    if (!batch.ok() || *batch == nullptr) return nullptr;
    if ((*batch)->num_rows() > batch_rows) return "a batch holds more rows than asked for";
    if (!(*batch)->ToStructArray().Validate().ok()) return "a batch does not validate";
    rows += std::max<int64_t>(1, (*batch)->num_rows());
  }
  return nullptr;
}

// The pool the fuzz target reads with: 512 MiB at most.
inline MemoryPool* FuzzPool() {
  static MemoryTracker tracker("orc_fuzz", MemoryTracker::Process(), {.limit = int64_t{512} << 20});
  static TrackedMemoryPool pool(&tracker);
  return &pool;
}

// The whole of one fuzz input; the broken invariant, or null.
inline const char* ReadInput(std::span<const uint8_t> data, MemoryPool* pool = FuzzPool()) {
  auto bytes = Buffer::CopyOf(data, pool);
  if (!bytes.ok()) return nullptr;
  OrcReaderOptions options;
  options.thread_pool = nullptr;
  options.pool = pool;
  auto reader = OrcFileReader::Open(io::MemorySource(*bytes, "fuzz"), options);
  if (!reader.ok()) return nullptr;
  OrcFileReader& r = **reader;
  (void)r.metadata();
  for (int s = 0; s < r.num_stripes() && s < 16; ++s) {
    auto footer = r.ReadStripeFooter(s);
    if (!footer.ok()) continue;
    for (uint32_t c = 0; c < r.footer().types.size() && c < 64; ++c) {
      auto index = r.ReadStream(s, *footer, c, format::stream_kind::kRowIndex);
      if (index.ok() && *index) (void)DecodeRowIndex((*index)->view());
      auto bloom = r.ReadStream(s, *footer, c, format::stream_kind::kBloomFilterUtf8);
      if (bloom.ok() && *bloom) (void)DecodeBloomFilterIndex((*bloom)->view());
    }
  }
  // Every other top-level field, and the first child of a struct among the rest by its dotted path.
  std::vector<std::string> some;
  const SchemaPtr& schema = r.schema();
  for (int i = 0; i < schema->num_fields(); i += 2) some.push_back(schema->field(i).name);
  for (int i = 1; i < schema->num_fields(); i += 2) {
    const Field& f = schema->field(i);
    if (f.type->id() == TypeId::kStruct && f.type->num_fields() > 0) {
      some.push_back(f.name + "." + f.type->field(0).name);
      break;
    }
  }
  const int64_t size = static_cast<int64_t>(data.size());
  if (const char* broken = ReadAsCat(*bytes, pool, 1 + size % 509, 20000, {})) return broken;
  if (!some.empty()) return ReadAsCat(*bytes, pool, 1 + size % 13, 600, some);
  return nullptr;
}

}  // namespace quiver::orc::fuzzing

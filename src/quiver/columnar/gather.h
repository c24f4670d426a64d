// Gathering rows: chosen rows of arrays of one type, from one array (Take) or several in turn
// (GatherBuilder), copied into a new array. Flat types: fixed-width, boolean, string and binary.
#pragma once

#include <memory>
#include <span>

#include "quiver/columnar/array.h"
#include "quiver/core/memory_pool.h"

namespace quiver {

// Rows of one type appended from any number of arrays, each its own list of row indices. The
// values grow in blocks that never move (doubling from 256 bytes to 64 KiB), so that many
// builders growing side by side leave no outgrown copies in the allocator; Finish copies them
// into one buffer each.
class GatherBuilder {
 public:
  GatherBuilder(TypePtr type, MemoryPool* pool = default_memory_pool());
  ~GatherBuilder();
  GatherBuilder(GatherBuilder&&) noexcept;
  GatherBuilder& operator=(GatherBuilder&&) noexcept;

  // Appends `array`'s rows `rows` (indices relative to its offset, each in [0, length)) in the
  // order given. NotImplemented for a nested type; Invalid past 2 GiB of string bytes.
  Status Append(const ArrayData& array, std::span<const int32_t> rows);
  // The rows so far as one array (validity only when some are null); the builder starts over.
  Result<Array> Finish();

  int64_t length() const;
  // Bytes it holds: its buffers and itself.
  int64_t held() const;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// `values`' rows `indices` as a new array of the same type.
Result<Array> Take(const Array& values, std::span<const int32_t> indices, MemoryPool* pool = default_memory_pool());

}  // namespace quiver

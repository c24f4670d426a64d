// MemoryPool: 64-byte aligned allocation charged to a MemoryTracker. Freed sizes come from
// the allocator's usable-size query, so no per-allocation table exists anywhere.
#pragma once

#include <cstdint>

#include "quiver/core/memory_tracker.h"
#include "quiver/core/status.h"

namespace quiver {

inline constexpr int64_t kAlignment = 64;

class MemoryPool {
 public:
  virtual ~MemoryPool() = default;
  // size 0 yields a valid, non-null pointer that must still be passed to Free.
  virtual Status Allocate(int64_t size, uint8_t** out) = 0;
  // Moves the block to one of at least new_size bytes, keeping the first min(old, new) bytes.
  // On failure *ptr is untouched and still owned by the caller.
  virtual Status Reallocate(int64_t new_size, uint8_t** ptr) = 0;
  virtual void Free(uint8_t* ptr) = 0;
  // Bytes the allocator really handed out for this block (>= the size asked for).
  virtual int64_t UsableSize(const uint8_t* ptr) const = 0;
  virtual MemoryTracker* tracker() const = 0;
  virtual const char* backend_name() const = 0;
};

// A pool charging every byte to `tracker` (the process tracker by default).
class TrackedMemoryPool final : public MemoryPool {
 public:
  explicit TrackedMemoryPool(MemoryTracker* tracker = MemoryTracker::Process()) : tracker_(tracker) {}
  Status Allocate(int64_t size, uint8_t** out) override;
  Status Reallocate(int64_t new_size, uint8_t** ptr) override;
  void Free(uint8_t* ptr) override;
  int64_t UsableSize(const uint8_t* ptr) const override;
  MemoryTracker* tracker() const override { return tracker_; }
  const char* backend_name() const override;

 private:
  [[gnu::noinline, gnu::cold]] Status AllocateSlow(int64_t size, uint8_t** out);

  MemoryTracker* tracker_;
};

// The process-wide pool, charged to MemoryTracker::Process().
MemoryPool* default_memory_pool();

// For programs that stream large data (the quiver CLI, benchmarks): tells mimalloc to keep
// freed pages (no decommit, not even delayed), so that buffers freed after one batch serve the
// next without page faults (which serialise threads on the kernel's memory map lock). A
// library does not call this on its host's behalf. No-op with the system allocator.
// QUIVER_LARGE_OS_PAGES=1 asks for 2 MiB pages; by default they stay 4 KiB, which a VM that
// reports free memory to its host hands out for less (docs/DESIGN.md, "Fresh memory").
// (A whole-file Parquet read's output does not come from here: its arenas map 4 KiB pages of
// their own, parquet/reader/output_arena_internal.h.)
void ConfigureAllocatorForStreaming();

}  // namespace quiver

// RecyclingPool: a MemoryPool that keeps freed blocks of 16 KiB..16 MiB by power-of-two class
// and hands them to the next allocations, while at least one user (a CSV reader) is open.
#pragma once

#include <cstdint>
#include <mutex>
#include <vector>

#include "quiver/core/memory_pool.h"

namespace quiver {

// Fresh pages cost a fault each (tens of microseconds under virtualisation, and threads that
// fault at once queue on the kernel's memory-map lock); a reader that parses the next block
// while its caller still holds the last one's batches would otherwise keep reaching for fresh
// ones. Kept blocks stay charged to the base pool's tracker, up to `keep_bytes`. While no user
// is open, freed blocks go straight back to the base pool.
class RecyclingPool final : public MemoryPool {
 public:
  static constexpr int64_t kMinSize = int64_t{16} << 10;
  static constexpr int64_t kMaxSize = int64_t{16} << 20;
  // A few chunks' columns: more would stay resident beside the batches a consumer holds, and
  // the allocator keeps what it is given back anyway.
  static constexpr int64_t kDefaultKeep = int64_t{16} << 20;

  explicit RecyclingPool(MemoryPool* base = default_memory_pool(), int64_t keep_bytes = kDefaultKeep)
      : base_(base), keep_(keep_bytes) {}
  ~RecyclingPool() override;

  // The process-wide pool of the CSV readers' column buffers: process-wide, because batches
  // outlive their reader. Never destroyed.
  static RecyclingPool* Shared();

  // Users open: blocks are kept only while at least one is. The last one leaving frees them.
  void AddUser();
  void RemoveUser();
  // Bytes held for reuse now.
  int64_t kept_bytes() const;

  Status Allocate(int64_t size, uint8_t** out) override;
  Status Reallocate(int64_t new_size, uint8_t** ptr) override;
  void Free(uint8_t* ptr) override;
  int64_t UsableSize(const uint8_t* ptr) const override { return base_->UsableSize(ptr); }
  MemoryTracker* tracker() const override { return base_->tracker(); }
  const char* backend_name() const override { return "csv-recycling"; }

 private:
  static int ClassAtLeast(int64_t size) { return 64 - __builtin_clzll(static_cast<uint64_t>(size - 1)); }
  void DropKept();

  MemoryPool* base_;
  const int64_t keep_;
  mutable std::mutex mu_;
  std::vector<uint8_t*> free_[64];
  int64_t kept_ = 0;
  int users_ = 0;
};

}  // namespace quiver

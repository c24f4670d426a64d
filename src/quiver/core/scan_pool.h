// ScanPool: a MemoryPool that keeps the large blocks its callers free and hands them out
// again, so that a stream of batches of about the same size (a Parquet scan's row groups)
// reuses memory already faulted in instead of touching fresh pages for every batch.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include "quiver/core/memory_pool.h"

namespace quiver {

// Why: on a virtual machine a fresh page may cost the host a fault of its own, which can
// outweigh decoding it; a consumer that releases each batch before asking for the next one
// needs only the memory of the batches in flight, touched once.
// Blocks of at least kMinRecycled bytes are rounded up to a quarter of their power of two (so
// that the next batch's slightly different sizes fit a kept block) and kept when freed, up to
// the most bytes the pool's callers held at once: the pool never holds more than the stream
// did. A kept block serves a request it fits within twice its size. Smaller ones go straight to
// `parent`, without the lock. Buffers keep a pointer to their pool, so the pool lives until
// its last buffer is freed: it is made on the heap and deletes itself once its owner called
// Close() (which frees the blocks kept) and every buffer it handed out is freed.
class ScanPool final : public MemoryPool {
 public:
  static constexpr int64_t kMinRecycled = int64_t{64} << 10;

  static ScanPool* Make(MemoryPool* parent) { return new ScanPool(parent); }
  // The owner is done allocating: the blocks kept are freed, and so will be those freed later.
  void Close();
  ScanPool(const ScanPool&) = delete;
  ScanPool& operator=(const ScanPool&) = delete;

  Status Allocate(int64_t size, uint8_t** out) override;
  Status Reallocate(int64_t new_size, uint8_t** ptr) override;
  void Free(uint8_t* ptr) override;
  int64_t UsableSize(const uint8_t* ptr) const override { return parent_->UsableSize(ptr); }
  MemoryTracker* tracker() const override { return parent_->tracker(); }
  const char* backend_name() const override { return "recycling"; }

  // Large allocations served from kept blocks, and from the parent, so far.
  int64_t reused() const;
  int64_t fresh() const;

 private:
  explicit ScanPool(MemoryPool* parent) : parent_(parent) {}
  ~ScanPool() override = default;
  void Unref();

  MemoryPool* parent_;
  std::atomic<int64_t> refs_{1};  // buffers not yet freed, plus one until Close()
  mutable std::mutex mu_;
  std::vector<std::pair<int64_t, uint8_t*>> kept_;  // (usable size, block)
  int64_t kept_bytes_ = 0;
  int64_t live_bytes_ = 0;  // large blocks handed out and not yet freed
  int64_t high_bytes_ = 0;  // the most live_bytes_ reached
  int64_t reused_ = 0, fresh_ = 0;
  bool closed_ = false;
};

}  // namespace quiver

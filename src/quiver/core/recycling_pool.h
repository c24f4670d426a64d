// RecyclingPool: a MemoryPool that keeps the blocks its callers free and hands them to the next
// allocations, so that a stream of batches of about the same sizes reuses memory already
// faulted in. Two policies: the CSV readers' process-wide pool (power-of-two classes) and a
// Parquet scan's own pool (any size); both keep blocks up to the most their callers held at once.
#pragma once

#include <atomic>
#include <climits>
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

#include "quiver/core/memory_pool.h"

namespace quiver {

// Which blocks a RecyclingPool keeps, and how it hands them out.
struct RecyclingPolicy {
  static constexpr int64_t kHighWater = -1;
  int64_t min_size = 0;  // smaller requests go straight to the base pool, without the lock
  // Larger requests too (a block freed of up to twice this size is still kept).
  int64_t max_size = INT64_MAX / 4;
  // Power-of-two classes: a request is rounded up to its power of two, so that its block serves
  // any later size of its class, and is served only from that class. Otherwise a fresh block is
  // rounded up to a quarter of its power of two (so that the next batch's slightly different
  // sizes fit it) and a request takes the smallest kept block it fits within twice its size
  // (within four times it when a fresh block would take a high-water pool past its mark).
  bool power_of_two = false;
  // Kept bytes at most; kHighWater: never more than the pool's callers held at once (kept and
  // live together), so the pool holds no more than the stream it serves did.
  int64_t keep_bytes = kHighWater;
};

// The CSV readers': blocks of 16 KiB..16 MiB by power-of-two class, kept up to the most its
// callers held at once (a convert holds about 70 MB: two row groups of batches in the writer,
// the read-ahead queue and two blocks of chunks in the reader). Blocks freed past that mark, or
// with no reader open, go back to the allocator, which would hand them out again as fresh
// pages once it returned them to the OS.
inline constexpr RecyclingPolicy kCsvRecycling{int64_t{16} << 10, int64_t{16} << 20, true, RecyclingPolicy::kHighWater};
// A scan's: blocks of 64 KiB and more, rounded to quarters, kept up to the high-water mark.
inline constexpr RecyclingPolicy kScanRecycling{int64_t{64} << 10, INT64_MAX / 4, false, RecyclingPolicy::kHighWater};

// Why: a fresh page costs a fault (tens of microseconds under virtualisation, where the host
// may fault too, and threads that fault at once queue on the kernel's memory-map lock); a
// reader whose caller releases its batches while the next ones are decoded needs only the
// memory of the batches in flight, touched once. Kept blocks stay charged to the base pool's
// tracker. Blocks are kept only while a user is open (AddUser/RemoveUser; a scan's pool opens
// with one user that Close() removes); the last user leaving frees them.
class RecyclingPool final : public MemoryPool {
 public:
  // A pool its creator destroys (after every block it handed out was freed); no user open.
  explicit RecyclingPool(MemoryPool* base = default_memory_pool(), RecyclingPolicy policy = kCsvRecycling);
  ~RecyclingPool() override;
  RecyclingPool(const RecyclingPool&) = delete;
  RecyclingPool& operator=(const RecyclingPool&) = delete;

  // The process-wide pool of the CSV readers' column buffers: process-wide, because batches
  // outlive their reader. Never destroyed.
  static RecyclingPool* Shared();
  // A pool on the heap, open with one user, that deletes itself once Close() was called and
  // every block it handed out is freed (buffers keep a pointer to their pool and may outlive
  // the reader that made them): a scan's.
  static RecyclingPool* Make(MemoryPool* base, RecyclingPolicy policy = kScanRecycling);
  // Make's owner is done allocating: the blocks kept are freed, and so will be those freed later.
  void Close();

  void AddUser();
  void RemoveUser();
  // Bytes held for reuse now (a power-of-two policy counts each block as its class's size).
  int64_t kept_bytes() const;
  // Requests of min_size..max_size served from kept blocks, and from the base pool, so far.
  int64_t reused() const { return reused_.load(std::memory_order_relaxed); }
  int64_t fresh() const { return fresh_.load(std::memory_order_relaxed); }

  Status Allocate(int64_t size, uint8_t** out) override;
  Status Reallocate(int64_t new_size, uint8_t** ptr) override;
  void Free(uint8_t* ptr) override;
  int64_t UsableSize(const uint8_t* ptr) const override { return base_->UsableSize(ptr); }
  MemoryTracker* tracker() const override { return base_->tracker(); }
  const char* backend_name() const override { return "recycling"; }

 private:
  struct Kept {
    int64_t usable;
    uint8_t* block;
  };
  // The bin of a block: the power of two its usable size fills.
  static int BinOf(int64_t usable) { return 63 - __builtin_clzll(static_cast<uint64_t>(usable)); }
  // What a kept block counts for against keep_bytes.
  int64_t Charge(int64_t usable) const { return policy_.power_of_two ? int64_t{1} << BinOf(usable) : usable; }
  // A kept block for `size` (under the lock), or null.
  uint8_t* TakeKept(int64_t size);
  void DropKept();
  void Unref();

  MemoryPool* base_;
  const RecyclingPolicy policy_;
  bool self_deleting_ = false;
  std::atomic<int64_t> refs_{1};  // Make's pools: blocks not yet freed, plus one until Close()
  mutable std::mutex mu_;
  std::vector<Kept> bins_[64];
  int64_t kept_ = 0;        // charged bytes of the kept blocks
  int64_t live_bytes_ = 0;  // usable bytes of the blocks of at least min_size handed out and not yet freed
  int64_t high_bytes_ = 0;  // the most live_bytes_ reached
  std::atomic<int64_t> reused_{0}, fresh_{0};
  int users_ = 0;
};

}  // namespace quiver

// MemoryTracker: a tree of byte counters (process -> operation -> component) with optional
// limits. Threads reserve from the shared counters in quanta so the common path is thread-local.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace quiver {

namespace internal {
struct TrackerCacheEntry;
}

class MemoryTracker {
 public:
  static constexpr int64_t kNoLimit = -1;
  // Bytes a thread takes from the shared counters at a time. A tracker with a limit uses
  // min(kDefaultQuantum, limit / 64), so slack held by other threads stays small next to it.
  static constexpr int64_t kDefaultQuantum = int64_t{1} << 20;

  struct Options {
    int64_t limit = kNoLimit;
    // -1: choose from the limit as above; 0: no thread-local slack (every call hits the
    // shared counters, so peak_bytes() is exact too).
    int64_t quantum = -1;
  };

  // The root of every tree: the whole process. Never destroyed.
  static MemoryTracker* Process();

  explicit MemoryTracker(std::string name, MemoryTracker* parent = Process());
  MemoryTracker(std::string name, MemoryTracker* parent, Options options);
  ~MemoryTracker();
  MemoryTracker(const MemoryTracker&) = delete;
  MemoryTracker& operator=(const MemoryTracker&) = delete;

  // Accounts `bytes` here and in every ancestor, or returns false (and changes nothing) when
  // that would exceed a limit anywhere on the way up.
  bool TryConsume(int64_t bytes);
  void Release(int64_t bytes);
  // Returns this thread's slack for this tracker to the shared counters.
  void Settle();

  const std::string& name() const { return name_; }
  MemoryTracker* parent() const { return parent_; }
  int64_t limit() const { return limit_.load(std::memory_order_relaxed); }
  void set_limit(int64_t limit);

  // Bytes consumed and not released, here and below: exact whenever no thread is mid-call.
  int64_t current_bytes() const;
  // Highest value the shared counter reached: exact with quantum 0; otherwise it can exceed
  // the true peak by at most one quantum per thread that used the tracker.
  int64_t peak_bytes() const { return peak_.load(std::memory_order_relaxed); }
  // The name of the tracker whose limit refused the last failed TryConsume (for messages).
  std::string LimitReport(int64_t requested) const;

 private:
  friend struct internal::TrackerCacheEntry;
  struct RootTag {};
  explicit MemoryTracker(RootTag);

  internal::TrackerCacheEntry* CacheEntry();
  bool ReserveShared(int64_t bytes);
  void ReleaseShared(int64_t bytes);
  int64_t SlackBelowLocked() const;

  std::string name_;
  MemoryTracker* parent_;
  uint64_t id_;
  int64_t quantum_;
  std::atomic<int64_t> limit_;
  alignas(64) std::atomic<int64_t> reserved_{0};
  std::atomic<int64_t> peak_{0};
  // Guarded by the global registry mutex: thread caches bound to this tracker, and children.
  std::vector<internal::TrackerCacheEntry*> entries_;
  std::vector<MemoryTracker*> children_;
};

}  // namespace quiver

// MemoryTracker: a tree of byte counters (process -> operation -> component) with optional
// limits. Threads reserve from the shared counters in quanta so the common path is thread-local.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace quiver {

class MemoryTracker;

namespace internal {

// One thread's slack for one tracker. Only the owning thread writes `slack` on the fast path;
// the fields are atomic so that other threads (current_bytes(), tracker destruction) can
// read or clear them without a data race. Relaxed loads and stores compile to plain moves.
struct TrackerCacheEntry {
  std::atomic<MemoryTracker*> tracker{nullptr};
  std::atomic<uint64_t> id{0};
  std::atomic<int64_t> slack{0};
  // How much slack this thread keeps for the tracker: starts at the tracker's quantum and
  // doubles (up to its cap) each time the slack runs dry, so a thread that allocates large
  // blocks stops touching the shared counters after a few refills.
  std::atomic<int64_t> target{0};

  bool Holds(const MemoryTracker* t, uint64_t tid) const {
    return tracker.load(std::memory_order_relaxed) == t && id.load(std::memory_order_relaxed) == tid;
  }
  void Clear() {
    tracker.store(nullptr, std::memory_order_relaxed);
    id.store(0, std::memory_order_relaxed);
  }
  static void UnbindLocked(MemoryTracker* t, TrackerCacheEntry* e, int64_t slack);
};

inline constexpr int kTrackerCacheEntries = 8;

// Trivially destructible and constant-initialised, so every access is a plain TLS load with
// no initialisation guard; returning slack at thread exit is done by a separate guard object
// that the slow path creates.
struct TrackerThreadCache {
  TrackerCacheEntry entries[kTrackerCacheEntries];
  unsigned last = 0;
  unsigned victim = 0;
  bool exit_guard = false;
};
extern thread_local constinit TrackerThreadCache tls_tracker_cache;

}  // namespace internal

class MemoryTracker {
 public:
  static constexpr int64_t kNoLimit = -1;
  // Bytes a thread takes from the shared counters at a time. A tracker with a limit uses
  // min(kDefaultQuantum, limit / 64), so slack held by other threads stays small next to it.
  static constexpr int64_t kDefaultQuantum = int64_t{1} << 20;
  // Without a limit on the way to the root, a busy thread's slack may grow to this many quanta.
  static constexpr int64_t kMaxQuantaPerThread = 64;

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
  bool TryConsume(int64_t bytes) {
    internal::TrackerCacheEntry* e = &internal::tls_tracker_cache.entries[internal::tls_tracker_cache.last];
    if (e->Holds(this, id_)) [[likely]] {
      int64_t slack = e->slack.load(std::memory_order_relaxed);
      if (slack >= bytes) [[likely]] {
        e->slack.store(slack - bytes, std::memory_order_relaxed);
        return true;
      }
    }
    return TryConsumeSlow(bytes);
  }
  void Release(int64_t bytes) {
    internal::TrackerCacheEntry* e = &internal::tls_tracker_cache.entries[internal::tls_tracker_cache.last];
    if (e->Holds(this, id_)) [[likely]] {
      int64_t slack = e->slack.load(std::memory_order_relaxed) + bytes;
      if (slack <= 2 * e->target.load(std::memory_order_relaxed)) [[likely]] {
        e->slack.store(slack, std::memory_order_relaxed);
        return;
      }
    }
    ReleaseSlow(bytes);
  }
  // Returns this thread's slack for this tracker to the shared counters.
  void Settle();

  const std::string& name() const { return name_; }
  MemoryTracker* parent() const { return parent_; }
  int64_t limit() const { return limit_.load(std::memory_order_relaxed); }
  void set_limit(int64_t limit);

  // Bytes consumed and not released, here and below: exact whenever no thread is mid-call.
  int64_t current_bytes() const;
  // Highest value the shared counter reached: exact with quantum 0; otherwise it can exceed
  // the true peak by the slack threads held (one quantum each with a limit, more for threads
  // that allocate many large blocks without one).
  int64_t peak_bytes() const { return peak_.load(std::memory_order_relaxed); }
  // The name of the tracker whose limit refused the last failed TryConsume (for messages).
  std::string LimitReport(int64_t requested) const;

 private:
  friend struct internal::TrackerCacheEntry;
  struct RootTag {};
  explicit MemoryTracker(RootTag);

  internal::TrackerCacheEntry* CacheEntry();
  bool TryConsumeSlow(int64_t bytes);
  void ReleaseSlow(int64_t bytes);
  bool ReserveShared(int64_t bytes);
  void ReleaseShared(int64_t bytes);
  int64_t SlackBelowLocked() const;

  std::string name_;
  MemoryTracker* parent_;
  uint64_t id_;
  int64_t quantum_;
  int64_t max_target_;  // quantum_, or kMaxQuantaPerThread quanta when no limit applies
  std::atomic<int64_t> limit_;
  alignas(64) std::atomic<int64_t> reserved_{0};
  std::atomic<int64_t> peak_{0};
  // Guarded by the global registry mutex: thread caches bound to this tracker, and children.
  std::vector<internal::TrackerCacheEntry*> entries_;
  std::vector<MemoryTracker*> children_;
};

}  // namespace quiver

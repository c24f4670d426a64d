#include "quiver/core/memory_tracker.h"

#include <fmt/format.h>

#include <algorithm>
#include <mutex>

namespace quiver {

namespace internal {

thread_local constinit TrackerThreadCache tls_tracker_cache;

void TrackerCacheEntry::UnbindLocked(MemoryTracker* t, TrackerCacheEntry* e, int64_t slack) {
  if (slack != 0) t->ReleaseShared(slack);
  auto& v = t->entries_;
  v.erase(std::remove(v.begin(), v.end(), e), v.end());
}

}  // namespace internal

namespace {

using internal::TrackerCacheEntry;
using internal::kTrackerCacheEntries;
using internal::tls_tracker_cache;

// Registration of caches and children is rare (first use of a tracker on a thread, tracker
// creation and destruction), so one process-wide mutex keeps it simple.
std::mutex& RegistryMutex() {
  static std::mutex* mu = new std::mutex;
  return *mu;
}

std::atomic<uint64_t> g_next_id{1};

// Returns this thread's slack to its tracker and unbinds the entry.
void Evict(TrackerCacheEntry* e) {
  std::lock_guard<std::mutex> lock(RegistryMutex());
  MemoryTracker* t = e->tracker.load(std::memory_order_relaxed);
  if (t == nullptr) return;
  e->Clear();
  TrackerCacheEntry::UnbindLocked(t, e, e->slack.exchange(0, std::memory_order_relaxed));
}

// Created on a thread's first binding; at thread exit, hands every slack back.
struct ThreadExitGuard {
  ~ThreadExitGuard() {
    for (auto& e : tls_tracker_cache.entries) Evict(&e);
  }
};
thread_local ThreadExitGuard tls_exit_guard;

}  // namespace

MemoryTracker* MemoryTracker::Process() {
  static MemoryTracker* root = new MemoryTracker(RootTag{});
  return root;
}

MemoryTracker::MemoryTracker(RootTag)
    : name_("process"),
      parent_(nullptr),
      id_(g_next_id.fetch_add(1)),
      quantum_(kDefaultQuantum),
      max_target_(kDefaultQuantum * kMaxQuantaPerThread),
      limit_(kNoLimit) {}

MemoryTracker::MemoryTracker(std::string name, MemoryTracker* parent)
    : MemoryTracker(std::move(name), parent, Options{}) {}

MemoryTracker::MemoryTracker(std::string name, MemoryTracker* parent, Options options)
    : name_(std::move(name)),
      parent_(parent),
      id_(g_next_id.fetch_add(1)),
      limit_(options.limit) {
  if (options.quantum >= 0) {
    quantum_ = options.quantum;
  } else {
    quantum_ = kDefaultQuantum;
    if (options.limit >= 0) quantum_ = std::min(quantum_, options.limit / 64);
    if (parent_) quantum_ = std::min(quantum_, parent_->quantum_);
  }
  bool limited = options.limit >= 0;
  for (MemoryTracker* p = parent_; p != nullptr; p = p->parent_) limited |= p->limit() >= 0;
  max_target_ = limited ? quantum_ : quantum_ * kMaxQuantaPerThread;
  if (parent_) {
    std::lock_guard<std::mutex> lock(RegistryMutex());
    parent_->children_.push_back(this);
  }
}

MemoryTracker::~MemoryTracker() {
  std::lock_guard<std::mutex> lock(RegistryMutex());
  for (TrackerCacheEntry* e : entries_) {
    e->slack.store(0, std::memory_order_relaxed);
    e->Clear();
  }
  entries_.clear();
  // What is still reserved here (slack, or allocations that outlived the tracker, which is a
  // caller bug) is handed back so that the ancestors' counters stay truthful.
  int64_t remaining = reserved_.load(std::memory_order_relaxed);
  for (MemoryTracker* p = parent_; p != nullptr; p = p->parent_) {
    p->reserved_.fetch_sub(remaining, std::memory_order_relaxed);
  }
  if (parent_) {
    auto& siblings = parent_->children_;
    siblings.erase(std::remove(siblings.begin(), siblings.end(), this), siblings.end());
  }
  for (MemoryTracker* c : children_) c->parent_ = nullptr;
}

internal::TrackerCacheEntry* MemoryTracker::CacheEntry() {
  internal::TrackerThreadCache& c = tls_tracker_cache;
  TrackerCacheEntry* e = &c.entries[c.last];
  if (e->Holds(this, id_)) [[likely]] return e;
  for (unsigned i = 0; i < kTrackerCacheEntries; ++i) {
    e = &c.entries[i];
    if (e->Holds(this, id_)) {
      c.last = i;
      return e;
    }
  }
  // Bind a free entry, evicting one round-robin if all are taken.
  unsigned slot = kTrackerCacheEntries;
  for (unsigned i = 0; i < kTrackerCacheEntries; ++i) {
    if (c.entries[i].tracker.load(std::memory_order_relaxed) == nullptr) {
      slot = i;
      break;
    }
  }
  if (slot == kTrackerCacheEntries) {
    slot = c.victim++ % kTrackerCacheEntries;
    Evict(&c.entries[slot]);
  }
  if (!c.exit_guard) {
    c.exit_guard = true;
    (void)&tls_exit_guard;  // odr-use constructs it, registering its destructor
  }
  e = &c.entries[slot];
  {
    std::lock_guard<std::mutex> lock(RegistryMutex());
    e->tracker.store(this, std::memory_order_relaxed);
    e->id.store(id_, std::memory_order_relaxed);
    e->slack.store(0, std::memory_order_relaxed);
    e->target.store(quantum_, std::memory_order_relaxed);
    entries_.push_back(e);
  }
  c.last = slot;
  return e;
}

bool MemoryTracker::ReserveShared(int64_t bytes) {
  for (MemoryTracker* t = this; t != nullptr; t = t->parent_) {
    int64_t now = t->reserved_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    int64_t limit = t->limit_.load(std::memory_order_relaxed);
    if (limit >= 0 && now > limit) [[unlikely]] {
      for (MemoryTracker* u = this; u != t->parent_; u = u->parent_) {
        u->reserved_.fetch_sub(bytes, std::memory_order_relaxed);
      }
      return false;
    }
    int64_t peak = t->peak_.load(std::memory_order_relaxed);
    while (now > peak &&
           !t->peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
    }
  }
  return true;
}

void MemoryTracker::ReleaseShared(int64_t bytes) {
  for (MemoryTracker* t = this; t != nullptr; t = t->parent_) {
    t->reserved_.fetch_sub(bytes, std::memory_order_relaxed);
  }
}

bool MemoryTracker::TryConsumeSlow(int64_t bytes) {
  TrackerCacheEntry* e = CacheEntry();
  int64_t slack = e->slack.load(std::memory_order_relaxed);
  if (slack >= bytes) {
    e->slack.store(slack - bytes, std::memory_order_relaxed);
    return true;
  }
  // Take what is missing plus a fresh target's worth; near a limit, only what is missing.
  int64_t missing = bytes - slack;
  int64_t target = e->target.load(std::memory_order_relaxed);
  if (target > 0 && ReserveShared(missing + target)) {
    e->slack.store(target, std::memory_order_relaxed);
    e->target.store(std::min(target * 2, max_target_), std::memory_order_relaxed);
    return true;
  }
  e->target.store(quantum_, std::memory_order_relaxed);
  if (ReserveShared(missing)) {
    e->slack.store(0, std::memory_order_relaxed);
    return true;
  }
  return false;
}

void MemoryTracker::ReleaseSlow(int64_t bytes) {
  TrackerCacheEntry* e = CacheEntry();
  int64_t slack = e->slack.load(std::memory_order_relaxed) + bytes;
  int64_t target = e->target.load(std::memory_order_relaxed);
  if (slack > 2 * target) {
    ReleaseShared(slack - target);
    slack = target;
  }
  e->slack.store(slack, std::memory_order_relaxed);
}

void MemoryTracker::Settle() {
  TrackerCacheEntry* e = CacheEntry();
  int64_t slack = e->slack.exchange(0, std::memory_order_relaxed);
  if (slack != 0) ReleaseShared(slack);
}

void MemoryTracker::set_limit(int64_t limit) { limit_.store(limit, std::memory_order_relaxed); }

int64_t MemoryTracker::SlackBelowLocked() const {
  int64_t slack = 0;
  for (const TrackerCacheEntry* e : entries_) slack += e->slack.load(std::memory_order_relaxed);
  for (const MemoryTracker* c : children_) slack += c->SlackBelowLocked();
  return slack;
}

int64_t MemoryTracker::current_bytes() const {
  std::lock_guard<std::mutex> lock(RegistryMutex());
  return reserved_.load(std::memory_order_relaxed) - SlackBelowLocked();
}

std::string MemoryTracker::LimitReport(int64_t requested) const {
  for (const MemoryTracker* t = this; t != nullptr; t = t->parent_) {
    int64_t limit = t->limit();
    if (limit >= 0 && t->current_bytes() + requested > limit) {
      return fmt::format("allocating {} bytes would exceed the limit of {} bytes of '{}' ({} in use)",
                         requested, limit, t->name_, t->current_bytes());
    }
  }
  return fmt::format("allocating {} bytes would exceed a memory limit", requested);
}

}  // namespace quiver

#include "quiver/core/recycling_pool.h"

#include <algorithm>
#include <cstring>

namespace quiver {

namespace {
// Up to the next quarter of the size's power of two: 1.0, 1.25, 1.5, 1.75 times it.
int64_t RoundToQuarter(int64_t size) {
  const int top = 63 - __builtin_clzll(static_cast<uint64_t>(size));
  const int64_t step = int64_t{1} << std::max(top - 2, 0);
  return (size + step - 1) / step * step;
}
int64_t RoundToPowerOfTwo(int64_t size) { return int64_t{1} << (64 - __builtin_clzll(static_cast<uint64_t>(size - 1))); }
}  // namespace

RecyclingPool::RecyclingPool(MemoryPool* base, RecyclingPolicy policy) : base_(base), policy_(policy) {}

RecyclingPool::~RecyclingPool() {
  for (auto& bin : bins_) {
    for (const Kept& k : bin) base_->Free(k.block);
  }
}

RecyclingPool* RecyclingPool::Shared() {
  static RecyclingPool* pool = new RecyclingPool(default_memory_pool(), kCsvRecycling);
  return pool;
}

RecyclingPool* RecyclingPool::Make(MemoryPool* base, RecyclingPolicy policy) {
  auto* pool = new RecyclingPool(base, policy);
  pool->self_deleting_ = true;
  pool->users_ = 1;
  return pool;
}

void RecyclingPool::Close() {
  RemoveUser();
  Unref();
}

void RecyclingPool::Unref() {
  if (self_deleting_ && refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
}

void RecyclingPool::AddUser() {
  std::lock_guard<std::mutex> lock(mu_);
  ++users_;
}

void RecyclingPool::RemoveUser() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (--users_ > 0) return;
  }
  DropKept();
}

void RecyclingPool::DropKept() {
  std::vector<uint8_t*> drop;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (users_ > 0) return;
    for (auto& bin : bins_) {
      for (const Kept& k : bin) drop.push_back(k.block);
      bin.clear();
    }
    kept_ = 0;
  }
  for (uint8_t* p : drop) base_->Free(p);
}

int64_t RecyclingPool::kept_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return kept_;
}


uint8_t* RecyclingPool::TakeKept(int64_t size) {
  const int bin = BinOf(size);
  std::vector<Kept>* from = nullptr;
  size_t at = 0;
  if (policy_.power_of_two) {
    // `size` is its class's power of two: any block of its bin fits.
    if (bins_[bin].empty()) return nullptr;
    from = &bins_[bin];
    at = from->size() - 1;
  } else {
    // The smallest kept block of `size` to `factor` times it, in bins bin..last (a block of a
    // later bin is larger than any of an earlier one, so the first bin with one ends the search).
    auto smallest_fit = [&](int last, int64_t factor) {
      int64_t best = INT64_MAX;
      for (int b = bin; b <= std::min(last, 63); ++b) {
        for (size_t i = 0; i < bins_[b].size(); ++i) {
          const int64_t cap = bins_[b][i].usable;
          if (cap >= size && cap <= factor * size && cap < best) {
            best = cap;
            from = &bins_[b];
            at = i;
          }
        }
        if (from != nullptr) break;
      }
    };
    // The smallest kept block that fits, if it is not much larger: in this bin or the next.
    smallest_fit(bin + 1, 2);
    // None within twice the size: when a fresh block would take the pool past the most its
    // callers held at once, the smallest kept block within four times it serves instead
    // (already faulted in; the rest lies idle until it comes back), so that a stream whose
    // sizes straddle a class boundary does not fault fresh blocks while it drops kept ones.
    if (from == nullptr && policy_.keep_bytes == RecyclingPolicy::kHighWater &&
        kept_ + live_bytes_ + RoundToQuarter(size) > high_bytes_) {
      smallest_fit(bin + 2, 4);
    }
    if (from == nullptr) return nullptr;
  }
  const Kept k = (*from)[at];
  (*from)[at] = from->back();
  from->pop_back();
  kept_ -= Charge(k.usable);
  live_bytes_ += k.usable;
  reused_.fetch_add(1, std::memory_order_relaxed);
  return k.block;
}

Status RecyclingPool::Allocate(int64_t size, uint8_t** out) {
  const bool recycled = size > 0 && size >= policy_.min_size && size <= policy_.max_size;
  if (recycled) {
    if (policy_.power_of_two) size = RoundToPowerOfTwo(size);
    std::lock_guard<std::mutex> lock(mu_);
    if (uint8_t* p = TakeKept(size)) {
      if (self_deleting_) refs_.fetch_add(1, std::memory_order_relaxed);
      *out = p;
      return Status::OK();
    }
  }
  QUIVER_RETURN_NOT_OK(base_->Allocate(recycled && !policy_.power_of_two ? RoundToQuarter(size) : size, out));
  if (self_deleting_) refs_.fetch_add(1, std::memory_order_relaxed);
  if (recycled) fresh_.fetch_add(1, std::memory_order_relaxed);
  const int64_t cap = base_->UsableSize(*out);
  // A block rounded up past min_size counts as recycled: Free will count it so.
  if (cap >= policy_.min_size) {
    std::lock_guard<std::mutex> lock(mu_);
    live_bytes_ += cap;
    high_bytes_ = std::max(high_bytes_, live_bytes_);
  }
  return Status::OK();
}

Status RecyclingPool::Reallocate(int64_t new_size, uint8_t** ptr) {
  if (*ptr == nullptr) return Allocate(new_size, ptr);
  if (new_size < 0) return Status::Invalid("negative allocation size");
  const int64_t old = UsableSize(*ptr);
  if (new_size <= old) return Status::OK();
  uint8_t* fresh = nullptr;
  QUIVER_RETURN_NOT_OK(Allocate(new_size, &fresh));
  if (old > 0) std::memcpy(fresh, *ptr, static_cast<size_t>(old));
  Free(*ptr);
  *ptr = fresh;
  return Status::OK();
}

void RecyclingPool::Free(uint8_t* ptr) {
  if (ptr == nullptr) return;
  const int64_t cap = base_->UsableSize(ptr);
  bool keep = false;
  if (cap >= policy_.min_size) {
    std::lock_guard<std::mutex> lock(mu_);
    live_bytes_ -= cap;
    const bool room = policy_.keep_bytes == RecyclingPolicy::kHighWater ? kept_ + live_bytes_ + cap <= high_bytes_
                                                                         : kept_ + Charge(cap) <= policy_.keep_bytes;
    if (users_ > 0 && cap <= 2 * policy_.max_size && room) {
      bins_[BinOf(cap)].push_back(Kept{cap, ptr});
      kept_ += Charge(cap);
      keep = true;
    }
  }
  if (!keep) base_->Free(ptr);
  Unref();
}

}  // namespace quiver

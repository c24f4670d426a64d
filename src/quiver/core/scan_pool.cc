#include "quiver/core/scan_pool.h"

#include <algorithm>
#include <cstring>

namespace quiver {

namespace {
// Up to the next quarter of the size's power of two: 1.0, 1.25, 1.5, 1.75 times it.
int64_t RoundToQuarter(int64_t size) {
  const int top = 63 - __builtin_clzll(static_cast<uint64_t>(size));
  const int64_t step = int64_t{1} << (top - 2);
  return (size + step - 1) / step * step;
}
}  // namespace

void ScanPool::Close() {
  std::vector<std::pair<int64_t, uint8_t*>> drop;
  {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    drop.swap(kept_);
    kept_bytes_ = 0;
  }
  for (auto& [size, p] : drop) parent_->Free(p);
  Unref();
}

void ScanPool::Unref() {
  if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
}

Status ScanPool::Allocate(int64_t size, uint8_t** out) {
  if (size < kMinRecycled) {
    QUIVER_RETURN_NOT_OK(parent_->Allocate(size, out));
    refs_.fetch_add(1, std::memory_order_relaxed);
    const int64_t cap = parent_->UsableSize(*out);
    if (cap >= kMinRecycled) {  // rounded up past the line: Free will count it as large
      std::lock_guard<std::mutex> lock(mu_);
      live_bytes_ += cap;
      high_bytes_ = std::max(high_bytes_, live_bytes_);
    }
    return Status::OK();
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    // The smallest kept block that fits, if it is not much larger.
    size_t best = kept_.size();
    for (size_t i = 0; i < kept_.size(); ++i) {
      const int64_t cap = kept_[i].first;
      if (cap >= size && cap <= 2 * size && (best == kept_.size() || cap < kept_[best].first)) best = i;
    }
    if (best < kept_.size()) {
      const int64_t cap = kept_[best].first;
      *out = kept_[best].second;
      kept_[best] = kept_.back();
      kept_.pop_back();
      kept_bytes_ -= cap;
      live_bytes_ += cap;
      ++reused_;
      refs_.fetch_add(1, std::memory_order_relaxed);
      return Status::OK();
    }
  }
  uint8_t* p = nullptr;
  QUIVER_RETURN_NOT_OK(parent_->Allocate(RoundToQuarter(size), &p));
  const int64_t cap = parent_->UsableSize(p);
  {
    std::lock_guard<std::mutex> lock(mu_);
    live_bytes_ += cap;
    high_bytes_ = std::max(high_bytes_, live_bytes_);
    ++fresh_;
  }
  refs_.fetch_add(1, std::memory_order_relaxed);
  *out = p;
  return Status::OK();
}

Status ScanPool::Reallocate(int64_t new_size, uint8_t** ptr) {
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

void ScanPool::Free(uint8_t* ptr) {
  if (ptr == nullptr) return;
  const int64_t cap = parent_->UsableSize(ptr);
  bool keep = false;
  if (cap >= kMinRecycled) {
    std::lock_guard<std::mutex> lock(mu_);
    live_bytes_ -= cap;
    if (!closed_ && kept_bytes_ + live_bytes_ + cap <= high_bytes_) {
      kept_.emplace_back(cap, ptr);
      kept_bytes_ += cap;
      keep = true;
    }
  }
  if (!keep) parent_->Free(ptr);
  Unref();
}

int64_t ScanPool::reused() const {
  std::lock_guard<std::mutex> lock(mu_);
  return reused_;
}

int64_t ScanPool::fresh() const {
  std::lock_guard<std::mutex> lock(mu_);
  return fresh_;
}

}  // namespace quiver

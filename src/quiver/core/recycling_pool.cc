#include "quiver/core/recycling_pool_internal.h"

#include <cstring>

namespace quiver {

RecyclingPool::~RecyclingPool() {
  for (auto& blocks : free_) {
    for (uint8_t* p : blocks) base_->Free(p);
  }
}

RecyclingPool* RecyclingPool::Shared() {
  static RecyclingPool* pool = new RecyclingPool();
  return pool;
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
    for (auto& blocks : free_) {
      drop.insert(drop.end(), blocks.begin(), blocks.end());
      blocks.clear();
    }
    kept_ = 0;
  }
  for (uint8_t* p : drop) base_->Free(p);
}

int64_t RecyclingPool::kept_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return kept_;
}

Status RecyclingPool::Allocate(int64_t size, uint8_t** out) {
  if (size >= kMinSize && size <= kMaxSize) {
    const int cls = ClassAtLeast(size);
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto& blocks = free_[static_cast<size_t>(cls)];
      if (!blocks.empty()) {
        *out = blocks.back();
        blocks.pop_back();
        kept_ -= int64_t{1} << cls;
        return Status::OK();
      }
    }
    size = int64_t{1} << cls;  // so that the block fits its class when it comes back
  }
  return base_->Allocate(size, out);
}

Status RecyclingPool::Reallocate(int64_t new_size, uint8_t** ptr) {
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
  const int64_t usable = base_->UsableSize(ptr);
  if (usable >= kMinSize && usable <= 2 * kMaxSize) {
    const int cls = 63 - __builtin_clzll(static_cast<uint64_t>(usable));  // usable >= 2^cls
    std::lock_guard<std::mutex> lock(mu_);
    if (users_ > 0 && kept_ + (int64_t{1} << cls) <= keep_) {
      free_[static_cast<size_t>(cls)].push_back(ptr);
      kept_ += int64_t{1} << cls;
      return;
    }
  }
  base_->Free(ptr);
}

}  // namespace quiver

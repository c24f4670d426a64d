#include "quiver/core/arena.h"

#include <fmt/format.h>

#include <algorithm>

#include "quiver/core/page_mapping.h"

namespace quiver {

namespace {

// Each allocation a mapping of its own, on the page size chosen, optionally written in at once.
// Allocations start one cache line into their mapping; the line before holds the mapping size.
class MappedPagePool final : public MemoryPool {
 public:
  MappedPagePool(PageSize pages, bool populate) : pages_(pages), populate_(populate) {}
  Status Allocate(int64_t size, uint8_t** out) override {
    if (size < 0) return Status::Invalid(fmt::format("negative allocation size {}", size));
    if (size > (int64_t{1} << 48)) return Status::OutOfMemory(fmt::format("cannot map {} bytes", size));
    const int64_t page = pages_ == PageSize::kHuge ? kHugePageBytes : kSmallPageBytes;
    const int64_t n = (size + kAlignment + page - 1) & ~(page - 1);
    MemoryTracker* tracker = this->tracker();
    if (!tracker->TryConsume(n)) return Status::OutOfMemory(tracker->LimitReport(n));
    uint8_t* base = MapPages(n, pages_);
    if (base == nullptr) {
      tracker->Release(n);
      return Status::OutOfMemory(fmt::format("mmap of {} bytes failed", n));
    }
    if (populate_) PopulatePages(base, n);
    std::memcpy(base, &n, sizeof(n));
    *out = base + kAlignment;
    return Status::OK();
  }
  Status Reallocate(int64_t new_size, uint8_t** ptr) override {
    const int64_t old = UsableSize(*ptr);
    if (new_size <= old) return Status::OK();
    uint8_t* fresh = nullptr;
    QUIVER_RETURN_NOT_OK(Allocate(new_size, &fresh));
    std::memcpy(fresh, *ptr, static_cast<size_t>(old));
    Free(*ptr);
    *ptr = fresh;
    return Status::OK();
  }
  void Free(uint8_t* ptr) override {
    if (ptr == nullptr) return;
    const int64_t n = MappingSize(ptr);
    UnmapPages(ptr - kAlignment, n);
    tracker()->Release(n);
  }
  int64_t UsableSize(const uint8_t* ptr) const override { return MappingSize(ptr) - kAlignment; }
  MemoryTracker* tracker() const override { return default_memory_pool()->tracker(); }
  const char* backend_name() const override { return pages_ == PageSize::kHuge ? "huge-page-mmap" : "small-page-mmap"; }

 private:
  static int64_t MappingSize(const uint8_t* ptr) {
    int64_t n;
    std::memcpy(&n, ptr - kAlignment, sizeof(n));
    return n;
  }

  const PageSize pages_;
  const bool populate_;
};

}  // namespace

MemoryPool* huge_page_memory_pool() {
  static MappedPagePool* pool = new MappedPagePool(PageSize::kHuge, false);
  return pool;
}

MemoryPool* populated_small_page_memory_pool() {
  static MappedPagePool* pool = new MappedPagePool(PageSize::kSmall, true);
  return pool;
}

Arena& Arena::operator=(Arena&& other) noexcept {
  if (this != &other) {
    Reset();
    pool_ = other.pool_;
    block_size_ = other.block_size_;
    prefault_ = other.prefault_;
    huge_pages_ = other.huge_pages_;
    huge_blocks_ = std::move(other.huge_blocks_);
    other.huge_blocks_.clear();
    cur_ = std::exchange(other.cur_, nullptr);
    end_ = std::exchange(other.end_, nullptr);
    reserved_ = std::exchange(other.reserved_, 0);
    blocks_ = std::move(other.blocks_);
    other.blocks_.clear();
  }
  return *this;
}

void* Arena::AllocateSlow(int64_t size, int64_t align) {
  if (size < 0) return nullptr;
  // Large requests get a block of their own so a big string does not waste a fresh block.
  int64_t block = std::max(block_size_, size + align);
  uint8_t* p = nullptr;
  if (huge_pages_ && block >= kHugePageSize) {
    block = (block + kHugePageSize - 1) & ~(kHugePageSize - 1);
    MemoryTracker* tracker = pool_->tracker();
    if (tracker != nullptr && !tracker->TryConsume(block)) return nullptr;
    p = MapPages(block, PageSize::kHuge);
    if (p == nullptr) {
      if (tracker != nullptr) tracker->Release(block);
      return nullptr;
    }
    huge_blocks_.emplace_back(p, block);
    reserved_ += block;
  } else {
    if (!pool_->Allocate(block, &p).ok()) return nullptr;
    blocks_.push_back(p);
    reserved_ += pool_->UsableSize(p);
  }
  if (prefault_) PopulatePages(p, block);
  if (size + align > block_size_ / 2 && cur_ != nullptr) {
    // Keep bumping in the current block; this one holds only the large object.
    uintptr_t q = (reinterpret_cast<uintptr_t>(p) + align - 1) & ~static_cast<uintptr_t>(align - 1);
    return reinterpret_cast<void*>(q);
  }
  cur_ = p;
  end_ = p + block;
  uintptr_t q = (reinterpret_cast<uintptr_t>(cur_) + align - 1) & ~static_cast<uintptr_t>(align - 1);
  cur_ = reinterpret_cast<uint8_t*>(q) + size;
  return reinterpret_cast<void*>(q);
}

void Arena::Reset() {
  for (uint8_t* b : blocks_) pool_->Free(b);
  blocks_.clear();
  for (auto [b, n] : huge_blocks_) {
    UnmapPages(b, n);
    if (MemoryTracker* tracker = pool_->tracker(); tracker != nullptr) tracker->Release(n);
  }
  huge_blocks_.clear();
  cur_ = end_ = nullptr;
  reserved_ = 0;
}

Status Arena::OutOfMemoryError(int64_t size) {
  return Status::OutOfMemory(fmt::format("arena could not provide {} bytes", size));
}

}  // namespace quiver

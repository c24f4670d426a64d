#include "quiver/core/arena.h"

#include <fmt/format.h>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>

namespace quiver {

namespace {
// Whole pages inside [p, p + size) written once by the kernel instead of faulted in one at a
// time by the first stores. Failure (an older kernel) only means the faults happen later.
void Prefault(uint8_t* p, int64_t size) {
#ifdef MADV_POPULATE_WRITE
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + page - 1) & ~(page - 1);
  uintptr_t end = (reinterpret_cast<uintptr_t>(p) + static_cast<uintptr_t>(size)) & ~(page - 1);
  if (end > begin) (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
#else
  (void)p;
  (void)size;
#endif
}
}  // namespace

void AdviseHugePages(void* p, int64_t size) {
#ifdef MADV_HUGEPAGE
  const uintptr_t huge = static_cast<uintptr_t>(Arena::kHugePageSize);
  uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + huge - 1) & ~(huge - 1);
  uintptr_t end = (reinterpret_cast<uintptr_t>(p) + static_cast<uintptr_t>(size)) & ~(huge - 1);
  if (end > begin) (void)madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)p;
  (void)size;
#endif
}

Arena& Arena::operator=(Arena&& other) noexcept {
  if (this != &other) {
    Reset();
    pool_ = other.pool_;
    block_size_ = other.block_size_;
    prefault_ = other.prefault_;
    huge_pages_ = other.huge_pages_;
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
  const bool huge = huge_pages_ && block >= kHugePageSize;
  if (huge) block = (block + kHugePageSize - 1) & ~(kHugePageSize - 1);
  // A huge-page block asks for 2 MiB more than it uses so that a 2 MiB boundary falls inside;
  // the slack before and after is never touched, so it costs address space, not memory.
  const int64_t request = huge ? block + kHugePageSize : block;
  uint8_t* raw = nullptr;
  if (!pool_->Allocate(request, &raw).ok()) return nullptr;
  blocks_.push_back(raw);
  reserved_ += pool_->UsableSize(raw);
  uint8_t* p = raw;
  if (huge) {
    p = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(raw) + kHugePageSize - 1) &
                                   ~static_cast<uintptr_t>(kHugePageSize - 1));
    AdviseHugePages(p, block);
  }
  if (prefault_) Prefault(p, block);
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
  cur_ = end_ = nullptr;
  reserved_ = 0;
}

Status Arena::OutOfMemoryError(int64_t size) {
  return Status::OutOfMemory(fmt::format("arena could not provide {} bytes", size));
}

}  // namespace quiver

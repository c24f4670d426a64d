#include "quiver/parquet/reader/output_arena_internal.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "quiver/core/bit_util.h"
#include "quiver/core/page_mapping.h"

namespace quiver::parquet::reader {

// At the start of every block; each buffer is preceded by a Header in the 64 bytes before it,
// so buffers keep the pool's 64-byte alignment.
struct OutputArenaPool::Block {
  MemoryPool* parent;
  std::atomic<int64_t> refs;
  int64_t size;    // bytes after this header
  int64_t mapped;  // bytes of the block's own mapping (small pages), else 0: from parent
};

namespace {
constexpr int64_t kHeader = kAlignment;
struct Header {
  void* block;
  int64_t capacity;
};
static_assert(sizeof(Header) <= kHeader);
Header* HeaderOf(const uint8_t* p) { return reinterpret_cast<Header*>(const_cast<uint8_t*>(p) - kHeader); }
}  // namespace

void OutputArenaPool::Close() {
  if (cur_ != nullptr) Release(cur_);
  cur_ = nullptr;
  newest_ = nullptr;
  Unref();
}

void OutputArenaPool::Unref() {
  if (live_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
}

void OutputArenaPool::Release(Block* b) {
  if (b->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  if (b->mapped == 0) {
    b->parent->Free(reinterpret_cast<uint8_t*>(b));
    return;
  }
  MemoryTracker* tracker = b->parent->tracker();
  const int64_t n = b->mapped;
  UnmapPages(reinterpret_cast<uint8_t*>(b), n);
  if (tracker != nullptr) tracker->Release(n);
}

void OutputArenaPool::Populate() {
  const int64_t end = kHeader + used_;
  if (end <= populated_) return;
  const int64_t to = std::min(bit_util::RoundUp(end, kPopulateStep), cur_->mapped);
  PopulatePages(reinterpret_cast<uint8_t*>(cur_) + populated_, to - populated_);
  populated_ = to;
}

Status OutputArenaPool::NewBlock(int64_t min_bytes) {
  int64_t size = std::max(block_size_, min_bytes);
  uint8_t* p = nullptr;
  int64_t mapped = 0;
  if (small_pages_) {
    // Whole pages; the last one's slack is usable.
    mapped = bit_util::RoundUp(kHeader + size, kSmallPageBytes);
    size = mapped - kHeader;
    MemoryTracker* tracker = parent_->tracker();
    if (tracker != nullptr && !tracker->TryConsume(mapped)) return Status::OutOfMemory(tracker->LimitReport(mapped));
    p = MapPages(mapped, PageSize::kSmall);
    if (p == nullptr) {
      if (tracker != nullptr) tracker->Release(mapped);
      return Status::OutOfMemory(fmt::format("mmap of {} bytes for decoded output failed", mapped));
    }
  } else {
    QUIVER_RETURN_NOT_OK(parent_->Allocate(kHeader + size, &p));
  }
  auto* b = reinterpret_cast<Block*>(p);
  b->parent = parent_;
  b->refs.store(1, std::memory_order_relaxed);
  b->size = size;
  b->mapped = mapped;
  if (cur_ != nullptr) Release(cur_);
  cur_ = b;
  used_ = 0;
  populated_ = 0;
  newest_ = nullptr;
  ++blocks_;
  return Status::OK();
}

Status OutputArenaPool::Allocate(int64_t size, uint8_t** out) {
  if (size < 0) return Status::Invalid("negative allocation size");
  const int64_t need = kHeader + bit_util::RoundUp(size, kAlignment);
  if (cur_ == nullptr || cur_->size - used_ < need) QUIVER_RETURN_NOT_OK(NewBlock(need));
  uint8_t* base = reinterpret_cast<uint8_t*>(cur_) + kHeader + used_;
  used_ += need;
  if (small_pages_) Populate();
  Header* h = reinterpret_cast<Header*>(base);
  h->block = cur_;
  h->capacity = need - kHeader;
  cur_->refs.fetch_add(1, std::memory_order_relaxed);
  live_.fetch_add(1, std::memory_order_relaxed);
  newest_ = base + kHeader;
  *out = newest_;
  return Status::OK();
}

Status OutputArenaPool::Reallocate(int64_t new_size, uint8_t** ptr) {
  if (*ptr == nullptr) return Allocate(new_size, ptr);
  if (new_size < 0) return Status::Invalid("negative allocation size");
  Header* h = HeaderOf(*ptr);
  const int64_t cap = bit_util::RoundUp(new_size, kAlignment);
  // The newest buffer grows or shrinks where it is while its block has room.
  if (*ptr == newest_ && h->block == cur_ && cur_->size - (used_ - h->capacity) >= cap) {
    used_ += cap - h->capacity;
    h->capacity = cap;
    if (small_pages_) Populate();
    return Status::OK();
  }
  if (cap <= h->capacity) return Status::OK();
  uint8_t* fresh = nullptr;
  QUIVER_RETURN_NOT_OK(Allocate(new_size, &fresh));
  std::memcpy(fresh, *ptr, static_cast<size_t>(h->capacity));
  Free(*ptr);
  *ptr = fresh;
  return Status::OK();
}

void OutputArenaPool::Free(uint8_t* ptr) {
  if (ptr == nullptr) return;
  Release(static_cast<Block*>(HeaderOf(ptr)->block));
  Unref();
}

int64_t OutputArenaPool::UsableSize(const uint8_t* ptr) const { return ptr ? HeaderOf(ptr)->capacity : 0; }

}  // namespace quiver::parquet::reader

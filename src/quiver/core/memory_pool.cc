#include "quiver/core/memory_pool.h"

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <string_view>

#if QUIVER_WITH_MIMALLOC
#include <mimalloc.h>
#else
#include <malloc.h>
#include <cstdlib>
#endif

namespace quiver {

namespace {

// Zero-byte allocations all point here; Free recognises it and does nothing.
alignas(kAlignment) uint8_t zero_size_area[kAlignment];

#if QUIVER_WITH_MIMALLOC
// mimalloc's blocks above 1 KiB come in sizes that are multiples of 256 bytes laid from
// 64 KiB-aligned pages, so a plain allocation is 64-byte aligned; mi_malloc_aligned would
// instead take a block of the next size class up (80 KiB for 64 KiB, 1 MiB for 512 KiB) to
// make room for aligning by hand. The check keeps the guarantee should a block not be.
constexpr size_t kPlainAlignedFrom = 1024;
#endif

inline void* RawAlloc(size_t size) {
#if QUIVER_WITH_MIMALLOC
  if (size > kPlainAlignedFrom) {
    void* p = mi_malloc(size);
    if ((reinterpret_cast<uintptr_t>(p) & (kAlignment - 1)) == 0) [[likely]] return p;
    mi_free(p);
  }
  return mi_malloc_aligned(size, kAlignment);
#else
  void* p = nullptr;
  return posix_memalign(&p, kAlignment, size) == 0 ? p : nullptr;
#endif
}

inline void RawFree(void* p) {
#if QUIVER_WITH_MIMALLOC
  mi_free(p);
#else
  free(p);
#endif
}

inline int64_t RawUsable(const void* p) {
#if QUIVER_WITH_MIMALLOC
  return static_cast<int64_t>(mi_usable_size(p));
#else
  return static_cast<int64_t>(malloc_usable_size(const_cast<void*>(p)));
#endif
}

}  // namespace

const char* TrackedMemoryPool::backend_name() const {
#if QUIVER_WITH_MIMALLOC
  return "mimalloc";
#else
  return "system";
#endif
}

int64_t TrackedMemoryPool::UsableSize(const uint8_t* ptr) const {
  return ptr == zero_size_area ? 0 : RawUsable(ptr);
}

// Blocks from this size on are charged before they are allocated: a request past a limit (a
// hostile length in a file) is refused by the limit without the allocator mapping it first, and
// says so, instead of "allocator failed" when the system cannot map it at all.
constexpr int64_t kChargeFirstFrom = int64_t{64} << 20;

Status TrackedMemoryPool::Allocate(int64_t size, uint8_t** out) {
  // The fast path is kept free of anything that needs a stack frame (formatting, Status
  // construction); every unusual case goes to AllocateSlow.
  if (size > 0 && size < kChargeFirstFrom) [[likely]] {
    void* p = RawAlloc(static_cast<size_t>(size));
    if (p != nullptr) [[likely]] {
      if (tracker_->TryConsume(RawUsable(p))) [[likely]] {
        *out = static_cast<uint8_t*>(p);
        return Status::OK();
      }
      RawFree(p);
    }
  }
  return AllocateSlow(size, out);
}

Status TrackedMemoryPool::AllocateSlow(int64_t size, uint8_t** out) {
  if (size == 0) {
    *out = zero_size_area;
    return Status::OK();
  }
  if (size < 0) return Status::Invalid(fmt::format("negative allocation size {}", size));
  if (size >= kChargeFirstFrom) {
    if (!tracker_->TryConsume(size)) return Status::OutOfMemory(tracker_->LimitReport(size));
    void* p = RawAlloc(static_cast<size_t>(size));
    if (p == nullptr) {
      tracker_->Release(size);
      return Status::OutOfMemory(fmt::format("allocator failed to provide {} bytes", size));
    }
    // The block may be larger than asked; Free releases its usable size, so charge the rest.
    int64_t rest = RawUsable(p) - size;
    if (rest > 0 && !tracker_->TryConsume(rest)) {
      tracker_->Release(size);
      RawFree(p);
      return Status::OutOfMemory(tracker_->LimitReport(rest));
    }
    *out = static_cast<uint8_t*>(p);
    return Status::OK();
  }
  // Either the allocator said no, or the tracker did (the block was already returned).
  void* p = RawAlloc(static_cast<size_t>(size));
  if (p == nullptr) return Status::OutOfMemory(fmt::format("allocator failed to provide {} bytes", size));
  int64_t usable = RawUsable(p);
  if (!tracker_->TryConsume(usable)) {
    RawFree(p);
    return Status::OutOfMemory(tracker_->LimitReport(usable));
  }
  *out = static_cast<uint8_t*>(p);
  return Status::OK();
}

Status TrackedMemoryPool::Reallocate(int64_t new_size, uint8_t** ptr) {
  // Allocate-copy-free rather than realloc: the new block is charged before the old one is
  // released, so a limit is never crossed even transiently, and failure leaves *ptr intact.
  uint8_t* old = *ptr;
  int64_t old_usable = UsableSize(old);
  if (new_size <= old_usable && new_size * 2 > old_usable) return Status::OK();
  uint8_t* fresh = nullptr;
  QUIVER_RETURN_NOT_OK(Allocate(new_size, &fresh));
  if (old_usable > 0 && new_size > 0) {
    std::memcpy(fresh, old, static_cast<size_t>(std::min(old_usable, new_size)));
  }
  Free(old);
  *ptr = fresh;
  return Status::OK();
}

void TrackedMemoryPool::Free(uint8_t* ptr) {
  if (ptr == nullptr || ptr == zero_size_area) return;
  tracker_->Release(RawUsable(ptr));
  RawFree(ptr);
}

void ConfigureAllocatorForStreaming() {
#if QUIVER_WITH_MIMALLOC
  mi_option_disable(mi_option_allow_decommit);
  // The option above only reaches segments made from now on: the ones made before main (static
  // initialisers allocate) would still return freed pages after these delays, to fault them in
  // again for the next batch. An hour is for good, for a stream.
  mi_option_set(mi_option_decommit_delay, 3600 * 1000);
  mi_option_set(mi_option_segment_decommit_delay, 3600 * 1000);
  // 4 KiB pages unless asked: a huge page needs a free 2 MiB block, which a VM reporting free
  // memory to its host gets back page by page on first touch, where 4 KiB pages come from the
  // fragments the guest keeps (docs/DESIGN.md, "Fresh memory").
  const char* lp = std::getenv("QUIVER_LARGE_OS_PAGES");
  if (lp != nullptr && std::string_view(lp) == "1") mi_option_enable(mi_option_large_os_pages);
#endif
}

MemoryPool* default_memory_pool() {
  static TrackedMemoryPool* pool = new TrackedMemoryPool(MemoryTracker::Process());
  return pool;
}

}  // namespace quiver

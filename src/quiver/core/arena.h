// Arena: bump allocation of many small objects (footer strings, schema names) freed at once.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "quiver/core/memory_pool.h"
#include "quiver/core/result.h"

namespace quiver {

class Arena {
 public:
  explicit Arena(MemoryPool* pool = default_memory_pool(), int64_t block_size = 16 * 1024)
      : pool_(pool), block_size_(block_size) {}
  ~Arena() { Reset(); }
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  Arena(Arena&& other) noexcept { *this = std::move(other); }
  Arena& operator=(Arena&& other) noexcept;

  // Raw storage; `align` must be a power of two no larger than 64. nullptr on failure.
  void* Allocate(int64_t size, int64_t align = 8) {
    uintptr_t p = (reinterpret_cast<uintptr_t>(cur_) + align - 1) & ~static_cast<uintptr_t>(align - 1);
    if (cur_ != nullptr && static_cast<int64_t>(p - reinterpret_cast<uintptr_t>(cur_)) + size <= end_ - cur_) [[likely]] {
      cur_ = reinterpret_cast<uint8_t*>(p) + size;
      return reinterpret_cast<void*>(p);
    }
    return AllocateSlow(size, align);
  }

  // A copy of `s` owned by the arena (empty views need no storage).
  Result<std::string_view> CopyString(std::string_view s) {
    if (s.empty()) return std::string_view();
    void* p = Allocate(static_cast<int64_t>(s.size()), 1);
    if (p == nullptr) [[unlikely]] return OutOfMemoryError(static_cast<int64_t>(s.size()));
    std::memcpy(p, s.data(), s.size());
    return std::string_view(static_cast<const char*>(p), s.size());
  }

  // An array of n trivially destructible T, value-initialised.
  template <typename T>
  Result<T*> AllocateArray(int64_t n) {
    static_assert(std::is_trivially_destructible_v<T>, "the arena never runs destructors");
    void* p = Allocate(n * static_cast<int64_t>(sizeof(T)), alignof(T));
    if (p == nullptr && n > 0) [[unlikely]] return OutOfMemoryError(n * static_cast<int64_t>(sizeof(T)));
    T* arr = static_cast<T*>(p);
    for (int64_t i = 0; i < n; ++i) new (arr + i) T();
    return arr;
  }

  // Fault in every new block's pages with one madvise(MADV_POPULATE_WRITE) when the block is
  // allocated (Linux 5.14+; a no-op elsewhere). For an arena that will fill its blocks (a
  // decoded wide footer) one call per block costs less than a page fault per 4 KB page.
  void set_prefault(bool on) { prefault_ = on; }
  // Blocks of 2 MiB or more become mappings of their own, 2 MiB-aligned and
  // madvise(MADV_HUGEPAGE)d before anything touches them, so the kernel backs them with
  // transparent huge pages where THP is "madvise" or "always": one fault (or one prefault
  // step) per 2 MiB instead of 512. On a VM where a 4 KB first touch costs microseconds this
  // is most of a cold wide-footer decode. They are charged to the pool's tracker and unmapped
  // on Reset, so the huge-page advice never outlives the arena (advice on allocator-owned
  // memory would stay on ranges the allocator later reuses for anything).
  void set_huge_pages(bool on) { huge_pages_ = on; }

  static constexpr int64_t kHugePageSize = int64_t{2} << 20;

  // Bytes handed out by the pool for this arena's blocks.
  int64_t bytes_reserved() const { return reserved_; }
  void Reset();

 private:
  void* AllocateSlow(int64_t size, int64_t align);
  static Status OutOfMemoryError(int64_t size);

  MemoryPool* pool_ = nullptr;
  int64_t block_size_ = 0;
  uint8_t* cur_ = nullptr;
  uint8_t* end_ = nullptr;
  int64_t reserved_ = 0;
  bool prefault_ = false;
  bool huge_pages_ = false;
  std::vector<uint8_t*> blocks_;
  std::vector<std::pair<uint8_t*, int64_t>> huge_blocks_;  // own mappings (set_huge_pages)
};

// A MemoryPool whose every allocation is a mapping of its own on 2 MiB transparent huge pages
// (like the arena's set_huge_pages blocks), unmapped on Free so the advice never outlives it.
// For large buffers written once from start to end (an encoded wide footer), where the first
// touches of 4 KB pages would cost more than the writing. Charged to the process tracker.
MemoryPool* huge_page_memory_pool();

// A MemoryPool whose every allocation is a mapping of its own on 4 KiB pages, written in by one
// madvise(MADV_POPULATE_WRITE) as it is mapped. For buffers of megabytes a program fills over
// and over (the CSV reader's block ring): a huge page needs a free 2 MiB block, which on a VM
// that reports free memory to its host comes back page by page on first touch, where 4 KiB
// pages come from the fragments the guest keeps (docs/DESIGN.md, "Fresh memory"); one call
// instead of a fault per page. Charged to the process tracker.
MemoryPool* populated_small_page_memory_pool();

}  // namespace quiver

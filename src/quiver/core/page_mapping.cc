#include "quiver/core/page_mapping.h"

#include <sys/mman.h>
#include <unistd.h>

namespace quiver {

uint8_t* MapPages(int64_t size, PageSize pages) {
  const size_t n = static_cast<size_t>(size);
  if (pages == PageSize::kSmall) {
    void* p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return nullptr;
#ifdef MADV_NOHUGEPAGE
    (void)madvise(p, n, MADV_NOHUGEPAGE);  // advisory
#endif
    return static_cast<uint8_t*>(p);
  }
  const size_t huge = static_cast<size_t>(kHugePageBytes);
  void* raw = mmap(nullptr, n + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  uintptr_t begin = (reinterpret_cast<uintptr_t>(raw) + huge - 1) & ~(huge - 1);
  uintptr_t raw_end = reinterpret_cast<uintptr_t>(raw) + n + huge;
  // Trim the slack on both sides so the mapping is exactly the aligned block.
  if (begin > reinterpret_cast<uintptr_t>(raw)) munmap(raw, begin - reinterpret_cast<uintptr_t>(raw));
  if (raw_end > begin + n) munmap(reinterpret_cast<void*>(begin + n), raw_end - (begin + n));
#ifdef MADV_HUGEPAGE
  (void)madvise(reinterpret_cast<void*>(begin), n, MADV_HUGEPAGE);  // advisory: THP may be off
#endif
  return reinterpret_cast<uint8_t*>(begin);
}

void UnmapPages(uint8_t* p, int64_t size) {
  if (p != nullptr) munmap(p, static_cast<size_t>(size));
}

void PopulatePages(uint8_t* p, int64_t size) {
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

}  // namespace quiver

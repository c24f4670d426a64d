// Anonymous mappings of whole pages with the page size chosen, and writing pages in ahead of
// use: for large buffers a program fills once (a decoded wide footer, a materialized read).
#pragma once

#include <cstdint>

namespace quiver {

inline constexpr int64_t kSmallPageBytes = int64_t{4} << 10;
inline constexpr int64_t kHugePageBytes = int64_t{2} << 20;

// kHuge: 2 MiB-aligned and madvise(MADV_HUGEPAGE)d, so the kernel backs it with transparent
// huge pages where THP is "madvise" or "always" (one fault per 2 MiB instead of 512).
// kSmall: madvise(MADV_NOHUGEPAGE)d, 4 KiB pages even where THP is "always". Why both: a
// huge page needs a free 2 MiB block, and a VM that reports free memory to its host (virtio
// free page reporting, which reports exactly such blocks) gets those back from the host only
// page by page on first touch, several times slower than 4 KiB pages taken from the free
// fragments below 2 MiB the guest still holds, while it holds some (docs/DESIGN.md, "Fresh
// memory").
enum class PageSize { kSmall, kHuge };

// A fresh mapping of `size` bytes (a multiple of the page size), nullptr if mmap fails.
uint8_t* MapPages(int64_t size, PageSize pages);
void UnmapPages(uint8_t* p, int64_t size);

// The whole pages inside [p, p + size) written in by the kernel in one call
// (madvise(MADV_POPULATE_WRITE), Linux 5.14+) instead of faulted in one at a time by the first
// stores. Failure (an older kernel) only means the faults happen later.
void PopulatePages(uint8_t* p, int64_t size);

}  // namespace quiver

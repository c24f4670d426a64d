#include <gtest/gtest.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "quiver/core/arena.h"
#include "quiver/core/buffer.h"
#include "quiver/core/memory_pool.h"
#include "quiver/core/memory_tracker.h"
#include "quiver/core/recycling_pool.h"

namespace quiver {
namespace {

MemoryTracker::Options Exact(int64_t limit = MemoryTracker::kNoLimit) { return {limit, 0}; }

// The AnonHugePages (kB) of the mappings that overlap [lo, hi), from /proc/self/smaps; -1 when
// no mapping does.
int64_t AnonHugePagesKb(uintptr_t lo_at, uintptr_t hi_at) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool in_range = false;
  int64_t huge_kb = -1;
  while (std::getline(smaps, line)) {
    uintptr_t lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%" SCNxPTR "-%" SCNxPTR " ", &lo, &hi) == 2 && line.find(':') > line.find(' ')) {
      in_range = lo < hi_at && hi > lo_at;
    } else if (in_range && line.rfind("AnonHugePages:", 0) == 0) {
      huge_kb = std::max<int64_t>(huge_kb, 0) + std::atoll(line.c_str() + 14);
    }
  }
  return huge_kb;
}

TEST(MemoryTracker, ExactCountsWithoutQuanta) {
  MemoryTracker op("op", MemoryTracker::Process(), Exact());
  MemoryTracker comp("comp", &op, Exact());
  ASSERT_TRUE(comp.TryConsume(1000));
  ASSERT_TRUE(comp.TryConsume(24));
  EXPECT_EQ(comp.current_bytes(), 1024);
  EXPECT_EQ(op.current_bytes(), 1024);
  comp.Release(1000);
  EXPECT_EQ(comp.current_bytes(), 24);
  EXPECT_EQ(op.current_bytes(), 24);
  EXPECT_EQ(comp.peak_bytes(), 1024);
  EXPECT_EQ(op.peak_bytes(), 1024);
  comp.Release(24);
  EXPECT_EQ(op.current_bytes(), 0);
}

TEST(MemoryTracker, LimitRefusesAndLeavesCountersExact) {
  MemoryTracker op("op", MemoryTracker::Process(), Exact(10000));
  MemoryTracker comp("comp", &op, Exact());
  const int64_t process_before = MemoryTracker::Process()->current_bytes();
  ASSERT_TRUE(comp.TryConsume(6000));
  EXPECT_FALSE(comp.TryConsume(5000));  // the parent's limit refuses
  EXPECT_EQ(comp.current_bytes(), 6000);
  EXPECT_EQ(op.current_bytes(), 6000);
  EXPECT_EQ(op.peak_bytes(), 6000);
  EXPECT_EQ(MemoryTracker::Process()->current_bytes() - process_before, 6000);
  EXPECT_EQ(comp.LimitReport(5000),
            "allocating 5000 bytes would exceed the limit of 10000 bytes of 'op' (6000 in use)");
  ASSERT_TRUE(comp.TryConsume(4000));  // exactly at the limit is allowed
  EXPECT_FALSE(comp.TryConsume(1));
  comp.Release(10000);
  EXPECT_EQ(op.current_bytes(), 0);
  EXPECT_EQ(MemoryTracker::Process()->current_bytes(), process_before);
}

TEST(MemoryTracker, QuantaKeepCurrentExact) {
  MemoryTracker op("op");  // default quantum: 1 MiB of thread-local slack
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(op.TryConsume(100));
  EXPECT_EQ(op.current_bytes(), 100000);
  // The shared counter ran ahead by at most one quantum.
  EXPECT_GE(op.peak_bytes(), 100000);
  EXPECT_LE(op.peak_bytes(), 100000 + MemoryTracker::kDefaultQuantum);
  for (int i = 0; i < 1000; ++i) op.Release(100);
  EXPECT_EQ(op.current_bytes(), 0);
}

TEST(MemoryTracker, LimitIsExactEvenWithQuanta) {
  MemoryTracker op("op", MemoryTracker::Process(), {1 << 20, -1});
  int64_t got = 0;
  while (op.TryConsume(1000)) got += 1000;
  EXPECT_EQ(got, 1048000);  // 1048 blocks of 1000 fit in 1 MiB, the 1049th does not
  EXPECT_EQ(op.current_bytes(), got);
  op.Release(got);
  EXPECT_EQ(op.current_bytes(), 0);
}

TEST(MemoryTracker, ThreadsSettleOnExit) {
  MemoryTracker op("op");
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) ASSERT_TRUE(op.TryConsume(64));
      for (int i = 0; i < 5000; ++i) op.Release(64);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(op.current_bytes(), 4 * 5000 * 64);
  op.Release(4 * 5000 * 64);
  EXPECT_EQ(op.current_bytes(), 0);
}

TEST(MemoryTracker, DestroyedTrackerReturnsItsSlack) {
  const int64_t before = MemoryTracker::Process()->current_bytes();
  {
    MemoryTracker op("short-lived");
    ASSERT_TRUE(op.TryConsume(10));
    op.Release(10);
  }
  EXPECT_EQ(MemoryTracker::Process()->current_bytes(), before);
}

TEST(MemoryPool, AlignedTrackedByUsableSize) {
  MemoryTracker t("pool", MemoryTracker::Process(), Exact());
  TrackedMemoryPool pool(&t);
  uint8_t* p = nullptr;
  ASSERT_TRUE(pool.Allocate(100, &p).ok());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
  int64_t usable = pool.UsableSize(p);
  EXPECT_GE(usable, 100);
  EXPECT_EQ(t.current_bytes(), usable);
  std::memset(p, 0xab, 100);
  ASSERT_TRUE(pool.Reallocate(100000, &p).ok());
  EXPECT_EQ(p[99], 0xab);
  EXPECT_EQ(t.current_bytes(), pool.UsableSize(p));
  pool.Free(p);
  EXPECT_EQ(t.current_bytes(), 0);
  uint8_t* z = nullptr;
  ASSERT_TRUE(pool.Allocate(0, &z).ok());
  EXPECT_NE(z, nullptr);
  pool.Free(z);
  EXPECT_EQ(t.current_bytes(), 0);
}

// mimalloc's sizes above 1 KiB come 64-byte aligned without asking: a power of two (what the
// CSV readers' pool requests) is charged as itself, not as the next size class up that an
// aligned request takes (80 KiB for 64 KiB, 1 MiB for 512 KiB).
TEST(MemoryPool, LargeBlocksAlignedWithoutAClassUp) {
  MemoryTracker t("pool", MemoryTracker::Process(), Exact());
  TrackedMemoryPool pool(&t);
  if (std::string_view(pool.backend_name()) != "mimalloc") GTEST_SKIP() << "the system allocator rounds its own way";
  for (int64_t size : {int64_t{2} << 10, int64_t{64} << 10, int64_t{128} << 10, int64_t{512} << 10, int64_t{4} << 20}) {
    uint8_t* p = nullptr;
    ASSERT_TRUE(pool.Allocate(size, &p).ok());
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u) << size;
    EXPECT_EQ(pool.UsableSize(p), size);
    EXPECT_EQ(t.current_bytes(), size);
    pool.Free(p);
  }
  // Odd sizes too: aligned, and charged what the allocator gave.
  for (int64_t size = 1000; size < (int64_t{3} << 20); size = size * 3 / 2 + 17) {
    uint8_t* p = nullptr;
    ASSERT_TRUE(pool.Allocate(size, &p).ok());
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u) << size;
    EXPECT_GE(pool.UsableSize(p), size);
    EXPECT_EQ(t.current_bytes(), pool.UsableSize(p));
    pool.Free(p);
  }
  EXPECT_EQ(t.current_bytes(), 0);
}

TEST(MemoryPool, LimitGivesOutOfMemoryAndNothingLeaks) {
  MemoryTracker t("limited", MemoryTracker::Process(), Exact(1 << 20));
  TrackedMemoryPool pool(&t);
  uint8_t* a = nullptr;
  ASSERT_TRUE(pool.Allocate(600 << 10, &a).ok());
  const int64_t in_use = t.current_bytes();
  uint8_t* b = nullptr;
  Status st = pool.Allocate(600 << 10, &b);
  EXPECT_TRUE(st.IsOutOfMemory());
  EXPECT_EQ(st.message().rfind("allocating ", 0), 0u) << st.message();
  EXPECT_NE(st.message().find("of 'limited'"), std::string::npos) << st.message();
  EXPECT_EQ(b, nullptr);
  EXPECT_EQ(t.current_bytes(), in_use);
  // A failed reallocation leaves the block where it was.
  uint8_t* before = a;
  EXPECT_TRUE(pool.Reallocate(2 << 20, &a).IsOutOfMemory());
  EXPECT_EQ(a, before);
  EXPECT_EQ(t.current_bytes(), in_use);
  pool.Free(a);
  EXPECT_EQ(t.current_bytes(), 0);
  EXPECT_TRUE(pool.Allocate(-1, &b).IsInvalid());
}

TEST(MemoryPool, RequestPastTheLimitIsRefusedBeforeTheAllocatorMapsIt) {
  // 256 TiB is past a 47-bit user address space, so no allocator can map it: the message
  // says "allocator failed" unless the limit answers first.
  MemoryTracker t("limited", MemoryTracker::Process(), Exact(1 << 30));
  TrackedMemoryPool pool(&t);
  uint8_t* p = nullptr;
  Status st = pool.Allocate(int64_t{1} << 48, &p);
  EXPECT_TRUE(st.IsOutOfMemory());
  EXPECT_EQ(st.message(),
            "allocating 281474976710656 bytes would exceed the limit of 1073741824 bytes of 'limited' (0 in use)");
  EXPECT_EQ(p, nullptr);
  EXPECT_EQ(t.current_bytes(), 0);
  // A large block within the limit is charged its usable size, and all of it comes back.
  ASSERT_TRUE(pool.Allocate((int64_t{64} << 20) + 1, &p).ok());
  EXPECT_EQ(t.current_bytes(), pool.UsableSize(p));
  EXPECT_GT(t.current_bytes(), int64_t{64} << 20);
  pool.Free(p);
  EXPECT_EQ(t.current_bytes(), 0);
}

TEST(Buffer, ResizeGrowsGeometricallyAndTracks) {
  MemoryTracker t("buf", MemoryTracker::Process(), Exact());
  TrackedMemoryPool pool(&t);
  {
    auto buf = Buffer::Allocate(10, &pool);
    ASSERT_TRUE(buf.ok());
    EXPECT_EQ((*buf)->size(), 10);
    EXPECT_EQ((*buf)->capacity(), 64);
    std::memcpy((*buf)->mutable_data(), "0123456789", 10);
    ASSERT_TRUE((*buf)->Resize(100).ok());
    EXPECT_EQ((*buf)->capacity(), 128);
    EXPECT_EQ(std::string_view(reinterpret_cast<const char*>((*buf)->data()), 10), "0123456789");
    ASSERT_TRUE((*buf)->Resize(10, /*shrink_to_fit=*/true).ok());
    EXPECT_EQ((*buf)->capacity(), 64);
    EXPECT_GT(t.current_bytes(), 0);
  }
  EXPECT_EQ(t.current_bytes(), 0);
}

TEST(Buffer, BorrowedBuffersCannotGrowAndKeepOwnerAlive) {
  auto owner = std::make_shared<std::string>("borrowed bytes");
  std::weak_ptr<std::string> weak = owner;
  auto buf = Buffer::Wrap(reinterpret_cast<const uint8_t*>(owner->data()), 8, owner);
  owner.reset();
  EXPECT_FALSE(weak.expired());
  EXPECT_EQ(buf->view(), "borrowed");
  EXPECT_EQ(buf->Resize(100).message(), "cannot resize a borrowed buffer");
  auto part = Buffer::Slice(buf, 2, 4);
  buf.reset();
  EXPECT_EQ(part->view(), "rrow");
  part.reset();
  EXPECT_TRUE(weak.expired());
}

TEST(BufferBuilder, AppendsAndFinishes) {
  BufferBuilder b;
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(b.AppendValue<int32_t>(i).ok());
  ASSERT_TRUE(b.Append("xyz").ok());
  auto buf = b.Finish();
  ASSERT_TRUE(buf.ok());
  EXPECT_EQ((*buf)->size(), 4003);
  EXPECT_EQ((*buf)->data_as<int32_t>()[999], 999);
  EXPECT_EQ(b.size(), 0);
}

// A pool that counts reallocations and the bytes they copy (allocate, copy the old usable
// size, free: what RecyclingPool does past a block's usable size).
class CopyCountingPool final : public MemoryPool {
 public:
  explicit CopyCountingPool(MemoryPool* parent) : parent_(parent) {}
  Status Allocate(int64_t size, uint8_t** out) override { return parent_->Allocate(size, out); }
  Status Reallocate(int64_t new_size, uint8_t** ptr) override {
    const int64_t old = parent_->UsableSize(*ptr);
    if (new_size <= old) return Status::OK();
    uint8_t* fresh = nullptr;
    QUIVER_RETURN_NOT_OK(parent_->Allocate(new_size, &fresh));
    std::memcpy(fresh, *ptr, static_cast<size_t>(old));
    copied += old;
    parent_->Free(*ptr);
    *ptr = fresh;
    return Status::OK();
  }
  void Free(uint8_t* ptr) override { parent_->Free(ptr); }
  int64_t UsableSize(const uint8_t* ptr) const override { return parent_->UsableSize(ptr); }
  MemoryTracker* tracker() const override { return parent_->tracker(); }
  const char* backend_name() const override { return "copy-counting"; }
  int64_t copied = 0;

 private:
  MemoryPool* parent_;
};

// A builder takes the room its block already has past its capacity (a recycled block is
// rounded up to a quarter of its power of two) without moving; one cleared for its next page
// and asked for more than its block holds copies nothing (its bytes are dead) and takes what it
// asked for, not twice its old capacity; one holding bytes grows geometrically, keeping them.
TEST(BufferBuilder, GrowsIntoUsableRoomAndEmptyWithoutCopying) {
  MemoryTracker t("builder", MemoryTracker::Process(), Exact());
  TrackedMemoryPool tracked(&t);
  RecyclingPool recycling(&tracked, kScanRecycling);
  CopyCountingPool pool(&recycling);
  {
    BufferBuilder b(&pool);
    ASSERT_TRUE(b.AppendZeros(1000000).ok());
    const uint8_t* block = b.data();
    ASSERT_GE(pool.UsableSize(block), 1 << 20);
    ASSERT_TRUE(b.AppendZeros((1 << 20) - 1000000).ok());
    EXPECT_EQ(b.data(), block);
    b.Clear();
    ASSERT_TRUE(b.Reserve(1 << 20).ok());
    EXPECT_EQ(b.data(), block);
    EXPECT_EQ(pool.copied, 0);
    const int64_t more = (1 << 20) + (1 << 18);
    ASSERT_TRUE(b.Reserve(more).ok());
    EXPECT_EQ(pool.copied, 0);
    EXPECT_GE(b.capacity(), more);
    EXPECT_LT(b.capacity(), 2 << 20);
    ASSERT_TRUE(b.Append("kept").ok());
    const int64_t before = b.capacity();
    ASSERT_TRUE(b.AppendZeros(pool.UsableSize(b.data())).ok());
    EXPECT_GT(pool.copied, 0);
    EXPECT_GE(b.capacity(), 2 * before);
    EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(b.data()), 4), "kept");
  }
  EXPECT_EQ(t.current_bytes(), 0);
}

TEST(Arena, StringsAndArraysLiveUntilReset) {
  MemoryTracker t("arena", MemoryTracker::Process(), Exact());
  TrackedMemoryPool pool(&t);
  Arena arena(&pool, 1024);
  std::vector<std::string_view> views;
  for (int i = 0; i < 500; ++i) {
    auto v = arena.CopyString("column_" + std::to_string(i));
    ASSERT_TRUE(v.ok());
    views.push_back(*v);
  }
  auto big = arena.CopyString(std::string(5000, 'x'));
  ASSERT_TRUE(big.ok());
  auto arr = arena.AllocateArray<int64_t>(10);
  ASSERT_TRUE(arr.ok());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(*arr) % alignof(int64_t), 0u);
  EXPECT_EQ((*arr)[9], 0);
  EXPECT_EQ(views[0], "column_0");
  EXPECT_EQ(views[499], "column_499");
  EXPECT_EQ(big->size(), 5000u);
  EXPECT_EQ(t.current_bytes(), arena.bytes_reserved());
  EXPECT_GT(arena.bytes_reserved(), 5000);
  arena.Reset();
  EXPECT_EQ(t.current_bytes(), 0);
}

// Huge-page blocks start on a 2 MiB boundary, and where THP can be had by madvise the kernel
// backs them with huge pages (AnonHugePages of the mapping that holds them).
TEST(Arena, HugePageBlocksAreAlignedAndHuge) {
  MemoryTracker t("arena", MemoryTracker::Process(), Exact());
  TrackedMemoryPool pool(&t);
  Arena arena(&pool, 4 << 20);
  arena.set_huge_pages(true);
  arena.set_prefault(true);
  auto* first = static_cast<uint8_t*>(arena.Allocate(1000, 8));
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % Arena::kHugePageSize, 0u);
  // The whole 4 MiB block is usable after the first allocation.
  auto* rest = static_cast<uint8_t*>(arena.Allocate((4 << 20) - 1000, 8));
  EXPECT_EQ(rest, first + 1000);
  std::memset(rest, 0x5a, (4 << 20) - 1000);
  EXPECT_EQ(rest[(4 << 20) - 1001], 0x5a);
  EXPECT_EQ(t.current_bytes(), arena.bytes_reserved());

  std::ifstream thp("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode((std::istreambuf_iterator<char>(thp)), std::istreambuf_iterator<char>());
  if (mode.find("[never]") == std::string::npos && !mode.empty()) {
    const uintptr_t at = reinterpret_cast<uintptr_t>(first);
    EXPECT_GE(AnonHugePagesKb(at, at + 1), 2048) << "THP mode " << mode;
  }
  arena.Reset();
  EXPECT_EQ(t.current_bytes(), 0);
}

// The populated small-page pool: each allocation a mapping of its own whose every page is
// present as soon as it is handed out (one MADV_POPULATE_WRITE, no fault per page later), on
// 4 KiB pages (no AnonHugePages), 64-byte aligned, charged to the process tracker by the
// whole mapping, content kept by Reallocate, and nothing charged once freed.
TEST(PagePools, PopulatedSmallPagesArePresentAtOnceAndNotHuge) {
  MemoryPool* pool = populated_small_page_memory_pool();
  EXPECT_STREQ(pool->backend_name(), "small-page-mmap");
  const int64_t before = MemoryTracker::Process()->current_bytes();
  const int64_t size = (3 << 20) + 100;
  uint8_t* p = nullptr;
  ASSERT_TRUE(pool->Allocate(size, &p).ok());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % kAlignment, 0u);
  const int64_t mapped = (size + kAlignment + 4095) & ~int64_t{4095};
  EXPECT_EQ(pool->UsableSize(p), mapped - kAlignment);
  EXPECT_EQ(MemoryTracker::Process()->current_bytes() - before, mapped);
  uint8_t* base = p - kAlignment;
  ASSERT_EQ(reinterpret_cast<uintptr_t>(base) % 4096, 0u);
  std::vector<unsigned char> present(static_cast<size_t>(mapped / 4096));
  ASSERT_EQ(mincore(base, static_cast<size_t>(mapped), present.data()), 0);
  int64_t missing = 0;
  for (unsigned char v : present) missing += (v & 1) == 0;
  EXPECT_EQ(missing, 0) << "of " << present.size() << " pages";
  const uintptr_t at = reinterpret_cast<uintptr_t>(base);
  EXPECT_EQ(AnonHugePagesKb(at, at + static_cast<uintptr_t>(mapped)), 0);
  std::memset(p, 0x3c, static_cast<size_t>(size));
  ASSERT_TRUE(pool->Reallocate(size * 2, &p).ok());
  EXPECT_EQ(p[0], 0x3c);
  EXPECT_EQ(p[size - 1], 0x3c);
  pool->Free(p);
  EXPECT_EQ(MemoryTracker::Process()->current_bytes(), before);
}

// The streaming setup (the CLI's) leaves mimalloc on 4 KiB pages unless QUIVER_LARGE_OS_PAGES=1:
// a block it maps after the setup has no huge pages where THP is given only on madvise.
TEST(MemoryPool, StreamingSetupKeepsSmallPagesUnlessAsked) {
  if (std::string_view(default_memory_pool()->backend_name()) != "mimalloc") {
    GTEST_SKIP() << "not built with mimalloc";
  }
  std::ifstream thp("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode((std::istreambuf_iterator<char>(thp)), std::istreambuf_iterator<char>());
  if (mode.find("[madvise]") == std::string::npos) GTEST_SKIP() << "THP mode " << mode;
  const char* env = std::getenv("QUIVER_LARGE_OS_PAGES");
  if (env != nullptr && std::string_view(env) == "1") GTEST_SKIP() << "QUIVER_LARGE_OS_PAGES=1";
  ConfigureAllocatorForStreaming();
  const int64_t size = int64_t{40} << 20;  // past mimalloc's large objects: a segment of its own
  uint8_t* p = nullptr;
  ASSERT_TRUE(default_memory_pool()->Allocate(size, &p).ok());
  std::memset(p, 0x11, static_cast<size_t>(size));
  EXPECT_EQ(p[size - 1], 0x11);
  const uintptr_t at = reinterpret_cast<uintptr_t>(p);
  EXPECT_EQ(AnonHugePagesKb(at, at + static_cast<uintptr_t>(size)), 0);
  default_memory_pool()->Free(p);
}

TEST(Arena, LimitSurfacesAsOutOfMemory) {
  MemoryTracker t("arena", MemoryTracker::Process(), Exact(4096));
  TrackedMemoryPool pool(&t);
  Arena arena(&pool, 1024);
  auto r = arena.CopyString(std::string(10000, 'x'));
  EXPECT_TRUE(r.status().IsOutOfMemory());
  EXPECT_EQ(r.status().message(), "arena could not provide 10000 bytes");
  EXPECT_EQ(t.current_bytes(), 0);
}

}  // namespace
}  // namespace quiver

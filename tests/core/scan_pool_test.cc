// ScanPool: released blocks serve later requests, it never keeps more than its callers held
// at once, small blocks pass straight through, and Close hands everything back.
#include <gtest/gtest.h>

#include "quiver/core/memory_pool.h"
#include "quiver/core/memory_tracker.h"
#include "quiver/core/scan_pool.h"

namespace quiver {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

TEST(ScanPool, ReleasedBlocksServeTheNextRequests) {
  MemoryTracker t("t", MemoryTracker::Process(), {MemoryTracker::kNoLimit, 0});
  TrackedMemoryPool base(&t);
  ScanPool* pool = ScanPool::Make(&base);
  uint8_t *a = nullptr, *b = nullptr, *c = nullptr;
  ASSERT_TRUE(pool->Allocate(kMiB, &a).ok());
  ASSERT_TRUE(pool->Allocate(kMiB, &b).ok());
  const int64_t held = t.current_bytes();
  pool->Free(a);
  pool->Free(b);
  EXPECT_EQ(t.current_bytes(), held);  // kept, still charged
  // A slightly smaller request fits a kept block.
  ASSERT_TRUE(pool->Allocate(kMiB - 4096, &c).ok());
  EXPECT_TRUE(c == a || c == b);
  EXPECT_EQ(pool->reused(), 1);
  EXPECT_EQ(pool->fresh(), 2);
  EXPECT_EQ(t.current_bytes(), held);
  pool->Close();  // the other kept block goes back
  EXPECT_EQ(t.current_bytes(), held / 2);
  pool->Free(c);  // after Close, straight back (and the pool deletes itself)
  EXPECT_EQ(t.current_bytes(), 0);
}

TEST(ScanPool, KeepsNoMoreThanItsCallersHeldAtOnce) {
  MemoryTracker t("t", MemoryTracker::Process(), {MemoryTracker::kNoLimit, 0});
  TrackedMemoryPool base(&t);
  ScanPool* pool = ScanPool::Make(&base);
  uint8_t *a = nullptr, *b = nullptr;
  ASSERT_TRUE(pool->Allocate(kMiB, &a).ok());
  const int64_t one = t.current_bytes();
  pool->Free(a);
  // Four times as large: the kept block does not fit it.
  ASSERT_TRUE(pool->Allocate(4 * kMiB, &b).ok());
  EXPECT_EQ(pool->reused(), 0);
  EXPECT_EQ(pool->fresh(), 2);
  pool->Free(b);
  // At most 4 MiB were held at once: keeping the 4 MiB block beside the kept 1 MiB one would
  // hold 5, so it goes back.
  EXPECT_EQ(t.current_bytes(), one);
  pool->Close();
  EXPECT_EQ(t.current_bytes(), 0);
}

TEST(ScanPool, SmallBlocksPassStraightThrough) {
  MemoryTracker t("t", MemoryTracker::Process(), {MemoryTracker::kNoLimit, 0});
  TrackedMemoryPool base(&t);
  ScanPool* pool = ScanPool::Make(&base);
  uint8_t* a = nullptr;
  ASSERT_TRUE(pool->Allocate(1000, &a).ok());
  EXPECT_GT(t.current_bytes(), 0);
  pool->Free(a);
  EXPECT_EQ(t.current_bytes(), 0);
  EXPECT_EQ(pool->fresh(), 0);
  pool->Close();
}

}  // namespace
}  // namespace quiver

// RecyclingPool under both policies. The CSV readers': blocks reused by power-of-two class
// while a user is open, up to what its callers held at once (or a keep limit). A scan's: released blocks serve later requests, it
// never keeps more than its callers held at once, small blocks pass straight through, and Close
// hands everything back.
#include <gtest/gtest.h>

#include <vector>

#include "quiver/core/memory_pool.h"
#include "quiver/core/memory_tracker.h"
#include "quiver/core/recycling_pool.h"

namespace quiver {
namespace {

class RecyclingPoolTest : public ::testing::Test {
 protected:
  MemoryTracker tracker_{"recycling", MemoryTracker::Process(), {MemoryTracker::kNoLimit, 0}};
  TrackedMemoryPool base_{&tracker_};
};

TEST_F(RecyclingPoolTest, ReusesAFreedBlockOfTheSameClassWhileAUserIsOpen) {
  RecyclingPool pool(&base_);
  pool.AddUser();
  uint8_t* a = nullptr;
  ASSERT_TRUE(pool.Allocate(100 << 10, &a).ok());
  // Rounded up to its power-of-two class, so that it serves any size of that class later.
  EXPECT_GE(pool.UsableSize(a), 128 << 10);
  pool.Free(a);
  EXPECT_EQ(pool.kept_bytes(), 128 << 10);
  EXPECT_EQ(tracker_.current_bytes(), base_.UsableSize(a));  // still charged while kept
  uint8_t* b = nullptr;
  ASSERT_TRUE(pool.Allocate(70 << 10, &b).ok());
  EXPECT_EQ(b, a);
  EXPECT_EQ(pool.kept_bytes(), 0);
  pool.Free(b);
  pool.RemoveUser();
  EXPECT_EQ(pool.kept_bytes(), 0);
  EXPECT_EQ(tracker_.current_bytes(), 0);
}

TEST_F(RecyclingPoolTest, KeepsNothingWithoutUsersNorSmallOrHugeBlocks) {
  RecyclingPool pool(&base_);
  uint8_t* p = nullptr;
  ASSERT_TRUE(pool.Allocate(64 << 10, &p).ok());
  pool.Free(p);  // no user open
  EXPECT_EQ(pool.kept_bytes(), 0);
  EXPECT_EQ(tracker_.current_bytes(), 0);
  pool.AddUser();
  uint8_t* small = nullptr;
  uint8_t* huge = nullptr;
  ASSERT_TRUE(pool.Allocate(1000, &small).ok());
  ASSERT_TRUE(pool.Allocate((int64_t{32} << 20) + 1, &huge).ok());
  pool.Free(small);
  pool.Free(huge);
  EXPECT_EQ(pool.kept_bytes(), 0);
  EXPECT_EQ(tracker_.current_bytes(), 0);
  pool.RemoveUser();
}

TEST_F(RecyclingPoolTest, KeepsUpToItsLimitAndFreesTheRest) {
  RecyclingPolicy policy = kCsvRecycling;
  policy.keep_bytes = int64_t{256} << 10;
  RecyclingPool pool(&base_, policy);
  pool.AddUser();
  uint8_t* blocks[3] = {};
  for (auto*& b : blocks) ASSERT_TRUE(pool.Allocate(128 << 10, &b).ok());
  for (auto* b : blocks) pool.Free(b);
  EXPECT_EQ(pool.kept_bytes(), 256 << 10);
  pool.RemoveUser();
  EXPECT_EQ(pool.kept_bytes(), 0);
  EXPECT_EQ(tracker_.current_bytes(), 0);
}

// A convert holds tens of MB of the CSV readers' blocks at once: all of them come back for the
// next batches, past any fixed limit, but no more than were held at once.
TEST_F(RecyclingPoolTest, KeepsWhatItsCallersHeldAtOnce) {
  RecyclingPool pool(&base_);
  pool.AddUser();
  std::vector<uint8_t*> blocks(40);
  for (auto*& b : blocks) ASSERT_TRUE(pool.Allocate(1 << 20, &b).ok());
  for (auto* b : blocks) pool.Free(b);
  EXPECT_EQ(pool.kept_bytes(), int64_t{40} << 20);
  EXPECT_EQ(pool.fresh(), 40);
  for (auto*& b : blocks) ASSERT_TRUE(pool.Allocate(1 << 20, &b).ok());
  EXPECT_EQ(pool.fresh(), 40);
  EXPECT_EQ(pool.reused(), 40);
  for (auto* b : blocks) pool.Free(b);
  // A block of another class while all 40 MiB are kept takes the pool past its mark: it goes
  // back to the allocator when freed.
  uint8_t* other = nullptr;
  ASSERT_TRUE(pool.Allocate(2 << 20, &other).ok());
  EXPECT_EQ(pool.fresh(), 41);
  pool.Free(other);
  EXPECT_EQ(pool.kept_bytes(), int64_t{40} << 20);
  EXPECT_EQ(tracker_.current_bytes(), int64_t{40} << 20);
  pool.RemoveUser();
  EXPECT_EQ(pool.kept_bytes(), 0);
  EXPECT_EQ(tracker_.current_bytes(), 0);
}

TEST_F(RecyclingPoolTest, ReallocateKeepsTheBytesAndRecyclesTheOldBlock) {
  RecyclingPool pool(&base_);
  pool.AddUser();
  uint8_t* p = nullptr;
  ASSERT_TRUE(pool.Allocate(20 << 10, &p).ok());
  for (int i = 0; i < (20 << 10); ++i) p[i] = static_cast<uint8_t>(i * 7);
  uint8_t* old = p;
  const int64_t old_usable = pool.UsableSize(p);
  ASSERT_TRUE(pool.Reallocate(old_usable, &p).ok());
  EXPECT_EQ(p, old);  // it fits already
  ASSERT_TRUE(pool.Reallocate(old_usable + 1, &p).ok());
  EXPECT_NE(p, old);
  for (int i = 0; i < (20 << 10); ++i) ASSERT_EQ(p[i], static_cast<uint8_t>(i * 7)) << i;
  // The old block waits in the class its usable size fills.
  EXPECT_EQ(pool.kept_bytes(), int64_t{1} << (63 - __builtin_clzll(static_cast<uint64_t>(old_usable))));
  pool.Free(p);
  pool.RemoveUser();
  EXPECT_EQ(tracker_.current_bytes(), 0);
}

TEST_F(RecyclingPoolTest, APoolDestroyedWithAUserOpenFreesWhatItKept) {
  {
    RecyclingPool pool(&base_);
    pool.AddUser();
    uint8_t* p = nullptr;
    ASSERT_TRUE(pool.Allocate(64 << 10, &p).ok());
    pool.Free(p);
    EXPECT_EQ(pool.kept_bytes(), 64 << 10);
  }
  EXPECT_EQ(tracker_.current_bytes(), 0);
}

constexpr int64_t kMiB = int64_t{1} << 20;

TEST(RecyclingPoolScan, ReleasedBlocksServeTheNextRequests) {
  MemoryTracker t("t", MemoryTracker::Process(), {MemoryTracker::kNoLimit, 0});
  TrackedMemoryPool base(&t);
  RecyclingPool* pool = RecyclingPool::Make(&base, kScanRecycling);
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

TEST(RecyclingPoolScan, KeepsNoMoreThanItsCallersHeldAtOnce) {
  MemoryTracker t("t", MemoryTracker::Process(), {MemoryTracker::kNoLimit, 0});
  TrackedMemoryPool base(&t);
  RecyclingPool* pool = RecyclingPool::Make(&base, kScanRecycling);
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

TEST(RecyclingPoolScan, SmallBlocksPassStraightThrough) {
  MemoryTracker t("t", MemoryTracker::Process(), {MemoryTracker::kNoLimit, 0});
  TrackedMemoryPool base(&t);
  RecyclingPool* pool = RecyclingPool::Make(&base, kScanRecycling);
  uint8_t* a = nullptr;
  ASSERT_TRUE(pool->Allocate(1000, &a).ok());
  EXPECT_GT(t.current_bytes(), 0);
  pool->Free(a);
  EXPECT_EQ(t.current_bytes(), 0);
  EXPECT_EQ(pool->fresh(), 0);
  pool->Close();
}

// Of the kept blocks, a request takes the smallest it fits within twice its size.
TEST(RecyclingPoolScan, TakesTheSmallestKeptBlockThatFits) {
  MemoryTracker t("t", MemoryTracker::Process(), {MemoryTracker::kNoLimit, 0});
  TrackedMemoryPool base(&t);
  RecyclingPool* pool = RecyclingPool::Make(&base, kScanRecycling);
  uint8_t *small = nullptr, *mid = nullptr, *big = nullptr, *got = nullptr;
  ASSERT_TRUE(pool->Allocate(kMiB, &small).ok());
  ASSERT_TRUE(pool->Allocate(4 * kMiB, &mid).ok());
  ASSERT_TRUE(pool->Allocate(16 * kMiB, &big).ok());
  const int64_t small_size = pool->UsableSize(small), mid_size = pool->UsableSize(mid);
  pool->Free(big);
  pool->Free(small);
  pool->Free(mid);
  // Too large for `small`; `big` is over twice it.
  ASSERT_TRUE(pool->Allocate(mid_size - 4096, &got).ok());
  EXPECT_EQ(got, mid);
  // `small` fits it; `big` is over twice it.
  ASSERT_TRUE(pool->Allocate(small_size / 2 + 4096, &got).ok());
  EXPECT_EQ(got, small);
  EXPECT_EQ(pool->reused(), 2);
  pool->Free(mid);
  pool->Free(small);
  pool->Close();
  EXPECT_EQ(t.current_bytes(), 0);
}

// A request no kept block fits within twice its size takes one within four times it rather
// than a fresh block when a fresh one would hold more than the callers ever held at once (a scan's column
// sizes cross a class boundary: 512 KiB requests among kept 1 MiB blocks).
TEST(RecyclingPoolScan, ALargerKeptBlockServesRatherThanGrowPastTheHighWaterMark) {
  MemoryTracker t("t", MemoryTracker::Process(), {MemoryTracker::kNoLimit, 0});
  TrackedMemoryPool base(&t);
  RecyclingPool* pool = RecyclingPool::Make(&base, kScanRecycling);
  uint8_t *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr;
  ASSERT_TRUE(pool->Allocate(kMiB, &a).ok());
  ASSERT_TRUE(pool->Allocate(kMiB, &b).ok());
  const int64_t held = t.current_bytes();
  pool->Free(a);
  pool->Free(b);
  ASSERT_TRUE(pool->Allocate(kMiB / 2 - 4096, &c).ok());  // 1 MiB is over twice it
  ASSERT_TRUE(pool->Allocate(kMiB / 2 - 4096, &d).ok());
  EXPECT_TRUE((c == a && d == b) || (c == b && d == a));
  EXPECT_EQ(pool->reused(), 2);
  EXPECT_EQ(pool->fresh(), 2);
  EXPECT_EQ(t.current_bytes(), held);
  pool->Free(c);
  pool->Free(d);
  // Not one over four times the request: that is a fresh block.
  ASSERT_TRUE(pool->Allocate(kMiB / 8, &c).ok());
  EXPECT_EQ(pool->fresh(), 3);
  pool->Free(c);
  pool->Close();
  EXPECT_EQ(t.current_bytes(), 0);
}

}  // namespace
}  // namespace quiver

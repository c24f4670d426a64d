#include <gtest/gtest.h>

#include "quiver/core/memory_pool.h"
#include "quiver/core/memory_tracker.h"
#include "quiver/core/recycling_pool_internal.h"

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
  RecyclingPool pool(&base_, /*keep_bytes=*/int64_t{256} << 10);
  pool.AddUser();
  uint8_t* blocks[3] = {};
  for (auto*& b : blocks) ASSERT_TRUE(pool.Allocate(128 << 10, &b).ok());
  for (auto* b : blocks) pool.Free(b);
  EXPECT_EQ(pool.kept_bytes(), 256 << 10);
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

}  // namespace
}  // namespace quiver

#include "quiver/core/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "quiver/core/simd_dispatch.h"

namespace quiver {
namespace {

TEST(ThreadPool, RunsEveryTask) {
  ThreadPool pool(2);
  TaskGroup group(&pool);
  std::atomic<int64_t> sum{0};
  for (int i = 1; i <= 1000; ++i) {
    group.Submit([&sum, i] {
      sum += i;
      return Status::OK();
    });
  }
  EXPECT_TRUE(group.Wait().ok());
  EXPECT_EQ(sum.load(), 500500);
}

TEST(ThreadPool, FirstErrorCancelsTheRest) {
  ThreadPool pool(1);
  TaskGroup group(&pool);
  std::atomic<int> ran{0};
  group.Submit([&] {
    ++ran;
    return Status::Corrupt("chunk 0: bad quote");
  });
  // Tasks queued before the failure is recorded may still run (a waiting caller helps), so the
  // rest are submitted once the group has seen it: none of them may start.
  while (!group.cancelled()) std::this_thread::yield();
  for (int i = 0; i < 100; ++i) {
    group.Submit([&] {
      ++ran;
      return Status::OK();
    });
  }
  Status st = group.Wait();
  EXPECT_TRUE(st.IsCorrupt());
  EXPECT_EQ(st.message(), "chunk 0: bad quote");
  EXPECT_TRUE(group.cancelled());
  EXPECT_EQ(ran.load(), 1);
}

TEST(ThreadPool, NestedGroupsDoNotDeadlock) {
  ThreadPool pool(2);
  TaskGroup outer(&pool);
  std::atomic<int> leaves{0};
  for (int i = 0; i < 4; ++i) {
    outer.Submit([&] {
      TaskGroup inner(&pool);
      for (int j = 0; j < 8; ++j) {
        inner.Submit([&] {
          ++leaves;
          return Status::OK();
        });
      }
      return inner.Wait();
    });
  }
  EXPECT_TRUE(outer.Wait().ok());
  EXPECT_EQ(leaves.load(), 32);
}

TEST(ThreadPool, CancelFromOutside) {
  ThreadPool pool(1);
  TaskGroup group(&pool);
  group.Cancel(Status::Cancelled("interrupted"));
  bool ran = false;
  group.Submit([&] {
    ran = true;
    return Status::OK();
  });
  EXPECT_EQ(group.Wait().message(), "interrupted");
  EXPECT_FALSE(ran);
}

TEST(SimdDispatch, LevelsAreOrderedAndScalarAlwaysPresent) {
  auto levels = SupportedSimdLevels();
  ASSERT_FALSE(levels.empty());
  EXPECT_EQ(levels.front(), SimdLevel::kScalar);
  EXPECT_EQ(levels.back(), DetectedSimdLevel());
  EXPECT_LE(static_cast<int>(ActiveSimdLevel()), static_cast<int>(DetectedSimdLevel()));
  EXPECT_EQ(SimdLevelName(SimdLevel::kAvx2), "avx2");
}

}  // namespace
}  // namespace quiver

// OutputArenaPool: buffers carved back to back from blocks, grown and shrunk in place when they
// are the newest, blocks returned to the parent (and the tracker back to zero) once every buffer
// and the owner let go; and a whole read through arenas equal to one without them.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <vector>

#include "quiver/columnar/builder.h"
#include "quiver/core/memory_pool.h"
#include "quiver/core/memory_tracker.h"
#include "quiver/core/thread_pool.h"
#include "quiver/io/file.h"
#include "quiver/parquet/reader/file_reader.h"
#include "quiver/parquet/reader/output_arena_internal.h"
#include "quiver/parquet/writer/file_writer.h"
#include "testing/parquet_bytes.h"

namespace quiver::parquet {
namespace {

TEST(OutputArenaPool, CarvesBlocksAndReturnsThemWhenAllBuffersAreFreed) {
  MemoryTracker tracker("arena", MemoryTracker::Process(), {.quantum = 0});
  TrackedMemoryPool parent(&tracker);
  auto* arena = reader::OutputArenaPool::Make(&parent, 4096);
  uint8_t *a = nullptr, *b = nullptr, *c = nullptr;
  ASSERT_TRUE(arena->Allocate(1000, &a).ok());
  ASSERT_TRUE(arena->Allocate(1000, &b).ok());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  EXPECT_EQ(b - a, 1024 + 64);  // 1000 rounded to 64, then the next buffer's header
  EXPECT_EQ(arena->UsableSize(a), 1024);
  EXPECT_EQ(arena->blocks(), 1);
  const int64_t one_block = tracker.current_bytes();
  EXPECT_GE(one_block, 4096 + 64);
  // The newest buffer grows in place while the block has room, keeping its bytes.
  std::memset(b, 7, 1000);
  uint8_t* before = b;
  ASSERT_TRUE(arena->Reallocate(2000, &b).ok());
  EXPECT_EQ(b, before);
  EXPECT_EQ(arena->UsableSize(b), 2048);
  ASSERT_TRUE(arena->Reallocate(640, &b).ok());  // and shrinks in place
  EXPECT_EQ(b, before);
  EXPECT_EQ(arena->UsableSize(b), 640);
  // An older buffer moves (to a new block when this one is full), its bytes copied.
  std::memset(a, 9, 1000);
  ASSERT_TRUE(arena->Reallocate(3000, &a).ok());
  EXPECT_EQ(arena->blocks(), 2);
  EXPECT_EQ(a[999], 9);
  EXPECT_EQ(b[999], 7);
  // A buffer larger than a block gets a block of its own.
  ASSERT_TRUE(arena->Allocate(10000, &c).ok());
  EXPECT_EQ(arena->blocks(), 3);
  std::memset(c, 1, 10000);
  // The owner lets go first; the buffers keep their blocks (and the arena) alive.
  arena->Close();
  EXPECT_GT(tracker.current_bytes(), 0);
  arena->Free(b);
  arena->Free(a);
  EXPECT_GT(tracker.current_bytes(), 0);
  arena->Free(c);  // the last buffer: blocks back to the parent, the arena deletes itself
  EXPECT_EQ(tracker.current_bytes(), 0);
}

// Whether the page holding `p` is resident (mincore).
bool Resident(const uint8_t* p) {
  const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  unsigned char v = 0;
  EXPECT_EQ(mincore(reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(p) & ~(page - 1)), page, &v), 0);
  return (v & 1) != 0;
}

TEST(OutputArenaPool, SmallPageBlocksAreOwnMappingsWrittenInAheadOfTheBuffers) {
#ifdef MADV_POPULATE_WRITE
  {
    void* probe = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(probe, MAP_FAILED);
    const bool populates = madvise(probe, 4096, MADV_POPULATE_WRITE) == 0;
    munmap(probe, 4096);
    if (!populates) GTEST_SKIP() << "the kernel has no MADV_POPULATE_WRITE (Linux 5.14+)";
  }
#else
  GTEST_SKIP() << "no MADV_POPULATE_WRITE";
#endif
  MemoryTracker tracker("arena", MemoryTracker::Process(), {.quantum = 0});
  TrackedMemoryPool parent(&tracker);
  constexpr int64_t kMiB = 1 << 20;
  auto* arena = reader::OutputArenaPool::Make(&parent, 8 * kMiB - 64, /*small_pages=*/true);
  uint8_t* a = nullptr;
  ASSERT_TRUE(arena->Allocate(3 * kMiB, &a).ok());
  // The block's mapping, its header included, is charged whole: 8 MiB.
  EXPECT_EQ(tracker.current_bytes(), 8 * kMiB);
  const uint8_t* block = a - 128;  // the block's header, then the buffer's
  // Written in up to the buffer's end rounded to the 2 MiB step, before anything is stored.
  EXPECT_TRUE(Resident(block));
  EXPECT_TRUE(Resident(block + 4 * kMiB - 4096));
  EXPECT_FALSE(Resident(block + 4 * kMiB));
  EXPECT_FALSE(Resident(block + 8 * kMiB - 4096));
  // The newest buffer grown in place: the pages up to its new end follow.
  ASSERT_TRUE(arena->Reallocate(5 * kMiB, &a).ok());
  EXPECT_EQ(a, block + 128);
  EXPECT_TRUE(Resident(block + 6 * kMiB - 4096));
  EXPECT_FALSE(Resident(block + 6 * kMiB));
  std::memset(a, 3, 5 * kMiB);
  // A buffer larger than a block: a mapping of its own, in whole pages.
  uint8_t* c = nullptr;
  ASSERT_TRUE(arena->Allocate(9 * kMiB, &c).ok());
  EXPECT_EQ(tracker.current_bytes(), 8 * kMiB + 9 * kMiB + 4096);
  EXPECT_EQ(arena->blocks(), 2);
  arena->Close();
  arena->Free(a);
  EXPECT_EQ(tracker.current_bytes(), 9 * kMiB + 4096);  // a's block unmapped, c's kept
  arena->Free(c);
  EXPECT_EQ(tracker.current_bytes(), 0);
}

// Counts the allocations of one size (an arena's blocks, header included) made through it.
class CountingPool final : public MemoryPool {
 public:
  CountingPool(MemoryPool* parent, int64_t size) : parent_(parent), size_(size) {}
  Status Allocate(int64_t size, uint8_t** out) override {
    if (size == size_) ++count;
    return parent_->Allocate(size, out);
  }
  Status Reallocate(int64_t new_size, uint8_t** ptr) override { return parent_->Reallocate(new_size, ptr); }
  void Free(uint8_t* ptr) override { parent_->Free(ptr); }
  int64_t UsableSize(const uint8_t* ptr) const override { return parent_->UsableSize(ptr); }
  MemoryTracker* tracker() const override { return parent_->tracker(); }
  const char* backend_name() const override { return "counting"; }
  std::atomic<int> count{0};

 private:
  MemoryPool* parent_;
  int64_t size_;
};

// 300,000 rows (int64 without nulls, strings with nulls, long PLAIN strings without) read with
// every chunk's output in arenas (blocks of 256 KiB, so chunks span and fill blocks, or blocks
// grown to 1 MiB from half of each loop's share) on 1 and 2 threads: the same values as a
// read without arenas, and nothing left charged afterwards; blocks from the pool or mapped on
// small pages.
TEST(OutputArenaPool, WholeReadThroughArenasEqualsReadWithout) {
  auto schema = std::make_shared<const Schema>(
      std::vector<Field>{field("k", int64()), field("mode", utf8()), field("comment", utf8())});
  NumericBuilder<int64_t> k(int64());
  BinaryBuilder mode(utf8()), comment(utf8());
  const char* modes[] = {"AIR", "RAIL", "SHIP", "DELIVER IN PERSON"};
  const int64_t rows = 300000;
  for (int64_t i = 0; i < rows; ++i) {
    ASSERT_TRUE(k.Append(i * 7919 % 1000003).ok());
    ASSERT_TRUE((i % 9 == 4 ? mode.AppendNull() : mode.Append(modes[i % 4])).ok());
    ASSERT_TRUE(comment.Append(std::string(static_cast<size_t>(i % 70), static_cast<char>('a' + i % 26))).ok());
  }
  auto batch = std::make_shared<RecordBatch>(schema, rows,
                                             std::vector<Array>{*k.Finish(), *mode.Finish(), *comment.Finish()});
  ParquetWriterOptions wopts;
  wopts.row_group_rows = 40000;
  wopts.column_encodings = {{"comment", Encoding::PLAIN}};
  auto bytes = testing::WriteParquetBytes(schema, {batch}, wopts);
  ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
  for (int threads : {1, 2}) {
    for (bool grow : {false, true}) {
      for (bool small : {false, true}) {
        SCOPED_TRACE(::testing::Message() << "threads " << threads << " grow " << grow << " small pages " << small);
        MemoryTracker tracker("arena-read", MemoryTracker::Process(), {.quantum = 0});
        TrackedMemoryPool tracked(&tracker);
        // Fixed blocks of 256 KiB; or blocks allowed to grow to 1 MiB, which half of each loop's
        // share of the uncompressed bytes passes at 1 and 2 loops, so every block is 1 MiB.
        const int64_t block = grow ? (1 << 20) - 64 : 256 * 1024;
        CountingPool pool(&tracked, block + 64);
        ThreadPool tp(threads);
        ParquetReaderOptions opts;
        opts.pool = &pool;
        opts.thread_pool = threads > 1 ? &tp : nullptr;
        opts.output_arena_min_bytes = 0;
        opts.output_block_bytes = 256 * 1024;
        opts.output_block_max_bytes = block;
        opts.output_small_pages = small;  // false: blocks through `pool`, to count them
        auto r = ParquetFileReader::Open(io::MemorySource(*bytes), opts);
        ASSERT_TRUE(r.ok()) << r.status().ToString();
        auto all = (*r)->ReadRowGroups();
        ASSERT_TRUE(all.ok()) << all.status().ToString();
        ASSERT_EQ(all->size(), 8u);
        // k and comment have no nulls: their output went to arenas, whose blocks (plus their
        // header) nothing else allocates; larger buffers get blocks of their own.
        if (!small) {
          EXPECT_GE(pool.count.load(), threads);
        }
        int64_t offset = 0;
        for (const auto& b : *all) {
          for (int c = 0; c < 3; ++c) {
            EXPECT_TRUE(b->column(c).Equals(batch->column(c).Slice(offset, b->num_rows())))
                << "threads " << threads << " column " << c << " at row " << offset;
          }
          offset += b->num_rows();
        }
        EXPECT_EQ(offset, rows);
        r->reset();
        all->clear();
        EXPECT_EQ(tracker.current_bytes(), 0);
      }
    }
  }
}

}  // namespace
}  // namespace quiver::parquet

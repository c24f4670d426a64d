// A MemoryPool that lays one decode loop's output buffers back to back in large blocks, so that
// a whole-file read holds its decoded data without the allocator's per-buffer rounding.
#pragma once

#include <atomic>
#include <cstdint>

#include "quiver/core/memory_pool.h"

namespace quiver::parquet::reader {

// Why: mimalloc rounds a buffer of about 1 MB up to 64 KiB and places it in 64 KiB slices, and
// with 2 MiB OS pages every byte of such rounding is resident: about 6% of lineitem's decoded
// bytes. Here buffers are carved from blocks of `block_size` bytes taken from `parent` (one
// charge to its tracker per block; a buffer larger than a block gets a block of its own).
// Allocate and Reallocate belong to one thread (the decode loop that owns the arena);
// Free may come from any thread and returns a block to `parent` once every buffer carved from
// it, and the arena itself, let go of it. Freed space inside a block is not reused: give the
// arena only buffers that live as long as the output (Reallocate of the newest buffer grows
// or shrinks it in place).
// With `small_pages`, blocks are instead mappings of their own on 4 KiB pages, charged to the
// parent's tracker and unmapped when released, their pages written in (PopulatePages) a step
// at a time as buffers are carved, just ahead of the decoder's stores: one system call per
// step instead of a fault per page, and no 2 MiB pages, which a VM with free page reporting
// gets back from its host only page by page (core/page_mapping.h).
// Buffers keep a pointer to their pool, so the arena lives until the last of them is freed:
// it is made on the heap and deletes itself once its owner has called Close() and every buffer
// carved from it is freed.
class OutputArenaPool final : public MemoryPool {
 public:
  static OutputArenaPool* Make(MemoryPool* parent, int64_t block_size, bool small_pages = false) {
    return new OutputArenaPool(parent, block_size, small_pages);
  }
  // How far a small-page block is written in at a time (whole steps from the block's start,
  // up to the end of the newest buffer).
  static constexpr int64_t kPopulateStep = int64_t{2} << 20;
  // The owner is done allocating: the arena lets go of its current block.
  void Close();
  OutputArenaPool(const OutputArenaPool&) = delete;
  OutputArenaPool& operator=(const OutputArenaPool&) = delete;

  Status Allocate(int64_t size, uint8_t** out) override;
  Status Reallocate(int64_t new_size, uint8_t** ptr) override;
  void Free(uint8_t* ptr) override;
  int64_t UsableSize(const uint8_t* ptr) const override;
  MemoryTracker* tracker() const override { return parent_->tracker(); }
  const char* backend_name() const override { return "output-arena"; }

  // Blocks taken from the parent so far.
  int64_t blocks() const { return blocks_; }

 private:
  OutputArenaPool(MemoryPool* parent, int64_t block_size, bool small_pages)
      : parent_(parent), block_size_(block_size), small_pages_(small_pages) {}
  ~OutputArenaPool() override = default;
  struct Block;
  Status NewBlock(int64_t min_bytes);
  static void Release(Block* b);
  void Unref();
  // Writes in cur_'s pages up to the end of the carved bytes (small-page blocks only).
  void Populate();

  std::atomic<int64_t> live_{1};  // buffers not yet freed, plus one until Close()

  MemoryPool* parent_;
  int64_t block_size_;
  bool small_pages_;
  Block* cur_ = nullptr;     // the block being carved (the arena holds one reference)
  int64_t used_ = 0;         // bytes of cur_ carved, from its start
  int64_t populated_ = 0;    // bytes of cur_'s mapping written in, from the mapping's start
  uint8_t* newest_ = nullptr;  // the last buffer carved from cur_
  int64_t blocks_ = 0;
};

}  // namespace quiver::parquet::reader

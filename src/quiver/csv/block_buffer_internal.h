// The CSV reader's block buffer: the decoded bytes not yet parsed, read from a ByteSource in
// blocks, in one linear buffer or in a ring of two halves (one parsed while the next block is
// read into the other; a regular file's blocks mapped into the half instead of read into it).
// Positions the later stages keep are offsets from its start, so it moves only between blocks.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "quiver/core/buffer.h"
#include "quiver/core/result.h"
#include "quiver/csv/input_internal.h"

namespace quiver::csv {

// The next block is read this far into its buffer, so that the unfinished row at the end of
// the current block (usually a few hundred bytes) can be copied in front of it.
inline constexpr int64_t kBlockHeadroom = int64_t{64} << 10;
// Every read asks for at least this many bytes: a transcoding source needs room for whole
// characters.
inline constexpr int64_t kMinRead = 64;

// Block buffers of megabytes live for the whole read and are filled over and over: mappings of
// 4 KiB pages written in by one call as they are made (populated_small_page_memory_pool), since
// huge pages, which need free 2 MiB blocks, come back from a VM's host page by page on the
// first reads, on the one thread that reads the first block before any other work exists.
Result<std::shared_ptr<Buffer>> AllocateBlockBuffer(int64_t size);

// Off: every block is read with read(), a regular file's too (tests compare the two paths).
void SetFileMappingForTesting(bool on);
// Bytes taken from file mappings so far, in the whole process (tests see which path ran).
int64_t MappedBytesForTesting();

struct BlockBuffer {
  // Reads until `target` unread bytes are buffered (or the input ends). A source of known
  // size gets a buffer that holds it (up to a whole block and its headroom) at once, or the
  // ring when it holds more than a block and threads share the work; one of unknown size
  // starts small and doubles while data keeps coming, so a small input never pays for a
  // block-sized buffer. Growing moves only the unread bytes. The ring never grows: a block it
  // cannot hold leaves it first (LeaveRing).
  Status Fill(int64_t target);
  // The unread bytes move to the start of a new ring, which from then on is read into half
  // after half. A half holds the headroom and a block, or the unread bytes, or `at_least`
  // bytes (the first read), whichever is more. A block over 1 GiB stays linear.
  Status EnterRing(int64_t at_least = 0);
  // Back to one linear buffer of at least `want` bytes (a row longer than the headroom, or a
  // block that one row fills). before_leaving_ring runs first (the reader waits there for
  // work that reads the ring).
  Status LeaveRing(int64_t want);
  // The end of the bytes the current block may fill (64 bytes of padding stay past it).
  int64_t Limit() const { return ring ? HalfStart(cur) + half - 64 : buf->size() - 64; }
  // Where ring half `h` starts: its headroom, then its block.
  int64_t HalfStart(int h) const { return h * stride + shift[h]; }

  // The next `max` bytes of the input (fewer at its end, 0 past it) at buf[at, ...): read, or,
  // where half `at` lies in maps the input there, taken from the mapping.
  Result<int64_t> ReadAt(int64_t at, int64_t max);
  // Ring half `h` is about to take the next block (on the thread that reads ahead): a plain
  // file's next bytes are mapped over the half, with the bytes before them in its headroom.
  // Returns where the block starts (HalfStart(h) + headroom).
  Result<int64_t> StartBlock(int h);
  // The current block's unread bytes (the row cut off at its end) in front of the next block,
  // which starts at `first` in half `h`: copied there, unless the mapping put them there.
  void PlaceTail(int h, int64_t first);

  ByteSource* src = nullptr;
  int64_t block = 0;          // one round's read: the block size times the threads
  bool ring_allowed = false;  // threads share the work: more than a block of input goes into the ring
  std::function<void()> before_leaving_ring;

  std::shared_ptr<Buffer> buf;
  int64_t start = 0, end = 0;  // unread data is buf[start, end)
  bool eof = false;
  int64_t bytes_read = 0;      // decoded bytes read by Fill
  // Ring mode: buf holds two halves of `half` bytes; a block lies in one half after `headroom`
  // bytes left free for the row cut off at the end of the block before it. `cur` is the
  // current block's half.
  bool ring = false;
  int64_t half = 0;
  int64_t headroom = kBlockHeadroom;
  int cur = 0;
  // The halves start `stride` bytes apart, `shift[h]` bytes into their space. Reading, stride
  // is `half` and shifts are 0. Over a plain file the ring is a reservation of 4 KiB pages
  // whose halves are a page longer than `half` and start on pages: a block's bytes then start
  // `shift` (< 4 KiB) in, where the file's page offset puts them, so that the file's pages map
  // over the half (mmap MAP_FIXED, private) from its start.
  int64_t stride = 0;
  int64_t shift[2] = {0, 0};
  bool maps = false;  // the ring is such a reservation
  // Half h maps the file from offset map_from[h] at HalfStart(h) - shift[h]; its bytes end at
  // map_end[h] (the file's size when it was opened).
  bool mapped[2] = {false, false};
  int64_t map_from[2] = {0, 0};
  int64_t map_end[2] = {0, 0};
};

}  // namespace quiver::csv

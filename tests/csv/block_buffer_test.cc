// The block buffer alone: how it sizes, fills, grows, enters and leaves the ring, over
// sources of known and unknown size.
#include "quiver/csv/block_buffer_internal.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <sys/mman.h>

namespace quiver::csv {
namespace {

// Bytes handed out at most `piece` at a time, of unknown size unless `known`.
class PieceSource final : public ByteSource {
 public:
  PieceSource(std::string bytes, int64_t piece, bool known)
      : ByteSource("pieces"), bytes_(std::move(bytes)), piece_(piece), known_(known) {}
  Result<int64_t> Read(uint8_t* out, int64_t max) override {
    const int64_t n = std::min({max, piece_, static_cast<int64_t>(bytes_.size()) - at_});
    std::memcpy(out, bytes_.data() + at_, static_cast<size_t>(n));
    at_ += n;
    return n;
  }
  int64_t raw_position() const override { return at_; }
  int64_t raw_size() const override { return known_ ? static_cast<int64_t>(bytes_.size()) : -1; }

 private:
  std::string bytes_;
  int64_t piece_;
  bool known_;
  int64_t at_ = 0;
};

std::string Pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + i % 26);
  return s;
}

BlockBuffer Over(ByteSource* src, int64_t block, bool ring_allowed = false) {
  BlockBuffer b;
  b.src = src;
  b.block = block;
  b.ring_allowed = ring_allowed;
  return b;
}

std::string Unread(const BlockBuffer& b) {
  return std::string(reinterpret_cast<const char*>(b.buf->data()) + b.start, static_cast<size_t>(b.end - b.start));
}

TEST(BlockBuffer, AKnownSmallInputIsReadWholeIntoOneBuffer) {
  const std::string text = Pattern(100000);
  PieceSource src(text, 1 << 20, true);
  BlockBuffer b = Over(&src, 1 << 20);
  ASSERT_TRUE(b.Fill(1 << 20).ok());
  EXPECT_TRUE(b.eof);
  EXPECT_FALSE(b.ring);
  EXPECT_EQ(Unread(b), text);
  EXPECT_EQ(b.bytes_read, 100000);
  // Sized for the input (and the minimum read and padding), not for the block.
  EXPECT_EQ(b.buf->size(), 100000 + kMinRead + 64);
}

TEST(BlockBuffer, AnUnknownSizeStartsSmallAndGrowsKeepingTheUnreadBytes) {
  const std::string text = Pattern(300000);
  PieceSource src(text, 1000, false);
  BlockBuffer b = Over(&src, 1 << 20);
  ASSERT_TRUE(b.Fill(50000).ok());
  EXPECT_GE(b.end - b.start, 50000);
  EXPECT_EQ(b.buf->size(), 50000 + kMinRead + 64);
  b.start += 20000;  // consumed
  ASSERT_TRUE(b.Fill(200000).ok());
  EXPECT_FALSE(b.eof);
  EXPECT_EQ(b.start, 0);
  EXPECT_GE(b.end, 200000);
  EXPECT_EQ(Unread(b), text.substr(20000, static_cast<size_t>(b.end)));
}

TEST(BlockBuffer, MoreThanABlockWithThreadsGoesIntoTheRingAndLeavesIt) {
  const std::string text = Pattern(10000);
  PieceSource src(text, 1 << 20, true);
  BlockBuffer b = Over(&src, 4096, /*ring_allowed=*/true);
  int waited = 0;
  b.before_leaving_ring = [&] { ++waited; };
  ASSERT_TRUE(b.Fill(4096).ok());
  ASSERT_TRUE(b.ring);
  // A half holds the headroom, a block, the minimum read and padding, rounded to 64 bytes.
  EXPECT_EQ(b.half, (kBlockHeadroom + 4096 + kMinRead + 64 + 63) & ~int64_t{63});
  EXPECT_EQ(b.Limit(), b.half - 64);
  EXPECT_EQ(b.cur, 0);
  EXPECT_EQ(Unread(b), text);  // the first half holds all of it
  b.start = 6000;
  ASSERT_TRUE(b.LeaveRing(5000).ok());
  EXPECT_EQ(waited, 1);
  EXPECT_FALSE(b.ring);
  EXPECT_EQ(b.start, 0);
  EXPECT_EQ(Unread(b), text.substr(6000));
  EXPECT_EQ(b.buf->size(), 5000 + kMinRead + 64);
}

TEST(BlockBuffer, WithoutThreadsAKnownLargeInputStaysLinear) {
  const std::string text = Pattern(10000);
  PieceSource src(text, 1 << 20, true);
  BlockBuffer b = Over(&src, 4096);
  ASSERT_TRUE(b.Fill(4096).ok());
  EXPECT_FALSE(b.ring);
  EXPECT_EQ(Unread(b), text);  // up to a block and its headroom at once
}

// A ring of megabytes is a small-page mapping written in as it is made (core/arena.h), not
// huge pages that first touches would fault in from the host: the half nothing was read into
// yet is already present, page by page.
TEST(BlockBuffer, ARingOfMegabytesIsPresentBeforeItIsRead) {
  const std::string text = Pattern(3 << 20);
  PieceSource src(text, 1 << 20, true);
  BlockBuffer b = Over(&src, 1 << 20, /*ring_allowed=*/true);
  ASSERT_TRUE(b.Fill(1 << 20).ok());
  ASSERT_TRUE(b.ring);
  EXPECT_EQ(Unread(b), text.substr(0, static_cast<size_t>(b.end)));
  EXPECT_LE(b.end, b.half);  // the second half untouched
  const auto page = reinterpret_cast<uintptr_t>(b.buf->data() + b.half + 4095) & ~uintptr_t{4095};
  const size_t pages = static_cast<size_t>(b.half - 8192) / 4096;
  std::vector<unsigned char> present(pages);
  ASSERT_EQ(mincore(reinterpret_cast<void*>(page), pages * 4096, present.data()), 0);
  size_t missing = 0;
  for (unsigned char v : present) missing += (v & 1) == 0;
  EXPECT_EQ(missing, 0u) << "of " << pages << " pages";
}

}  // namespace
}  // namespace quiver::csv

// The reader's chunk-at-a-time decompression (ChunkedStream): integer runs and raw bytes that
// straddle compression chunks decode as from the whole stream, under every codec, in batches of
// any size; a damaged chunk fails with the chunk's number and the codec's reason.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "quiver/compress/codec.h"
#include "quiver/orc/format.h"
#include "quiver/orc/reader/decompress_internal.h"
#include "quiver/orc/reader/rle_internal.h"
#include "quiver/orc/writer/out_stream_internal.h"
#include "quiver/orc/writer/rle_internal.h"

namespace quiver::orc {
namespace {

constexpr uint64_t kBlock = 1000;  // small chunks: most runs cross one

// Values that use every RLE v2 mode: repeats, deltas, wide direct runs and outliers (patched base).
std::vector<int64_t> Values() {
  std::vector<int64_t> v;
  uint64_t x = 12345;
  for (int i = 0; i < 60000; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    switch ((i / 700) % 4) {
      case 0: v.push_back(42); break;
      case 1: v.push_back(i * 3); break;
      case 2: v.push_back(static_cast<int64_t>(x >> 1) * ((x & 1) ? 1 : -1)); break;
      default: v.push_back((x % 97 == 0) ? static_cast<int64_t>(x >> 4) : static_cast<int64_t>(x % 50)); break;
    }
  }
  return v;
}

std::vector<uint8_t> Stored(uint32_t kind, const std::vector<int64_t>& values) {
  writer::OutStream out(kind, compress::kDefaultCompressionLevel, kBlock);
  writer::IntRleV2Encoder enc(&out, true);
  for (int64_t v : values) enc.Add(v);
  enc.Flush();
  EXPECT_TRUE(out.Flush().ok());
  return std::vector<uint8_t>(out.data(), out.data() + out.size());
}

TEST(OrcChunkedStream, IntegerRunsAcrossChunksDecodeUnderEveryCodec) {
  const std::vector<int64_t> want = Values();
  for (uint32_t kind : {format::kNone, format::kZlib, format::kSnappy, format::kLz4, format::kZstd}) {
    SCOPED_TRACE(kind);
    const std::vector<uint8_t> stored = Stored(kind, want);
    ChunkedStream chunks;
    ASSERT_TRUE(chunks.Open(kind, kBlock, stored, nullptr, default_memory_pool()).ok());
    rle::IntRleDecoder dec(chunks.Source(), true, true);
    std::vector<int64_t> got(want.size());
    // Batches of odd sizes, as a stripe is read a batch of rows at a time.
    size_t at = 0;
    for (size_t step = 1; at < got.size(); step = step * 3 + 1) {
      const size_t k = std::min(step % 5000 + 1, got.size() - at);
      ASSERT_TRUE(dec.Decode(got.data() + at, static_cast<int64_t>(k))) << dec.error();
      at += k;
    }
    EXPECT_EQ(got, want);
    int64_t extra;
    EXPECT_FALSE(dec.Decode(&extra, 1));
    EXPECT_STREQ(dec.error(), "integer RLE stream ends early");
  }
}

TEST(OrcChunkedStream, RawBytesReadAcrossChunks) {
  std::vector<uint8_t> input(7777);
  for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<uint8_t>(i * 7 % 251);
  for (uint32_t kind : {format::kNone, format::kZlib, format::kZstd}) {
    SCOPED_TRACE(kind);
    writer::OutStream out(kind, compress::kDefaultCompressionLevel, kBlock);
    out.Write(input.data(), static_cast<int64_t>(input.size()));
    ASSERT_TRUE(out.Flush().ok());
    const std::vector<uint8_t> stored(out.data(), out.data() + out.size());
    ChunkedStream chunks;
    ASSERT_TRUE(chunks.Open(kind, kBlock, stored, nullptr, default_memory_pool()).ok());
    rle::ByteSource src = chunks.Source();
    std::vector<uint8_t> got(input.size());
    ASSERT_TRUE(src.Read(got.data(), 10));
    ASSERT_TRUE(src.Read(got.data() + 10, 2990));  // past two chunk ends
    ASSERT_TRUE(src.Read(got.data() + 3000, 4777));
    EXPECT_EQ(got, input);
    uint8_t more;
    EXPECT_FALSE(src.Read(&more, 1));
    EXPECT_EQ(src.refill_error(), nullptr);  // the stream ended; nothing is damaged
  }
}

TEST(OrcChunkedStream, DamagedChunkFailsNamingIt) {
  std::vector<uint8_t> stored = Stored(format::kZlib, Values());
  // The second chunk's deflate data overwritten with an invalid block type (0b11).
  const uint32_t h = stored[0] | stored[1] << 8 | stored[2] << 16;
  const size_t second = 3 + (h >> 1);
  std::memset(stored.data() + second + 3, 0xff, 16);
  ChunkedStream chunks;
  ASSERT_TRUE(chunks.Open(format::kZlib, kBlock, stored, nullptr, default_memory_pool()).ok());
  rle::IntRleDecoder dec(chunks.Source(), true, true);
  std::vector<int64_t> got(60000);
  EXPECT_FALSE(dec.Decode(got.data(), static_cast<int64_t>(got.size())));
  EXPECT_EQ(std::string(dec.error()), "ZLIB chunk 1 at byte " + std::to_string(second) + " of a compressed stream is not valid deflate data");
}

TEST(OrcChunkedStream, HeaderPastTheEndFailsAtOpen) {
  std::vector<uint8_t> stored = Stored(format::kZstd, Values());
  stored.resize(stored.size() - 1);
  ChunkedStream chunks;
  Status st = chunks.Open(format::kZstd, kBlock, stored, nullptr, default_memory_pool());
  EXPECT_TRUE(st.IsCorrupt()) << st.ToString();
  EXPECT_NE(st.message().find("past the stream's end (" + std::to_string(stored.size()) + ")"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace quiver::orc

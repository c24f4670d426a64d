#include "quiver/parquet/encoding/page_internal.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace quiver::parquet::encoding {
namespace {

// A stand-in header: the compressed size as a LEB128 varint between two marker bytes, so its
// length depends on the size as a Thrift page header's does.
Status FakeHeader(int64_t size, BufferBuilder* out) {
  QUIVER_RETURN_NOT_OK(out->AppendValue<uint8_t>(0xAA));
  uint64_t v = static_cast<uint64_t>(size);
  do {
    const uint8_t b = static_cast<uint8_t>(v & 0x7F) | (v >= 0x80 ? 0x80 : 0);
    QUIVER_RETURN_NOT_OK(out->AppendValue(b));
    v >>= 7;
  } while (v != 0);
  return out->AppendValue<uint8_t>(0xBB);
}

std::string Bytes(const BufferBuilder& b) { return {reinterpret_cast<const char*>(b.data()), static_cast<size_t>(b.size())}; }

// What the page must be: the header for the real compressed size, the stored bytes, then the
// payload compressed on its own.
std::string Expected(compress::Codec codec, const std::string& stored, const std::string& payload,
                     int64_t* compressed = nullptr) {
  BufferBuilder c;
  EXPECT_TRUE(compress::Compress(codec, compress::kDefaultCompressionLevel,
                                 std::span(reinterpret_cast<const uint8_t*>(payload.data()), payload.size()), &c)
                  .ok());
  if (compressed != nullptr) *compressed = c.size();
  BufferBuilder page;
  EXPECT_TRUE(FakeHeader(c.size(), &page).ok());
  EXPECT_TRUE(page.Append(stored).ok());
  EXPECT_TRUE(page.Append(c.data(), c.size()).ok());
  return Bytes(page);
}

// Every guess of the compressed size, whether its header is shorter, as long or longer than
// the real one, and both ways of writing (straight into the chunk, or through the scratch
// buffer when the chunk has no room and is not empty), give the same bytes after what the chunk
// held.
TEST(PageEncoding, CompressedPageBytesDoNotDependOnTheGuessOrTheRoom) {
  std::string payload;
  for (int i = 0; i < 40000; ++i) payload += std::to_string(i % 977) + ",";
  const std::string stored = "levels";
  const std::string prefix = "earlier pages";
  for (compress::Codec codec : {compress::Codec::kSnappy, compress::Codec::kZstd, compress::Codec::kGzip}) {
    int64_t compressed = 0;
    const std::string want = Expected(codec, stored, payload, &compressed);
    for (int64_t guess : {int64_t{1}, int64_t{200}, int64_t{70000}, int64_t{1} << 30}) {
      for (bool room : {true, false}) {
        SCOPED_TRACE(::testing::Message() << compress::CodecName(codec) << " guess " << guess << " room " << room);
        BufferBuilder out, scratch;
        ASSERT_TRUE(out.Append(prefix).ok());
        if (room) {
          ASSERT_TRUE(out.Reserve(int64_t{1} << 20).ok());
        }
        const int64_t capacity = out.capacity();
        auto size = AppendCompressedPage(
            codec, compress::kDefaultCompressionLevel,
            std::span(reinterpret_cast<const uint8_t*>(stored.data()), stored.size()),
            std::span(reinterpret_cast<const uint8_t*>(payload.data()), payload.size()), guess, FakeHeader, &out, &scratch);
        ASSERT_TRUE(size.ok()) << size.status().ToString();
        EXPECT_EQ(Bytes(out), prefix + want);
        EXPECT_EQ(*size, compressed);
        // Straight into the chunk: no scratch used, no growth.
        EXPECT_EQ(scratch.size() == 0, room);
        if (room) {
          EXPECT_EQ(out.capacity(), capacity);
        }
      }
    }
  }
}

// An empty chunk is sized for the page at once (no copy to avoid), so the page goes straight in.
TEST(PageEncoding, EmptyChunkTakesThePageDirectly) {
  const std::string payload(5000, 'x');
  BufferBuilder out, scratch;
  auto size = AppendCompressedPage(compress::Codec::kSnappy, compress::kDefaultCompressionLevel, {},
                                   std::span(reinterpret_cast<const uint8_t*>(payload.data()), payload.size()), 5000,
                                   FakeHeader, &out, &scratch);
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(Bytes(out), Expected(compress::Codec::kSnappy, "", payload));
  EXPECT_EQ(scratch.size(), 0);
}

// A header that cannot be written (a page past 2 GiB, say) fails the page and leaves the chunk
// as it was.
TEST(PageEncoding, HeaderErrorLeavesTheChunkAsItWas) {
  const std::string payload(3000, 'y');
  BufferBuilder out, scratch;
  ASSERT_TRUE(out.Append(std::string("before")).ok());
  ASSERT_TRUE(out.Reserve(1 << 16).ok());
  int calls = 0;
  auto size = AppendCompressedPage(
      compress::Codec::kSnappy, compress::kDefaultCompressionLevel, {},
      std::span(reinterpret_cast<const uint8_t*>(payload.data()), payload.size()), 10,
      [&](int64_t n, BufferBuilder* h) -> Status {
        if (++calls == 2) return Status::Invalid("page too large");
        return FakeHeader(n, h);
      },
      &out, &scratch);
  ASSERT_FALSE(size.ok());
  EXPECT_EQ(size.status().message(), "page too large");
  EXPECT_EQ(Bytes(out), "before");
}

}  // namespace
}  // namespace quiver::parquet::encoding

#include "quiver/compress/codec.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace quiver::compress {
namespace {

const Codec kAll[] = {Codec::kUncompressed, Codec::kSnappy, Codec::kGzip,   Codec::kBrotli,
                      Codec::kLz4Hadoop,    Codec::kZstd,   Codec::kLz4Raw};

std::vector<uint8_t> MixedBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  // Half compressible text-like runs, half noise, so every codec has real work to do.
  for (size_t i = 0; i < n; ++i) v[i] = (i / 64) % 2 == 0 ? static_cast<uint8_t>('a' + (i % 7)) : rng() & 0xff;
  return v;
}

std::vector<uint8_t> CompressVec(Codec c, std::span<const uint8_t> in, int level = kDefaultCompressionLevel) {
  BufferBuilder b;
  Status st = Compress(c, level, in, &b);
  EXPECT_TRUE(st.ok()) << CodecName(c) << ": " << st.ToString();
  EXPECT_LE(b.size(), MaxCompressedLength(c, static_cast<int64_t>(in.size()))) << CodecName(c);
  return std::vector<uint8_t>(b.data(), b.data() + b.size());
}

TEST(Codec, RoundTripEverySizeAndCodec) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{17}, size_t{4096}, size_t{200000}, size_t{300001}}) {
    auto input = MixedBytes(n, static_cast<uint32_t>(n));
    for (Codec c : kAll) {
      auto compressed = CompressVec(c, input);
      std::vector<uint8_t> out(n, 0xee);
      Status st = Decompress(c, compressed, out);
      ASSERT_TRUE(st.ok()) << CodecName(c) << " n=" << n << ": " << st.ToString();
      EXPECT_EQ(out, input) << CodecName(c) << " n=" << n;
    }
  }
}

TEST(Codec, Levels) {
  auto input = MixedBytes(100000, 3);
  for (auto [c, level] : std::vector<std::pair<Codec, int>>{{Codec::kZstd, 1},   {Codec::kZstd, 19},
                                                           {Codec::kZstd, -5},  {Codec::kGzip, 1},
                                                           {Codec::kGzip, 12},  {Codec::kBrotli, 0},
                                                           {Codec::kBrotli, 11}, {Codec::kLz4Raw, 9},
                                                           {Codec::kLz4Hadoop, 12}}) {
    auto compressed = CompressVec(c, input, level);
    std::vector<uint8_t> out(input.size());
    ASSERT_TRUE(Decompress(c, compressed, out).ok()) << CodecName(c) << " level " << level;
    EXPECT_EQ(out, input);
  }
}

TEST(Codec, WrongExpectedSizeIsCorrupt) {
  auto input = MixedBytes(10000, 5);
  for (Codec c : kAll) {
    auto compressed = CompressVec(c, input);
    for (size_t expected : {input.size() - 1, input.size() + 1, size_t{0}}) {
      // Canary bytes past the declared output catch any write beyond it.
      std::vector<uint8_t> out(expected + 64, 0xab);
      Status st = Decompress(c, compressed, std::span<uint8_t>(out.data(), expected));
      EXPECT_TRUE(st.IsCorrupt()) << CodecName(c) << " expected=" << expected << " " << st.ToString();
      for (size_t i = expected; i < out.size(); ++i) ASSERT_EQ(out[i], 0xab) << CodecName(c) << " wrote past output";
    }
  }
}

TEST(Codec, GarbageAndTruncationAreCorrupt) {
  auto input = MixedBytes(50000, 9);
  std::mt19937 rng(1);
  for (Codec c : kAll) {
    if (c == Codec::kUncompressed) continue;
    auto compressed = CompressVec(c, input);
    std::vector<uint8_t> out(input.size());
    auto truncated = std::span<const uint8_t>(compressed).first(compressed.size() / 2);
    EXPECT_TRUE(Decompress(c, truncated, out).IsCorrupt()) << CodecName(c) << " truncated";
    std::vector<uint8_t> garbage(1000);
    for (auto& b : garbage) b = rng() & 0xff;
    EXPECT_TRUE(Decompress(c, garbage, out).IsCorrupt()) << CodecName(c) << " garbage";
  }
}

TEST(Codec, GzipMultiMemberAndZlib) {
  auto a = MixedBytes(7000, 1);
  auto b = MixedBytes(9000, 2);
  auto ca = CompressVec(Codec::kGzip, a);
  auto cb = CompressVec(Codec::kGzip, b);
  std::vector<uint8_t> joined = ca;
  joined.insert(joined.end(), cb.begin(), cb.end());
  std::vector<uint8_t> out(a.size() + b.size());
  ASSERT_TRUE(Decompress(Codec::kGzip, joined, out).ok());
  std::vector<uint8_t> expect = a;
  expect.insert(expect.end(), b.begin(), b.end());
  EXPECT_EQ(out, expect);
  // One member only decodes to less than the header promises.
  EXPECT_TRUE(Decompress(Codec::kGzip, ca, out).IsCorrupt());

  // A zlib stream: 78 9c header, stored block, Adler-32 of "hello".
  const uint8_t zlib_hello[] = {0x78, 0x01, 0x01, 0x05, 0x00, 0xfa, 0xff, 'h', 'e', 'l', 'l', 'o',
                                0x06, 0x2c, 0x02, 0x15};
  std::vector<uint8_t> hello(5);
  Status st = Decompress(Codec::kGzip, zlib_hello, hello);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(std::string(hello.begin(), hello.end()), "hello");
}

TEST(Codec, Lz4HadoopFramingAndRawFallback) {
  auto input = MixedBytes(300000, 4);
  auto hadoop = CompressVec(Codec::kLz4Hadoop, input);
  // 300000 bytes in 128 KiB chunks: three frames, the first declaring 131072 bytes big-endian.
  EXPECT_EQ(hadoop[0], 0x00);
  EXPECT_EQ(hadoop[1], 0x02);
  EXPECT_EQ(hadoop[2], 0x00);
  EXPECT_EQ(hadoop[3], 0x00);
  std::vector<uint8_t> out(input.size());
  ASSERT_TRUE(Decompress(Codec::kLz4Hadoop, hadoop, out).ok());
  EXPECT_EQ(out, input);
  // A bare LZ4 block (what old parquet-cpp wrote for LZ4) is accepted under the same codec.
  auto raw = CompressVec(Codec::kLz4Raw, input);
  std::fill(out.begin(), out.end(), 0);
  ASSERT_TRUE(Decompress(Codec::kLz4Hadoop, raw, out).ok());
  EXPECT_EQ(out, input);
  // But Hadoop framing is not LZ4_RAW.
  EXPECT_TRUE(Decompress(Codec::kLz4Raw, hadoop, out).IsCorrupt());
}

TEST(Codec, LzoIsNotImplemented) {
  std::vector<uint8_t> in(4), out(4);
  Status st = Decompress(Codec::kLzo, in, out);
  EXPECT_TRUE(st.IsNotImplemented());
  EXPECT_NE(st.message().find("LZO"), std::string::npos);
  BufferBuilder b;
  EXPECT_TRUE(Compress(Codec::kLzo, kDefaultCompressionLevel, in, &b).IsNotImplemented());
  EXPECT_FALSE(IsCodecSupported(Codec::kLzo));
  EXPECT_TRUE(IsCodecSupported(Codec::kZstd));
}

TEST(Codec, UnknownCodecAndNames) {
  std::vector<uint8_t> in(4), out(4);
  EXPECT_TRUE(Decompress(static_cast<Codec>(42), in, out).IsCorrupt());
  EXPECT_EQ(*CodecFromName("lz4_raw"), Codec::kLz4Raw);
  EXPECT_EQ(*CodecFromName("None"), Codec::kUncompressed);
  EXPECT_EQ(*CodecFromName("ZSTD"), Codec::kZstd);
  EXPECT_TRUE(CodecFromName("zip").status().IsInvalid());
  EXPECT_EQ(CodecName(Codec::kLz4Hadoop), "LZ4");
}

TEST(Codec, UncompressedSizeMismatch) {
  std::vector<uint8_t> in(10, 1), out(9);
  EXPECT_TRUE(Decompress(Codec::kUncompressed, in, out).IsCorrupt());
}

}  // namespace
}  // namespace quiver::compress

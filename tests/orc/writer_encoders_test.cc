// The ORC writer's encoders against the byte sequences the ORC specification gives as examples
// (byte RLE, boolean RLE, each of integer RLE v2's four modes, the compression chunk header),
// and round trips of the framing under every codec.
#include <gtest/gtest.h>

#include <libdeflate.h>

#include <vector>

#include "quiver/compress/codec.h"
#include "quiver/orc/format.h"
#include "quiver/orc/writer/out_stream_internal.h"
#include "quiver/orc/writer/rle_internal.h"

namespace quiver::orc::writer {
namespace {

using Bytes = std::vector<uint8_t>;

Bytes Contents(const OutStream& s) { return Bytes(s.data(), s.data() + s.size()); }

Bytes IntRle(const std::vector<int64_t>& values, bool is_signed) {
  OutStream out(format::kNone, compress::kDefaultCompressionLevel, 1 << 16);
  IntRleV2Encoder enc(&out, is_signed);
  for (int64_t v : values) enc.Add(v);
  enc.Flush();
  EXPECT_TRUE(out.Flush().ok());
  return Contents(out);
}

TEST(OrcWriterEncoders, ByteRleSpecExamples) {
  OutStream out(format::kNone, compress::kDefaultCompressionLevel, 1 << 16);
  ByteRleEncoder enc(&out);
  for (int i = 0; i < 100; ++i) enc.Add(0);
  enc.Flush();
  enc.Add(0x44);
  enc.Add(0x45);
  enc.Flush();
  ASSERT_TRUE(out.Flush().ok());
  EXPECT_EQ(Contents(out), (Bytes{0x61, 0x00, 0xfe, 0x44, 0x45}));
}

TEST(OrcWriterEncoders, ByteRleSplitsLongRunsAndLiterals) {
  OutStream out(format::kNone, compress::kDefaultCompressionLevel, 1 << 16);
  ByteRleEncoder enc(&out);
  // 131 equal bytes: a run of 130 and one literal; then 1, 2 and a run of three 7s.
  for (int i = 0; i < 131; ++i) enc.Add(9);
  for (uint8_t v : {1, 2, 7, 7, 7}) enc.Add(v);
  enc.Flush();
  ASSERT_TRUE(out.Flush().ok());
  EXPECT_EQ(Contents(out), (Bytes{0x7f, 9, 0xfd, 9, 1, 2, 0x00, 7}));
}

TEST(OrcWriterEncoders, BooleanRleSpecExample) {
  OutStream out(format::kNone, compress::kDefaultCompressionLevel, 1 << 16);
  BooleanRleEncoder enc(&out);
  enc.Add(true);
  enc.AddRepeated(false, 7);
  enc.Flush();
  ASSERT_TRUE(out.Flush().ok());
  EXPECT_EQ(Contents(out), (Bytes{0xff, 0x80}));
}

TEST(OrcWriterEncoders, BooleanRleFromArrowBitmapIsMsbFirst) {
  OutStream out(format::kNone, compress::kDefaultCompressionLevel, 1 << 16);
  BooleanRleEncoder enc(&out);
  const uint8_t bitmap[2] = {0b10110001, 0b00000011};  // LSB first: 1,0,0,0,1,1,0,1, 1,1
  enc.AddBitmap(bitmap, 0, 10);
  enc.Flush();
  ASSERT_TRUE(out.Flush().ok());
  EXPECT_EQ(Contents(out), (Bytes{0xfe, 0b10001101, 0b11000000}));
}

TEST(OrcWriterEncoders, IntRleV2ShortRepeat) {
  EXPECT_EQ(IntRle({10000, 10000, 10000, 10000, 10000}, false), (Bytes{0x0a, 0x27, 0x10}));
}

TEST(OrcWriterEncoders, IntRleV2Direct) {
  EXPECT_EQ(IntRle({23713, 43806, 57005, 48879}, false),
            (Bytes{0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef}));
}

TEST(OrcWriterEncoders, IntRleV2PatchedBase) {
  std::vector<int64_t> v = {2030, 2000, 2020, 1000000};
  for (int64_t x = 2040; x <= 2190; x += 10) v.push_back(x);
  EXPECT_EQ(IntRle(v, false), (Bytes{0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70, 0x28, 0x32, 0x3c, 0x46,
                                     0x50, 0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c, 0x96, 0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8}));
}

TEST(OrcWriterEncoders, IntRleV2Delta) {
  EXPECT_EQ(IntRle({2, 3, 5, 7, 11, 13, 17, 19, 23, 29}, false),
            (Bytes{0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46}));
}

TEST(OrcWriterEncoders, IntRleV2SignedRunsAndFixedDelta) {
  // Signed values zigzag: -1 is 1. Twelve equal values are a fixed delta of 0; 1..5 a fixed delta of 1.
  EXPECT_EQ(IntRle({-1, -1, -1}, true), (Bytes{0x00, 0x01}));
  EXPECT_EQ(IntRle(std::vector<int64_t>(12, 7), true), (Bytes{0xc0, 0x0b, 0x0e, 0x00}));
  EXPECT_EQ(IntRle({1, 2, 3, 4, 5}, true), (Bytes{0xc0, 0x04, 0x02, 0x02}));
  // Falling values keep a negative delta base and their steps' magnitudes.
  EXPECT_EQ(IntRle({10, 9, 7, 4}, true), (Bytes{0xc2, 0x03, 0x14, 0x01, 0xb0}));
}

TEST(OrcWriterEncoders, ChunkHeaderMarksOriginalChunks) {
  // Five bytes that do not compress are kept original: header (5 << 1) | 1.
  OutStream out(format::kZlib, compress::kDefaultCompressionLevel, 1 << 16);
  const uint8_t five[5] = {1, 2, 3, 4, 5};
  out.Write(five, 5);
  ASSERT_TRUE(out.Flush().ok());
  EXPECT_EQ(Contents(out), (Bytes{0x0b, 0x00, 0x00, 1, 2, 3, 4, 5}));
}

TEST(OrcWriterEncoders, EveryCodecFramesChunksThatDecompress) {
  for (uint32_t kind : {format::kZlib, format::kSnappy, format::kLz4, format::kZstd}) {
    SCOPED_TRACE(kind);
    OutStream out(kind, compress::kDefaultCompressionLevel, 1000);
    Bytes input(2500);
    for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<uint8_t>(i % 7);
    std::vector<uint64_t> pos;
    out.Write(input.data(), 1200);
    out.RecordPosition(&pos);
    out.Write(input.data() + 1200, 1300);
    ASSERT_TRUE(out.Flush().ok());
    Bytes stream = Contents(out);
    // Three chunks of 1000, 1000 and 500 bytes; the position is the second chunk's start and 200 into it.
    Bytes decoded;
    size_t at = 0;
    std::vector<size_t> starts;
    while (at < stream.size()) {
      starts.push_back(at);
      const uint32_t h = stream[at] | stream[at + 1] << 8 | stream[at + 2] << 16;
      const size_t len = h >> 1;
      ASSERT_EQ(h & 1, 0u);
      at += 3;
      ASSERT_LE(at + len, stream.size());
      const size_t raw = starts.size() < 3 ? 1000 : 500;
      Bytes chunk(raw);
      const std::span<const uint8_t> in(stream.data() + at, len);
      if (kind == format::kZlib) {
        libdeflate_decompressor* d = libdeflate_alloc_decompressor();
        size_t got = 0;
        ASSERT_EQ(libdeflate_deflate_decompress(d, in.data(), in.size(), chunk.data(), raw, &got), LIBDEFLATE_SUCCESS);
        libdeflate_free_decompressor(d);
        ASSERT_EQ(got, raw);
      } else {
        const compress::Codec c = kind == format::kSnappy ? compress::Codec::kSnappy
                                  : kind == format::kLz4  ? compress::Codec::kLz4Raw
                                                          : compress::Codec::kZstd;
        ASSERT_TRUE(compress::Decompress(c, in, chunk).ok());
      }
      decoded.insert(decoded.end(), chunk.begin(), chunk.end());
      at += len;
    }
    EXPECT_EQ(decoded, input);
    ASSERT_EQ(starts.size(), 3u);
    EXPECT_EQ(pos, (std::vector<uint64_t>{starts[1], 200}));
  }
}

}  // namespace
}  // namespace quiver::orc::writer

// The project's snappy decoder against libsnappy: round trips of libsnappy's compressed data (the
// bytes compared with libsnappy's own RawUncompress), hand-built tags libsnappy never writes, and
// the exact error of each malformed stream.
#include "quiver/compress/snappy_decompress_internal.h"

#include <gtest/gtest.h>
#include <snappy.h>

#include <random>
#include <string>
#include <vector>

#include "compress/snappy_inputs.h"
#include "quiver/compress/codec.h"

namespace quiver::compress {
namespace {

using Bytes = std::vector<uint8_t>;
using testing::Random;
using testing::TextLike;

Bytes LibCompress(const Bytes& in) {
  std::string out;
  snappy::Compress(reinterpret_cast<const char*>(in.data()), in.size(), &out);
  return Bytes(out.begin(), out.end());
}

// Decodes with both decoders into buffers of the exact size (ASan sees any write past them) and
// checks both give `expected`.
void ExpectRoundTrip(const Bytes& compressed, const Bytes& expected, const std::string& what) {
  Bytes ours(expected.size());
  Status st = SnappyDecompress(compressed, ours);
  ASSERT_TRUE(st.ok()) << what << ": " << st.ToString();
  Bytes theirs(expected.size());
  ASSERT_TRUE(snappy::RawUncompress(reinterpret_cast<const char*>(compressed.data()), compressed.size(),
                                    reinterpret_cast<char*>(theirs.data())))
      << what;
  ASSERT_EQ(theirs, expected) << what;
  ASSERT_EQ(ours, expected) << what;
}

void ExpectLibRoundTrip(const Bytes& input, const std::string& what) {
  ExpectRoundTrip(LibCompress(input), input, what);
}

TEST(SnappyDecompress, RandomRepetitiveAndTextData) {
  for (size_t n : {size_t{1000}, size_t{65536}, size_t{65537}, size_t{200003}}) {
    ExpectLibRoundTrip(Random(n, static_cast<uint32_t>(n)), "random " + std::to_string(n));
    ExpectLibRoundTrip(TextLike(n, static_cast<uint32_t>(n)), "text " + std::to_string(n));
    ExpectLibRoundTrip(Bytes(n, 'x'), "one byte repeated " + std::to_string(n));
  }
}

TEST(SnappyDecompress, MultiMegabyte) {
  Bytes input = TextLike(5 << 20, 7);
  const Bytes noise = Random(1 << 20, 8);
  input.insert(input.begin() + (2 << 20), noise.begin(), noise.end());
  ExpectLibRoundTrip(input, "6 MiB of text with 1 MiB of noise inside");
}

TEST(SnappyDecompress, EveryOverlappingOffset) {
  // A period-p pattern compresses to one literal of p bytes and copies at offset p.
  for (size_t period = 1; period <= 70; ++period) {
    const Bytes pattern = Random(period, static_cast<uint32_t>(period));
    for (size_t n : {period * 3 + 1, size_t{100}, size_t{1000}, size_t{4099}}) {
      Bytes input(n);
      for (size_t i = 0; i < n; ++i) input[i] = pattern[i % period];
      ExpectLibRoundTrip(input, "period " + std::to_string(period) + " n " + std::to_string(n));
    }
  }
}

TEST(SnappyDecompress, EveryLengthUpTo300) {
  for (size_t n = 0; n <= 300; ++n) {
    ExpectLibRoundTrip(Random(n, static_cast<uint32_t>(n)), "random " + std::to_string(n));
    ExpectLibRoundTrip(TextLike(n, static_cast<uint32_t>(n)), "text " + std::to_string(n));
    Bytes runs(n);
    for (size_t i = 0; i < n; ++i) runs[i] = static_cast<uint8_t>('a' + (i / 9) % 3);
    ExpectLibRoundTrip(runs, "runs " + std::to_string(n));
  }
}

// Hand-built streams: every tag form, the expected output kept beside them.
struct Stream {
  Bytes bytes;
  Bytes expected;

  void Literal(const Bytes& data, int length_bytes = -1) {
    const size_t m = data.size() - 1;
    if (length_bytes < 0) length_bytes = m < 60 ? 0 : m < 256 ? 1 : m < 65536 ? 2 : m < (1 << 24) ? 3 : 4;
    if (length_bytes == 0) {
      bytes.push_back(static_cast<uint8_t>(m << 2));
    } else {
      bytes.push_back(static_cast<uint8_t>((59 + length_bytes) << 2));
      for (int i = 0; i < length_bytes; ++i) bytes.push_back(static_cast<uint8_t>(m >> (8 * i)));
    }
    bytes.insert(bytes.end(), data.begin(), data.end());
    expected.insert(expected.end(), data.begin(), data.end());
  }
  // kind 1, 2 or 4: the copy's offset bytes.
  void Copy(int kind, size_t offset, size_t len) {
    if (kind == 1) {
      bytes.push_back(static_cast<uint8_t>(1 | ((len - 4) << 2) | ((offset >> 8) << 5)));
      bytes.push_back(static_cast<uint8_t>(offset));
    } else {
      bytes.push_back(static_cast<uint8_t>((kind == 2 ? 2 : 3) | ((len - 1) << 2)));
      for (int i = 0; i < kind; ++i) bytes.push_back(static_cast<uint8_t>(offset >> (8 * i)));
    }
    // A bad offset (for the error tests) leaves zeros.
    for (size_t i = 0; i < len; ++i) {
      expected.push_back(offset > 0 && offset <= expected.size() ? expected[expected.size() - offset] : 0);
    }
  }
  // The varint header of `length` (the expected size unless told), in front.
  Bytes Finish(int64_t length = -1) const {
    uint64_t v = length < 0 ? expected.size() : static_cast<uint64_t>(length);
    Bytes out;
    do {
      out.push_back(static_cast<uint8_t>((v & 0x7f) | (v >= 0x80 ? 0x80 : 0)));
      v >>= 7;
    } while (v != 0);
    out.insert(out.end(), bytes.begin(), bytes.end());
    return out;
  }
};

TEST(SnappyDecompress, EveryTagFormLibsnappyAccepts) {
  // Each copy form at lengths 1..64 (4..11 for the 1-byte offset) and offsets 1..80, after a
  // literal written in each of its four length forms, then trailing literals so that the copies
  // run both in the fast loop and, for the last ones, in the careful one.
  for (int literal_form = 0; literal_form <= 4; ++literal_form) {
    Stream s;
    s.Literal(Random(100, 1), literal_form == 0 ? -1 : literal_form);
    for (int kind : {1, 2, 4}) {
      for (size_t offset = 1; offset <= 80; offset += 3) {
        for (size_t len = kind == 1 ? 4 : 1; len <= (kind == 1 ? 11u : 64u); len += 5) s.Copy(kind, offset, len);
      }
    }
    s.Copy(4, 2000, 64);
    s.Copy(2, 20000, 7);
    s.Literal(Random(61, 2), 1);
    s.Copy(1, 2047, 11);
    ExpectRoundTrip(s.Finish(), s.expected, "literal form " + std::to_string(literal_form));
  }
}

TEST(SnappyDecompress, OutputEndingAtEveryFastLoopBoundary) {
  // Copies of every length and offset that end the output 0..80 bytes after they start, and
  // literals the same: the last tags cross from the fast loop to the careful one at every point.
  for (size_t tail = 1; tail <= 80; ++tail) {
    for (size_t offset : {size_t{1}, size_t{5}, size_t{15}, size_t{16}, size_t{17}, size_t{40}, size_t{70}}) {
      Stream s;
      s.Literal(Random(70, static_cast<uint32_t>(tail)));
      for (size_t left = tail; left > 0;) {
        const size_t len = std::min<size_t>(left, 64);
        s.Copy(2, offset, len);
        left -= len;
      }
      ExpectRoundTrip(s.Finish(), s.expected, "copy tail " + std::to_string(tail) + " offset " + std::to_string(offset));
      Stream l;
      l.Literal(Random(70, 3));
      l.Literal(Random(tail, 4));
      ExpectRoundTrip(l.Finish(), l.expected, "literal tail " + std::to_string(tail));
    }
  }
}

std::string Error(const Bytes& in, size_t out_size) {
  Bytes out(out_size);
  Status st = SnappyDecompress(in, out);
  EXPECT_TRUE(st.IsCorrupt()) << st.ToString();
  // libsnappy refuses the same stream.
  Bytes theirs(out_size + 1);
  size_t len = 0;
  const char* p = reinterpret_cast<const char*>(in.data());
  EXPECT_FALSE(snappy::GetUncompressedLength(p, in.size(), &len) && len == out_size &&
               snappy::RawUncompress(p, in.size(), reinterpret_cast<char*>(theirs.data())));
  return st.message();
}

TEST(SnappyDecompress, MalformedLengthHeader) {
  EXPECT_EQ(Error({}, 0), "SNAPPY data has a malformed length header");
  EXPECT_EQ(Error({0x80}, 0), "SNAPPY data has a malformed length header");
  // A fifth byte over 15 makes the value wider than 32 bits; six bytes are too many.
  EXPECT_EQ(Error({0x80, 0x80, 0x80, 0x80, 0x10}, 0), "SNAPPY data has a malformed length header");
  EXPECT_EQ(Error({0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, 0), "SNAPPY data has a malformed length header");
  // But a long (non-minimal) header of a small value is a header.
  Stream s;
  s.Literal({'a', 'b'});
  Bytes padded = {0x82, 0x80, 0x80, 0x80, 0x00};
  padded.insert(padded.end(), s.bytes.begin(), s.bytes.end());
  ExpectRoundTrip(padded, s.expected, "five-byte header of 2");
}

TEST(SnappyDecompress, LengthHeaderNotTheOutputSize) {
  const Bytes input = TextLike(10000, 5);
  const Bytes c = LibCompress(input);
  EXPECT_EQ(Error(c, 9999), "SNAPPY data's length header says 10000 bytes where 9999 are expected");
  EXPECT_EQ(Error(c, 10001), "SNAPPY data's length header says 10000 bytes where 10001 are expected");
  // Through the codec interface, the Parquet page header's wording.
  Bytes out(9999);
  EXPECT_EQ(Decompress(Codec::kSnappy, c, out).message(),
            "SNAPPY data decompressed to 10000 bytes, page header says 9999");
}

TEST(SnappyDecompress, BadOffsets) {
  Stream s;
  s.Literal(Random(100, 1));
  s.Copy(2, 100, 10);
  Bytes zero = s.Finish(110);
  zero[zero.size() - 2] = 0;  // the 2-byte offset 100 -> 0
  EXPECT_EQ(Error(zero, 110), "SNAPPY data is malformed: the copy at input byte 103 has offset 0");
  Bytes back = s.Finish(110);
  back[back.size() - 2] = 101;
  EXPECT_EQ(Error(back, 110),
            "SNAPPY data is malformed: the copy at input byte 103 reaches back 101 bytes from output byte 100, "
            "before the output's start");
  // The same inside the fast loop (plenty of input and output left), and a 4-byte offset.
  Stream f;
  f.Literal(Random(100, 2));
  f.Copy(4, 101, 5);
  f.Literal(Random(100, 3));
  EXPECT_EQ(Error(f.Finish(), 205),
            "SNAPPY data is malformed: the copy at input byte 104 reaches back 101 bytes from output byte 100, "
            "before the output's start");
  Bytes f0 = f.Finish();
  f0[105] = 0;  // offset 101 -> 0 (bytes 105..108 are the offset)
  EXPECT_EQ(Error(f0, 205), "SNAPPY data is malformed: the copy at input byte 104 has offset 0");
  // A copy before any output.
  Stream c;
  c.bytes = {0x01 | (3 << 2), 0x01};
  EXPECT_EQ(Error(c.Finish(7), 7),
            "SNAPPY data is malformed: the copy at input byte 1 reaches back 1 bytes from output byte 0, before the "
            "output's start");
}

TEST(SnappyDecompress, PastTheEnds) {
  Stream s;
  s.Literal(Random(5, 1));
  EXPECT_EQ(Error(s.Finish(3), 3),
            "SNAPPY data is malformed: a literal of 5 bytes at input byte 1 runs past the output's end (output byte 0 "
            "of 3)");
  Bytes cut = s.Finish();
  cut.pop_back();
  EXPECT_EQ(Error(cut, 5),
            "SNAPPY data is malformed: a literal of 5 bytes at input byte 1 runs past the input's end (4 bytes left)");
  s.Copy(1, 5, 4);
  EXPECT_EQ(Error(s.Finish(8), 8),
            "SNAPPY data is malformed: a copy of 4 bytes at input byte 7 runs past the output's end (output byte 5 "
            "of 8)");
  // Tags cut inside their own bytes.
  Bytes copy_cut = s.Finish();
  copy_cut.pop_back();
  EXPECT_EQ(Error(copy_cut, 9), "SNAPPY data is malformed: the copy tag at input byte 7 is cut short by the input's end");
  Stream l;
  l.Literal(Random(300, 2));
  Bytes literal_cut = l.Finish();
  literal_cut.resize(4);  // header (2 bytes), tag, one of two length bytes
  EXPECT_EQ(Error(literal_cut, 300),
            "SNAPPY data is malformed: the literal tag at input byte 2 is cut short by the input's end");
  // The input ends before the output is full; bytes follow the tags that fill it.
  EXPECT_EQ(Error(s.Finish(12), 12), "SNAPPY data is malformed: the input ends at output byte 9 of 12");
  Bytes trailing = s.Finish();
  trailing.push_back(0);
  trailing.push_back('z');
  EXPECT_EQ(Error(trailing, 9),
            "SNAPPY data is malformed: 2 bytes at input byte 9 follow the tags that fill the 9 output bytes");
  // A 4-byte literal length of 2^32 (0xffffffff + 1).
  Bytes huge = {0x05, 63 << 2, 0xff, 0xff, 0xff, 0xff, 'a'};
  EXPECT_EQ(Error(huge, 5),
            "SNAPPY data is malformed: a literal of 4294967296 bytes at input byte 1 runs past the input's end (1 "
            "bytes left)");
}

TEST(SnappyDecompress, FourByteLiteralLengthOfAllOnesRefusedWhereLibsnappyWrapsIt) {
  // libsnappy adds 1 to the 4-byte length 0xffffffff in 32 bits and takes a literal of 0 bytes;
  // no literal of 2^32 bytes fits in an output whose size is a 32-bit header value.
  const Bytes empty = {0x00, 63 << 2, 0xff, 0xff, 0xff, 0xff};
  char none[1];
  EXPECT_TRUE(snappy::RawUncompress(reinterpret_cast<const char*>(empty.data()), empty.size(), none));
  Bytes out;
  EXPECT_EQ(SnappyDecompress(empty, out).message(),
            "SNAPPY data is malformed: 5 bytes at input byte 1 follow the tags that fill the 0 output bytes");
  const Bytes five = {0x05, 63 << 2, 0xff, 0xff, 0xff, 0xff, 4 << 2, 'a', 'b', 'c', 'd', 'e'};
  char theirs[5];
  EXPECT_TRUE(snappy::RawUncompress(reinterpret_cast<const char*>(five.data()), five.size(), theirs));
  EXPECT_EQ(std::string(theirs, 5), "abcde");
  out.resize(5);
  EXPECT_EQ(SnappyDecompress(five, out).message(),
            "SNAPPY data is malformed: a literal of 4294967296 bytes at input byte 1 runs past the input's end (6 "
            "bytes left)");
}

TEST(SnappyDecompress, TruncatedAtEveryByte) {
  const Bytes input = TextLike(3000, 11);
  const Bytes c = LibCompress(input);
  for (size_t k = 0; k < c.size(); ++k) {
    const Bytes cut(c.begin(), c.begin() + static_cast<ptrdiff_t>(k));
    const std::string msg = Error(cut, input.size());
    EXPECT_EQ(msg.rfind("SNAPPY data", 0), 0u) << k;
  }
}

}  // namespace
}  // namespace quiver::compress

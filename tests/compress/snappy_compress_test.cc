// The project's snappy compressor against libsnappy's: every output compared byte for byte with
// snappy::RawCompress (Parquet files must not change), and decoded back by the project's decoder.
// Outputs are written into buffers of exactly SnappyMaxCompressedLength bytes, so that ASan sees
// a write past the bound the codec reserves.
#include "quiver/compress/snappy_compress_internal.h"

#include <gtest/gtest.h>
#include <snappy.h>

#include <charconv>
#include <random>
#include <string>
#include <vector>

#include "compress/snappy_inputs.h"
#include "quiver/compress/snappy_decompress_internal.h"
#include "quiver/csv/generate.h"
#include "quiver/io/output_stream.h"

namespace quiver::compress {
namespace {

using Bytes = std::vector<uint8_t>;
using testing::Random;
using testing::TextLike;

Bytes Ours(const Bytes& in) {
  Bytes out(SnappyMaxCompressedLength(in.size()));
  out.resize(SnappyCompress(in, out.data()));
  return out;
}

Bytes Theirs(const Bytes& in) {
  std::string out(snappy::MaxCompressedLength(in.size()), '\0');
  size_t n = 0;
  snappy::RawCompress(reinterpret_cast<const char*>(in.data()), in.size(), out.data(), &n);
  return Bytes(out.begin(), out.begin() + static_cast<ptrdiff_t>(n));
}

// The first differing byte's position, or -1: a failure names where, not two megabyte dumps.
ptrdiff_t FirstDifference(const Bytes& a, const Bytes& b) {
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (a[i] != b[i]) return static_cast<ptrdiff_t>(i);
  }
  return a.size() == b.size() ? -1 : static_cast<ptrdiff_t>(std::min(a.size(), b.size()));
}

void ExpectSameAsLibsnappy(const Bytes& in, const std::string& what) {
  ASSERT_EQ(SnappyMaxCompressedLength(in.size()), snappy::MaxCompressedLength(in.size())) << what;
  const Bytes ours = Ours(in);
  const Bytes theirs = Theirs(in);
  ASSERT_EQ(FirstDifference(ours, theirs), -1)
      << what << ": " << ours.size() << " bytes against libsnappy's " << theirs.size();
  Bytes back(in.size());
  ASSERT_TRUE(SnappyDecompress(ours, back).ok()) << what;
  ASSERT_EQ(back, in) << what;
}

// Random pieces and copies of earlier bytes at random distances and lengths (up to 300 bytes,
// distances up to 70,000): every tag form, copies across fragment boundaries, and near-misses.
Bytes Mixed(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  Bytes v;
  v.reserve(n);
  while (v.size() < n) {
    const size_t len = 1 + rng() % (rng() % 4 == 0 ? 300 : 20);
    if (v.empty() || rng() % 3 == 0) {
      for (size_t i = 0; i < len; ++i) v.push_back(static_cast<uint8_t>(rng() % (rng() % 2 ? 4 : 256)));
    } else {
      const size_t back = 1 + rng() % std::min<size_t>(v.size(), rng() % 2 ? 2100 : 70000);
      const size_t from = v.size() - back;
      for (size_t i = 0; i < len; ++i) v.push_back(v[from + i]);
      if (rng() % 2) v.back() ^= 1;  // a match that stops one byte short
    }
  }
  v.resize(n);
  return v;
}

TEST(SnappyCompress, Empty) {
  ExpectSameAsLibsnappy({}, "empty");
  EXPECT_EQ(Ours({}), Bytes{0});
}

TEST(SnappyCompress, EveryLengthUpTo300) {
  for (size_t n = 1; n <= 300; ++n) {
    const auto seed = static_cast<uint32_t>(n);
    ExpectSameAsLibsnappy(Random(n, seed), "random " + std::to_string(n));
    ExpectSameAsLibsnappy(TextLike(n, seed), "text " + std::to_string(n));
    ExpectSameAsLibsnappy(Bytes(n, 'x'), "run " + std::to_string(n));
    ExpectSameAsLibsnappy(Mixed(n, seed), "mixed " + std::to_string(n));
  }
}

// Fragment and hash-table boundaries: 64 KiB fragments, tables of 2^8..2^14 entries by the
// length of the fragment (the last one shorter), and a last fragment under the 15-byte margin.
TEST(SnappyCompress, LengthsAroundFragmentAndTableBoundaries) {
  std::vector<size_t> lengths;
  for (size_t base : {size_t{256}, size_t{512}, size_t{8192}, size_t{16384}, size_t{32768}, size_t{65536},
                      size_t{2 * 65536}, size_t{3 * 65536}, size_t{65536 + 256}, size_t{65536 + 16384}}) {
    for (size_t d = 0; d <= 17; ++d) {
      lengths.push_back(base - d);
      lengths.push_back(base + d);
    }
  }
  for (size_t n : lengths) {
    const auto seed = static_cast<uint32_t>(n);
    ExpectSameAsLibsnappy(TextLike(n, seed), "text " + std::to_string(n));
    ExpectSameAsLibsnappy(Mixed(n, seed), "mixed " + std::to_string(n));
    ExpectSameAsLibsnappy(Bytes(n, 'x'), "run " + std::to_string(n));
  }
  for (size_t n : {size_t{65535}, size_t{65536}, size_t{65537}, size_t{65536 + 14}, size_t{65536 + 15}}) {
    ExpectSameAsLibsnappy(Random(n, 1), "random " + std::to_string(n));
  }
}

// Fragments over 8 KiB hash into the full 2^14 table without a mask, shorter ones through it
// (2^13 entries from 4 KiB). Across that switch, alone and as a last fragment after a full one,
// whose entries above 2^13 are left in the table and must never be read.
TEST(SnappyCompress, TableSizeSwitchPoint) {
  for (size_t base : {size_t{8192}, size_t{65536 + 8192}}) {
    for (size_t n = base - 3; n <= base + 3; ++n) {
      const auto seed = static_cast<uint32_t>(n);
      ExpectSameAsLibsnappy(TextLike(n, seed), "text " + std::to_string(n));
      ExpectSameAsLibsnappy(Mixed(n, seed), "mixed " + std::to_string(n));
    }
  }
}

// From two whole fragments on, fragments are compressed two at a time in one loop, the second's
// output moved in behind the first's. Each pair's halves here differ in how fast they finish (a
// run ends in a few long copies, random bytes in a few thousand skipping probes, text after
// thousands of short matches), so either lane may run on alone, stopped while probing or in a
// match; the last fragment is whole, short, under the margin or across the table size switch.
// Every output must equal libsnappy's and the fragments compressed one per call.
TEST(SnappyCompress, FragmentPairsOfDifferentKinds) {
  // An output's body: what follows the varint of the uncompressed length.
  const auto Body = [](const Bytes& z) {
    uint32_t length = 0;
    size_t header = 0;
    EXPECT_TRUE(SnappyUncompressedLength(z, &length, &header));
    return Bytes(z.begin() + static_cast<ptrdiff_t>(header), z.end());
  };
  constexpr size_t kFragment = 65536;
  const auto fragment = [&](int kind, uint32_t seed) {
    switch (kind) {
      case 0: return TextLike(kFragment, seed);
      case 1: return Random(kFragment, seed);
      case 2: return Bytes(kFragment, static_cast<uint8_t>(seed));
      default: return Mixed(kFragment, seed);
    }
  };
  uint32_t seed = 1;
  for (int first = 0; first < 4; ++first) {
    for (int second = 0; second < 4; ++second) {
      for (size_t tail : {size_t{0}, size_t{1}, size_t{14}, size_t{15}, size_t{8192}, size_t{16385}, size_t{65535},
                          kFragment, kFragment + 300, 2 * kFragment + 20}) {
        Bytes in = fragment(first, seed++);
        const Bytes b = fragment(second, seed++);
        in.insert(in.end(), b.begin(), b.end());
        const Bytes t = Mixed(tail, seed++);
        in.insert(in.end(), t.begin(), t.end());
        const std::string what = "kinds " + std::to_string(first) + "," + std::to_string(second) + " and " +
                                 std::to_string(tail) + " more bytes";
        ExpectSameAsLibsnappy(in, what);
        // The fragments one per call: each output's body after its length header.
        Bytes alone;
        for (size_t at = 0; at < in.size(); at += kFragment) {
          const Bytes piece(in.begin() + static_cast<ptrdiff_t>(at),
                            in.begin() + static_cast<ptrdiff_t>(std::min(in.size(), at + kFragment)));
          const Bytes body = Body(Ours(piece));
          alone.insert(alone.end(), body.begin(), body.end());
        }
        ASSERT_EQ(FirstDifference(Body(Ours(in)), alone), -1) << what;
      }
    }
  }
}

TEST(SnappyCompress, IncompressibleRandomBytes) {
  for (size_t n : {size_t{1000}, size_t{100000}, size_t{1} << 20}) {
    ExpectSameAsLibsnappy(Random(n, static_cast<uint32_t>(n) + 7), "random " + std::to_string(n));
  }
}

// Periods 1..80 (copy-1 and copy-2 tags, matches split into 64- and 60-byte copies), and runs
// separated by the distances where a copy's tag changes (2047/2048 bytes).
TEST(SnappyCompress, RunsAndPeriods) {
  for (size_t period = 1; period <= 80; ++period) {
    const Bytes unit = Random(period, static_cast<uint32_t>(period));
    for (size_t n : {size_t{100}, size_t{1000}, size_t{70000}}) {
      Bytes v;
      while (v.size() < n) v.insert(v.end(), unit.begin(), unit.end());
      v.resize(n);
      ExpectSameAsLibsnappy(v, "period " + std::to_string(period) + ", " + std::to_string(n) + " bytes");
    }
  }
  for (size_t gap : {size_t{2040}, size_t{2047}, size_t{2048}, size_t{2049}, size_t{65000}}) {
    for (size_t len = 4; len <= 140; ++len) {
      Bytes v = Random(gap, static_cast<uint32_t>(gap));
      v.insert(v.end(), v.begin(), v.begin() + static_cast<ptrdiff_t>(len));
      const Bytes tail = Random(40, static_cast<uint32_t>(len));
      v.insert(v.end(), tail.begin(), tail.end());
      ExpectSameAsLibsnappy(v, "match of " + std::to_string(len) + " at " + std::to_string(gap));
    }
  }
}

// A match running into the fragment's last 15 bytes (where probing stops), ending at every
// distance from the end, in the first fragment and across into the second.
TEST(SnappyCompress, MatchesStraddlingTheEndMargin) {
  for (size_t prefix : {size_t{40}, size_t{65536 - 200}}) {
    for (size_t repeat = 4; repeat <= 120; ++repeat) {
      for (size_t tail = 0; tail <= 20; ++tail) {
        Bytes v = Random(prefix, static_cast<uint32_t>(repeat));
        const Bytes head(v.end() - 30, v.end());
        for (size_t i = 0; i < repeat; ++i) v.push_back(head[i % head.size()]);
        const Bytes t = Random(tail, static_cast<uint32_t>(tail + 1000));
        v.insert(v.end(), t.begin(), t.end());
        ExpectSameAsLibsnappy(v, "prefix " + std::to_string(prefix) + ", repeat " + std::to_string(repeat) +
                                     ", tail " + std::to_string(tail));
      }
    }
  }
}

// lineitem's columns as PLAIN pages hold them (8-byte integers, length-prefixed text), in 1 MiB
// pages: what `quiver convert` compresses.
TEST(SnappyCompress, LineitemColumnPages) {
  io::BufferOutputStream out;
  csv::LineitemOptions options;
  options.rows = 30000;
  options.header = false;
  ASSERT_TRUE(csv::GenerateLineitem(options, &out).ok());
  auto buf = out.Finish();
  ASSERT_TRUE(buf.ok());
  const std::string_view text(reinterpret_cast<const char*>((*buf)->data()), static_cast<size_t>((*buf)->size()));
  std::vector<Bytes> columns(csv::kLineitemColumns);
  size_t col = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != ',' && text[i] != '\n') continue;
    const std::string_view field = text.substr(start, i - start);
    Bytes& c = columns[std::min<size_t>(col, columns.size() - 1)];
    int64_t v = 0;
    auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
    if (ec == std::errc() && end == field.data() + field.size()) {
      c.insert(c.end(), reinterpret_cast<const uint8_t*>(&v), reinterpret_cast<const uint8_t*>(&v) + 8);
    } else {
      const auto n = static_cast<uint32_t>(field.size());
      c.insert(c.end(), reinterpret_cast<const uint8_t*>(&n), reinterpret_cast<const uint8_t*>(&n) + 4);
      c.insert(c.end(), field.begin(), field.end());
    }
    col = text[i] == '\n' ? 0 : col + 1;
    start = i + 1;
  }
  for (size_t c = 0; c < columns.size(); ++c) {
    ASSERT_GT(columns[c].size(), 60000u) << "column " << c;
    ExpectSameAsLibsnappy(columns[c], "lineitem column " + std::to_string(c));
  }
  ExpectSameAsLibsnappy(Bytes(text.begin(), text.end()), "lineitem CSV");
}

TEST(SnappyCompress, RandomMixtures) {
  std::mt19937 rng(20261202);
  for (int i = 0; i < 300; ++i) {
    const size_t n = rng() % (i % 10 == 0 ? 300000 : 3000);
    ExpectSameAsLibsnappy(Mixed(n, rng()), "mixture " + std::to_string(i) + " of " + std::to_string(n) + " bytes");
  }
}

}  // namespace
}  // namespace quiver::compress

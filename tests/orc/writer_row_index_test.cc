// The ORC writer's row index: every row group's positions, taken in each stream (compressed
// chunk offset, offset in the chunk, values or bits into the run), lead a decoder started there
// to the first value of the group's first row, for PRESENT, integer RLE, boolean RLE,
// dictionary ids, direct string bytes and lengths, and doubles. Checked with the ORC reader's
// own decompression and decoders; each group's statistics are checked against the values.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "quiver/columnar/builder.h"
#include "quiver/io/output_stream.h"
#include "quiver/orc/format.h"
#include "quiver/orc/reader/decompress_internal.h"
#include "quiver/orc/reader/file_reader.h"
#include "quiver/orc/reader/rle_internal.h"
#include "quiver/orc/writer/file_writer.h"
#include "testing/scratch_dir.h"

namespace quiver::orc {
namespace {

namespace sk = format::stream_kind;
constexpr int64_t kRows = 45000;
constexpr int64_t kBlock = 4096;

bool IValid(int64_t i) { return i % 13 != 5; }
int64_t IValue(int64_t i) { return (i * i) % 1000003 - 500000; }
bool Flag(int64_t i) { return (i * 7) % 5 == 0; }
std::string Dict(int64_t i) { return fmt::format("v{}", (i * 31) % 20); }
std::string Text(int64_t i) { return fmt::format("row {} of {}", i, i % 97); }

std::shared_ptr<RecordBatch> Rows(const SchemaPtr& schema, int64_t from, int64_t n) {
  NumericBuilder<int64_t> ib(int64());
  BooleanBuilder fb;
  BinaryBuilder db(utf8()), tb(utf8());
  NumericBuilder<double> xb(float64());
  for (int64_t i = from; i < from + n; ++i) {
    EXPECT_TRUE((IValid(i) ? ib.Append(IValue(i)) : ib.AppendNull()).ok());
    EXPECT_TRUE(fb.Append(Flag(i)).ok());
    EXPECT_TRUE(db.Append(Dict(i)).ok());
    EXPECT_TRUE(tb.Append(Text(i)).ok());
    EXPECT_TRUE(xb.Append(static_cast<double>(i) * 0.5).ok());
  }
  return std::make_shared<RecordBatch>(schema, n,
                                       std::vector<Array>{*ib.Finish(), *fb.Finish(), *db.Finish(), *tb.Finish(), *xb.Finish()});
}

class OrcWriterRowIndex : public testing::ScratchDirTest {
 protected:
  void SetUp() override {
    ScratchDirTest::SetUp();
    schema_ = std::make_shared<Schema>(std::vector<Field>{field("i", int64()), field("flag", boolean()), field("dict", utf8()),
                                                          field("text", utf8()), field("x", float64())});
    OrcWriterOptions options;
    options.compression = format::kZlib;
    options.compression_block_size = kBlock;
    io::BufferOutputStream out;
    auto w = OrcFileWriter::Open(&out, schema_, options);
    ASSERT_TRUE(w.ok()) << w.status().ToString();
    for (int64_t r = 0; r < kRows; r += 7777) ASSERT_TRUE((*w)->Write(Rows(schema_, r, std::min<int64_t>(7777, kRows - r))).ok());
    ASSERT_TRUE((*w)->Close().ok());
    auto buf = out.Finish();
    ASSERT_TRUE(buf.ok());
    bytes_ = std::string((*buf)->view());
    std::ofstream(Path("x.orc"), std::ios::binary).write(bytes_.data(), static_cast<std::streamsize>(bytes_.size()));
    auto r = OrcFileReader::Open(Path("x.orc"));
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    reader_ = std::move(*r);
    ASSERT_EQ(reader_->num_stripes(), 1);
    auto sf = reader_->ReadStripeFooter(0);
    ASSERT_TRUE(sf.ok());
    footer_ = *sf;
    uint64_t at = reader_->footer().stripes[0].offset;
    for (const Stream& s : footer_.streams) {
      streams_[{s.column, s.kind}] = {at, s.length};
      at += s.length;
    }
  }

  RowIndex Index(uint32_t column) {
    auto b = reader_->ReadStream(0, footer_, column, sk::kRowIndex);
    EXPECT_TRUE(b.ok());
    auto index = DecodeRowIndex((*b)->view());
    EXPECT_TRUE(index.ok());
    EXPECT_EQ(index->entry.size(), 5u);
    return *index;
  }

  // The stream decompressed from the chunk at positions[k], starting positions[k + 1] bytes in;
  // k advances past the two.
  rle::ByteSource At(uint32_t column, uint32_t kind, const std::vector<uint64_t>& positions, size_t* k) {
    const auto [offset, length] = streams_.at({column, kind});
    const uint64_t chunk = positions.at(*k), skip = positions.at(*k + 1);
    *k += 2;
    std::span<const uint8_t> raw(reinterpret_cast<const uint8_t*>(bytes_.data()) + offset + chunk, length - chunk);
    auto d = DecompressStream(format::kZlib, kBlock, raw, nullptr, default_memory_pool());
    EXPECT_TRUE(d.ok()) << d.status().ToString();
    keep_.push_back(*d);
    return rle::ByteSource((*d)->data() + skip, (*d)->size() - static_cast<int64_t>(skip));
  }

  SchemaPtr schema_;
  std::string bytes_;
  std::unique_ptr<OrcFileReader> reader_;
  StripeFooter footer_;
  std::map<std::pair<uint32_t, uint32_t>, std::pair<uint64_t, uint64_t>> streams_;
  std::vector<std::shared_ptr<Buffer>> keep_;
};

TEST_F(OrcWriterRowIndex, PresentAndIntegerPositions) {
  const RowIndex index = Index(1);
  for (size_t g = 0; g < index.entry.size(); ++g) {
    const int64_t row = static_cast<int64_t>(g) * 10000;
    const auto& p = index.entry[g].positions;
    ASSERT_EQ(p.size(), 4u + 3u) << "PRESENT: chunk, offset, run, bit; DATA: chunk, offset, run";
    size_t k = 0;
    rle::BoolRleDecoder present(At(1, sk::kPresent, p, &k));
    ASSERT_TRUE(present.Skip(static_cast<int64_t>(p[k] * 8 + p[k + 1])));
    k += 2;
    uint8_t bits[2] = {};
    ASSERT_TRUE(present.Decode(bits, 0, 13));
    for (int j = 0; j < 13; ++j) EXPECT_EQ(bit_util::GetBit(bits, j), IValid(row + j)) << g << " " << j;
    rle::IntRleDecoder data(At(1, sk::kData, p, &k), true, true);
    ASSERT_TRUE(data.Skip(static_cast<int64_t>(p[k])));
    int64_t first = row;
    while (!IValid(first)) ++first;
    int64_t v = 0;
    ASSERT_TRUE(data.Decode(&v, 1));
    EXPECT_EQ(v, IValue(first)) << "group " << g;
    // The group's statistics.
    const ColumnStatistics& s = *index.entry[g].statistics;
    int64_t count = 0, lo = INT64_MAX, hi = INT64_MIN, sum = 0;
    for (int64_t i = row; i < std::min(row + 10000, kRows); ++i) {
      if (!IValid(i)) continue;
      ++count, lo = std::min(lo, IValue(i)), hi = std::max(hi, IValue(i)), sum += IValue(i);
    }
    EXPECT_EQ(*s.number_of_values, static_cast<uint64_t>(count));
    EXPECT_EQ(*s.has_null, true);
    EXPECT_EQ(*s.int_statistics->minimum, lo);
    EXPECT_EQ(*s.int_statistics->maximum, hi);
    EXPECT_EQ(*s.int_statistics->sum, sum);
  }
}

TEST_F(OrcWriterRowIndex, BooleanPositionsCountBits) {
  const RowIndex index = Index(2);
  for (size_t g = 0; g < index.entry.size(); ++g) {
    const int64_t row = static_cast<int64_t>(g) * 10000;
    const auto& p = index.entry[g].positions;
    ASSERT_EQ(p.size(), 4u);
    size_t k = 0;
    rle::BoolRleDecoder data(At(2, sk::kData, p, &k));
    ASSERT_TRUE(data.Skip(static_cast<int64_t>(p[2] * 8 + p[3])));
    uint8_t bits[2] = {};
    ASSERT_TRUE(data.Decode(bits, 0, 11));
    for (int j = 0; j < 11; ++j) EXPECT_EQ(bit_util::GetBit(bits, j), Flag(row + j)) << g << " " << j;
    int64_t trues = 0;
    for (int64_t i = row; i < std::min(row + 10000, kRows); ++i) trues += Flag(i);
    EXPECT_EQ(index.entry[g].statistics->bucket_statistics->count.at(0), static_cast<uint64_t>(trues));
  }
}

TEST_F(OrcWriterRowIndex, DictionaryIdsAndDirectStringPositions) {
  EXPECT_EQ(footer_.columns[3].kind, format::encoding_kind::kDictionaryV2);
  EXPECT_EQ(footer_.columns[3].dictionary_size, 20u);
  EXPECT_EQ(footer_.columns[4].kind, format::encoding_kind::kDirectV2);  // every value distinct: fell back
  // Dictionary ids: the id decoded at each group's position is the id of its first row.
  size_t k0 = 0;
  const std::vector<uint64_t> start = {0, 0};
  rle::IntRleDecoder all(At(3, sk::kData, start, &k0), false, true);
  std::vector<int64_t> ids(kRows);
  ASSERT_TRUE(all.Decode(ids.data(), kRows));
  const RowIndex dict = Index(3);
  for (size_t g = 0; g < dict.entry.size(); ++g) {
    const auto& p = dict.entry[g].positions;
    ASSERT_EQ(p.size(), 3u);
    size_t k = 0;
    rle::IntRleDecoder data(At(3, sk::kData, p, &k), false, true);
    ASSERT_TRUE(data.Skip(static_cast<int64_t>(p[2])));
    int64_t id = -1;
    ASSERT_TRUE(data.Decode(&id, 1));
    EXPECT_EQ(id, ids[g * 10000]) << "group " << g;
    const int64_t row = static_cast<int64_t>(g) * 10000;
    std::string lo = Dict(row), hi = Dict(row);
    for (int64_t i = row; i < std::min(row + 10000, kRows); ++i) lo = std::min(lo, Dict(i)), hi = std::max(hi, Dict(i));
    EXPECT_EQ(*dict.entry[g].statistics->string_statistics->minimum, lo);
    EXPECT_EQ(*dict.entry[g].statistics->string_statistics->maximum, hi);
  }
  // Direct strings: DATA (chunk, offset) then LENGTH (chunk, offset, run).
  const RowIndex text = Index(4);
  for (size_t g = 0; g < text.entry.size(); ++g) {
    const int64_t row = static_cast<int64_t>(g) * 10000;
    const auto& p = text.entry[g].positions;
    ASSERT_EQ(p.size(), 5u);
    size_t k = 0;
    rle::ByteSource blob = At(4, sk::kData, p, &k);
    rle::IntRleDecoder lengths(At(4, sk::kLength, p, &k), false, true);
    ASSERT_TRUE(lengths.Skip(static_cast<int64_t>(p[k])));
    int64_t len[2];
    ASSERT_TRUE(lengths.Decode(len, 2));
    ASSERT_EQ(len[0], static_cast<int64_t>(Text(row).size()));
    ASSERT_EQ(len[1], static_cast<int64_t>(Text(row + 1).size()));
    ASSERT_GE(blob.remaining(), len[0] + len[1]);
    EXPECT_EQ(std::string(reinterpret_cast<const char*>(blob.pos()), static_cast<size_t>(len[0] + len[1])),
              Text(row) + Text(row + 1));
  }
}

TEST_F(OrcWriterRowIndex, DoublePositionsAreByteOffsets) {
  const RowIndex index = Index(5);
  for (size_t g = 0; g < index.entry.size(); ++g) {
    const int64_t row = static_cast<int64_t>(g) * 10000;
    const auto& p = index.entry[g].positions;
    ASSERT_EQ(p.size(), 2u);
    size_t k = 0;
    rle::ByteSource data = At(5, sk::kData, p, &k);
    double v;
    ASSERT_GE(data.remaining(), 8);
    std::memcpy(&v, data.pos(), 8);
    EXPECT_EQ(v, static_cast<double>(row) * 0.5);
    EXPECT_EQ(*index.entry[g].statistics->double_statistics->minimum, static_cast<double>(row) * 0.5);
  }
}

}  // namespace
}  // namespace quiver::orc

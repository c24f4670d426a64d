// The Arrow IPC writer against the reader: every integration file quiver reads, written back in
// both formats under every body compression (and sliced at odd offsets) and read again equal;
// mapped buffers borrowed; hostile bytes (cut short, flipped, pointing outside) refused cleanly.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "quiver/io/output_stream.h"
#include "quiver/ipc/reader.h"
#include "quiver/ipc/writer.h"
#include "testing/corpus.h"
#include "testing/dense_union.h"

namespace quiver::ipc {
namespace {

namespace fs = std::filesystem;

Result<std::vector<std::shared_ptr<RecordBatch>>> ReadAll(IpcReader& r) {
  std::vector<std::shared_ptr<RecordBatch>> out;
  for (;;) {
    QUIVER_ASSIGN_OR_RETURN(auto b, r.Next());
    if (!b) return out;
    out.push_back(std::move(b));
  }
}

Result<std::shared_ptr<Buffer>> WriteAll(const SchemaPtr& schema, const std::vector<std::shared_ptr<RecordBatch>>& batches,
                                         IpcWriteOptions options) {
  io::BufferOutputStream out;
  options.batch_rows = 0;  // the batches as given, so that they compare one for one
  QUIVER_ASSIGN_OR_RETURN(auto w, IpcWriter::Make(&out, schema, options));
  for (const auto& b : batches) QUIVER_RETURN_NOT_OK(w->Write(b));
  QUIVER_RETURN_NOT_OK(w->Finish());
  return out.Finish();
}

std::vector<fs::path> ReadableIntegrationFiles(const fs::path& root) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(root / "arrow-ipc" / "integration")) {
    if (e.path().extension() != ".arrow_file") continue;
    auto r = IpcReader::Open(e.path().string());
    if (r.ok()) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(IpcRoundTrip, EveryReadableIntegrationFileWritesBackEqualInBothFormatsAndEveryCompression) {
  QUIVER_CORPUS_OR_SKIP(root);
  const auto files = ReadableIntegrationFiles(root);
  ASSERT_EQ(files.size(), 48u);
  int64_t rows = 0;
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    auto reader = IpcReader::Open(path.string());
    ASSERT_TRUE(reader.ok());
    auto batches = ReadAll(**reader);
    ASSERT_TRUE(batches.ok()) << batches.status().ToString();
    const SchemaPtr schema = (*reader)->schema();
    // Slices at odd offsets too: bitmaps that do not start on a byte, offsets that do not start at 0.
    std::vector<std::shared_ptr<RecordBatch>> input = *batches;
    for (const auto& b : *batches) {
      if (b->num_rows() > 5) input.push_back(b->Slice(3, b->num_rows() - 5));
    }
    for (bool file_format : {true, false}) {
      for (BodyCompression c : {BodyCompression::kNone, BodyCompression::kLz4Frame, BodyCompression::kZstd}) {
        SCOPED_TRACE(fmt::format("file format {}, compression {}", file_format, static_cast<int>(c)));
        auto bytes = WriteAll(schema, input, {.file_format = file_format, .compression = c});
        ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
        EXPECT_EQ(reinterpret_cast<uintptr_t>((*bytes)->data()) % 8, 0u);
        auto back = IpcReader::OpenBuffer(*bytes, "written");
        ASSERT_TRUE(back.ok()) << back.status().ToString();
        EXPECT_EQ((*back)->is_file_format(), file_format);
        EXPECT_TRUE((*back)->schema()->Equals(*schema, /*check_metadata=*/true)) << (*back)->schema()->ToString();
        auto got = ReadAll(**back);
        ASSERT_TRUE(got.ok()) << got.status().ToString();
        ASSERT_EQ(got->size(), input.size());
        for (size_t i = 0; i < input.size(); ++i) {
          EXPECT_TRUE((*got)[i]->Equals(*input[i])) << "batch " << i;
          rows += (*got)[i]->num_rows();
        }
      }
    }
  }
  EXPECT_EQ(rows, 12510);
}

// A dense union as Arrow IPC (metadata V5): no validity buffer, so a null union slot reads back
// as its member's null entry; the same values in both formats, every compression, sliced.
TEST(IpcRoundTrip, DenseUnionsWriteAndReadBack) {
  const Array u = testing::SmallUnion();
  const SchemaPtr schema = std::make_shared<Schema>(std::vector<Field>{field("u", u.type()), field("i", int32())});
  NumericBuilder<int32_t> ib(int32());
  for (int i = 0; i < 6; ++i) ASSERT_TRUE(ib.Append(i).ok());
  const Array ints = *ib.Finish();
  const std::vector<std::shared_ptr<RecordBatch>> input = {
      std::make_shared<RecordBatch>(schema, 6, std::vector<Array>{u, ints}),
      std::make_shared<RecordBatch>(schema, 3, std::vector<Array>{u.Slice(3, 3), ints.Slice(3, 3)})};
  for (bool file_format : {true, false}) {
    for (BodyCompression c : {BodyCompression::kNone, BodyCompression::kLz4Frame, BodyCompression::kZstd}) {
      SCOPED_TRACE(fmt::format("file format {}, compression {}", file_format, static_cast<int>(c)));
      auto bytes = WriteAll(schema, input, {.file_format = file_format, .compression = c});
      ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
      auto back = IpcReader::OpenBuffer(*bytes, "written");
      ASSERT_TRUE(back.ok()) << back.status().ToString();
      EXPECT_TRUE((*back)->schema()->Equals(*schema));
      auto got = ReadAll(**back);
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      ASSERT_EQ(got->size(), 2u);
      EXPECT_EQ((*got)[0]->column(0).ToString(), "[10, \"x\", 20, null, \"y\", null]");
      EXPECT_EQ((*got)[0]->column(0).null_count(), 0);
      EXPECT_EQ((*got)[1]->column(0).ToString(), "[null, \"y\", null]");
      EXPECT_EQ((*got)[1]->column(1).ToString(), "[3, 4, 5]");
      EXPECT_TRUE((*got)[1]->column(0).Validate().ok());
    }
  }
}

// Batches of 6 and 3 rows (the second a slice of a union) written as batches of 4: cut and
// joined, the union's members included, so the file does not depend on how the rows came.
TEST(IpcRoundTrip, BatchRowsCutsAndJoinsTheInputBatches) {
  const Array u = testing::SmallUnion();
  const SchemaPtr schema = std::make_shared<Schema>(std::vector<Field>{field("u", u.type()), field("i", int32())});
  NumericBuilder<int32_t> ib(int32());
  for (int i = 0; i < 6; ++i) ASSERT_TRUE(ib.Append(i).ok());
  const Array ints = *ib.Finish();
  io::BufferOutputStream out;
  auto w = IpcWriter::Make(&out, schema, {.batch_rows = 4});
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  ASSERT_TRUE((*w)->Write(std::make_shared<RecordBatch>(schema, 6, std::vector<Array>{u, ints})).ok());
  ASSERT_TRUE((*w)->Write(std::make_shared<RecordBatch>(schema, 3, std::vector<Array>{u.Slice(3, 3), ints.Slice(3, 3)})).ok());
  ASSERT_TRUE((*w)->Finish().ok());
  auto back = IpcReader::OpenBuffer(*out.Finish(), "written");
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  auto got = ReadAll(**back);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  ASSERT_EQ(got->size(), 3u);
  EXPECT_EQ((*got)[0]->column(1).ToString(), "[0, 1, 2, 3]");
  EXPECT_EQ((*got)[1]->column(1).ToString(), "[4, 5, 3, 4]");
  EXPECT_EQ((*got)[1]->column(0).ToString(), "[\"y\", null, null, \"y\"]");
  EXPECT_EQ((*got)[2]->column(1).ToString(), "[5]");
  EXPECT_EQ((*got)[2]->column(0).ToString(), "[null]");
  for (const auto& b : *got) EXPECT_TRUE(b->column(0).Validate().ok());
}

TEST(IpcRoundTrip, MappedFileLendsAlignedUncompressedBuffersAndCopiesCompressedOnes) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path dir = root / "arrow-ipc" / "integration";
  auto plain = IpcReader::Open((dir / "1.0.0-littleendian" / "generated_primitive.arrow_file").string());
  ASSERT_TRUE(plain.ok());
  auto b = (*plain)->Next();
  ASSERT_TRUE(b.ok() && *b);
  const int c = (*plain)->schema()->GetFieldIndex("int32_nullable");
  ASSERT_GE(c, 0);
  EXPECT_FALSE((*b)->column(c).data()->buffers[1]->is_owned());  // a view of the mapping
  auto packed = IpcReader::Open((dir / "2.0.0-compression" / "generated_zstd.arrow_file").string());
  ASSERT_TRUE(packed.ok());
  b = (*packed)->Next();
  ASSERT_TRUE(b.ok() && *b);
  EXPECT_TRUE((*b)->column(0).data()->buffers[1]->is_owned());  // decompressed into the pool
}

// A small stream and file of two columns (int32 with nulls, strings) for the hostile cases.
std::shared_ptr<Buffer> SmallIpc(bool file_format) {
  auto schema = std::make_shared<Schema>(std::vector<Field>{field("a", int32()), field("s", utf8())});
  auto ints = Buffer::CopyOf(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>("\x01\0\0\0\x02\0\0\0\x03\0\0\0"), 12));
  auto valid = Buffer::CopyOf(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>("\x05"), 1));
  const int32_t offs[4] = {0, 1, 3, 6};
  auto offsets = Buffer::CopyOf(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(offs), 16));
  auto chars = Buffer::CopyOf(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>("abbccc"), 6));
  auto a = std::make_shared<ArrayData>(ArrayData{int32(), 3, 1, 0, {*valid, *ints}, {}});
  auto s = std::make_shared<ArrayData>(ArrayData{utf8(), 3, 0, 0, {nullptr, *offsets, *chars}, {}});
  auto batch = RecordBatch::Make(schema, {Array(a), Array(s)});
  EXPECT_TRUE(batch.ok());
  auto bytes = WriteAll(schema, {*batch, *batch}, {.file_format = file_format});
  EXPECT_TRUE(bytes.ok());
  return *bytes;
}

Status ReadBytes(std::shared_ptr<Buffer> bytes) {
  QUIVER_ASSIGN_OR_RETURN(auto r, IpcReader::OpenBuffer(std::move(bytes), "x"));
  return ReadAll(*r).status();
}

std::shared_ptr<Buffer> Copy(const Buffer& b, int64_t n) {
  return *Buffer::CopyOf(std::span<const uint8_t>(b.data(), static_cast<size_t>(n)));
}

TEST(IpcHostile, EveryTruncationOfAStreamIsAnErrorOrAnEarlierEnd) {
  const auto whole = SmallIpc(false);
  ASSERT_TRUE(ReadBytes(whole).ok());
  for (int64_t n = 0; n < whole->size(); ++n) {
    // A stream cut exactly between messages reads as ended there; anywhere else it is an error.
    Status st = ReadBytes(Copy(*whole, n));
    if (!st.ok()) {
      EXPECT_TRUE(st.IsCorrupt()) << n << ": " << st.ToString();
    }
  }
  EXPECT_EQ(ReadBytes(Copy(*whole, 0)).message(), "x: the Arrow IPC stream is empty (no Schema message)");
  EXPECT_EQ(ReadBytes(Copy(*whole, whole->size() - 20)).message(),
            "x: Arrow IPC message at byte 672: body of 256 bytes runs past the end");
}

TEST(IpcHostile, EveryTruncationOfAFileIsAnError) {
  const auto whole = SmallIpc(true);
  ASSERT_TRUE(ReadBytes(whole).ok());
  for (int64_t n = 0; n < whole->size(); ++n) {
    Status st = ReadBytes(Copy(*whole, n));
    EXPECT_FALSE(st.ok()) << n;
  }
  EXPECT_EQ(ReadBytes(Copy(*whole, whole->size() - 1)).message(),
            "x: starts with ARROW1 but does not end with it: not a whole Arrow IPC file");
}

TEST(IpcHostile, EveryByteSetToAnyOfThreeValuesReadsOrFailsCleanly) {
  for (bool file_format : {false, true}) {
    const auto whole = SmallIpc(file_format);
    int failures = 0;
    for (int64_t i = 0; i < whole->size(); ++i) {
      for (uint8_t v : {uint8_t{0x00}, uint8_t{0x7f}, uint8_t{0xff}}) {
        auto b = Copy(*whole, whole->size());
        b->mutable_data()[i] = v;
        failures += !ReadBytes(b).ok();
      }
    }
    EXPECT_GT(failures, 100);
  }
}

// Writes `v` at byte `at` of a copy of `b`.
template <typename T>
std::shared_ptr<Buffer> Patched(const Buffer& b, int64_t at, T v) {
  auto c = Copy(b, b.size());
  std::memcpy(c->mutable_data() + at, &v, sizeof(T));
  return c;
}

// The byte position of `needle` (the first occurrence at or after `from`).
int64_t Find(const Buffer& b, const void* needle, size_t n, int64_t from = 0) {
  for (int64_t i = from; i + static_cast<int64_t>(n) <= b.size(); ++i) {
    if (std::memcmp(b.data() + i, needle, n) == 0) return i;
  }
  return -1;
}

TEST(IpcHostile, LengthsOffsetsAndCountsOutsideTheirBoundsAreNamed) {
  const auto whole = SmallIpc(false);
  // The first message's metadata length, made huge.
  EXPECT_EQ(ReadBytes(Patched(*whole, 4, int32_t{0x7ffffff0})).message(),
            "x: Arrow IPC message at byte 0: metadata of 2147483632 bytes runs past the end (1144 bytes)");
  // The root table offset of the schema message, pointing past the message.
  EXPECT_EQ(ReadBytes(Patched(*whole, 8, uint32_t{100000})).message(),
            "x: message at byte 0: Arrow IPC Message flatbuffer: table offset 100000 outside the 200 bytes");
  // The first record batch's buffer of int32 values ({offset 64, length 12}, after the
  // validity bitmap's {0, 1}), moved far beyond the body.
  const int64_t refs[4] = {0, 1, 64, 12};
  const int64_t r = Find(*whole, refs, sizeof refs);
  ASSERT_GT(r, 0);
  EXPECT_EQ(ReadBytes(Patched(*whole, r + 16, int64_t{1} << 40)).message(),
            "x: buffer 1 at 1099511627776 of 12 bytes lies outside the body of 256 bytes");
  const int64_t nodes[4] = {3, 1, 3, 0};
  const int64_t at = Find(*whole, nodes, sizeof nodes);
  ASSERT_GT(at, 0);
  // A field node with more nulls than slots.
  EXPECT_EQ(ReadBytes(Patched(*whole, at + 8, int64_t{4})).message(),
            "x: field 'a': node of length 3 with 4 nulls");
  // A string offset past the character data.
  const int32_t offs[4] = {0, 1, 3, 6};
  const int64_t o = Find(*whole, offs, sizeof offs);
  ASSERT_GT(o, 0);
  EXPECT_EQ(ReadBytes(Patched(*whole, o + 12, int32_t{1000})).message(),
            "x: column 's': string array: last offset 1000 exceeds the data size 6");
}

}  // namespace
}  // namespace quiver::ipc

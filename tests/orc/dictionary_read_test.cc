// Reading DICTIONARY_V2 string columns: every value gathered from the dictionary exactly, for
// entries of 0..16 bytes (one 16-byte move each) and of up to 40 (moved 16 bytes at a time),
// with and without nulls, compressed and not, in batches that end inside runs; and an index
// past the dictionary's end refused with its message.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "quiver/columnar/builder.h"
#include "quiver/io/file.h"
#include "quiver/io/output_stream.h"
#include "quiver/orc/format.h"
#include "quiver/orc/reader/file_reader.h"
#include "quiver/orc/writer/file_writer.h"
#include "quiver/stream/orc_stream.h"

namespace quiver::orc {
namespace {

// Entry k of a dictionary whose longest entry has `longest` bytes: k % (longest + 1) bytes.
std::string Entry(int k, int longest) {
  std::string s;
  for (int j = 0; j < k % (longest + 1); ++j) s += static_cast<char>('a' + (k + j) % 26);
  return s;
}

// Row i's value (null when `nulls` and i % 5 == 3): 41 distinct values in a shuffled order, so
// that the writer keeps a dictionary (41 of 3,000 values).
std::optional<std::string> Row(int i, int longest, bool nulls) {
  if (nulls && i % 5 == 3) return std::nullopt;
  return Entry((i * 7) % 41, longest);
}

constexpr int kRows = 3000;

std::shared_ptr<Buffer> WriteStrings(int longest, bool nulls, uint32_t compression) {
  auto schema = std::make_shared<Schema>(std::vector<Field>{field("s", utf8())});
  BinaryBuilder b(utf8());
  for (int i = 0; i < kRows; ++i) {
    auto v = Row(i, longest, nulls);
    EXPECT_TRUE((v ? b.Append(*v) : b.AppendNull()).ok());
  }
  io::BufferOutputStream out;
  OrcWriterOptions options;
  options.compression = compression;
  options.compression_block_size = 1024;  // chunks end inside the values and the runs
  options.thread_pool = nullptr;
  auto w = OrcFileWriter::Open(&out, schema, options);
  EXPECT_TRUE(w.ok()) << w.status().ToString();
  EXPECT_TRUE((*w)->Write(std::make_shared<RecordBatch>(schema, kRows, std::vector<Array>{*b.Finish()})).ok());
  EXPECT_TRUE((*w)->Close().ok());
  return *out.Finish();
}

// Every value of the file's column `s`, read in batches of `batch_rows` ("<null>" for nulls).
Result<std::vector<std::string>> ReadStrings(const std::shared_ptr<Buffer>& bytes, int64_t batch_rows) {
  OrcReaderOptions options;
  options.thread_pool = nullptr;
  options.batch_rows = batch_rows;
  QUIVER_ASSIGN_OR_RETURN(auto file, OrcFileReader::Open(io::MemorySource(bytes, "dict.orc"), options));
  QUIVER_ASSIGN_OR_RETURN(auto footer, file->ReadStripeFooter(0));
  if (footer.columns.size() < 2 || footer.columns[1].kind != format::encoding_kind::kDictionaryV2) {
    return Status::Invalid("the writer did not make a dictionary");
  }
  QUIVER_ASSIGN_OR_RETURN(auto reader, stream::OrcStreamReader::Make(std::shared_ptr<OrcFileReader>(std::move(file))));
  std::vector<std::string> got;
  while (true) {
    QUIVER_ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (batch == nullptr) break;
    QUIVER_RETURN_NOT_OK(batch->ToStructArray().Validate());
    BinaryArray a(batch->column(0));
    for (int64_t i = 0; i < a.length(); ++i) got.push_back(a.IsValid(i) ? std::string(a.GetView(i)) : "<null>");
  }
  return got;
}

TEST(OrcDictionaryRead, EveryValueGatheredExactly) {
  for (int longest : {16, 40}) {
    for (bool nulls : {false, true}) {
      for (uint32_t compression : {uint32_t{format::kNone}, uint32_t{format::kZstd}}) {
        for (int64_t batch_rows : {int64_t{1}, int64_t{777}}) {
          SCOPED_TRACE(fmt::format("longest {} nulls {} codec {} batches of {}", longest, nulls, compression, batch_rows));
          auto got = ReadStrings(WriteStrings(longest, nulls, compression), batch_rows);
          ASSERT_TRUE(got.ok()) << got.status().ToString();
          ASSERT_EQ(got->size(), size_t{kRows});
          int wrong = 0;
          for (int i = 0; i < kRows && wrong < 3; ++i) {
            const std::string want = Row(i, longest, nulls).value_or("<null>");
            if ((*got)[static_cast<size_t>(i)] != want) {
              ADD_FAILURE() << "row " << i << ": got '" << (*got)[static_cast<size_t>(i)] << "', want '" << want << "'";
              ++wrong;
            }
          }
        }
      }
    }
  }
}

// The stripe footer's dictionary size made smaller than the indices need (an uncompressed
// file's ColumnEncoding {kind: DICTIONARY_V2, dictionarySize: 39} patched in place: entries 0,
// 17 and 34 are all empty).
TEST(OrcDictionaryRead, IndexPastTheDictionaryIsRefused) {
  const std::shared_ptr<Buffer> good = WriteStrings(16, false, format::kNone);
  for (uint8_t size : {uint8_t{38}, uint8_t{0}}) {
    std::string bytes(good->view());
    const std::string encoding("\x08\x03\x10\x27", 4);  // kind 3, dictionary_size 39
    const size_t at = bytes.find(encoding);
    ASSERT_NE(at, std::string::npos);
    ASSERT_EQ(bytes.find(encoding, at + 1), std::string::npos);
    bytes[at + 3] = static_cast<char>(size);
    auto buf = Buffer::CopyOf(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
    ASSERT_TRUE(buf.ok());
    auto got = ReadStrings(*buf, 777);
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.status().ToString(),
              fmt::format("Corrupt: dict.orc: stripe 0: column 's': a dictionary index is outside the dictionary of {} entries", size));
  }
}

}  // namespace
}  // namespace quiver::orc

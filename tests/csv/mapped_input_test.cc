// A regular file's blocks mapped into the block buffer's ring instead of read into it: the
// batches (rows per batch and values) are those of the same bytes read with read() and of the
// same bytes from memory, at a file's end on a page boundary or without a final line break,
// after a BOM, with windows cut inside rows and quoted fields, and where no mapping is made.
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <random>
#include <string>
#include <thread>

#include "quiver/csv/block_buffer_internal.h"
#include "quiver/csv/reader.h"
#include "testing/csv_read.h"
#include "testing/scratch_dir.h"

namespace quiver::csv {
namespace {

using testing::Bytes;
using testing::Rows;
using testing::RowsOfBatches;
using testing::SameText;

// Every batch's row count and rows, then how the read ended and the bytes it read.
std::string Batches(Result<std::unique_ptr<CsvReader>> r) {
  if (!r.ok()) return "open: " + r.status().ToString();
  std::string out;
  for (;;) {
    auto b = (*r)->Next();
    if (!b.ok()) return out + "error: " + b.status().ToString();
    if (!*b) break;
    out += fmt::format("-- {} rows\n", (*b)->num_rows()) + Rows(**b);
  }
  return out + fmt::format("end, {} bytes\n", (*r)->stats().bytes_read);
}

// Rows past the 4 MiB read on open (which is read, not mapped): ids, prices, dates and notes
// of varying length; every `quoted`th note is quoted and holds line breaks, delimiters and
// doubled quotes, up to `longest` bytes long.
std::string Table(size_t bytes, int quoted, int longest) {
  std::string t = "id,price,day,note\n";
  std::mt19937_64 rng(11);
  for (int i = 0; t.size() < bytes; ++i) {
    std::string note = fmt::format("n{}", rng() % 100000);
    if (quoted > 0 && i % quoted == 0) {
      const int len = static_cast<int>(rng() % static_cast<uint64_t>(longest));
      static const char* const kBits[] = {"ab", ",", "\n", "\"\"", "cd"};
      note = "\"";
      while (static_cast<int>(note.size()) < len) note += kBits[rng() % 8 == 0 ? rng() % 5 : 0];
      note += "\"";
    }
    t += fmt::format("{},{}.{:02},2001-{:02}-{:02},{}\n", i, rng() % 100000, rng() % 100, 1 + rng() % 12,
                     1 + rng() % 28, note);
  }
  return t;
}

class MappedInput : public quiver::testing::ScratchDirTest {
 protected:
  void TearDown() override {
    SetFileMappingForTesting(true);
    ScratchDirTest::TearDown();
  }

  // `bytes` as a file read mapped and read with read(), and, without the BOM, from memory, at
  // several block sizes (a block of 777 bytes makes every window start at another page offset).
  void ExpectAlike(const std::string& bytes, const std::string& what, bool mapped = true) {
    const std::string path = Path("t.csv");
    {
      std::ofstream f(path, std::ios::binary);
      f << bytes;
    }
    const bool bom = bytes.rfind("\xEF\xBB\xBF", 0) == 0;
    for (int64_t block : {int64_t{777}, int64_t{4096}, int64_t{1} << 20}) {
      CsvOptions o;
      o.threads = 2;
      o.block_size = block;
      const std::string from_memory = Batches(CsvReader::OpenBuffer(Bytes(bytes.substr(bom ? 3 : 0)), o, "t.csv"));
      SetFileMappingForTesting(false);
      int64_t before = MappedBytesForTesting();
      const std::string read = Batches(CsvReader::Open(path, o));
      EXPECT_EQ(MappedBytesForTesting(), before) << what;
      SetFileMappingForTesting(true);
      before = MappedBytesForTesting();
      const std::string from_mapping = Batches(CsvReader::Open(path, o));
      if (mapped) {
        // All but the first fill of about 4 MiB (block 777: the last few blocks are read at
        // most a block at a time, mapped too).
        EXPECT_GT(MappedBytesForTesting() - before, static_cast<int64_t>(bytes.size()) - (int64_t{9} << 19)) << what;
      }
      EXPECT_NE(from_memory.find("\nend, "), std::string::npos) << what << ": " << from_memory.substr(0, 300);
      EXPECT_GT(from_memory.size(), bytes.size() / 2) << what;
      EXPECT_TRUE(SameText(read, from_memory)) << what << " block " << block;
      EXPECT_TRUE(SameText(from_mapping, from_memory)) << what << " block " << block;
    }
  }
};

// The last page is the file's own to its last byte: nothing past the end reads as zero inside
// it, and the padding past the bytes comes from the pages after. Once with a final line break,
// once with the last row unterminated.
TEST_F(MappedInput, AFileOfWholePages) {
  for (const bool newline : {true, false}) {
    std::string t = Table(size_t{5} << 20, 0, 0);
    const std::string last = newline ? "7,1.50,2001-01-01,end\n" : "7,1.50,2001-01-01,end";
    // The row before the last is padded so that the file ends on a page boundary.
    const std::string filler = "7,1.50,2001-01-01,n";
    const size_t pad = (4096 - (t.size() + filler.size() + 1 + last.size()) % 4096) % 4096;
    t += filler + std::string(pad, 'x') + "\n" + last;
    ASSERT_EQ(t.size() % 4096, 0u);
    ExpectAlike(t, newline ? "whole pages" : "whole pages, no final line break");
  }
}

TEST_F(MappedInput, AFileEndingWithoutALineBreak) {
  std::string t = Table(size_t{5} << 20, 0, 0);
  t += "8,2.25,2002-02-02,last";
  if (t.size() % 4096 == 0) t += "z";
  ExpectAlike(t, "no final line break");
}

// The BOM is skipped by offset: the file's bytes are mapped 3 bytes on from the decoded ones.
TEST_F(MappedInput, AFileWithAByteOrderMark) {
  ExpectAlike("\xEF\xBB\xBF" + Table(size_t{5} << 20, 0, 0), "BOM");
}

// Quoted fields with line breaks of up to 6 KB: windows of a block of 777 or 4096 bytes end
// inside rows and inside quoted fields, and a row longer than the ring's 64 KiB headroom
// takes the reader out of the ring and back into a fresh one, mapped again.
TEST_F(MappedInput, WindowsEndInsideRowsAndQuotedFields) {
  std::string t = Table(size_t{9} << 19, 7, 6000);
  t += "9,1.00,2003-03-03,\"" + std::string(100000, 'q') + "\n" + std::string(50000, 'r') + "\"\n";
  t += Table(size_t{1} << 20, 5, 3000).substr(18);
  ExpectAlike(t, "quoted fields");
}

// A FIFO is read with read(), and so is a plain file decoded as Latin-1: nothing is mapped,
// and the rows are those from memory.
TEST_F(MappedInput, WhatIsNotAPlainFileIsRead) {
  const std::string t = Table(size_t{5} << 20, 11, 500);
  const std::string fifo = Path("fifo.csv");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  CsvOptions o;
  o.threads = 2;
  o.block_size = 4096;
  const std::string from_memory = Batches(CsvReader::OpenBuffer(Bytes(t), o, "t.csv"));
  ASSERT_NE(from_memory.find("\nend, "), std::string::npos) << from_memory.substr(0, 300);
  signal(SIGPIPE, SIG_IGN);  // a reader that stops early must fail the test, not end it
  std::thread writer([&] {
    std::ofstream f(fifo, std::ios::binary);
    f << t;
  });
  const int64_t before = MappedBytesForTesting();
  const std::string from_fifo = Batches(CsvReader::Open(fifo, o));
  writer.join();
  EXPECT_EQ(MappedBytesForTesting(), before);
  EXPECT_TRUE(SameText(RowsOfBatches(from_fifo), RowsOfBatches(from_memory)));

  const std::string path = Path("latin1.csv");
  {
    std::ofstream f(path, std::ios::binary);
    f << t;
  }
  o.encoding = Encoding::kLatin1;
  const std::string latin1 = Batches(CsvReader::Open(path, o));
  EXPECT_EQ(MappedBytesForTesting(), before);
  EXPECT_TRUE(SameText(RowsOfBatches(latin1), RowsOfBatches(from_memory)));  // ASCII reads alike in both
}

}  // namespace
}  // namespace quiver::csv

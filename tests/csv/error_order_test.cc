// The first bad cell in file order (row first, then column) is the one a failed read reports,
// whatever the threads, blocks and slices the rows were split into.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "quiver/csv/reader.h"

namespace quiver::csv {
namespace {

std::shared_ptr<Buffer> Bytes(const std::string& s) {
  return *Buffer::CopyOf(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(s.data()), s.size()));
}

Status ReadToError(const std::string& text, const CsvOptions& o) {
  auto r = CsvReader::OpenBuffer(Bytes(text), o, "t.csv");
  if (!r.ok()) return r.status();
  for (;;) {
    auto b = (*r)->Next();
    if (!b.ok()) return b.status();
    if (!*b) return Status::OK();
  }
}

// `rows` data rows of eight text columns c1..c8 (cells "r<row>c<col>"), `bad` cells replaced.
struct Cell {
  int row, col;  // 1-based data row and column
  std::string text;
};
std::string Table(int rows, const std::vector<Cell>& bad, int64_t* byte_of_first = nullptr) {
  std::string text = "c1,c2,c3,c4,c5,c6,c7,c8\n";
  for (int r = 1; r <= rows; ++r) {
    for (int c = 1; c <= 8; ++c) {
      if (c > 1) text += ',';
      std::string cell = fmt::format("r{}c{}", r, c);
      for (const Cell& b : bad) {
        if (b.row == r && b.col == c) {
          if (byte_of_first && &b == &bad.front()) *byte_of_first = static_cast<int64_t>(text.size());
          cell = b.text;
        }
      }
      text += cell;
    }
    text += '\n';
  }
  return text;
}

// Bad bytes at data row 20, column 8 (line 21) and at row 155, column 6 (line 156): the same
// group of rows, the later row in an earlier column. Every thread count and block size (down
// to a few rows per block) reports line 21, column 8.
TEST(CsvErrorOrder, FirstInvalidUtf8InFileOrder) {
  int64_t byte = 0;
  const std::string text = Table(400, {{20, 8, "caf\xe9"}, {155, 6, "bad\xff"}}, &byte);
  const std::string want = fmt::format(
      "t.csv:21:8 'c8': invalid UTF-8, got \"caf\\xe9\" (byte {}); the file may be in another encoding",
      byte);
  for (int threads : {1, 2}) {
    for (int64_t block : {int64_t{4} << 20, int64_t{4096}, int64_t{700}, int64_t{100}}) {
      CsvOptions o;
      o.threads = threads;
      o.block_size = block;
      o.slice_bytes = block < 4096 ? 64 : o.slice_bytes;
      EXPECT_EQ(ReadToError(text, o).message(), want) << "threads " << threads << " block " << block;
    }
  }
}

// The same for values that do not convert: an int64 column's bad value in a later column of an
// earlier row wins over one in an earlier column of a later row, and a bad UTF-8 cell in an
// earlier row wins over both.
TEST(CsvErrorOrder, FirstBadValueInFileOrder) {
  std::string text = "a,b,c\n";
  for (int r = 1; r <= 300; ++r) {
    std::string a = fmt::format("{}", r), b = fmt::format("t{}", r), c = fmt::format("{}", r * 2);
    if (r == 100) c = "x100";
    if (r == 200) a = "x200";
    text += a + "," + b + "," + c + "\n";
  }
  CsvOptions o;
  o.infer_rows = 50;
  EXPECT_EQ(ReadToError(text, o).message(),
            fmt::format("t.csv:101:3 'c': cannot convert to int64, got \"x100\" (byte {}); the type was inferred from "
                        "the first 50 rows",
                        text.find("x100")));
  const size_t at = text.find("\n90,t90,") + 4;
  text.replace(at, 3, "t\xfe");
  EXPECT_EQ(ReadToError(text, o).message(),
            fmt::format("t.csv:91:2 'b': invalid UTF-8, got \"t\\xfe\" (byte {}); the file may be in another "
                        "encoding",
                        at));
}

// Control bytes and invalid sequences in a shown value are escaped; valid UTF-8 stays as it is.
TEST(CsvErrorOrder, ShownValuesAreEscaped) {
  CsvOptions o;
  o.column_types = {{"n", int64()}};
  EXPECT_EQ(ReadToError("n,s\n1,x\n\xc3\xa9\x1b[2J\x80,y\n", o).message(),
            "t.csv:3:1 'n': cannot convert to int64, got \"\xc3\xa9\\x1b[2J\\x80\" (byte 8)");
}

}  // namespace
}  // namespace quiver::csv

// Input that is not text is refused before CSV parsing, in one line naming what it looks like
// (known magics, NUL bytes, a sample mostly not UTF-8) and what to pass if it is text; text
// that merely starts like a magic, UTF-16 with a BOM and Latin-1 with a few accents still read.
#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <string>

#include "quiver/csv/not_text_internal.h"
#include "quiver/csv/reader.h"
#include "testing/gzip.h"

namespace quiver::csv {
namespace {

Result<std::shared_ptr<RecordBatch>> Read(const std::string& text, CsvOptions o = {}) {
  auto bytes = *Buffer::CopyOf(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  QUIVER_ASSIGN_OR_RETURN(auto r, CsvReader::OpenBuffer(bytes, o, "in.bin"));
  return r->ReadAll();
}

std::string Error(const std::string& text, CsvOptions o = {}) {
  auto r = Read(text, o);
  return r.ok() ? "read as CSV" : r.status().message();
}

using quiver::testing::Gzip;

// Bytes as a Thrift or protobuf footer holds them: varints, NULs, field headers.
std::string Junk(size_t n) {
  std::string s;
  for (size_t i = 0; s.size() < n; ++i) s += std::string("\x15\x00\x8c\x01\x19", 5).substr(0, 1 + i % 5);
  return s.substr(0, n);
}

TEST(NotText, KnownFormatsByTheirMagic) {
  const std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16);
  EXPECT_EQ(Error(png), "in.bin: not CSV text: a PNG image");
  EXPECT_EQ(Error(std::string("PK\x03\x04\x14\0\0\0", 8) + "a.csv"),
            "in.bin: not CSV text: a ZIP archive (quiver reads CSV as it is, or compressed by gzip or zstd; unzip it "
            "first)");
  EXPECT_EQ(Error("%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj\n"), "in.bin: not CSV text: a PDF document");
  EXPECT_EQ(Error(std::string("ARROW1\0\0\xff\xff\xff\xff", 12)), "in.bin: not CSV text: an Arrow IPC file (not supported)");
  EXPECT_EQ(Error(Gzip(Gzip("a,b\n1,2\n"))), "in.bin: not CSV text: gzip data inside gzip (compressed twice?)");
  std::string tar(1024, '\0');
  tar.replace(0, 5, "a.csv");
  tar.replace(257, 6, std::string("ustar\0", 6));
  EXPECT_EQ(Error(Gzip(tar)), "in.bin: not CSV text: a tar archive (compressed; unpack it first)");
  EXPECT_EQ(Error("ORC" + Junk(200)), "in.bin: not CSV text: an ORC file (read it as ORC: name it .orc)");
  EXPECT_EQ(Error("PAR1" + Junk(200) + "PAR1"),
            "in.bin: not CSV text: a Parquet file (read it as Parquet: name it .parquet)");
  // A Parquet file that lost its first bytes still ends in its footer's magic.
  EXPECT_EQ(Error(Junk(200) + "PAR1"),
            "in.bin: not CSV text: a damaged Parquet file (its footer ends in PAR1, but it does not start with PAR1)");
}

TEST(NotText, BinaryDataByNulBytesOrMostlyInvalidUtf8) {
  std::mt19937 rng(7);
  std::string random(3000, '\0');
  for (char& c : random) c = static_cast<char>(rng() % 255 + 1);  // no NUL
  random[1234] = '\0';
  EXPECT_EQ(Error(random),
            "in.bin: not CSV text: binary data (NUL byte at byte 1234); if it is text, set its encoding "
            "(UTF-16 or Latin-1)");
  random[1234] = 'x';
  const std::string shown = Error(random);
  EXPECT_EQ(shown.rfind("in.bin: not CSV text: binary data (", 0), 0u) << shown;
  EXPECT_NE(shown.find(" of the first 3000 bytes are control bytes or not UTF-8); if it is text, set its encoding"),
            std::string::npos)
      << shown;
  // Valid UTF-8 without a NUL, but a quarter of it control bytes.
  std::string controls;
  for (int i = 0; i < 20; ++i) controls += "a,\x01\n";
  EXPECT_EQ(Error(controls),
            "in.bin: not CSV text: binary data (20 of the first 80 bytes are control bytes or not UTF-8); if it is "
            "text, set its encoding (UTF-16 or Latin-1)");
  // UTF-16LE text without a byte order mark.
  std::string utf16;
  for (char c : std::string("k,v\n1,2\n")) utf16 += std::string(1, c) + '\0';
  EXPECT_EQ(Error(utf16), "in.bin: not CSV text: UTF-16 text without a byte order mark, it seems: set the encoding to UTF-16");
  CsvOptions o;
  o.encoding = Encoding::kUtf16;
  auto b = Read(utf16, o);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ((*b)->num_rows(), 1);
}

TEST(NotText, TextThatOnlyLooksLikeAMagicStillReads) {
  // A few NUL bytes in text (NUL-terminated fields of a dump) and a few control bytes are CSV.
  auto nul = Read(std::string("col1|col2|col3\nval1|val\0" "2|val3\n", 31));
  ASSERT_TRUE(nul.ok()) << nul.status().ToString();
  EXPECT_EQ((*nul)->num_rows(), 1);
  std::string few;
  for (int i = 0; i < 20; ++i) few += "ab,b\x01\n";
  EXPECT_TRUE(Read(few).ok());
  // Short inputs are not judged by their share of control bytes.
  EXPECT_TRUE(Read(std::string("a\0b", 3)).ok());
  // Headers that begin like ORC's and Parquet's magic, UTF-16 with a BOM (its NUL bytes are
  // text), and Latin-1 with a few accents (refused later, value by value, as invalid UTF-8).
  auto b = Read("ORCID,name\n0000-0001,x\n");
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ((*b)->schema()->field(0).name, "ORCID");
  b = Read("PAR1,PAR2\n1,2\n");
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  std::string utf16 = "\xFF\xFE";
  for (char c : std::string("k,v\n1,2\n")) utf16 += std::string(1, c) + '\0';
  b = Read(utf16);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ((*b)->num_rows(), 1);
  std::string latin = "name,city\n";
  for (int i = 0; i < 50; ++i) latin += "Jos\xE9,Montr\xE9" "al\n";
  EXPECT_EQ(Error(latin).find("not CSV text"), std::string::npos);
  CsvOptions l;
  l.encoding = Encoding::kLatin1;
  EXPECT_TRUE(Read(latin, l).ok());
}

}  // namespace
}  // namespace quiver::csv

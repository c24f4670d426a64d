// Selective footer decoding: only the chosen row groups and column chunks are built, equal to
// the same elements of a full decode; statistics can be left out; bad selections are errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "quiver/io/file.h"
#include "quiver/parquet/footer.h"
#include "quiver/parquet/metadata_codec.h"
#include "testing/corpus.h"

namespace quiver::parquet {
namespace {

std::shared_ptr<const ParquetFooter> Read(const std::filesystem::path& p, const DecodeOptions& o, Status* st = nullptr) {
  auto file = io::OpenFile(p.string());
  EXPECT_TRUE(file.ok());
  auto footer = ReadFooter(**file, o);
  if (st != nullptr) *st = footer.status();
  return footer.ok() ? *footer : nullptr;
}

TEST(SelectiveDecodeTest, ChosenRowGroupsAndColumnsEqualFullDecode) {
  QUIVER_CORPUS_OR_SKIP(dir);
  // 3 row groups? pick a multi-row-group file and check every combination of one row group
  // with two columns.
  auto path = dir / "parquet-testing/data/alltypes_tiny_pages_plain.parquet";
  for (const char* name : {"data/nested_structs.rust.parquet", "data/alltypes_tiny_pages_plain.parquet",
                           "bad_data/ARROW-GH-41321.parquet"}) {
    SCOPED_TRACE(name);
    path = dir / "parquet-testing" / name;
    auto full = Read(path, {});
    ASSERT_NE(full, nullptr);
    const FileMetaData& fm = full->metadata();
    ASSERT_GE(fm.row_groups.size(), 1u);
    uint32_t ncols = fm.row_groups[0].columns.size();
    ASSERT_GE(ncols, 3u);
    for (uint32_t rg = 0; rg < fm.row_groups.size(); ++rg) {
      DecodeOptions o;
      o.row_groups = std::vector<int32_t>{static_cast<int32_t>(rg)};
      o.columns = std::vector<int32_t>{static_cast<int32_t>(ncols - 1), 1, 1};  // unsorted, duplicate
      auto sel = Read(path, o);
      ASSERT_NE(sel, nullptr);
      const FileMetaData& sm = sel->metadata();
      EXPECT_TRUE(sm.schema == fm.schema);
      EXPECT_EQ(sm.num_rows, fm.num_rows);
      EXPECT_TRUE(sm.key_value_metadata == fm.key_value_metadata);
      ASSERT_EQ(sm.row_groups.size(), 1u);
      EXPECT_EQ(sel->row_group_indices(), std::vector<int32_t>{static_cast<int32_t>(rg)});
      EXPECT_EQ(sel->column_indices(), (std::vector<int32_t>{1, static_cast<int32_t>(ncols - 1)}));
      const RowGroup& a = sm.row_groups[0];
      const RowGroup& b = fm.row_groups[rg];
      EXPECT_EQ(a.num_rows, b.num_rows);
      ASSERT_EQ(a.columns.size(), 2u);
      EXPECT_TRUE(a.columns[0] == b.columns[1]);
      EXPECT_TRUE(a.columns[1] == b.columns[ncols - 1]);
    }
    // No row groups at all: only the schema and file-level fields.
    DecodeOptions none;
    none.row_groups.emplace();
    auto schema_only = Read(path, none);
    ASSERT_NE(schema_only, nullptr);
    EXPECT_TRUE(schema_only->metadata().row_groups.empty());
    EXPECT_TRUE(schema_only->metadata().schema == fm.schema);
    EXPECT_TRUE(schema_only->metadata().column_orders == fm.column_orders);
  }
}

TEST(SelectiveDecodeTest, StatisticsCanBeSkipped) {
  QUIVER_CORPUS_OR_SKIP(dir);
  auto path = dir / "parquet-testing/data/alltypes_tiny_pages.parquet";
  auto full = Read(path, {});
  ASSERT_NE(full, nullptr);
  ASSERT_TRUE(full->metadata().row_groups[0].columns[0].meta_data->statistics.has_value());
  DecodeOptions o;
  o.statistics = false;
  auto lean = Read(path, o);
  ASSERT_NE(lean, nullptr);
  for (uint32_t c = 0; c < lean->metadata().row_groups[0].columns.size(); ++c) {
    ColumnChunk a = lean->metadata().row_groups[0].columns[c];
    ColumnChunk b = full->metadata().row_groups[0].columns[c];
    EXPECT_FALSE(a.meta_data->statistics.has_value());
    b.meta_data->statistics.reset();
    b.meta_data->size_statistics.reset();
    b.meta_data->geospatial_statistics.reset();
    EXPECT_TRUE(a == b);
  }
}

TEST(SelectiveDecodeTest, OutOfRangeSelectionsAreInvalid) {
  QUIVER_CORPUS_OR_SKIP(dir);
  auto path = dir / "parquet-testing/data/alltypes_plain.parquet";
  Status st;
  DecodeOptions o;
  o.row_groups = std::vector<int32_t>{5};
  EXPECT_EQ(Read(path, o, &st), nullptr);
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_EQ(st.message(), "footer: row group 5 out of range (the file has 1)");
  DecodeOptions c;
  c.columns = std::vector<int32_t>{11};
  EXPECT_EQ(Read(path, c, &st), nullptr);
  EXPECT_EQ(st.message(), "footer: column 11 out of range (the file has 11)");
  DecodeOptions neg;
  neg.columns = std::vector<int32_t>{-1};
  EXPECT_EQ(Read(path, neg, &st), nullptr);
  EXPECT_EQ(st.message(), "footer: column -1 out of range");
}


// Every decodable corpus footer: three columns (first, middle, last) of every row group, and
// the last row group alone, equal the same chunks of a full decode; with statistics off, equal
// to them without statistics.
TEST(SelectiveDecodeTest, EveryCorpusFooterMatchesFullDecode) {
  QUIVER_CORPUS_OR_SKIP(dir);
  int checked = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir / "parquet-testing", ec)) {
    if (!e.is_regular_file() || e.path().extension() != ".parquet") continue;
    SCOPED_TRACE(e.path().string());
    auto file = io::OpenFile(e.path().string());
    if (!file.ok()) continue;
    auto full_or = ReadFooter(**file);
    if (!full_or.ok()) continue;
    const FileMetaData& fm = (*full_or)->metadata();
    if (fm.row_groups.empty() || fm.row_groups[0].columns.size() < 2) continue;
    const int32_t ncols = static_cast<int32_t>(fm.row_groups[0].columns.size());
    const int32_t nrg = static_cast<int32_t>(fm.row_groups.size());
    std::vector<int32_t> cols = {0, ncols / 2, ncols - 1};
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    for (int variant = 0; variant < 3; ++variant) {
      DecodeOptions o;
      o.columns = cols;
      if (variant == 1) o.row_groups = std::vector<int32_t>{nrg - 1};
      if (variant == 2) o.statistics = false;
      auto sel_or = ReadFooter(**file, o);
      ASSERT_TRUE(sel_or.ok()) << sel_or.status().ToString();
      const FileMetaData& sm = (*sel_or)->metadata();
      EXPECT_TRUE(sm.schema == fm.schema);
      EXPECT_TRUE(sm.column_orders == fm.column_orders);
      EXPECT_TRUE(sm.key_value_metadata == fm.key_value_metadata);
      ASSERT_EQ(sm.row_groups.size(), variant == 1 ? 1u : fm.row_groups.size());
      for (uint32_t r = 0; r < sm.row_groups.size(); ++r) {
        const RowGroup& a = sm.row_groups[r];
        const RowGroup& b = fm.row_groups[(*sel_or)->row_group_indices()[r]];
        EXPECT_EQ(a.num_rows, b.num_rows);
        EXPECT_EQ(a.total_byte_size, b.total_byte_size);
        ASSERT_EQ(a.columns.size(), cols.size());
        for (size_t c = 0; c < cols.size(); ++c) {
          ColumnChunk want = b.columns[static_cast<uint32_t>(cols[c])];
          if (variant == 2 && want.meta_data) {
            want.meta_data->statistics.reset();
            want.meta_data->size_statistics.reset();
            want.meta_data->geospatial_statistics.reset();
          }
          EXPECT_TRUE(a.columns[static_cast<uint32_t>(c)] == want) << "row group " << r << " column " << cols[c];
        }
      }
    }
    ++checked;
  }
  EXPECT_GT(checked, 50);
}

// A small footer built from the model: 3 row groups x 4 INT32 columns with statistics. Chunk
// (row group 1, column 2) carries file_path "MARKER__" and every chunk's statistics max is
// "STATMARK", so tests can find bytes that a selective decode skips.
std::string SmallFooter(Arena* a) {
  FileMetaData md;
  md.version = 2;
  auto* schema = static_cast<SchemaElement*>(a->Allocate(5 * sizeof(SchemaElement), alignof(SchemaElement)));
  static const char* const kNames[] = {"a", "b", "c", "d"};
  new (schema) SchemaElement();
  schema[0].name = "schema";
  schema[0].num_children = 4;
  for (int c = 0; c < 4; ++c) {
    SchemaElement& e = *new (schema + c + 1) SchemaElement();
    e.name = kNames[c];
    e.type = Type::INT32;
    e.repetition_type = FieldRepetitionType::REQUIRED;
  }
  md.schema = List<SchemaElement>(schema, 5);
  md.num_rows = 3;
  auto* rgs = static_cast<RowGroup*>(a->Allocate(3 * sizeof(RowGroup), alignof(RowGroup)));
  for (int r = 0; r < 3; ++r) {
    RowGroup& rg = *new (rgs + r) RowGroup();
    auto* cc = static_cast<ColumnChunk*>(a->Allocate(4 * sizeof(ColumnChunk), alignof(ColumnChunk)));
    for (int c = 0; c < 4; ++c) {
      ColumnChunk& ch = *new (cc + c) ColumnChunk();
      if (r == 1 && c == 2) ch.file_path = "MARKER__";
      ch.file_offset = 4 + 100 * (r * 4 + c);
      ColumnMetaData& m = ch.meta_data.emplace();
      m.type = Type::INT32;
      auto* path = static_cast<std::string_view*>(a->Allocate(sizeof(std::string_view), alignof(std::string_view)));
      *path = kNames[c];
      m.path_in_schema = List<std::string_view>(path, 1);
      m.num_values = 1;
      m.total_compressed_size = m.total_uncompressed_size = 100;
      m.data_page_offset = ch.file_offset;
      Statistics& s = *m.statistics.Emplace(a);
      s.max = "STATMARK";
      s.null_count = 0;
    }
    rg.columns = List<ColumnChunk>(cc, 4);
    rg.num_rows = 1;
    rg.total_byte_size = 400;
  }
  md.row_groups = List<RowGroup>(rgs, 3);
  BufferBuilder out;
  EXPECT_TRUE(EncodeFileMetaData(md, &out).ok());
  auto buf = out.Finish();
  EXPECT_TRUE(buf.ok());
  return std::string(reinterpret_cast<const char*>((*buf)->data()), static_cast<size_t>((*buf)->size()));
}

Status DecodeBytes(const std::string& bytes, const DecodeOptions& o) {
  Arena arena;
  FileMetaData md;
  return DecodeFileMetaData({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, &arena, &md, &o);
}

DecodeOptions FirstColumnOfFirstRowGroup() {
  DecodeOptions o;
  o.row_groups = std::vector<int32_t>{0};
  o.columns = std::vector<int32_t>{0};
  return o;
}

// Bytes that a selective decode does not build are still validated: errors there are Corrupt,
// as they would be in a full decode, and nothing is read past the end (ASan builds check).
TEST(SelectiveDecodeTest, HostileBytesInSkippedPartsAreCorrupt) {
  Arena arena;
  const std::string good = SmallFooter(&arena);
  DecodeOptions no_stats;
  no_stats.statistics = false;
  DecodeOptions schema_only;
  schema_only.row_groups.emplace();
  DecodeOptions selective = FirstColumnOfFirstRowGroup();
  for (const DecodeOptions* o : {&selective, &no_stats, &schema_only}) ASSERT_TRUE(DecodeBytes(good, *o).ok());
  const size_t marker = good.find("MARKER__");
  ASSERT_NE(marker, std::string::npos);
  ASSERT_EQ(good[marker - 2], '\x18');  // file_path: field 1, binary
  ASSERT_EQ(good[marker - 1], 8);

  // An invalid type code in a skipped column chunk.
  std::string bad = good;
  bad[marker - 2] = 0x1d;
  for (const DecodeOptions* o : {&selective, &schema_only}) {
    Status st = DecodeBytes(bad, *o);
    EXPECT_TRUE(st.IsCorrupt()) << st.ToString();
    EXPECT_NE(st.message().find("invalid compact type code 13"), std::string::npos) << st.message();
  }
  // A binary length past the end ("\xff" followed by 'M' is the varint 9983).
  bad = good;
  bad[marker - 1] = static_cast<char>(0xff);
  for (const DecodeOptions* o : {&selective, &schema_only}) {
    Status st = DecodeBytes(bad, *o);
    EXPECT_TRUE(st.IsCorrupt()) << st.ToString();
    EXPECT_NE(st.message().find("binary length 9983 exceeds"), std::string::npos) << st.message();
  }
  // A varint longer than 10 bytes in a skipped chunk (file_path becomes an i64 field).
  bad = good;
  bad[marker - 2] = 0x16;
  std::fill(bad.begin() + static_cast<std::ptrdiff_t>(marker - 1), bad.begin() + static_cast<std::ptrdiff_t>(marker + 8),
            static_cast<char>(0x80));
  bad[marker + 8] = static_cast<char>(0xff);
  bad[marker + 9] = static_cast<char>(0xff);
  for (const DecodeOptions* o : {&selective, &schema_only}) {
    Status st = DecodeBytes(bad, *o);
    EXPECT_TRUE(st.IsCorrupt()) << st.ToString();
    EXPECT_NE(st.message().find("malformed varint"), std::string::npos) << st.message();
  }
  // Nesting deeper than the limit inside a skipped chunk: an unknown struct field (long-form
  // id 100) holding 200 nested structs, placed before file_path.
  std::string deep = good.substr(0, marker - 2) + "\x0c\xc8\x01" + std::string(200, '\x1c') + std::string(201, '\0') +
                     good.substr(marker - 2);
  for (const DecodeOptions* o : {&selective, &schema_only}) {
    Status st = DecodeBytes(deep, *o);
    EXPECT_TRUE(st.IsCorrupt()) << st.ToString();
    EXPECT_NE(st.message().find("nesting deeper than 64"), std::string::npos) << st.message();
  }
  // Skipped statistics: an invalid type code inside the first chunk's Statistics.
  const size_t stat = good.find("STATMARK");
  ASSERT_EQ(good[stat - 2], '\x18');
  bad = good;
  bad[stat - 2] = 0x1e;
  Status st = DecodeBytes(bad, no_stats);
  EXPECT_TRUE(st.IsCorrupt()) << st.ToString();
  EXPECT_NE(st.message().find("invalid compact type code 14"), std::string::npos) << st.message();
  // A list count larger than the bytes left in a skipped Statistics (max becomes a list of
  // 2^31-1 i32 elements).
  bad = good;
  bad[stat - 2] = 0x19;
  bad[stat - 1] = static_cast<char>(0xf5);
  bad.replace(stat, 5, "\xff\xff\xff\xff\x07");
  st = DecodeBytes(bad, no_stats);
  EXPECT_TRUE(st.IsCorrupt()) << st.ToString();
  EXPECT_NE(st.message().find("element count 2147483647 exceeds"), std::string::npos) << st.message();
}

// Every strict prefix of a footer fails as Corrupt under every selection (the skipper stops at
// the end instead of reading on), and every single-byte change either decodes or is an error.
TEST(SelectiveDecodeTest, TruncationsAndByteChangesNeverCrash) {
  Arena arena;
  const std::string good = SmallFooter(&arena);
  DecodeOptions no_stats;
  no_stats.statistics = false;
  DecodeOptions schema_only;
  schema_only.row_groups.emplace();
  DecodeOptions last;
  last.row_groups = std::vector<int32_t>{2};
  last.columns = std::vector<int32_t>{3};
  DecodeOptions first = FirstColumnOfFirstRowGroup();
  for (const DecodeOptions* o : {&first, &last, &no_stats, &schema_only}) {
    for (size_t n = 0; n < good.size(); ++n) {
      // A copy of exactly n bytes, so that ASan sees any read past the prefix.
      std::string prefix = good.substr(0, n);
      Status st = DecodeBytes(prefix, *o);
      ASSERT_TRUE(st.IsCorrupt()) << n << ": " << st.ToString();
    }
    for (size_t i = 0; i < good.size(); ++i) {
      for (uint8_t v : {0x00, 0x0f, 0x7f, 0x80, 0xff}) {
        std::string bad = good;
        bad[i] = static_cast<char>(v);
        Status st = DecodeBytes(bad, *o);
        EXPECT_TRUE(st.ok() || st.IsCorrupt() || st.IsInvalid()) << i << ": " << st.ToString();
      }
    }
  }
}

}  // namespace
}  // namespace quiver::parquet

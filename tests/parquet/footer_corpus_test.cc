// Every footer of the parquet-testing corpus decodes and agrees with EXPECTED.tsv (DuckDB's
// reading): row counts, row groups, top-level columns and their types, leaf paths and
// physical types of every column chunk; bad files fail cleanly.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <set>

#include "parquet/corpus_util.h"
#include "quiver/io/file.h"
#include "quiver/parquet/footer.h"
#include "quiver/parquet/schema.h"
#include "testing/corpus.h"

namespace quiver::parquet {
namespace {

using testing::ExpectedRow;

// The DuckDB type name quiver's mapping corresponds to (DuckDB reads Parquet through the
// same logical-type rules), so EXPECTED.tsv's column types check the whole type mapping.
std::string DuckDbName(const DataType& t);

std::string DuckDbField(const Field& f) {
  std::string name = f.name;
  bool plain = !name.empty();
  for (char c : name) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (!plain) name = "\"" + name + "\"";
  return name + " " + DuckDbName(*f.type);
}

std::string DuckDbName(const DataType& t) {
  switch (t.id()) {
    case TypeId::kBool: return "BOOLEAN";
    case TypeId::kInt8: return "TINYINT";
    case TypeId::kInt16: return "SMALLINT";
    case TypeId::kInt32: return "INTEGER";
    case TypeId::kInt64: return "BIGINT";
    case TypeId::kUInt8: return "UTINYINT";
    case TypeId::kUInt16: return "USMALLINT";
    case TypeId::kUInt32: return "UINTEGER";
    case TypeId::kUInt64: return "UBIGINT";
    case TypeId::kFloat16: return "FLOAT";
    case TypeId::kFloat32: return "FLOAT";
    case TypeId::kFloat64: return "DOUBLE";
    case TypeId::kDecimal128: return fmt::format("DECIMAL({},{})", t.precision(), t.scale());
    case TypeId::kDate32: return "DATE";
    case TypeId::kTime32:
    case TypeId::kTime64: return "TIME";
    case TypeId::kTimestamp:
      if (!t.timezone().empty()) return "TIMESTAMP WITH TIME ZONE";
      if (t.unit() == quiver::TimeUnit::kNano) return "TIMESTAMP_NS";
      return "TIMESTAMP";
    case TypeId::kString: return "VARCHAR";
    case TypeId::kBinary:
    case TypeId::kFixedSizeBinary: return "BLOB";
    case TypeId::kList: return DuckDbName(*t.field(0).type) + "[]";
    case TypeId::kStruct: {
      std::string s = "STRUCT(";
      for (int i = 0; i < t.num_fields(); ++i) s += (i ? ", " : "") + DuckDbField(t.field(i));
      return s + ")";
    }
    case TypeId::kMap: {
      const DataType& entries = *t.field(0).type;
      return "MAP(" + DuckDbName(*entries.field(0).type) + ", " + DuckDbName(*entries.field(1).type) + ")";
    }
    case TypeId::kDenseUnion: break;  // no Parquet form
  }
  return "?";
}

// Where DuckDB's reading differs from quiver's mapping on purpose. DuckDB maps TIME with
// isAdjustedToUTC to "TIME WITH TIME ZONE" (quiver's time types carry no zone), GEOMETRY/GEOGRAPHY to GEOMETRY (quiver: the WKB bytes),
// VARIANT groups to VARIANT (quiver: the struct of metadata/value), and legacy converted
// TIMESTAMP_* to a zone-less TIMESTAMP (quiver follows LogicalTypes.md: adjusted to UTC).
bool KnownDifference(std::string mine, std::string duck) {
  auto replace_all = [](std::string& s, const std::string& from, const std::string& to) {
    for (size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
  };
  if (duck.rfind("GEOMETRY", 0) == 0) return mine == "BLOB";
  if (duck == "VARIANT") return mine.rfind("STRUCT(metadata BLOB", 0) == 0;
  replace_all(duck, "TIME WITH TIME ZONE", "TIME");
  if (duck.find("TIMESTAMP_NS") == std::string::npos) replace_all(mine, "TIMESTAMP_NS", "TIMESTAMP");
  if (mine == duck) return true;
  replace_all(mine, "TIMESTAMP WITH TIME ZONE", "TIMESTAMP");
  return mine == duck;
}

class FooterCorpusTest : public ::testing::Test {};

TEST_F(FooterCorpusTest, EveryExpectedFileMatches) {
  QUIVER_CORPUS_OR_SKIP(dir);
  const auto root = dir / "parquet-testing";
  auto rows = testing::ReadExpected(root / "EXPECTED.tsv");
  ASSERT_GE(rows.size(), 230u);
  int decoded = 0, encrypted = 0, typed_exact = 0, typed_known = 0;
  for (const ExpectedRow& row : rows) {
    SCOPED_TRACE(row.file);
    const auto path = root / row.file;
    auto file = io::OpenFile(path.string());
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    auto footer = ReadFooter(**file);
    if (testing::EndsWithMagic(path, "PARE")) {
      ASSERT_FALSE(footer.ok());
      EXPECT_TRUE(footer.status().IsInvalid());
      EXPECT_NE(footer.status().message().find("the footer is encrypted with"), std::string::npos)
          << footer.status().message();
      ++encrypted;
      continue;
    }
    if (row.file == "bad_data/PARQUET-1481.parquet") {
      // The footer decodes; its one leaf has physical type -7, which the schema rejects.
      ASSERT_TRUE(footer.ok()) << footer.status().ToString();
      auto tree = SchemaTree::Make((*footer)->metadata().schema);
      ASSERT_FALSE(tree.ok());
      EXPECT_EQ(tree.status().message(), "schema element 'Handle' has unknown physical type -7");
      continue;
    }
    ASSERT_TRUE(footer.ok()) << footer.status().ToString();
    const FileMetaData& md = (*footer)->metadata();
    auto tree = SchemaTree::Make(md.schema);
    ASSERT_TRUE(tree.ok()) << tree.status().ToString();
    ++decoded;
    if (!row.footer_rows.empty()) {
      EXPECT_EQ(md.num_rows, std::stoll(row.footer_rows));
      EXPECT_EQ(md.row_groups.size(), std::stoul(row.row_groups));
    }
    if (!row.created_by.empty()) {
      EXPECT_EQ(md.created_by.value_or(""), row.created_by);
    }
    int64_t sum = 0;
    for (const RowGroup& rg : md.row_groups) {
      sum += rg.num_rows;
      ASSERT_EQ(rg.columns.size(), static_cast<uint32_t>(tree->num_columns()));
      for (uint32_t c = 0; c < rg.columns.size(); ++c) {
        const ColumnChunk& cc = rg.columns[c];
        const ColumnDescriptor& col = tree->columns()[c];
        if (!cc.meta_data) {
          // Encrypted column metadata (plaintext footer with per-column keys).
          EXPECT_TRUE(cc.encrypted_column_metadata.has_value());
          continue;
        }
        // ARROW-GH-41317 is a reproducer with flipped bits in its footer's path_in_schema.
        if (row.file == "bad_data/ARROW-GH-41317.parquet") continue;
        EXPECT_EQ(cc.meta_data->type, col.physical_type) << col.dotted_path();
        ASSERT_EQ(cc.meta_data->path_in_schema.size(), col.path.size());
        for (size_t k = 0; k < col.path.size(); ++k) EXPECT_EQ(cc.meta_data->path_in_schema[k], col.path[k]);
      }
    }
    // repeated_no_annotation.parquet: the footer says 0 rows, its row group holds 6.
    if (row.file != "data/repeated_no_annotation.parquet") {
      EXPECT_EQ(sum, md.num_rows);
    }
    if (row.columns.empty()) continue;
    auto expected_cols = testing::SplitColumns(row.columns);
    const auto& top = tree->root().children;
    ASSERT_EQ(top.size(), expected_cols.size()) << row.columns;
    auto fields = tree->ToFields();
    ASSERT_TRUE(fields.ok()) << fields.status().ToString();
    for (size_t i = 0; i < top.size(); ++i) {
      std::string name(tree->node(top[i]).name);
      const std::string& entry = expected_cols[i];
      ASSERT_EQ(entry.substr(0, name.size() + 1), name + ":") << entry;
      std::string duck = entry.substr(name.size() + 1);
      std::string mine = DuckDbName(*(*fields)[i].type);
      if (mine == duck) {
        ++typed_exact;
      } else {
        EXPECT_TRUE(KnownDifference(mine, duck)) << "column " << name << ": quiver " << mine << ", DuckDB " << duck;
        ++typed_known;
        if (getenv("SHOW_DIFF")) std::printf("DIFF %s %s: %s | %s\n", row.file.c_str(), name.c_str(), mine.c_str(), duck.c_str());
      }
    }
  }
  EXPECT_EQ(encrypted, 11);
  std::printf("decoded %d footers, %d encrypted rejected, %d column types equal to DuckDB's, %d known differences\n",
              decoded, encrypted, typed_exact, typed_known);
}

// Every file on disk (not only those in EXPECTED.tsv) either decodes or fails with a clean
// Corrupt/NotImplemented status.
TEST_F(FooterCorpusTest, EveryFileOnDiskDecodesOrFailsCleanly) {
  QUIVER_CORPUS_OR_SKIP(dir);
  int n = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir / "parquet-testing")) {
    if (!entry.is_regular_file()) continue;
    std::string name = entry.path().filename().string();
    if (!name.ends_with(".parquet") && !name.ends_with(".parquet.encrypted")) continue;
    SCOPED_TRACE(entry.path().string());
    auto file = io::OpenFile(entry.path().string());
    ASSERT_TRUE(file.ok());
    auto footer = ReadFooter(**file);
    ++n;
    if (!footer.ok()) {
      EXPECT_TRUE(footer.status().IsNotImplemented() || footer.status().IsCorrupt() ||
                  (name.ends_with(".encrypted") && footer.status().IsInvalid())) << footer.status().ToString();
      continue;
    }
    auto tree = SchemaTree::Make((*footer)->metadata().schema);
    if (tree.ok()) {
      auto fields = tree->ToFields();
      EXPECT_TRUE(fields.ok() || fields.status().IsCorrupt()) << fields.status().ToString();
    } else {
      EXPECT_TRUE(tree.status().IsCorrupt());
    }
  }
  EXPECT_GE(n, 233);
}

TEST_F(FooterCorpusTest, FooterLevelErrorsHaveExactMessages) {
  // Built in memory from a real footer so every check of ReadFooter is reached.
  QUIVER_CORPUS_OR_SKIP(dir);
  auto file = io::OpenFile((dir / "parquet-testing/data/alltypes_plain.parquet").string());
  ASSERT_TRUE(file.ok());
  auto whole = (*file)->ReadAt(0, (*file)->size());
  ASSERT_TRUE(whole.ok());
  std::string bytes((*whole)->view());
  auto read = [](std::string b) {
    auto buf = Buffer::CopyOf(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(b.data()), b.size()));
    auto src = io::MemorySource(*buf, "x.parquet");
    return ReadFooter(*src).status();
  };
  EXPECT_TRUE(read(bytes).ok());
  std::string bad = bytes;
  std::memset(bad.data() + bad.size() - 8, 0xff, 4);
  EXPECT_EQ(read(bad).message(), fmt::format("footer length 4294967295 exceeds file size {}", bytes.size()));
  bad = bytes;
  uint32_t fits = static_cast<uint32_t>(bytes.size() - 10);
  std::memcpy(bad.data() + bad.size() - 8, &fits, 4);
  EXPECT_EQ(read(bad).message(), fmt::format("footer length {} does not fit in a file of {} bytes with its magic and length",
                                             fits, bytes.size()));
  bad = bytes;
  bad[bad.size() - 1] = 'X';
  EXPECT_EQ(read(bad).message(), "not a Parquet file: it does not end with the magic bytes PAR1");
  bad = bytes;
  bad[0] = 'X';
  EXPECT_EQ(read(bad).message(), "not a Parquet file: it does not start with the magic bytes PAR1");
  EXPECT_EQ(read("PAR1PAR1").message(), "file size 8 is too small for a Parquet file (at least 12 bytes)");
  bad = bytes;
  bad[bad.size() - 1] = 'E';
  Status st = read(bad);
  EXPECT_TRUE(st.IsCorrupt());
  EXPECT_EQ(st.message(), "not a Parquet file: it ends with the magic bytes PARE but does not start with them");
  // A footer cut short: the length says fewer bytes than the struct needs.
  bad = bytes;
  uint32_t len;
  std::memcpy(&len, bytes.data() + bytes.size() - 8, 4);
  uint32_t shorter = len - 10;
  bad.erase(bad.size() - 8 - 10, 10);  // drop the footer's last 10 bytes
  std::memcpy(bad.data() + bad.size() - 8, &shorter, 4);
  st = read(bad);
  EXPECT_TRUE(st.IsCorrupt());
  EXPECT_EQ(st.message().rfind("footer: ", 0), 0u) << st.message();
}

TEST_F(FooterCorpusTest, EncryptedFooterNamesAlgorithm) {
  QUIVER_CORPUS_OR_SKIP(dir);
  auto file = io::OpenFile((dir / "parquet-testing/data/encrypt_columns_and_footer_ctr.parquet.encrypted").string());
  ASSERT_TRUE(file.ok());
  auto footer = ReadFooter(**file);
  ASSERT_FALSE(footer.ok());
  EXPECT_EQ(footer.status().message(),
            "encrypted Parquet file: the footer is encrypted with AES_GCM_CTR_V1 and no footer key was given (its key "
            "metadata: \"kf\")");
}

TEST_F(FooterCorpusTest, PlaintextFooterOfEncryptedFileDecodes) {
  QUIVER_CORPUS_OR_SKIP(dir);
  auto file = io::OpenFile((dir / "parquet-testing/data/encrypt_columns_plaintext_footer.parquet.encrypted").string());
  ASSERT_TRUE(file.ok());
  auto footer = ReadFooter(**file);
  ASSERT_TRUE(footer.ok()) << footer.status().ToString();
  const FileMetaData& md = (*footer)->metadata();
  ASSERT_TRUE(md.encryption_algorithm.has_value());
  EXPECT_TRUE(md.encryption_algorithm->AES_GCM_V1.has_value());
  // The signature (nonce + tag) follows the struct inside the footer.
  EXPECT_EQ((*footer)->trailing_bytes(), 28);
}

}  // namespace
}  // namespace quiver::parquet

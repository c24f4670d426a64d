// Parquet modular encryption: parquet-testing's encrypted files read to the values their writer
// generated (every configuration: encrypted and plaintext footers, GCM and GCM-CTR, column keys,
// stored and supplied AAD prefixes, AES-128 and AES-256), keys given directly or through a
// KeyRetriever; missing, wrong and mistyped keys, tampered modules of every kind and truncated
// files each give their exact error.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <charconv>
#include <cstring>
#include <fstream>

#include "quiver/columnar/pretty_print.h"
#include "quiver/io/file.h"
#include "quiver/parquet/crypto_internal.h"
#include "quiver/parquet/encryption.h"
#include "quiver/parquet/footer.h"
#include "quiver/parquet/reader/file_reader.h"
#include "testing/corpus.h"
#include "testing/scratch_dir.h"

namespace quiver::parquet {
namespace {

namespace fs = std::filesystem;

constexpr const char* kFooterKey = "0123456789012345";
constexpr const char* kColumnKey1 = "1234567890123450";  // double_field
constexpr const char* kColumnKey2 = "1234567890123451";  // float_field

DecryptionOptions Keys128(bool aad = false) {
  DecryptionOptions d;
  d.footer_key = SecretKey(kFooterKey);
  d.column_keys["double_field"] = SecretKey(kColumnKey1);
  d.column_keys["float_field"] = SecretKey(kColumnKey2);
  if (aad) d.aad_prefix = "tester";
  return d;
}

// data/aes256: a 32-byte footer key and one key per column.
DecryptionOptions Keys256(bool aad = false) {
  DecryptionOptions d;
  d.footer_key = SecretKey("01234567890123456789012345678901");
  const char* cols[] = {"double_field", "float_field", "boolean_field", "int32_field",
                        "ba_field",     "flba_field",  "int64_field",   "int96_field"};
  for (int i = 0; i < 8; ++i) d.column_keys[cols[i]] = SecretKey(fmt::format("123456789012345678901234567890{}", 12 + i));
  if (aad) d.aad_prefix = "tester";
  return d;
}

// Every value of the file, a row a line, cells as the pretty printer shows them.
Result<std::vector<std::string>> ReadRows(const std::shared_ptr<io::RandomAccessFile>& file, DecryptionOptions keys,
                                          std::vector<int> columns = {}) {
  ParquetReaderOptions o;
  o.decryption = std::move(keys);
  QUIVER_ASSIGN_OR_RETURN(auto r, ParquetFileReader::Open(file, o));
  QUIVER_ASSIGN_OR_RETURN(auto batches, r->ReadRowGroups({}, columns));
  std::vector<std::string> rows;
  for (const auto& b : batches) {
    for (int64_t i = 0; i < b->num_rows(); ++i) {
      std::string row;
      for (int c = 0; c < b->num_columns(); ++c) {
        if (c > 0) row += '|';
        row += b->column(c).IsNull(i) ? "null" : FormatValue(b->column(c), i);
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

Result<std::vector<std::string>> ReadRows(const fs::path& path, DecryptionOptions keys, std::vector<int> columns = {}) {
  QUIVER_ASSIGN_OR_RETURN(auto file, io::OpenFile(path.string()));
  return ReadRows(file, std::move(keys), std::move(columns));
}

std::string Shortest(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}
std::string Shortest(float v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}
std::string Hex(std::string_view s) {
  std::string out = "0x";
  for (unsigned char c : s) out += fmt::format("{:02x}", c);
  return out;
}

// The 50 rows the files' writer generated (the parquet-testing README's source: Arrow's
// encryption test data), but the INT96 column, which the files are compared on among themselves.
std::string ExpectedRow(int i) {
  const std::string time = i == 0 ? "00:00:00" : fmt::format("00:00:00.{:03d}", i);
  const int64_t t = 1000000000000;
  const std::string ba = i % 2 == 0 ? Hex(fmt::format("parquet{:03d}", i)) : "null";
  return fmt::format("{}|{}|[{}, {}]|{}|{}|{}|{}", i % 2 == 0 ? "true" : "false", time, 2 * i * t, (2 * i + 1) * t,
                     Shortest(static_cast<float>(i) * 1.1f), Shortest(i * 1.1111111), ba,
                     Hex(std::string(10, static_cast<char>(i))));
}

// A row without its fourth (INT96) cell.
std::string WithoutInt96(const std::string& row) {
  size_t a = 0;
  for (int k = 0; k < 3; ++k) a = row.find('|', a) + 1;
  const size_t b = row.find('|', a);
  return row.substr(0, a) + row.substr(b + 1);
}

class EncryptionCorpusTest : public ::testing::Test {};

TEST_F(EncryptionCorpusTest, EveryEncryptedFileReadsToItsGeneratedValues) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path data = root / "parquet-testing" / "data";
  struct Case {
    const char* file;
    DecryptionOptions keys;
  };
  std::vector<Case> cases;
  cases.push_back({"uniform_encryption.parquet.encrypted", Keys128()});
  cases.push_back({"encrypt_columns_and_footer.parquet.encrypted", Keys128()});
  cases.push_back({"encrypt_columns_and_footer_aad.parquet.encrypted", Keys128(true)});
  cases.push_back({"encrypt_columns_and_footer_ctr.parquet.encrypted", Keys128()});
  cases.push_back({"encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted", Keys128(true)});
  cases.push_back({"encrypt_columns_plaintext_footer.parquet.encrypted", Keys128()});
  cases.push_back({"aes256/uniform_encryption.parquet.encrypted", Keys256()});
  cases.push_back({"aes256/encrypt_columns_and_footer.parquet.encrypted", Keys256()});
  cases.push_back({"aes256/encrypt_columns_and_footer_ctr.parquet.encrypted", Keys256()});
  cases.push_back({"aes256/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted", Keys256(true)});
  cases.push_back({"aes256/encrypt_columns_plaintext_footer.parquet.encrypted", Keys256()});
  std::vector<std::string> first;
  for (Case& c : cases) {
    SCOPED_TRACE(c.file);
    auto rows = ReadRows(data / c.file, std::move(c.keys));
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    ASSERT_EQ(rows->size(), 50u);
    for (int i = 0; i < 50; ++i) EXPECT_EQ(WithoutInt96((*rows)[static_cast<size_t>(i)]), ExpectedRow(i)) << "row " << i;
    if (first.empty()) first = *rows;
    EXPECT_EQ(*rows, first);  // the INT96 cells too
  }
}

TEST_F(EncryptionCorpusTest, KeysThroughAKeyRetriever) {
  QUIVER_CORPUS_OR_SKIP(root);
  auto retriever = std::make_shared<KeyMapRetriever>();
  retriever->Add("kf", SecretKey(kFooterKey));
  retriever->Add("kc1", SecretKey(kColumnKey1));
  retriever->Add("kc2", SecretKey(kColumnKey2));
  for (const char* f : {"encrypt_columns_and_footer.parquet.encrypted", "encrypt_columns_plaintext_footer.parquet.encrypted",
                        "encrypt_columns_and_footer_ctr.parquet.encrypted"}) {
    SCOPED_TRACE(f);
    DecryptionOptions d;
    d.key_retriever = retriever;
    auto rows = ReadRows(root / "parquet-testing" / "data" / f, std::move(d));
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    ASSERT_EQ(rows->size(), 50u);
    EXPECT_EQ(WithoutInt96((*rows)[7]), ExpectedRow(7));
  }
}

TEST_F(EncryptionCorpusTest, BloomFilterFileValuesAndEncryptedFilters) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path path = root / "parquet-testing" / "data" / "encrypt_columns_and_footer_bloom_filter.parquet.encrypted";
  auto rows = ReadRows(path, Keys128());
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), 2000u);
  for (int i = 0; i < 2000; ++i) {
    EXPECT_EQ((*rows)[static_cast<size_t>(i)], fmt::format("{}.5|{}.25|{}|name_{}", i, i, i, i));
  }
  ParquetReaderOptions o;
  o.decryption = Keys128();
  auto r = ParquetFileReader::Open(path.string(), o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // double_field's filter is encrypted with its column key: header and bitset modules.
  ASSERT_TRUE((*r)->metadata().row_groups[0].columns[0].crypto_metadata);
  ASSERT_TRUE((*r)->metadata().row_groups[0].columns[0].meta_data->bloom_filter_offset);
  int absent = 0;
  for (int g = 0; g < (*r)->num_row_groups(); ++g) {
    auto present = (*r)->BindPredicate("double_field", CompareOp::kEq, Literal::Float(1.5));
    ASSERT_TRUE(present.ok()) << present.status().ToString();
    if (g == 0) {
      auto may = (*r)->BloomMayMatch(*present, g);
      ASSERT_TRUE(may.ok()) << may.status().ToString();
      EXPECT_TRUE(*may);
    }
    for (double v : {0.7, 3.1, 17.9, 1e9, -5.0}) {
      auto p = (*r)->BindPredicate("double_field", CompareOp::kEq, Literal::Float(v));
      auto may = (*r)->BloomMayMatch(*p, g);
      ASSERT_TRUE(may.ok()) << may.status().ToString();
      absent += !*may;
    }
  }
  EXPECT_GT(absent, 0);
}

TEST_F(EncryptionCorpusTest, PageIndexOfEncryptedColumnsIsDecrypted) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path path = root / "parquet-testing" / "data" / "encrypt_columns_and_footer.parquet.encrypted";
  ParquetReaderOptions o;
  o.decryption = Keys128();
  auto r = ParquetFileReader::Open(path.string(), o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  const ColumnChunk& cc = (*r)->metadata().row_groups[0].columns[5];  // double_field
  ASSERT_TRUE(cc.crypto_metadata);
  ASSERT_TRUE(cc.column_index_offset);
  auto p = (*r)->BindPredicate("double_field", CompareOp::kGt, Literal::Float(1e9));
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  // Both indexes decrypt and decode (their plaintext bytes would not parse: the flipped-byte
  // test below shows their tags are checked), and they describe the chunk's one page.
  int64_t pages = -1, out = -1;
  auto sel = (*r)->PageRowsMayMatch(*p, 0, &pages, &out);
  ASSERT_TRUE(sel.ok()) << sel.status().ToString();
  EXPECT_EQ(pages, 1);
}

TEST_F(EncryptionCorpusTest, MissingKeys) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path data = root / "parquet-testing" / "data";
  // An encrypted footer: nothing without the footer key.
  auto none = ReadRows(data / "encrypt_columns_and_footer.parquet.encrypted", {});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().message(), (data / "encrypt_columns_and_footer.parquet.encrypted").string() +
                                         ": encrypted Parquet file: the footer is encrypted with AES_GCM_V1 and no "
                                         "footer key was given (its key metadata: \"kf\")");
  // A plaintext footer: the plaintext columns read without keys, the encrypted ones are named.
  const fs::path plain = data / "encrypt_columns_plaintext_footer.parquet.encrypted";
  auto some = ReadRows(plain, {}, {0, 1, 2, 3, 6, 7});
  ASSERT_TRUE(some.ok()) << some.status().ToString();
  ASSERT_EQ(some->size(), 50u);
  EXPECT_EQ((*some)[3].substr(0, 19), "false|00:00:00.003|");
  auto all = ReadRows(plain, {});
  ASSERT_FALSE(all.ok());
  EXPECT_EQ(all.status().message(),
            plain.string() + ": columns 'float_field', 'double_field' are encrypted and their keys were not given");
  DecryptionOptions one;
  one.column_keys["double_field"] = SecretKey(kColumnKey1);
  auto all_but_one = ReadRows(plain, std::move(one));
  ASSERT_FALSE(all_but_one.ok());
  EXPECT_EQ(all_but_one.status().message(),
            plain.string() + ": column 'float_field' is encrypted and its key was not given");
  // A stored AAD prefix is required when the file does not store it.
  auto no_aad = ReadRows(data / "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted", Keys128());
  ASSERT_FALSE(no_aad.ok());
  EXPECT_NE(no_aad.status().message().find(
                ": the file's AAD prefix is not stored in it and was not given; it is needed to read the file"),
            std::string::npos)
      << no_aad.status().message();
  // A given prefix that differs from the stored one.
  DecryptionOptions other = Keys128();
  other.aad_prefix = "other";
  auto wrong_aad = ReadRows(data / "encrypt_columns_and_footer_aad.parquet.encrypted", std::move(other));
  ASSERT_FALSE(wrong_aad.ok());
  EXPECT_NE(wrong_aad.status().message().find(": the AAD prefix given differs from the one stored in the file"),
            std::string::npos);
}

TEST_F(EncryptionCorpusTest, WrongKeys) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path data = root / "parquet-testing" / "data";
  const fs::path f = data / "encrypt_columns_and_footer.parquet.encrypted";
  DecryptionOptions wrong_footer = Keys128();
  wrong_footer.footer_key = SecretKey("0123456789012346");
  auto a = ReadRows(f, std::move(wrong_footer));
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().message(), f.string() + ": footer: AES-GCM authentication failed (a wrong key or AAD prefix, or "
                                               "the bytes were altered)");
  DecryptionOptions wrong_column = Keys128();
  wrong_column.column_keys["double_field"] = SecretKey("1234567890123459");
  auto b = ReadRows(f, std::move(wrong_column));
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().message(), f.string() + ": row group 0, column 'double_field': column chunk metadata: AES-GCM "
                                               "authentication failed (a wrong key or AAD prefix, or the bytes were "
                                               "altered)");
  const fs::path p = data / "encrypt_columns_plaintext_footer.parquet.encrypted";
  DecryptionOptions wrong_signer = Keys128();
  wrong_signer.footer_key = SecretKey("0123456789012346");
  auto c = ReadRows(p, std::move(wrong_signer));
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message(), p.string() + ": footer: signature check failed (a wrong footer key or AAD prefix, or "
                                               "the footer was altered)");
  // A key of the wrong length for AES.
  DecryptionOptions short_key = Keys128();
  short_key.footer_key = SecretKey("0123456789");
  auto d = ReadRows(f, std::move(short_key));
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().message(), f.string() + ": an AES key is 16, 24 or 32 bytes, this one 10");
}

// The bytes of a file with one byte flipped (or cut short), as a source in memory.
std::shared_ptr<io::RandomAccessFile> Altered(const std::string& bytes, int64_t flip, int64_t keep = -1) {
  std::string b = bytes;
  if (flip >= 0) b[static_cast<size_t>(flip)] ^= 0x01;
  if (keep >= 0) b.resize(static_cast<size_t>(keep));
  auto buf = Buffer::Allocate(static_cast<int64_t>(b.size()));
  std::memcpy((*buf)->mutable_data(), b.data(), b.size());
  return io::MemorySource(std::move(*buf), "f");
}

std::string Slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

uint32_t ModuleLen(const std::string& bytes, int64_t at) {
  uint32_t len;
  std::memcpy(&len, bytes.data() + at, 4);
  return len;
}

TEST_F(EncryptionCorpusTest, FlippedByteInEveryModuleKind) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path data = root / "parquet-testing" / "data";
  const std::string gcm = " AES-GCM authentication failed (a wrong key or AAD prefix, or the bytes were altered)";
  // The layout, from the file read with its keys.
  const std::string bytes = Slurp(data / "encrypt_columns_and_footer.parquet.encrypted");
  ParquetReaderOptions o;
  auto good = Altered(bytes, -1);
  o.decryption = Keys128();
  auto reader = ParquetFileReader::Open(good, o);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const ColumnChunk& cc = (*reader)->metadata().row_groups[0].columns[5];  // double_field, its own key
  ASSERT_TRUE(cc.meta_data);
  const ColumnMetaData& md = *cc.meta_data;
  ASSERT_TRUE(md.dictionary_page_offset);
  const int64_t dict_header = *md.dictionary_page_offset;
  const int64_t dict_body = dict_header + 4 + ModuleLen(bytes, dict_header);
  const int64_t data_header = md.data_page_offset;
  const int64_t data_body = data_header + 4 + ModuleLen(bytes, data_header);
  struct Flip {
    int64_t at;
    std::string message;
    bool open_fails;
  };
  const std::string col = "f: row group 0, column 'double_field': ";
  std::vector<Flip> flips = {
      {dict_header + 20, col + "page 0: dictionary page header:" + gcm, false},
      {dict_body + 20, col + "page 0: dictionary page:" + gcm, false},
      {data_header + 20, col + "page 1: data page header:" + gcm, false},
      {data_body + 20, col + "page 1: data page:" + gcm, false},
      {static_cast<int64_t>(bytes.size()) - 30, "f: footer:" + gcm, true},
  };
  for (const Flip& f : flips) {
    SCOPED_TRACE(f.message);
    auto rows = ReadRows(Altered(bytes, f.at), Keys128());
    ASSERT_FALSE(rows.ok());
    EXPECT_EQ(rows.status().message(), f.message);
  }
  // The page index modules.
  ASSERT_TRUE(cc.column_index_offset && cc.offset_index_offset);
  for (auto [at, what] : {std::pair<int64_t, const char*>{*cc.column_index_offset + 20, "column index"},
                          {*cc.offset_index_offset + 20, "offset index"}}) {
    SCOPED_TRACE(what);
    o.decryption = Keys128();
    auto rd = ParquetFileReader::Open(Altered(bytes, at), o);
    ASSERT_TRUE(rd.ok()) << rd.status().ToString();
    auto p = (*rd)->BindPredicate("double_field", CompareOp::kGt, Literal::Float(1.0));
    auto sel = (*rd)->PageRowsMayMatch(*p, 0);
    ASSERT_FALSE(sel.ok());
    EXPECT_EQ(sel.status().message(), std::string("f: row group 0, column 'double_field': ") + what + ":" + gcm);
  }
  // Column metadata (inside a plaintext footer, read without the footer key so the signature
  // is not what fails) and the bloom filter modules.
  const std::string plain = Slurp(data / "encrypt_columns_plaintext_footer.parquet.encrypted");
  {
    o.decryption = Keys128();
    auto rd = ParquetFileReader::Open(Altered(plain, -1), o);
    ASSERT_TRUE(rd.ok()) << rd.status().ToString();
    const ColumnChunk& pc = (*rd)->metadata().row_groups[0].columns[5];
    ASSERT_TRUE(pc.encrypted_column_metadata);
    const std::string_view enc = *pc.encrypted_column_metadata;
    const size_t at = plain.find(std::string(enc.substr(0, 16)));
    ASSERT_NE(at, std::string::npos);
    DecryptionOptions no_footer = Keys128();
    no_footer.footer_key = SecretKey();
    auto rows = ReadRows(Altered(plain, static_cast<int64_t>(at) + 20), std::move(no_footer));
    ASSERT_FALSE(rows.ok());
    EXPECT_EQ(rows.status().message(), "f: row group 0, column 'double_field': column chunk metadata:" + gcm);
    // With the footer key, the signature catches the same flip first.
    auto signed_rows = ReadRows(Altered(plain, static_cast<int64_t>(at) + 20), Keys128());
    ASSERT_FALSE(signed_rows.ok());
    EXPECT_EQ(signed_rows.status().message(),
              "f: footer: signature check failed (a wrong footer key or AAD prefix, or the footer was altered)");
  }
  const std::string bloom = Slurp(data / "encrypt_columns_and_footer_bloom_filter.parquet.encrypted");
  o.decryption = Keys128();
  auto br = ParquetFileReader::Open(Altered(bloom, -1), o);
  ASSERT_TRUE(br.ok()) << br.status().ToString();
  const int64_t bf = *(*br)->metadata().row_groups[0].columns[0].meta_data->bloom_filter_offset;
  const int64_t bitset = bf + 4 + ModuleLen(bloom, bf);
  for (auto [at, what] : {std::pair<int64_t, const char*>{bf + 20, "bloom filter header"}, {bitset + 20, "bloom filter bitset"}}) {
    SCOPED_TRACE(what);
    o.decryption = Keys128();
    auto rd = ParquetFileReader::Open(Altered(bloom, at), o);
    ASSERT_TRUE(rd.ok()) << rd.status().ToString();
    auto p = (*rd)->BindPredicate("double_field", CompareOp::kEq, Literal::Float(1.5));
    auto may = (*rd)->BloomMayMatch(*p, 0);
    ASSERT_FALSE(may.ok());
    EXPECT_EQ(may.status().message(), std::string("f: row group 0, column 'double_field': ") + what + ":" + gcm);
  }
}

TEST_F(EncryptionCorpusTest, CtrPagesFlippedGiveTheHeadersCheckNotWrongValues) {
  QUIVER_CORPUS_OR_SKIP(root);
  // AES_GCM_CTR_V1 leaves page bodies unauthenticated (the format's choice); their headers
  // are GCM. A flip in a header is caught.
  const std::string bytes = Slurp(root / "parquet-testing" / "data" / "encrypt_columns_and_footer_ctr.parquet.encrypted");
  ParquetReaderOptions o;
  o.decryption = Keys128();
  auto reader = ParquetFileReader::Open(Altered(bytes, -1), o);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const ColumnMetaData& md = *(*reader)->metadata().row_groups[0].columns[5].meta_data;
  auto rows = ReadRows(Altered(bytes, md.data_page_offset + 20), Keys128());
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().message(), "f: row group 0, column 'double_field': page 1: data page header: AES-GCM "
                                     "authentication failed (a wrong key or AAD prefix, or the bytes were altered)");
}

TEST_F(EncryptionCorpusTest, TruncatedFiles) {
  QUIVER_CORPUS_OR_SKIP(root);
  const std::string bytes = Slurp(root / "parquet-testing" / "data" / "encrypt_columns_and_footer.parquet.encrypted");
  // The tail cut off: the magic is gone.
  auto cut = ReadRows(Altered(bytes, -1, static_cast<int64_t>(bytes.size()) - 100), Keys128());
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(cut.status().message(), "f: not a Parquet file: it does not end with the magic bytes PAR1");
  // The footer length says more than the file holds.
  std::string longer = bytes;
  uint32_t len = ModuleLen(bytes, static_cast<int64_t>(bytes.size()) - 8) + 100000;
  std::memcpy(longer.data() + longer.size() - 8, &len, 4);
  auto l = ReadRows(Altered(longer, -1), Keys128());
  ASSERT_FALSE(l.ok());
  EXPECT_EQ(l.status().message(),
            fmt::format("f: footer length {} does not fit in a file of {} bytes with its magic and length", len,
                        bytes.size()));
  // A column chunk's page module whose length runs past its chunk.
  ParquetReaderOptions o;
  o.decryption = Keys128();
  auto reader = ParquetFileReader::Open(Altered(bytes, -1), o);
  ASSERT_TRUE(reader.ok());
  const int64_t at = (*reader)->metadata().row_groups[0].columns[5].meta_data->data_page_offset;
  std::string grown = bytes;
  uint32_t big = 1 << 30;
  std::memcpy(grown.data() + at, &big, 4);
  auto g = ReadRows(Altered(grown, -1), Keys128());
  ASSERT_FALSE(g.ok());
  EXPECT_NE(g.status().message().find("f: row group 0, column 'double_field': page 1: data page header: encrypted "
                                      "module truncated: its length says 1073741824 bytes"),
            std::string::npos)
      << g.status().message();
}

TEST(EncryptionKeys, ParseKeyForms) {
  auto raw = ParseKey("0123456789012345", "k");
  ASSERT_TRUE(raw.ok());
  EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(raw->data()), raw->size()), "0123456789012345");
  auto hex = ParseKey("hex:30313233343536373839303132333435", "k");
  ASSERT_TRUE(hex.ok());
  EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(hex->data()), hex->size()), "0123456789012345");
  auto b64 = ParseKey("base64:MDEyMzQ1Njc4OTAxMjM0NQ==", "k");
  ASSERT_TRUE(b64.ok());
  EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(b64->data()), b64->size()), "0123456789012345");
  EXPECT_EQ(ParseKey("short", "--footer-key").status().message(),
            "--footer-key: a key is hex:DIGITS, base64:TEXT or exactly 16, 24 or 32 characters; got 5 characters");
  EXPECT_EQ(ParseKey("hex:3031", "k").status().message(), "k: hex: gives 2 bytes; an AES key is 16, 24 or 32 bytes");
  EXPECT_EQ(ParseKey("hex:zz", "k").status().message(), "k: hex: holds a character that is not a hex digit");
  EXPECT_EQ(ParseKey("hex:303", "k").status().message(), "k: hex: needs an even number of digits");
  EXPECT_EQ(ParseKey("base64:***", "k").status().message(), "k: base64: holds a character that is not base64");
  // No message holds the key text.
  EXPECT_EQ(ParseKey("hex:30313233343536373839303132333435ff", "k").status().message().find("3031"), std::string::npos);
}

class EncryptionKeysFile : public testing::ScratchDirTest {};

TEST_F(EncryptionKeysFile, KeysFile) {
  const std::string path = Path("keys.txt");
  {
    std::ofstream out(path);
    out << "# keys\nfooter=0123456789012345\n\ndouble_field = hex:3132333435363738393031323334353z\n"
           "aad-prefix=tester\n";
  }
  SecretKey footer;
  std::map<std::string, SecretKey, std::less<>> cols;
  std::optional<std::string> aad;
  Status st = ReadKeysFile(path, &footer, &cols, &aad);
  EXPECT_EQ(st.message(), path + ":4: key 'double_field': hex: holds a character that is not a hex digit");
  {
    std::ofstream out(path);
    out << "# keys\nfooter=0123456789012345\n\n  double_field = hex:31323334353637383930313233343530\n"
           "aad-prefix=tester\n";
  }
  ASSERT_TRUE(ReadKeysFile(path, &footer, &cols, &aad).ok());
  EXPECT_EQ(footer.size(), 16u);
  ASSERT_EQ(cols.count("double_field"), 1u);
  EXPECT_EQ(std::memcmp(cols["double_field"].data(), kColumnKey1, 16), 0);
  EXPECT_EQ(aad, "tester");
  {
    std::ofstream out(path);
    out << "footer 0123456789012345\n";
  }
  EXPECT_EQ(ReadKeysFile(path, &footer, &cols, &aad).message(),
            path + ":1: expected name=KEY (footer=KEY, column.path=KEY or aad-prefix=TEXT)");
}

TEST(EncryptionKeys, SecretKeyWipesOnMoveAndWipe) {
  SecretKey a("0123456789012345");
  SecretKey b = std::move(a);
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): moved-from keys are wiped
  EXPECT_EQ(b.size(), 16u);
  b.Wipe();
  EXPECT_TRUE(b.empty());
}

TEST(EncryptionModules, AadLayout) {
  std::string aad;
  ASSERT_TRUE(crypto::ModuleAad("PU", crypto::Module::kFooter, 5, 6, 7, &aad).ok());
  EXPECT_EQ(aad, std::string("PU\x00", 3));
  ASSERT_TRUE(crypto::ModuleAad("PU", crypto::Module::kDataPage, 1, 2, 258, &aad).ok());
  EXPECT_EQ(aad, std::string("PU\x02\x01\x00\x02\x00\x02\x01", 9));
  ASSERT_TRUE(crypto::ModuleAad("PU", crypto::Module::kColumnIndex, 1, 2, 258, &aad).ok());
  EXPECT_EQ(aad, std::string("PU\x06\x01\x00\x02\x00", 7));
  EXPECT_EQ(crypto::ModuleAad("", crypto::Module::kDataPage, 0, 0, 40000, &aad).message(),
            "page 40000 is beyond what an encrypted file can hold (32767)");
}

}  // namespace
}  // namespace quiver::parquet

// The Apache ORC example files: each with an expected output (the union file's included)
// decodes to exactly those rows (printed as the upstream printer does); the others equal what
// the reference orc_dump_default prints (skipped without the peers); corrupt and unreadable
// files fail with clear errors.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "orc/orc_dump.h"
#include "quiver/orc/reader/file_reader.h"
#include "quiver/stream/orc_stream.h"
#include "testing/corpus.h"

namespace quiver {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> GunzipLines(const fs::path& p) {
  std::vector<std::string> lines;
  gzFile f = gzopen(p.c_str(), "rb");
  if (f == nullptr) return lines;
  std::string cur;
  char buf[65536];
  int n;
  while ((n = gzread(f, buf, sizeof(buf))) > 0) {
    for (int i = 0; i < n; ++i) {
      if (buf[i] == '\n') {
        lines.push_back(std::move(cur));
        cur.clear();
      } else {
        cur += buf[i];
      }
    }
  }
  gzclose(f);
  if (!cur.empty()) lines.push_back(cur);
  return lines;
}

// Every row of the file, printed; or the error.
Result<std::vector<std::string>> DumpFile(const fs::path& p, orc::OrcReaderOptions options = {}) {
  QUIVER_ASSIGN_OR_RETURN(auto file, orc::OrcFileReader::Open(p.string(), options));
  const bool root_is_struct = file->footer().types.empty() || file->footer().types[0].kind == 12;
  QUIVER_ASSIGN_OR_RETURN(auto reader, stream::OrcStreamReader::Make(std::shared_ptr<orc::OrcFileReader>(std::move(file))));
  std::vector<std::string> lines;
  while (true) {
    QUIVER_ASSIGN_OR_RETURN(auto b, reader->Next());
    if (b == nullptr) break;
    QUIVER_RETURN_NOT_OK(b->ToStructArray().Validate());
    for (int64_t r = 0; r < b->num_rows(); ++r) lines.push_back(testing::OrcDumpRow(*b, r, root_is_struct));
  }
  return lines;
}

void ExpectSameLines(const std::vector<std::string>& got, const std::vector<std::string>& want, const std::string& name) {
  ASSERT_EQ(got.size(), want.size()) << name;
  int shown = 0;
  for (size_t i = 0; i < got.size() && shown < 3; ++i) {
    if (got[i] != want[i]) {
      ADD_FAILURE() << name << " row " << i << "\n got: " << got[i] << "\nwant: " << want[i];
      ++shown;
    }
  }
}

TEST(OrcExamples, ExpectedOutputsMatchExactly) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path dir = root / "orc-examples" / "examples";
  int compared = 0;
  for (const auto& e : fs::directory_iterator(dir / "expected")) {
    std::string name = e.path().filename().string();
    name = name.substr(0, name.size() - std::string(".jsn.gz").size());
    const fs::path orc_file = dir / (name + ".orc");
    if (!fs::exists(orc_file)) continue;  // demo-12-zlib's expectation is not in the corpus
    SCOPED_TRACE(name);
    auto got = DumpFile(orc_file);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ExpectSameLines(*got, GunzipLines(e.path()), name);
    ++compared;
  }
  EXPECT_EQ(compared, 27);
}

// Stripes read in batches of a few rows, on the calling thread and on 3 threads (each column
// running ahead on its own): every decoder resumes where the last batch left it, across
// compression chunks, dictionaries, nulls and nested lengths.
TEST(OrcExamples, ExpectedOutputsMatchInSmallBatches) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path dir = root / "orc-examples" / "examples";
  ThreadPool three(3);
  for (ThreadPool* threads : {static_cast<ThreadPool*>(nullptr), &three}) {
    for (int64_t batch_rows : {1, 777}) {
      int compared = 0;
      for (const auto& e : fs::directory_iterator(dir / "expected")) {
        std::string name = e.path().filename().string();
        name = name.substr(0, name.size() - std::string(".jsn.gz").size());
        const fs::path orc_file = dir / (name + ".orc");
        if (!fs::exists(orc_file) || name == "TestOrcFile.testUnionAndTimestamp") continue;
        if (batch_rows == 1 && fs::file_size(orc_file) > 20000) continue;  // a row a batch: the small files only
        SCOPED_TRACE(name + " in batches of " + std::to_string(batch_rows) + (threads ? " on 3 threads" : ""));
        auto got = DumpFile(orc_file, {.thread_pool = threads, .batch_rows = batch_rows});
        ASSERT_TRUE(got.ok()) << got.status().ToString();
        ExpectSameLines(*got, GunzipLines(e.path()), name);
        ++compared;
      }
      EXPECT_GE(compared, batch_rows == 1 ? 10 : 26);
    }
  }
}

// The reference tool's output for a file, or nullopt without the peers.
std::optional<std::vector<std::string>> ReferenceDump(const fs::path& orc_file) {
  const fs::path tool = fs::path(QUIVER_SOURCE_DIR) / ".." / "shared" / "peers" / "orc" / "bin" / "orc_dump_default";
  if (!fs::exists(tool)) return std::nullopt;
  std::string cmd = "'" + tool.string() + "' '" + orc_file.string() + "' 2>/dev/null";
  std::FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return std::nullopt;
  std::vector<std::string> lines;
  std::string cur;
  int ch;
  while ((ch = std::fgetc(p)) != EOF) {
    if (ch == '\n') {
      lines.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += static_cast<char>(ch);
    }
  }
  if (pclose(p) != 0) return std::nullopt;
  return lines;
}

TEST(OrcExamples, OtherFilesMatchTheReferenceReader) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path dir = root / "orc-examples" / "examples";
  const std::vector<std::string> files = {
      "TestOrcFile.testSargSkipPickupGroupWithoutIndexCPlusPlus.orc",
      "TestOrcFile.testSargSkipPickupGroupWithoutIndexJava.orc",
      "TestOrcFile.testWithoutCompressionBlockSize.orc",
      "TestVectorOrcFile.testZstd.0.12.orc",
      "bad_bloom_filter_1.6.0.orc",
      "bad_bloom_filter_1.6.11.orc",
      "complextypes_iceberg.orc",
      "decimal64_v2.orc",
      "decimal64_v2_cplusplus.orc",
      "demo-11-zlib.orc",
      "demo-12-zlib.orc",
      "orc_no_format.orc",
      // Column encryption: the masked values, as a reader without keys sees them.
      "encrypted/sample1.orc",
      "encrypted/sample2.orc",
  };
  int compared = 0;
  for (const auto& name : files) {
    SCOPED_TRACE(name);
    auto want = ReferenceDump(dir / name);
    if (!want) GTEST_SKIP() << "the reference reader is not at ../shared/peers/orc/bin (or failed on " << name << ")";
    auto got = DumpFile(dir / name);
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ExpectSameLines(*got, *want, name);
    ++compared;
  }
  EXPECT_EQ(compared, static_cast<int>(files.size()));
}

std::string OpenAndReadError(const fs::path& p) {
  auto got = DumpFile(p);
  return got.ok() ? std::string("no error") : got.status().ToString();
}

TEST(OrcExamples, CorruptFilesFailClearly) {
  QUIVER_CORPUS_OR_SKIP(root);
  const fs::path dir = root / "orc-examples" / "examples";
  const std::string p = dir.string() + "/";
  EXPECT_EQ(OpenAndReadError(dir / "zero.orc"), "Corrupt: " + p + "zero.orc: the file is empty (0 bytes), not an ORC file");
  EXPECT_EQ(OpenAndReadError(dir / "corrupt" / "missing_blob_stream_in_string_dict.orc"),
            "Corrupt: " + p + "corrupt/missing_blob_stream_in_string_dict.orc: stripe 0: column 'string_col': "
            "a dictionary of entries has no DICTIONARY_DATA stream");
  EXPECT_EQ(OpenAndReadError(dir / "corrupt" / "missing_length_stream_in_string_dict.orc"),
            "Corrupt: " + p + "corrupt/missing_length_stream_in_string_dict.orc: stripe 0: column 'date_string_col': "
            "a dictionary of entries has no LENGTH stream");
  EXPECT_EQ(OpenAndReadError(dir / "corrupt" / "negative_dict_entry_lengths.orc"),
            "Corrupt: " + p + "corrupt/negative_dict_entry_lengths.orc: stripe 0: column 'date_string_col': "
            "dictionary entry lengths add up past the 248 bytes of their data (a length is negative or too large)");
  EXPECT_EQ(OpenAndReadError(dir / "corrupt" / "stripe_footer_bad_column_encodings.orc"),
            "Corrupt: " + p + "corrupt/stripe_footer_bad_column_encodings.orc: stripe 0: ORC StripeFooter: "
            "a length-delimited field runs past the end of the message");
  EXPECT_EQ(OpenAndReadError(dir / "version1999.orc"),
            "NotImplemented: " + p + "version1999.orc: ORC file format version 19.99, newer than quiver reads (0.11, 0.12 and 1.x)");
}

}  // namespace
}  // namespace quiver

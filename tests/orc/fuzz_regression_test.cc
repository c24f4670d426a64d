// The inputs that once crashed orc_fuzz (fuzz/corpus/regressions/orc/*.orc), and the example
// files it is seeded with, read as the fuzz target reads them (fuzz/orc_fuzz_read.h): opening
// and decoding may fail, but nothing may crash and every batch that decodes must validate.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "../../fuzz/orc_fuzz_read.h"
#include "testing/corpus.h"

namespace quiver::orc {
namespace {

std::string Slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every file under `dir` (recursively); how many were read.
int ReadAllAsTheFuzzTarget(const std::filesystem::path& dir) {
  int n = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file() || e.path().extension() == ".md") continue;
    SCOPED_TRACE(e.path().string());
    const std::string bytes = Slurp(e.path());
    const char* broken =
        fuzzing::ReadInput(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()),
                           default_memory_pool());
    EXPECT_STREQ(broken, nullptr);
    ++n;
  }
  return n;
}

TEST(OrcFuzzRegression, KeptCrashInputsReadOrFailCleanly) {
  EXPECT_GE(ReadAllAsTheFuzzTarget(std::filesystem::path(QUIVER_SOURCE_DIR) / "fuzz" / "corpus" / "regressions" / "orc"), 1);
}

// The seeds themselves: TestOrcFile.testUnionAndTimestamp.orc read in batches of 13 rows once
// made a slice of a null window (a union member's string batch of only empty values).
TEST(OrcFuzzRegression, ExampleFilesReadAsTheFuzzTargetReadsThem) {
  QUIVER_CORPUS_OR_SKIP(root);
  EXPECT_GE(ReadAllAsTheFuzzTarget(root / "orc-examples" / "examples"), 70);
}

}  // namespace
}  // namespace quiver::orc

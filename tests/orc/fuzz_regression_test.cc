// The inputs that once crashed orc_fuzz (fuzz/corpus/regressions/orc/*.orc), read as the fuzz
// target reads them: opening may fail, but every stripe that decodes must validate.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "quiver/io/file.h"
#include "quiver/orc/reader/file_reader.h"

namespace quiver::orc {
namespace {

TEST(OrcFuzzRegression, KeptCrashInputsReadOrFailCleanly) {
  const auto dir = std::filesystem::path(QUIVER_SOURCE_DIR) / "fuzz" / "corpus" / "regressions" / "orc";
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".orc") continue;
    SCOPED_TRACE(e.path().string());
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string bytes = ss.str();
    auto buf = Buffer::CopyOf(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
    ASSERT_TRUE(buf.ok());
    ++n;
    OrcReaderOptions options;
    options.thread_pool = nullptr;
    auto reader = OrcFileReader::Open(io::MemorySource(*buf, "kept"), options);
    if (!reader.ok()) continue;
    (void)(*reader)->metadata();
    auto sel = (*reader)->Select({});
    ASSERT_TRUE(sel.ok());
    for (int s = 0; s < (*reader)->num_stripes() && s < 16; ++s) {
      auto b = (*reader)->ReadStripe(s, *sel);
      if (b.ok()) EXPECT_TRUE((*b)->ToStructArray().Validate().ok());
    }
  }
  EXPECT_GE(n, 0);
}

}  // namespace
}  // namespace quiver::orc

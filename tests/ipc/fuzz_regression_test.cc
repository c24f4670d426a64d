// The inputs that once crashed ipc_fuzz (fuzz/corpus/regressions/ipc/), read as the fuzz target
// reads them: every batch that decodes validates, and writes back to a stream that reads equal.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "quiver/io/output_stream.h"
#include "quiver/ipc/reader.h"
#include "quiver/ipc/writer.h"

namespace quiver::ipc {
namespace {

TEST(IpcFuzzRegression, KeptCrashInputsReadOrFailCleanly) {
  const auto dir = std::filesystem::path(QUIVER_SOURCE_DIR) / "fuzz" / "corpus" / "regressions" / "ipc";
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    SCOPED_TRACE(e.path().string());
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string bytes = ss.str();
    auto buf = Buffer::CopyOf(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
    ASSERT_TRUE(buf.ok());
    auto reader = IpcReader::OpenBuffer(*buf, "kept");
    ++n;
    if (!reader.ok()) continue;
    io::BufferOutputStream out;
    auto writer = IpcWriter::Make(&out, (*reader)->schema(), {.file_format = false});
    ASSERT_TRUE(writer.ok());
    std::vector<std::shared_ptr<RecordBatch>> batches;
    for (;;) {
      auto b = (*reader)->Next();
      if (!b.ok() || *b == nullptr) break;
      for (const Array& c : (*b)->columns()) EXPECT_TRUE(c.Validate().ok());
      ASSERT_TRUE((*writer)->Write(*b).ok());
      batches.push_back(*b);
    }
    ASSERT_TRUE((*writer)->Finish().ok());
    auto back = IpcReader::OpenBuffer(*out.Finish(), "written");
    ASSERT_TRUE(back.ok());
    for (const auto& b : batches) {
      auto got = (*back)->Next();
      ASSERT_TRUE(got.ok() && *got);
      EXPECT_TRUE((*got)->Equals(*b));
    }
  }
  EXPECT_EQ(n, 4);
}

}  // namespace
}  // namespace quiver::ipc

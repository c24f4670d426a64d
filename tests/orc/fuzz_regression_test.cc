// The inputs that once crashed orc_fuzz (fuzz/corpus/regressions/orc/*.orc), and the example
// files it is seeded with, read as the fuzz target reads them (fuzz/orc_fuzz_read.h): opening
// and decoding may fail, but nothing may crash and every batch that decodes must validate.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "quiver/core/memory_pool.h"

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
                           fuzzing::FuzzPool());
    EXPECT_STREQ(broken, nullptr);
    ++n;
  }
  return n;
}

TEST(OrcFuzzRegression, KeptCrashInputsReadOrFailCleanly) {
  EXPECT_GE(ReadAllAsTheFuzzTarget(std::filesystem::path(QUIVER_SOURCE_DIR) / "fuzz" / "corpus" / "regressions" / "orc"), 1);
}

// Forwards to a pool and remembers the largest request.
class LargestRequestPool final : public MemoryPool {
 public:
  explicit LargestRequestPool(MemoryPool* base) : base_(base) {}
  Status Allocate(int64_t size, uint8_t** out) override {
    largest = std::max(largest, size);
    return base_->Allocate(size, out);
  }
  Status Reallocate(int64_t new_size, uint8_t** ptr) override {
    largest = std::max(largest, new_size);
    return base_->Reallocate(new_size, ptr);
  }
  void Free(uint8_t* ptr) override { base_->Free(ptr); }
  int64_t UsableSize(const uint8_t* ptr) const override { return base_->UsableSize(ptr); }
  MemoryTracker* tracker() const override { return base_->tracker(); }
  const char* backend_name() const override { return base_->backend_name(); }
  int64_t largest = 0;

 private:
  MemoryPool* base_;
};

// A list whose lengths add up to 2^31 int entries: the child's 8 GiB buffer is refused under
// the reader's 512 MiB limit before the allocator is asked for it (libFuzzer's malloc limit
// caught the request).
TEST(OrcFuzzRegression, RequestBeyondTheLimitNeverReachesTheAllocator) {
  const std::string bytes =
      Slurp(std::filesystem::path(QUIVER_SOURCE_DIR) / "fuzz" / "corpus" / "regressions" / "orc" / "list-child-of-gigabytes.orc");
  ASSERT_FALSE(bytes.empty());
  MemoryTracker tracker("limited", MemoryTracker::Process(), {.limit = int64_t{512} << 20});
  TrackedMemoryPool base(&tracker);
  LargestRequestPool pool(&base);
  const char* broken =
      fuzzing::ReadInput(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()), &pool);
  EXPECT_STREQ(broken, nullptr);
  EXPECT_LE(pool.largest, int64_t{512} << 20);
}

// The seeds themselves: TestOrcFile.testUnionAndTimestamp.orc read in batches of 13 rows once
// made a slice of a null window (a union member's string batch of only empty values).
TEST(OrcFuzzRegression, ExampleFilesReadAsTheFuzzTargetReadsThem) {
  QUIVER_CORPUS_OR_SKIP(root);
  EXPECT_GE(ReadAllAsTheFuzzTarget(root / "orc-examples" / "examples"), 70);
}

}  // namespace
}  // namespace quiver::orc

// Copies of the Parquet files the tests write, for the suite's last test (ParquetOutputs, in
// tests/CMakeLists.txt), which reads each with the pinned DuckDB and fails naming any it
// rejects. The folder is $QUIVER_KEEP_PARQUET_DIR (ctest sets it; without it nothing is kept).
// A copy is named after the test that wrote it; a file written invalid on purpose is kept, if
// at all, with a label containing "corrupt", which the check skips.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace quiver::testing {

// Files larger than this are not kept (the check reads every copy).
inline constexpr uintmax_t kKeepParquetMaxBytes = 64u << 20;

inline std::string KeptParquetPath(std::string_view label) {
  const char* dir = std::getenv("QUIVER_KEEP_PARQUET_DIR");
  if (dir == nullptr || *dir == '\0') return {};
  static std::atomic<int> counter{0};
  std::string test = "outside-a-test";
  if (const auto* info = ::testing::UnitTest::GetInstance()->current_test_info()) {
    test = std::string(info->test_suite_name()) + "." + info->name();
  }
  for (char& c : test) {
    if (c == '/' || c == ' ') c = '_';
  }
  std::filesystem::create_directories(dir);
  return std::string(dir) + "/" + test + "." + std::string(label) + "." + std::to_string(getpid()) + "-" +
         std::to_string(counter++) + ".parquet";
}

// Keeps a copy of a Parquet file held in memory.
inline void KeepParquet(std::string_view bytes, std::string_view label = "bytes") {
  if (bytes.size() > kKeepParquetMaxBytes) return;
  const std::string path = KeptParquetPath(label);
  if (path.empty()) return;
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Keeps a copy of a Parquet file on disk.
inline void KeepParquetFile(const std::filesystem::path& file, std::string_view label = "file") {
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  if (ec || size > kKeepParquetMaxBytes) return;
  const std::string path = KeptParquetPath(label);
  if (path.empty()) return;
  std::filesystem::copy_file(file, path, std::filesystem::copy_options::overwrite_existing, ec);
}

}  // namespace quiver::testing

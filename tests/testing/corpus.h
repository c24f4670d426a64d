// Locating the shared test corpora; tests skip with a clear message when they are absent.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <optional>

namespace quiver::testing {

// $QUIVER_TESTDATA, else <source>/../shared/testdata; nullopt when neither exists.
inline std::optional<std::filesystem::path> TestDataDir() {
  if (const char* env = std::getenv("QUIVER_TESTDATA"); env != nullptr && *env != '\0') {
    if (std::filesystem::is_directory(env)) return std::filesystem::path(env);
    return std::nullopt;
  }
  std::filesystem::path p = std::filesystem::path(QUIVER_SOURCE_DIR) / ".." / "shared" / "testdata";
  if (std::filesystem::is_directory(p)) return std::filesystem::canonical(p);
  return std::nullopt;
}

}  // namespace quiver::testing

// Declares `dir` as the corpus root, or skips the test saying where it looked.
#define QUIVER_CORPUS_OR_SKIP(dir)                                                              \
  auto dir##_opt = ::quiver::testing::TestDataDir();                                            \
  if (!dir##_opt) {                                                                             \
    GTEST_SKIP() << "test corpus not found: set QUIVER_TESTDATA or place it at ../shared/testdata"; \
  }                                                                                             \
  const std::filesystem::path dir = *dir##_opt

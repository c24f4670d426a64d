// Helpers shared by the encoding tests: every SIMD level as a test parameter, byte vectors.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "quiver/core/buffer.h"
#include "quiver/core/simd_dispatch.h"

namespace quiver::parquet::encoding::testing {

inline std::vector<uint8_t> Bytes(const BufferBuilder& b) { return std::vector<uint8_t>(b.data(), b.data() + b.size()); }

inline std::string LevelName(const ::testing::TestParamInfo<SimdLevel>& info) {
  return std::string(SimdLevelName(info.param));
}

// Offsets + bytes of an Arrow-style string column, as the byte-array decoders produce.
struct Strings {
  BufferBuilder offsets;
  BufferBuilder data;
  int64_t size() const { return offsets.size() == 0 ? 0 : offsets.size() / 4 - 1; }
  std::string at(int64_t i) const {
    const int32_t* o = reinterpret_cast<const int32_t*>(offsets.data());
    return std::string(reinterpret_cast<const char*>(data.data()) + o[i], static_cast<size_t>(o[i + 1] - o[i]));
  }
  std::vector<std::string> all() const {
    std::vector<std::string> v;
    for (int64_t i = 0; i < size(); ++i) v.push_back(at(i));
    return v;
  }
};

// Offsets/bytes built from std::strings, the input side of the byte-array encoders.
struct StringInput {
  std::vector<int32_t> offsets{0};
  std::string data;
  explicit StringInput(const std::vector<std::string>& values) {
    for (const auto& s : values) {
      data += s;
      offsets.push_back(static_cast<int32_t>(data.size()));
    }
  }
  const uint8_t* bytes() const { return reinterpret_cast<const uint8_t*>(data.data()); }
};

inline std::vector<std::string> RandomStrings(int64_t n, uint32_t seed, int max_len = 20, int distinct = 0) {
  std::mt19937 rng(seed);
  std::vector<std::string> pool;
  for (int i = 0; i < distinct; ++i) {
    std::string s(rng() % (max_len + 1), ' ');
    for (auto& c : s) c = static_cast<char>('a' + rng() % 26);
    pool.push_back(s);
  }
  std::vector<std::string> v;
  for (int64_t i = 0; i < n; ++i) {
    if (distinct > 0) {
      v.push_back(pool[rng() % distinct]);
    } else {
      std::string s(rng() % (max_len + 1), ' ');
      for (auto& c : s) c = static_cast<char>(rng() % 256);
      v.push_back(s);
    }
  }
  return v;
}

}  // namespace quiver::parquet::encoding::testing

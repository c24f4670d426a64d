// Inputs both snappy tests (compressor and decoder) run through: random bytes and CSV-like text.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace quiver::compress::testing {

inline std::vector<uint8_t> Random(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

// Words from a small vocabulary with random numbers between: text that compresses as CSV does.
inline std::vector<uint8_t> TextLike(size_t n, uint32_t seed) {
  static const char* kWords[] = {"AIR", "TRUCK", "MAIL", "DELIVER IN PERSON", "NONE", "COLLECT COD",
                                 "furiously", "carefully regular", "1996-03-13", "N", "O", "F"};
  std::mt19937 rng(seed);
  std::vector<uint8_t> v;
  while (v.size() < n) {
    std::string w = kWords[rng() % 12];
    w += '|' + std::to_string(rng() % 100000) + '|';
    v.insert(v.end(), w.begin(), w.end());
  }
  v.resize(n);
  return v;
}

}  // namespace quiver::compress::testing

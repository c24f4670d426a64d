// SplitMix64, the generators' random numbers (`quiver gen`): small, fast, and the same sequence on
// every platform, so a generated file is the same everywhere for the same seed.
#pragma once

#include <cstddef>
#include <cstdint>

namespace quiver {

struct SplitMix64 {
  uint64_t s;
  uint64_t Next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // A number in [lo, hi].
  int64_t Range(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(Next() % static_cast<uint64_t>(hi - lo + 1)); }
  template <size_t N>
  const char* Pick(const char* const (&a)[N]) { return a[Next() % N]; }
};

}  // namespace quiver

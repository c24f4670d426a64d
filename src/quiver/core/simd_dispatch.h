// Runtime SIMD level: kernels keep one function per level (scalar always) and pick one at
// start-up. QUIVER_SIMD=scalar|avx2|avx512 caps the level (tests run every path).
#pragma once

#include <string_view>
#include <vector>

namespace quiver {

enum class SimdLevel : int { kScalar = 0, kAvx2 = 1, kAvx512 = 2 };

std::string_view SimdLevelName(SimdLevel level);
// What the CPU supports (AVX-512 means F, BW, VL, DQ together).
SimdLevel DetectedSimdLevel();
// The level kernels use: the detected one, capped by QUIVER_SIMD when set.
SimdLevel ActiveSimdLevel();
// Every level this CPU can run, lowest first: what tests iterate over.
std::vector<SimdLevel> SupportedSimdLevels();
// AVX-512 VBMI2 (byte and word compress), beyond what the AVX-512 level promises: a kernel
// with a variant that uses it picks that variant within its AVX-512 level.
bool CpuHasAvx512Vbmi2();

// Of one thing per level (a kernel table, a function), the one for `level` capped at what the
// CPU has: a test may ask for a level the machine lacks and gets the highest it can run.
template <typename T>
const T& ForSimdLevel(SimdLevel level, const T& scalar, const T& avx2, const T& avx512) {
  if (static_cast<int>(level) > static_cast<int>(DetectedSimdLevel())) level = DetectedSimdLevel();
  switch (level) {
    case SimdLevel::kAvx512: return avx512;
    case SimdLevel::kAvx2: return avx2;
    case SimdLevel::kScalar: break;
  }
  return scalar;
}

}  // namespace quiver

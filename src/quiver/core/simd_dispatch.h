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

}  // namespace quiver

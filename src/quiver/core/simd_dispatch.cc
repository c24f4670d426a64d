#include "quiver/core/simd_dispatch.h"

#include <cstdlib>
#include <cstring>

namespace quiver {

std::string_view SimdLevelName(SimdLevel level) {
  switch (level) {
    case SimdLevel::kScalar: return "scalar";
    case SimdLevel::kAvx2: return "avx2";
    case SimdLevel::kAvx512: return "avx512";
  }
  return "?";
}

SimdLevel DetectedSimdLevel() {
#if defined(__x86_64__) || defined(__i386__)
  static const SimdLevel level = [] {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")) {
      return SimdLevel::kAvx512;
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2")) return SimdLevel::kAvx2;
    return SimdLevel::kScalar;
  }();
  return level;
#else
  return SimdLevel::kScalar;
#endif
}

SimdLevel ActiveSimdLevel() {
  static const SimdLevel level = [] {
    SimdLevel detected = DetectedSimdLevel();
    const char* env = std::getenv("QUIVER_SIMD");
    if (env == nullptr) return detected;
    SimdLevel cap = detected;
    if (std::strcmp(env, "scalar") == 0) cap = SimdLevel::kScalar;
    else if (std::strcmp(env, "avx2") == 0) cap = SimdLevel::kAvx2;
    else if (std::strcmp(env, "avx512") == 0) cap = SimdLevel::kAvx512;
    return static_cast<int>(cap) < static_cast<int>(detected) ? cap : detected;
  }();
  return level;
}

bool CpuHasAvx512Vbmi2() {
#if defined(__x86_64__) || defined(__i386__)
  static const bool has = [] {
    __builtin_cpu_init();
    return DetectedSimdLevel() == SimdLevel::kAvx512 && __builtin_cpu_supports("avx512vbmi2");
  }();
  return has;
#else
  return false;
#endif
}

std::vector<SimdLevel> SupportedSimdLevels() {
  std::vector<SimdLevel> out;
  for (int l = 0; l <= static_cast<int>(DetectedSimdLevel()); ++l) out.push_back(static_cast<SimdLevel>(l));
  return out;
}

}  // namespace quiver

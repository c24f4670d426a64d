// Tests run the CSV reader's splitting and row-assembly kernels at every SIMD level the CPU
// has: this sets the level readers opened afterwards use (nullopt: the CPU's best, as
// QUIVER_SIMD caps it). Not an option of CsvOptions: programs have no reason to set it.
#pragma once

#include <optional>

#include "quiver/core/simd_dispatch.h"

namespace quiver::csv {

void SetSplitLevelForTesting(std::optional<SimdLevel> level);
std::optional<SimdLevel> SplitLevelForTesting();

}  // namespace quiver::csv

// Tests run the CSV reader's splitting and row-assembly kernels at every SIMD level the CPU
// has: this sets the level readers opened afterwards use (nullopt: the CPU's best, as
// QUIVER_SIMD caps it). Not an option of CsvOptions: programs have no reason to set it.
// Likewise whether readers opened afterwards guess that pieces read ahead start outside
// quotes (the default) or take their quote parities first, so that tests can compare the two.
#pragma once

#include <optional>

#include "quiver/core/simd_dispatch.h"

namespace quiver::csv {

void SetSplitLevelForTesting(std::optional<SimdLevel> level);
std::optional<SimdLevel> SplitLevelForTesting();
void SetQuoteGuessForTesting(bool guess);
// What the last SetQuoteGuessForTesting set (true unless a test turned guessing off).
bool QuoteGuessForTesting();

}  // namespace quiver::csv

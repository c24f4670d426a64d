// The kept rows of 64 rows of 4- or 8-byte values, from a PLAIN page or through a dictionary
// page's indices, written one after another: the mostly-kept step of a late-materialized read
// (column_reader.cc's GatherKept), one kernel per SIMD level (AVX-512 compresses 8 or 16 lanes
// a store; the other levels copy every row and advance by its bit).
#pragma once

#include <cstdint>

#include "quiver/core/simd_dispatch.h"

namespace quiver::parquet::reader {

struct GatherKeptKernels {
  SimdLevel level;
  // Rows k in [0, 64) with bit k of `keep` set: value k of `values` (PLAIN, 64 values readable),
  // or entry idx[k] of `entries` (indices checked against the dictionary), to `out`; how many.
  // `out` has room for 64 values: slots past the kept ones may be overwritten.
  int64_t (*plain4)(uint64_t keep, const uint8_t* values, uint8_t* out);
  int64_t (*plain8)(uint64_t keep, const uint8_t* values, uint8_t* out);
  int64_t (*dict4)(uint64_t keep, const int32_t* idx, const uint8_t* entries, uint8_t* out);
  int64_t (*dict8)(uint64_t keep, const int32_t* idx, const uint8_t* entries, uint8_t* out);
  // dict8 for a dictionary of at most 16 entries, `entries` padded to 16 (l_discount, l_tax):
  // AVX-512 holds them in two registers and looks 8 indices up by one permute, no gather.
  int64_t (*dict8_16)(uint64_t keep, const int32_t* idx, const uint8_t* entries, uint8_t* out);
  // The same for at most 64 entries padded to 64 (l_quantity's 50): eight registers, an
  // index's low four bits picking from each pair and its next two bits among the four picks.
  int64_t (*dict8_64)(uint64_t keep, const int32_t* idx, const uint8_t* entries, uint8_t* out);
};

// The kernels of one level (tests run each level in SupportedSimdLevels()); a level above what
// the CPU supports is clamped to DetectedSimdLevel().
const GatherKeptKernels& GatherKeptKernelsFor(SimdLevel level);
// The kernels of ActiveSimdLevel(), resolved once.
const GatherKeptKernels& ActiveGatherKeptKernels();

}  // namespace quiver::parquet::reader

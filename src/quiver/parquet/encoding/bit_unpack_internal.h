// Bit-unpacking kernels (LSB-first, as Parquet's bit-packed runs and DELTA miniblocks store
// them), one implementation per SIMD level, chosen once through a function-pointer table.
#pragma once

#include <cstdint>

#include "quiver/core/simd_dispatch.h"

namespace quiver::parquet::encoding {

struct BitUnpackKernels {
  SimdLevel level;
  // Unpacks `count` values of `bit_width` bits (0..32) into `out`. `in_size` is how many bytes
  // of `in` may be read (at least ceil(count * bit_width / 8)); kernels read wide words while
  // that allows and finish through a padded copy, so callers need no padding after their data,
  // but passing the whole rest of a page keeps short runs on the fast path.
  void (*unpack32)(const uint8_t* in, int64_t in_size, int bit_width, int64_t count, uint32_t* out);
  // Same for widths 0..64 into 64-bit values.
  void (*unpack64)(const uint8_t* in, int64_t in_size, int bit_width, int64_t count, uint64_t* out);
};

// The kernels of one level (tests run each level in SupportedSimdLevels() on the same input).
// A level above what the CPU supports is clamped to DetectedSimdLevel().
const BitUnpackKernels& BitUnpackKernelsFor(SimdLevel level);
// The kernels of ActiveSimdLevel(), resolved once.
const BitUnpackKernels& ActiveBitUnpackKernels();

}  // namespace quiver::parquet::encoding

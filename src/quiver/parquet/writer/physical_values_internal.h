// quiver arrays as Parquet physical values: each fixed-width type's non-null values gathered
// densely in their PLAIN form (narrow integers widened, seconds to milliseconds, decimals to
// INT32/INT64 or big-endian FIXED_LEN_BYTE_ARRAY, booleans one byte each), or read in place
// when the array already holds that form.
#pragma once

#include <cstdint>
#include <string_view>

#include "quiver/columnar/array.h"
#include "quiver/core/buffer.h"
#include "quiver/core/result.h"
#include "quiver/parquet/writer/column_writer_internal.h"

namespace quiver::parquet::writer {

// The non-null values of rows [r, r + n) of `a` as `leaf`'s physical values (`width` bytes
// each), into `scratch`; returns their count. Invalid when seconds overflow milliseconds;
// `column` names the column in messages.
Result<int64_t> GatherPhysical(const ArrayData& a, int64_t r, int64_t n, const LeafType& leaf, int width,
                               std::string_view column, BufferBuilder* scratch);

// Row r's value and those after it when the array's values are already their PLAIN form (same
// width, no conversion); nullptr otherwise.
const uint8_t* PlainInPlace(const ArrayData& a, int64_t r);

}  // namespace quiver::parquet::writer

// Hive-style partition paths: one folder level per partition column, `column=value`.
#pragma once

#include <string>
#include <string_view>

#include "quiver/columnar/array.h"

namespace quiver::dataset {

// Names the folder of null and empty values.
inline constexpr std::string_view kHiveDefaultPartition = "__HIVE_DEFAULT_PARTITION__";

// `s` with Hive's escaping: %XX (upper-case hex) for control characters, DEL and
// "#%'*/:=?\{[]^; every other byte as it is.
void AppendHiveEscaped(std::string_view s, std::string* out);

// The path segment `column=value` of row `row` of `values`: both escaped, the value as
// FormatValue writes it (columnar/pretty_print.h); null and the empty string become
// __HIVE_DEFAULT_PARTITION__.
std::string HivePartitionSegment(std::string_view column, const Array& values, int64_t row);

}  // namespace quiver::dataset

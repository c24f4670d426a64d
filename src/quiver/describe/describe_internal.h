// The describers of each format behind describe.h, and the text helpers they share.
#pragma once

#include <string>
#include <string_view>

#include "quiver/describe/describe.h"

namespace quiver::describe {

Result<std::string> ParquetSchema(const std::string& path, const DescribeOptions& options);
Result<std::string> ParquetMetadata(const std::string& path, const DescribeOptions& options);
Result<std::string> ParquetBloomFilters(const std::string& path, const std::string& probe, const DescribeOptions& options);
Result<std::string> OrcSchema(const std::string& path, const DescribeOptions& options);
Result<std::string> OrcMetadata(const std::string& path, const DescribeOptions& options);

// Bytes that may be anything (key-value metadata, paths): themselves when valid UTF-8, else
// 0x and their hex digits.
std::string Printable(std::string_view s);

// A formatted value in JSON: an integer (optionally negative) as a number, anything else as a
// string.
std::string JsonNumberOrString(const std::string& formatted);

}  // namespace quiver::describe

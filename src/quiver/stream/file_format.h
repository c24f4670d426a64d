// Which data format a command's file is: by its extension, and for an input with none that
// quiver knows, by its first bytes (a Parquet file starts with PAR1, or PARE when encrypted).
#pragma once

#include <string>

namespace quiver::stream {

// "parquet", "csv", "tsv" or "jsonl" by the extension (past a .gz/.zst/.zstd suffix), else "".
std::string FormatOf(std::string path);

// FormatOf, and for an input file (not "-") whose extension says nothing, "parquet" when the
// file starts with Parquet's magic; "" otherwise (callers then read it as CSV).
std::string InputFormatOf(const std::string& path);

}  // namespace quiver::stream

// Which data format a command's file is: by its extension, and for an input with none that
// quiver knows, by its first bytes (a Parquet file starts with PAR1, or PARE when encrypted; an
// Arrow IPC file with ARROW1, an ORC file with ORC).
#pragma once

#include <string>

namespace quiver::stream {

// "parquet", "csv", "tsv", "jsonl", "orc", "arrow" (.arrow, .feather: the Arrow IPC file format) or
// "arrows" (the Arrow IPC stream format) by the extension (past a .gz/.zst/.zstd suffix), else "".
std::string FormatOf(std::string path);

// FormatOf, and for an input file (not "-") whose extension says nothing, "parquet", "arrow" or
// "orc" when the file starts with that format's magic; "" otherwise (callers then read it as CSV).
std::string InputFormatOf(const std::string& path);

}  // namespace quiver::stream

// Which data format a command's file is: by its extension, and for an input with none that
// quiver knows, by its first bytes (a Parquet file starts with PAR1, or PARE when encrypted; an
// Arrow IPC file with ARROW1, a stream with 0xFFFFFFFF, an ORC file with ORC).
#pragma once

#include <string>
#include <string_view>

namespace quiver::stream {

// "parquet", "csv", "tsv", "jsonl", "orc", "arrow" (.arrow, .feather: the Arrow IPC file format) or
// "arrows" (the Arrow IPC stream format) by the extension (past a .gz/.zst/.zstd suffix), else "".
std::string FormatOf(std::string path);

// FormatOf, and for an input whose extension says nothing, by its first bytes: "parquet" or "orc"
// (a file, not stdin), "arrow" (ARROW1) or "arrows" (the IPC stream's continuation marker); stdin
// ("-") is peeked through io::PeekStdin, so the reader chosen still sees those bytes. "" when
// none fits (callers then read CSV).
std::string InputFormatOf(const std::string& path);

// Whether a format name is one of the Arrow IPC names: "arrow" and "feather" (the file format)
// or "arrows" (the stream format).
bool IsArrowIpcFormat(std::string_view format);

}  // namespace quiver::stream

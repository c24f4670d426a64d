// Which data format a command's file is: by its extension, and for an input with none that
// quiver knows, by its first bytes (a Parquet file starts with PAR1, or PARE when encrypted; an
// Arrow IPC file with ARROW1, a stream with 0xFFFFFFFF, an ORC file with ORC; JSON with `{` or `[`).
// An extension naming a format quiver cannot read is refused by name, never guessed past.
#pragma once

#include <string>
#include <string_view>

#include "quiver/core/result.h"

namespace quiver::stream {

// "parquet", "csv", "tsv", "json" (.json), "jsonl" (.jsonl, .ndjson), "orc", "arrow" (.arrow,
// .feather: the Arrow IPC file format) or "arrows" (the Arrow IPC stream format) by the extension
// (past a .gz/.zst/.zstd suffix), else "".
std::string FormatOf(std::string path);

// For an extension that names a data format quiver cannot read (.xlsx, .avro, .sqlite, ...): what
// that format is ("an Excel workbook"); "" otherwise.
std::string_view UnreadableFormatOf(std::string_view path);

// FormatOf, and for an input whose extension says nothing, by its first bytes: "parquet" or "orc"
// (a file, not stdin), "arrow" (ARROW1), "arrows" (the IPC stream's continuation marker), "json"
// (`[` after white space) or "jsonl" (`{` after white space); stdin ("-") is peeked through
// io::PeekStdin, so the reader chosen still sees those bytes. "" when none fits.
std::string InputFormatOf(const std::string& path);

// The one choice of how to read an input: `named` when given (a known reader's name), else
// InputFormatOf, refusing an extension UnreadableFormatOf names; "csv" when nothing says otherwise
// (a .txt, or an unknown extension or stdin whose first bytes are no other format's).
Result<std::string> ResolveInputFormat(const std::string& path, const std::string& named = "");

// The one choice of an output's format: `named` when given, else "parquet" for a folder (a
// partitioned output) whose name has no extension, else FormatOf(path); "" when that is no format
// quiver writes (parquet, orc, csv, tsv, jsonl, arrow, arrows, feather), for the caller to say how
// to name it.
std::string OutputFormatOf(const std::string& path, const std::string& named, bool folder);

// Whether a format name is one of the Arrow IPC names: "arrow" and "feather" (the file format)
// or "arrows" (the stream format).
bool IsArrowIpcFormat(std::string_view format);

// Whether a format is JSON ("json", a top-level array or JSON Lines, or "jsonl"/"ndjson").
bool IsJsonFormat(std::string_view format);

}  // namespace quiver::stream

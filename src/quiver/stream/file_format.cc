#include "quiver/stream/file_format.h"

#include <fmt/format.h>

#include <cstdio>
#include <string_view>

#include "quiver/core/utf8.h"
#include "quiver/io/stdin.h"

namespace quiver::stream {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  if (s.size() < suffix.size()) return false;
  // Extensions are compared without case (DATA.JSONL, Report.XLSX).
  for (size_t i = 0; i < suffix.size(); ++i) {
    char c = s[s.size() - suffix.size() + i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != suffix[i]) return false;
  }
  return true;
}

std::string WithoutCompressionSuffix(std::string path) {
  for (const char* c : {".gz", ".zst", ".zstd"}) {
    if (EndsWith(path, c)) path.resize(path.size() - std::string_view(c).size());
  }
  return path;
}

// Extensions of data formats quiver has no reader for, and what each is, for the refusal.
struct Unreadable {
  const char* extension;
  const char* what;
};
constexpr Unreadable kUnreadable[] = {
    {".xlsx", "an Excel workbook"}, {".xlsm", "an Excel workbook"}, {".xlsb", "an Excel workbook"},
    {".xls", "an Excel workbook"},  {".ods", "an OpenDocument spreadsheet"}, {".avro", "an Avro file"},
    {".sqlite", "an SQLite database"}, {".sqlite3", "an SQLite database"}, {".db", "a database file"},
    {".duckdb", "a DuckDB database"}, {".pdf", "a PDF document"}, {".docx", "a Word document"},
    {".doc", "a Word document"}, {".zip", "a zip archive"}, {".tar", "a tar archive"},
    {".7z", "a 7-Zip archive"}, {".h5", "an HDF5 file"}, {".hdf5", "an HDF5 file"},
    {".pkl", "a Python pickle"}, {".pickle", "a Python pickle"}, {".sav", "an SPSS file"},
    {".dta", "a Stata file"}, {".sas7bdat", "a SAS file"}, {".rds", "an R data file"},
    {".xml", "an XML document"}, {".html", "an HTML page"}, {".htm", "an HTML page"},
    {".protobuf", "a protobuf file"}, {".pb", "a protobuf file"}, {".lance", "a Lance dataset"},
};

}  // namespace

std::string FormatOf(std::string path) {
  path = WithoutCompressionSuffix(std::move(path));
  for (const char* f : {"parquet", "csv", "tsv", "jsonl", "json", "orc"}) {
    if (EndsWith(path, std::string(".") + f)) return f;
  }
  if (EndsWith(path, ".ndjson")) return "jsonl";
  if (EndsWith(path, ".arrow") || EndsWith(path, ".feather")) return "arrow";
  if (EndsWith(path, ".arrows")) return "arrows";
  if (EndsWith(path, ".txt")) return "csv";
  return "";
}

std::string_view UnreadableFormatOf(std::string_view path) {
  const std::string bare = WithoutCompressionSuffix(std::string(path));
  for (const Unreadable& u : kUnreadable) {
    if (EndsWith(bare, u.extension)) return u.what;
  }
  return "";
}

std::string InputFormatOf(const std::string& path) {
  std::string f = FormatOf(path);
  if (!f.empty()) return f;
  // A few hundred bytes at most (JSON may start after white space); stdin's are peeked, not
  // consumed (the reader chosen reads it from its first byte). A file that cannot be opened is
  // left to the reader chosen, which names the problem.
  std::string_view head;
  char bytes[256] = {};
  if (path == "-") {
    auto peeked = io::PeekStdin(sizeof(bytes));
    if (!peeked.ok()) return f;
    head = *peeked;
  } else {
    std::FILE* in = std::fopen(path.c_str(), "rb");
    if (in == nullptr) return f;
    head = std::string_view(bytes, std::fread(bytes, 1, sizeof(bytes), in));
    std::fclose(in);
  }
  if (path != "-" && (head.starts_with("PAR1") || head.starts_with("PARE"))) return "parquet";
  if (path != "-" && head.starts_with("ORC")) return "orc";
  if (head.starts_with("ARROW1")) return "arrow";
  // The IPC stream's continuation marker (streams before Arrow 0.15 lack it and need --from
  // arrows); 0xFF never starts UTF-8 text.
  if (head.starts_with("\xff\xff\xff\xff")) return "arrows";
  // JSON: an object or array first, past white space and a UTF-8 byte order mark. No CSV header
  // starts with `{`; one starting with `[` (a bracketed column name) is rare enough that such a
  // file is named with --from csv.
  if (head.starts_with("\xef\xbb\xbf")) head.remove_prefix(3);
  size_t i = head.find_first_not_of(" \t\r\n");
  if (i != std::string_view::npos) {
    if (head[i] == '{') return "jsonl";
    if (head[i] == '[') return "json";
  }
  return f;
}

Result<std::string> ResolveInputFormat(const std::string& path, const std::string& named) {
  if (!named.empty()) return named == "ndjson" ? std::string("jsonl") : named;
  if (path != "-" && FormatOf(path).empty()) {
    const std::string_view what = UnreadableFormatOf(path);
    if (!what.empty()) {
      return Status::Invalid(fmt::format(
          "{}: quiver cannot read {} (its extension says so); export it as CSV, JSON, Parquet, ORC or Arrow first, "
          "or name the format (--from) if the extension is wrong",
          EscapeForMessage(path), what));
    }
  }
  std::string f = InputFormatOf(path);
  return f.empty() ? std::string("csv") : f;
}

std::string OutputFormatOf(const std::string& path, const std::string& named, bool folder) {
  const std::string f = !named.empty() ? named : folder && FormatOf(path).empty() ? "parquet" : FormatOf(path);
  const bool writable = f == "parquet" || f == "orc" || f == "csv" || f == "tsv" || f == "jsonl" || IsArrowIpcFormat(f);
  return writable ? f : std::string();
}

bool IsArrowIpcFormat(std::string_view format) {
  return format == "arrow" || format == "arrows" || format == "feather";
}

bool IsJsonFormat(std::string_view format) { return format == "json" || format == "jsonl" || format == "ndjson"; }

}  // namespace quiver::stream

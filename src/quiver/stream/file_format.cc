#include "quiver/stream/file_format.h"

#include <cstdio>
#include <cstring>
#include <string_view>

namespace quiver::stream {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

std::string FormatOf(std::string path) {
  for (const char* c : {".gz", ".zst", ".zstd"}) {
    if (EndsWith(path, c)) path.resize(path.size() - std::string_view(c).size());
  }
  for (const char* f : {"parquet", "csv", "tsv", "jsonl", "orc"}) {
    if (EndsWith(path, std::string(".") + f)) return f;
  }
  if (EndsWith(path, ".ndjson")) return "jsonl";
  if (EndsWith(path, ".arrow") || EndsWith(path, ".feather")) return "arrow";
  if (EndsWith(path, ".arrows")) return "arrows";
  if (EndsWith(path, ".txt")) return "csv";
  return "";
}

std::string InputFormatOf(const std::string& path) {
  std::string f = FormatOf(path);
  if (!f.empty() || path == "-") return f;
  // Only a regular read of six bytes: a file that cannot be opened is left to the reader that
  // is chosen, which names the problem.
  std::FILE* in = std::fopen(path.c_str(), "rb");
  if (in == nullptr) return f;
  char magic[6] = {};
  const size_t got = std::fread(magic, 1, sizeof(magic), in);
  std::fclose(in);
  if (got >= 4 && (std::memcmp(magic, "PAR1", 4) == 0 || std::memcmp(magic, "PARE", 4) == 0)) return "parquet";
  if (got == 6 && std::memcmp(magic, "ARROW1", 6) == 0) return "arrow";
  if (got >= 3 && std::memcmp(magic, "ORC", 3) == 0) return "orc";
  return f;
}

}  // namespace quiver::stream

#include "quiver/stream/file_format.h"

#include <cstdio>
#include <string_view>

#include "quiver/io/stdin.h"

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
  if (!f.empty()) return f;
  // Six bytes at most; stdin's are peeked, not consumed (the reader chosen reads it from its
  // first byte). A file that cannot be opened is left to the reader chosen, which names the
  // problem.
  std::string_view head;
  char magic[6] = {};
  if (path == "-") {
    auto peeked = io::PeekStdin(sizeof(magic));
    if (!peeked.ok()) return f;
    head = *peeked;
  } else {
    std::FILE* in = std::fopen(path.c_str(), "rb");
    if (in == nullptr) return f;
    head = std::string_view(magic, std::fread(magic, 1, sizeof(magic), in));
    std::fclose(in);
  }
  if (path != "-" && (head.starts_with("PAR1") || head.starts_with("PARE"))) return "parquet";
  if (path != "-" && head.starts_with("ORC")) return "orc";
  if (head == "ARROW1") return "arrow";
  // The IPC stream's continuation marker (streams before Arrow 0.15 lack it and need --from
  // arrows); 0xFF never starts UTF-8 text.
  if (head.starts_with("\xff\xff\xff\xff")) return "arrows";
  return f;
}

bool IsArrowIpcFormat(std::string_view format) {
  return format == "arrow" || format == "arrows" || format == "feather";
}

}  // namespace quiver::stream

#include "quiver/csv/byte_ranges.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "quiver/core/utf8.h"
#include "quiver/io/file.h"

namespace quiver::csv {
namespace {

constexpr int64_t kPiece = int64_t{1} << 20;

Status CheckRange(const io::RandomAccessFile& file, const std::string& path, int64_t start, int64_t end) {
  if (start < 0 || end < start || end > file.size()) {
    return Status::Invalid(fmt::format("{}: byte range [{}, {}) is outside the file's {} bytes",
                                       EscapeForMessage(path), start, end, file.size()));
  }
  return Status::OK();
}

}  // namespace

Result<bool> QuoteParity(const std::string& path, int64_t start, int64_t end, char quote) {
  QUIVER_ASSIGN_OR_RETURN(std::shared_ptr<io::RandomAccessFile> file, io::OpenFile(path));
  QUIVER_RETURN_NOT_OK(CheckRange(*file, path, start, end));
  if (quote == '\0') return false;
  int64_t count = 0;
  for (int64_t at = start; at < end; at += kPiece) {
    const int64_t n = std::min(kPiece, end - at);
    QUIVER_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> piece, file->ReadAt(at, n));
    const char* p = reinterpret_cast<const char*>(piece->data());
    count += std::count(p, p + n, quote);
  }
  return (count & 1) != 0;
}

Result<int64_t> NextRowStart(const std::string& path, int64_t pos, bool in_quotes, char quote) {
  QUIVER_ASSIGN_OR_RETURN(std::shared_ptr<io::RandomAccessFile> file, io::OpenFile(path));
  const int64_t size = file->size();
  QUIVER_RETURN_NOT_OK(CheckRange(*file, path, pos, size));
  if (pos == 0) return int64_t{0};
  if (!in_quotes) {
    QUIVER_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> before, file->ReadAt(pos - 1, 1));
    if (before->data()[0] == '\n') return pos;
  }
  bool quoted = in_quotes;
  for (int64_t at = pos; at < size; at += kPiece) {
    const int64_t n = std::min(kPiece, size - at);
    QUIVER_ASSIGN_OR_RETURN(std::shared_ptr<Buffer> piece, file->ReadAt(at, n));
    const uint8_t* p = piece->data();
    for (int64_t i = 0; i < n; ++i) {
      if (p[i] == static_cast<uint8_t>(quote) && quote != '\0') {
        quoted = !quoted;
      } else if (p[i] == '\n' && !quoted) {
        return at + i + 1;
      }
    }
  }
  if (quoted) {
    return Status::Invalid(fmt::format("{}: a quoted field opened before byte {} is still open at the end of the file",
                                       EscapeForMessage(path), size));
  }
  return size;
}

}  // namespace quiver::csv

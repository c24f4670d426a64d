#include "quiver/csv/not_text_internal.h"

#include <fmt/format.h>

#include "quiver/core/utf8.h"

namespace quiver::csv {

namespace {

bool StartsWith(std::string_view s, std::string_view magic) { return s.substr(0, magic.size()) == magic; }

}  // namespace

std::optional<std::string> DescribeNotText(const TextSample& s) {
  const std::string_view h = s.head;
  // Magics no CSV file starts with.
  if (StartsWith(h, "\x89PNG\r\n\x1a\n")) return "a PNG image";
  if (StartsWith(h, std::string_view("PK\x03\x04", 4)) || StartsWith(h, std::string_view("PK\x05\x06", 4))) {
    return "a ZIP archive (quiver reads CSV as it is, or compressed by gzip or zstd; unzip it first)";
  }
  if (StartsWith(h, "%PDF-")) return "a PDF document";
  if (StartsWith(h, std::string_view("ARROW1\0\0", 8))) return "an Arrow IPC file (not supported)";
  if (s.compressed && StartsWith(h, "\x1f\x8b")) return "gzip data inside gzip (compressed twice?)";
  if (s.compressed && h.size() >= 262 && h.substr(257, 5) == "ustar") return "a tar archive (compressed; unpack it first)";
  // ORC and Parquet magics could begin a line of text ("ORCID,..."); in the files a byte that is
  // no text follows them (a protobuf or Thrift field header).
  auto binary_at = [&](size_t i) {
    const unsigned char c = i < h.size() ? static_cast<unsigned char>(h[i]) : 'x';
    return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c >= 0x80;
  };
  // An ORC file also ends in "ORC" and the PostScript's length byte.
  const bool orc_tail = s.tail.size() >= 4 && s.tail.substr(s.tail.size() - 4, 3) == "ORC";
  if (StartsWith(h, "ORC") && (binary_at(3) || orc_tail)) return "an ORC file (read it as ORC: name it .orc)";
  if (StartsWith(h, "PAR1") && binary_at(4)) return "a Parquet file (read it as Parquet: name it .parquet)";

  // Binary data: a sample of at least 64 bytes of which more than a fifth are control bytes
  // (other than tab, line breaks and form feeds) or not UTF-8. A few NUL or control bytes in
  // text (NUL-terminated fields of a database dump) are read as CSV, as DuckDB reads them.
  if (!s.check_controls) return std::nullopt;
  size_t controls = 0, even_nul = 0, odd_nul = 0;
  for (size_t i = 0; i < h.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(h[i]);
    controls += (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') || c == 0x7f;
    if (c == 0) (i % 2 ? odd_nul : even_nul)++;
  }
  // ASCII text in UTF-16LE: every second byte NUL, the others not.
  if (h.size() >= 16 && even_nul == 0 && odd_nul * 4 >= h.size()) {
    return "UTF-16 text without a byte order mark, it seems: set the encoding to UTF-16";
  }
  const size_t invalid = s.check_utf8 ? CountInvalidUtf8Bytes(h) : 0;
  if (h.size() < 64 || (controls + invalid) * 5 <= h.size()) return std::nullopt;
  const size_t nul = h.find('\0');
  const std::string what = nul != std::string_view::npos
                               ? fmt::format("NUL byte at byte {}", nul)
                               : fmt::format("{} of the first {} bytes are control bytes or not UTF-8", controls + invalid,
                                             h.size());
  // Formats whose magic could also begin a line of text, named once the sample is binary.
  if (StartsWith(h, "ORC")) return "an ORC file (read it as ORC: name it .orc)";
  if (StartsWith(h, "PAR1")) return "a Parquet file (read it as Parquet: name it .parquet)";
  if (s.tail.size() >= 4 && s.tail.substr(s.tail.size() - 4) == "PAR1") {
    return "a damaged Parquet file (its footer ends in PAR1, but it does not start with PAR1)";
  }
  return fmt::format("binary data ({}); if it is text, set its encoding (UTF-16 or Latin-1)",
                     what);
}

}  // namespace quiver::csv

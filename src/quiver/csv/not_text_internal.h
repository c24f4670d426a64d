// Input that is not text, recognised before any CSV parsing: known file formats by their magic
// bytes, other binary data by a sample with many control bytes or bytes that are not UTF-8. So
// a PNG or a damaged Parquet file is refused in one line instead of parsed.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace quiver::csv {

struct TextSample {
  std::string_view head;    // the first decoded (decompressed) bytes, BOM removed
  std::string_view tail;    // the last bytes of the file as stored, when known (else empty)
  bool compressed = false;  // head came out of gzip or zstd
  bool check_utf8 = true;      // the input is read as UTF-8 (no --encoding, no UTF-16 BOM)
  bool check_controls = true;  // false for UTF-16, where NUL bytes are text
};

// What the input looks like when it is not text ("a PNG image", "binary data (NUL byte at
// byte 12)"), with what to pass if it is text after all; nothing when it may be text.
std::optional<std::string> DescribeNotText(const TextSample& sample);

}  // namespace quiver::csv

// The project's own decoder of raw snappy data (no framing), for Parquet pages and ORC chunks.
// Owned because Debian's libsnappy 1.1.9 was the streamed scan's top cost: its decompressor
// 21.5% plus the libc memmove it calls for each copy 28% of the lineitem scan's profile
// (25% of TPC-H Q6's). Compression is the project's too (snappy_compress_internal.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "quiver/core/status.h"

namespace quiver::compress {

// The uncompressed length a snappy stream's varint header declares (at most 5 bytes, the value
// under 2^32), and in *header_bytes the header's size; false when the header is malformed.
bool SnappyUncompressedLength(std::span<const uint8_t> in, uint32_t* length, size_t* header_bytes);

// Expands `in` into exactly `out`: its header must declare out.size() bytes and its tags must
// fill them, every literal and copy inside the input, the output and the bytes already produced.
// Corrupt with the failing tag's input and output positions otherwise; nothing outside `in` and
// `out` is read or written.
Status SnappyDecompress(std::span<const uint8_t> in, std::span<uint8_t> out);

}  // namespace quiver::compress

// The project's own raw snappy compressor (no framing), for Parquet pages and ORC chunks.
// Owned because Debian's libsnappy 1.1.9 compressor was 18.8% of `quiver convert`'s CPU on the
// lineitem CSV. Its output must equal libsnappy 1.1.9's byte for byte for every input (files are
// compared across versions), so it makes the same decisions: same fragments, hash, table sizes,
// skipping and tags; only how the bytes are moved differs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace quiver::compress {

// The most bytes SnappyCompress writes for n input bytes (libsnappy's MaxCompressedLength).
constexpr size_t SnappyMaxCompressedLength(size_t n) { return 32 + n + n / 6; }

// Compresses `in` (at most 2^32 - 1 bytes) into `out`, which must hold
// SnappyMaxCompressedLength(in.size()) bytes; returns the bytes written.
size_t SnappyCompress(std::span<const uint8_t> in, uint8_t* out);

}  // namespace quiver::compress

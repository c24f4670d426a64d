// An ORC stream's bytes as one contiguous decompressed span: the 3-byte chunk headers parsed,
// compressed chunks expanded (ZLIB as raw deflate through libdeflate, SNAPPY, LZO through
// liblzo2, LZ4 raw blocks, ZSTD) and original chunks copied, into a buffer from the pool.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "quiver/core/buffer.h"
#include "quiver/core/memory_pool.h"
#include "quiver/core/result.h"

namespace quiver::orc {

// True for the codecs this reader decompresses (format::CompressionKind other than BROTLI).
bool IsCompressionSupported(uint32_t kind);

// `stream` decompressed. With NONE, `owner` is shared and no bytes are copied. Errors are
// Corrupt and say which chunk failed and why; a chunk expanding past `block_size` is refused.
Result<std::shared_ptr<Buffer>> DecompressStream(uint32_t kind, uint64_t block_size, std::span<const uint8_t> stream,
                                                 const std::shared_ptr<Buffer>& owner, MemoryPool* pool);

}  // namespace quiver::orc

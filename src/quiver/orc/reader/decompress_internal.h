// An ORC stream's bytes decompressed: the 3-byte chunk headers parsed, compressed chunks
// expanded (ZLIB as raw deflate through libdeflate, SNAPPY, LZO through liblzo2, LZ4 raw
// blocks, ZSTD) and original chunks copied; whole into one buffer (index and dictionary
// streams), or a chunk at a time into a reused window as a decoder advances (ChunkedStream).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "quiver/core/buffer.h"
#include "quiver/core/memory_pool.h"
#include "quiver/core/result.h"
#include "quiver/orc/reader/rle_internal.h"

namespace quiver::orc {

// True for the codecs this reader decompresses (format::CompressionKind other than BROTLI).
bool IsCompressionSupported(uint32_t kind);

// `stream` decompressed. With NONE and no `pad`, `owner` is shared and no bytes are copied.
// `pad` zero bytes follow the result's end in its allocation (a reader may load past an entry's
// end). Errors are Corrupt and say which chunk failed and why; a chunk expanding past
// `block_size` is refused.
Result<std::shared_ptr<Buffer>> DecompressStream(uint32_t kind, uint64_t block_size, std::span<const uint8_t> stream,
                                                 const std::shared_ptr<Buffer>& owner, MemoryPool* pool, int64_t pad = 0);

// A data stream expanded a chunk at a time into one window (the block size plus room for the
// bytes a decoder has not consumed yet), so that decoding a stripe touches a block of memory
// per stream, not the whole decompressed stream. Decoders read through a ByteSource that calls
// Refill when fewer bytes are left than a whole run needs. With NONE the window is the stored
// stream itself.
class ChunkedStream final : public rle::Refiller {
 public:
  // `stream`: the stored bytes (kept alive by `owner`). Allocates the window from `pool`.
  Status Open(uint32_t kind, uint64_t block_size, std::span<const uint8_t> stream, std::shared_ptr<Buffer> owner,
              MemoryPool* pool);
  // A source positioned at the stream's start; it refills from this object, which must outlive it.
  rle::ByteSource Source() { return rle::ByteSource(nullptr, 0, this); }
  // The window and the stream's stored bytes share `owner` (NONE): slices of the source's bytes
  // may be handed out without a copy.
  bool is_stored() const { return kind_ == 0; }
  const std::shared_ptr<Buffer>& owner() const { return owner_; }

  bool Refill(rle::ByteSource* src, int64_t want) override;
  int64_t ExpandInto(uint8_t* out, int64_t n) override;
  const char* error() const override { return error_.empty() ? nullptr : error_.c_str(); }

 private:
  uint32_t kind_ = 0;
  uint64_t block_size_ = 0;
  std::span<const uint8_t> stream_;
  std::shared_ptr<Buffer> owner_;
  MemoryPool* pool_ = nullptr;
  std::shared_ptr<Buffer> window_;
  size_t pos_ = 0;      // next chunk header in stream_
  int64_t chunks_ = 0;  // chunks expanded so far, for messages
  std::string error_;
  // Expands the chunk at pos_ into out (room for `capacity` bytes); -1 on damage.
  int64_t ExpandNext(uint8_t* out, uint64_t capacity);
};

}  // namespace quiver::orc

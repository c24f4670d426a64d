// ORC stream decompression (decompress_internal.h). The output is sized from the chunk headers
// (an original chunk's length, a compressed chunk's block size) before anything is expanded,
// so a stream takes one allocation.
#include <libdeflate.h>
#include <lz4.h>
#include <lzo/lzo1x.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "quiver/compress/snappy_decompress_internal.h"
#include "quiver/orc/format.h"
#include "quiver/orc/reader/decompress_internal.h"

namespace quiver::orc {
namespace {

struct Contexts {
  libdeflate_decompressor* inflate = nullptr;
  ZSTD_DCtx* zstd = nullptr;
  ~Contexts() {
    if (inflate != nullptr) libdeflate_free_decompressor(inflate);
    if (zstd != nullptr) ZSTD_freeDCtx(zstd);
  }
};
Contexts& ThreadContexts() {
  thread_local Contexts c;
  return c;
}

bool LzoReady() {
  static const bool ok = lzo_init() == LZO_E_OK;
  return ok;
}

// Expands one compressed chunk into [out, out + capacity); the bytes written, or -1.
int64_t ExpandChunk(uint32_t kind, const uint8_t* in, size_t n, uint8_t* out, size_t capacity, const char** why) {
  switch (kind) {
    case format::kZlib: {
      Contexts& c = ThreadContexts();
      if (c.inflate == nullptr) c.inflate = libdeflate_alloc_decompressor();
      size_t got = 0;
      auto r = libdeflate_deflate_decompress(c.inflate, in, n, out, capacity, &got);
      if (r == LIBDEFLATE_SUCCESS) return static_cast<int64_t>(got);
      *why = r == LIBDEFLATE_INSUFFICIENT_SPACE ? "expands past the compression block size" : "is not valid deflate data";
      return -1;
    }
    case format::kSnappy: {
      uint32_t len = 0;
      size_t header = 0;
      if (!compress::SnappyUncompressedLength({in, n}, &len, &header)) {
        *why = "is not valid snappy data";
        return -1;
      }
      if (len > capacity) {
        *why = "expands past the compression block size";
        return -1;
      }
      if (!compress::SnappyDecompress({in, n}, {out, len}).ok()) {
        *why = "is not valid snappy data";
        return -1;
      }
      return static_cast<int64_t>(len);
    }
    case format::kLz4: {
      int got = LZ4_decompress_safe(reinterpret_cast<const char*>(in), reinterpret_cast<char*>(out),
                                    static_cast<int>(n), static_cast<int>(std::min<size_t>(capacity, INT32_MAX)));
      if (got < 0) {
        *why = "is not valid LZ4 data (or expands past the compression block size)";
        return -1;
      }
      return got;
    }
    case format::kZstd: {
      Contexts& c = ThreadContexts();
      if (c.zstd == nullptr) c.zstd = ZSTD_createDCtx();
      size_t got = ZSTD_decompressDCtx(c.zstd, out, capacity, in, n);
      if (ZSTD_isError(got)) {
        *why = ZSTD_getErrorName(got);
        return -1;
      }
      return static_cast<int64_t>(got);
    }
    case format::kLzo: {
      if (!LzoReady()) {
        *why = "cannot be expanded: liblzo2 failed to initialise";
        return -1;
      }
      lzo_uint got = capacity;
      int r = lzo1x_decompress_safe(in, n, out, &got, nullptr);
      if (r != LZO_E_OK) {
        *why = r == LZO_E_OUTPUT_OVERRUN ? "expands past the compression block size" : "is not valid LZO data";
        return -1;
      }
      return static_cast<int64_t>(got);
    }
    default:
      *why = "uses a codec quiver does not read";
      return -1;
  }
}

}  // namespace

bool IsCompressionSupported(uint32_t kind) { return kind <= format::kZstd; }

Result<std::shared_ptr<Buffer>> DecompressStream(uint32_t kind, uint64_t block_size, std::span<const uint8_t> stream,
                                                 const std::shared_ptr<Buffer>& owner, MemoryPool* pool, int64_t pad) {
  if (kind == format::kNone) {
    if (pad == 0 && owner != nullptr && stream.data() >= owner->data() &&
        stream.data() + stream.size() <= owner->data() + owner->size()) {
      return Buffer::Slice(owner, stream.data() - owner->data(), static_cast<int64_t>(stream.size()));
    }
    QUIVER_ASSIGN_OR_RETURN(auto copy, Buffer::Allocate(static_cast<int64_t>(stream.size()) + pad, pool));
    if (!stream.empty()) std::memcpy(copy->mutable_data(), stream.data(), stream.size());
    std::memset(copy->mutable_data() + stream.size(), 0, static_cast<size_t>(pad));
    return Buffer::Slice(copy, 0, static_cast<int64_t>(stream.size()));
  }
  // First pass: the chunks' headers, to size the output.
  uint64_t capacity = 0;
  size_t pos = 0;
  int64_t chunks = 0;
  while (pos < stream.size()) {
    if (stream.size() - pos < 3) {
      return Status::Corrupt(fmt::format("compressed stream of {} bytes ends inside a chunk header at byte {}", stream.size(), pos));
    }
    uint32_t h = stream[pos] | stream[pos + 1] << 8 | stream[pos + 2] << 16;
    uint32_t len = h >> 1;
    if (len > stream.size() - pos - 3) {
      return Status::Corrupt(fmt::format("compressed stream chunk {} at byte {} claims {} bytes, past the stream's end ({})",
                                         chunks, pos, len, stream.size()));
    }
    capacity += (h & 1) ? len : block_size;
    pos += 3 + len;
    ++chunks;
  }
  QUIVER_ASSIGN_OR_RETURN(auto out, Buffer::Allocate(static_cast<int64_t>(capacity) + pad, pool));
  uint8_t* dst = out->mutable_data();
  uint64_t written = 0;
  pos = 0;
  chunks = 0;
  while (pos < stream.size()) {
    uint32_t h = stream[pos] | stream[pos + 1] << 8 | stream[pos + 2] << 16;
    uint32_t len = h >> 1;
    const uint8_t* in = stream.data() + pos + 3;
    if (h & 1) {
      std::memcpy(dst + written, in, len);
      written += len;
    } else {
      const char* why = nullptr;
      // Each chunk gets the block size the first pass reserved for it, never a later chunk's room.
      int64_t got = ExpandChunk(kind, in, len, dst + written, std::min<uint64_t>(block_size, capacity - written), &why);
      if (got < 0) {
        return Status::Corrupt(fmt::format("{} chunk {} at byte {} of a compressed stream {}", format::CompressionName(kind),
                                           chunks, pos, why));
      }
      written += static_cast<uint64_t>(got);
    }
    pos += 3 + len;
    ++chunks;
  }
  std::memset(dst + written, 0, static_cast<size_t>(pad));
  return Buffer::Slice(out, 0, static_cast<int64_t>(written));
}

}  // namespace quiver::orc

namespace quiver::orc {

Status ChunkedStream::Open(uint32_t kind, uint64_t block_size, std::span<const uint8_t> stream, std::shared_ptr<Buffer> owner,
                           MemoryPool* pool) {
  kind_ = kind;
  block_size_ = block_size;
  stream_ = stream;
  owner_ = std::move(owner);
  pool_ = pool;
  pos_ = 0;
  chunks_ = 0;
  error_.clear();
  if (kind_ == format::kNone || stream_.empty()) return Status::OK();
  // The headers first: a damaged one fails here, and the window is sized for the largest chunk
  // (an original chunk may exceed the block size) plus the bytes a decoder carries over.
  uint64_t largest = 0;
  size_t pos = 0;
  for (int64_t chunk = 0; pos < stream_.size(); ++chunk) {
    if (stream_.size() - pos < 3) {
      return Status::Corrupt(fmt::format("compressed stream of {} bytes ends inside a chunk header at byte {}", stream_.size(), pos));
    }
    const uint32_t h = stream_[pos] | stream_[pos + 1] << 8 | stream_[pos + 2] << 16;
    const uint32_t len = h >> 1;
    if (len > stream_.size() - pos - 3) {
      return Status::Corrupt(fmt::format("compressed stream chunk {} at byte {} claims {} bytes, past the stream's end ({})",
                                         chunk, pos, len, stream_.size()));
    }
    largest = std::max<uint64_t>(largest, (h & 1) ? len : block_size_);
    pos += 3 + len;
  }
  QUIVER_ASSIGN_OR_RETURN(window_, Buffer::Allocate(static_cast<int64_t>(largest) + rle::kMaxRunBytes, pool_));
  return Status::OK();
}

bool ChunkedStream::Refill(rle::ByteSource* src, int64_t want) {
  if (kind_ == format::kNone) {
    // The whole stream is one window, handed out at the first call.
    if (pos_ == 0 && !stream_.empty()) src->Reset(stream_.data(), static_cast<int64_t>(stream_.size()));
    pos_ = stream_.size();
    return true;
  }
  if (pos_ >= stream_.size()) return true;
  want = std::min(want, rle::kMaxRunBytes);
  const int64_t left = src->remaining();
  uint8_t* w = window_->mutable_data();
  if (left > 0 && src->pos() != w) std::memmove(w, src->pos(), static_cast<size_t>(left));
  int64_t have = left;
  while (have < want && pos_ < stream_.size()) {
    const int64_t got = ExpandNext(w + have, static_cast<uint64_t>(window_->size() - have));
    if (got < 0) return false;
    have += got;
  }
  src->Reset(w, have);
  return true;
}

int64_t ChunkedStream::ExpandNext(uint8_t* out, uint64_t capacity) {
  // Open checked every header, and the callers leave room for the chunk.
  const uint32_t h = stream_[pos_] | stream_[pos_ + 1] << 8 | stream_[pos_ + 2] << 16;
  const uint32_t len = h >> 1;
  const uint8_t* in = stream_.data() + pos_ + 3;
  int64_t got = len;
  if (h & 1) {
    std::memcpy(out, in, len);
  } else {
    const char* why = nullptr;
    got = ExpandChunk(kind_, in, len, out, std::min<uint64_t>(block_size_, capacity), &why);
    if (got < 0) {
      error_ = fmt::format("{} chunk {} at byte {} of a compressed stream {}", format::CompressionName(kind_), chunks_, pos_, why);
      return -1;
    }
  }
  pos_ += 3 + len;
  ++chunks_;
  return got;
}

int64_t ChunkedStream::ExpandInto(uint8_t* out, int64_t n) {
  if (kind_ == format::kNone || pos_ >= stream_.size()) return 0;
  const uint32_t h = stream_[pos_] | stream_[pos_ + 1] << 8 | stream_[pos_ + 2] << 16;
  const uint64_t most = (h & 1) ? (h >> 1) : block_size_;
  if (most > static_cast<uint64_t>(n)) return 0;
  return ExpandNext(out, most);
}

}  // namespace quiver::orc

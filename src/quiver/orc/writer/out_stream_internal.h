// One ORC stream as it is written: bytes gathered into chunks of the compression block size,
// each compressed (ZLIB raw deflate, SNAPPY, LZ4 block, ZSTD frame) behind ORC's 3-byte chunk
// header, or kept original when compression does not make it smaller.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "quiver/core/buffer.h"
#include "quiver/core/memory_pool.h"
#include "quiver/core/status.h"

namespace quiver::orc::writer {

class OutStream {
 public:
  // `compression`: a format::CompressionKind (NONE writes the bytes with no chunk headers).
  // `level`: the codec's level, or compress::kDefaultCompressionLevel.
  OutStream(uint32_t compression, int level, int64_t block_size, MemoryPool* pool = default_memory_pool());

  // Hot: no Status per call. A failure (allocation, a codec) is kept, later writes are dropped,
  // and Flush or status() reports it.
  void Write(const void* data, int64_t n) {
    if (pending_.size() + n <= limit_) [[likely]] {
      pending_.UnsafeAppend(data, n);
      return;
    }
    WriteSlow(static_cast<const uint8_t*>(data), n);
  }
  void WriteByte(uint8_t b) { Write(&b, 1); }
  const Status& status() const { return status_; }

  // Where the next byte goes, as a row index records it: for a compressed stream the offset of
  // the chunk it will be in and its offset within that chunk's uncompressed bytes; else the
  // byte offset.
  void RecordPosition(std::vector<uint64_t>* positions) const;
  // Ends the last chunk.
  Status Flush();
  // The stream's bytes (after Flush).
  const uint8_t* data() const { return output_.data(); }
  int64_t size() const { return output_.size(); }
  // Bytes written before compression, for the caller's stripe sizing.
  int64_t raw_bytes() const { return raw_bytes_ + pending_.size(); }
  // Empties the stream for the next stripe, keeping its buffers.
  void Reset() {
    output_.Clear();
    pending_.Clear();
    raw_bytes_ = 0;
    status_ = Status::OK();
  }

 private:
  void WriteSlow(const uint8_t* data, int64_t n);
  Status EmitChunk();

  uint32_t compression_;
  int level_;
  int64_t block_size_;
  int64_t limit_ = 0;  // block_size_ once pending_ holds a whole block (the fast path's bound)
  BufferBuilder pending_;  // the current chunk's uncompressed bytes (capacity: block size)
  BufferBuilder output_;
  int64_t raw_bytes_ = 0;  // uncompressed bytes of the chunks emitted
  Status status_;
};

// Appends `input` compressed by `compression` (never NONE) to `out`: raw deflate for ZLIB, a raw
// snappy or LZ4 block, one zstd frame.
Status CompressChunk(uint32_t compression, int level, const uint8_t* input, int64_t n, BufferBuilder* out);

}  // namespace quiver::orc::writer
